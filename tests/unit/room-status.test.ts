import { createStore, Provider } from 'jotai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ParleyTab } from '../../src/main-thread/ParleyTab';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import { LIMITS } from '../../src/protocol/constants';
import type { Room } from '../../src/protocol/entities';
import { initialSessionState, type ConnectionRecord } from '../../src/protocol/session-state';
import { RoomOpenFailure } from '../../src/ui/RoomOpenFailure';
import { RoomPasswordPrompt } from '../../src/ui/RoomPasswordPrompt';
import { RoomStatus } from '../../src/ui/RoomStatus';
import { TabContext } from '../../src/ui/tabContext';
import { room } from './callTab-fakes';

/** The ConnectionNotice reads the tab's actions ("Retry now"); rendering to markup calls none. */
const tab = { actions: {} } as ParleyTab;

/** RoomStatus as the room page shows it while the session's connection is `connection`. */
function statusWith(connection: Partial<ConnectionRecord>, shown: Room | undefined): string {
  const store = createStore();
  const state = initialSessionState();
  store.set(sessionStateAtom, { ...state, connection: { ...state.connection, ...connection } });
  return renderToStaticMarkup(
    createElement(Provider, { store }, createElement(TabContext, { value: tab }, createElement(RoomStatus, { roomName: 'standup', room: shown, openError: undefined, ended: false }))),
  );
}

const joining = room({ roomState: 'joining', joined: false, joinedAt: undefined });

describe('A room opened with no connection says why it waits, and offers "Retry now", instead of spinning with no word (issue 13: plain words)', () => {
  it('before the session has the room, and while it joins: the connection’s loss, its reconnect and "Retry now"', () => {
    for (const shown of [undefined, joining]) {
      const status = statusWith({ state: 'failed', wasConnected: true, disconnectedSince: Date.UTC(2026, 0, 5, 9, 30), reconnectAttempts: 2, nextAttemptAt: Date.now() + 3_000 }, shown);
      expect(status).toContain('Connection lost at');
      expect(status).toContain('Reconnecting… (attempt 2)');
      expect(status).toContain('Retry now');
      expect(status).not.toContain('Joining the room…');
    }
  });

  it('with no session started yet: the chat server not reached, never a connection lost, and "Retry now"', () => {
    const status = statusWith({ state: 'failed', disconnectedSince: Date.UTC(2026, 0, 5, 9, 30), reconnectAttempts: 2, nextAttemptAt: Date.now() + 3_000 }, undefined);
    expect(status).toContain('Can’t reach the chat server. Trying again… (attempt 2)');
    expect(status).not.toContain('Connection lost');
    expect(status).toContain('Retry now');
  });

  it('a sign-in the chat server refuses: says so, with "Retry now" and "Reload"', () => {
    const status = statusWith({ state: 'disconnected', loginRefused: true, disconnectedSince: Date.UTC(2026, 0, 5, 9, 30), reconnectAttempts: 4, nextAttemptAt: Date.now() + 60_000 }, joining);
    expect(status).toContain('The chat server refuses to sign you in.');
    expect(status).toContain('Retry now');
    expect(status).toContain('Reload');
  });

  it('offline from the start: says so, with "Retry now"', () => {
    expect(statusWith({ state: 'disconnected', offline: true }, undefined)).toContain('Offline — we’ll reconnect when you’re back.');
  });

  it('during the first connection’s attempt, or once connected: "Joining the room…" alone', () => {
    for (const connection of [{ state: 'connecting' as const }, { state: 'connected' as const }]) {
      for (const shown of [undefined, joining]) {
        const status = statusWith(connection, shown);
        expect(status).toContain('Joining the room…');
        expect(status).not.toContain('Retry now');
      }
    }
  });
});

describe('A room page whose name cannot name a room says why in the home page’s words, not the session’s (issue 12: errors in plain words)', () => {
  it('a name with no letters or digits, and one too long: the home page’s sentence, no developer text', () => {
    expect(renderToStaticMarkup(createElement(RoomOpenFailure, { roomName: '!!!', error: 'room name has no letters or digits' }))).toBe(
      '<p>Could not open the room. That room name has no letters or digits that can name a room.</p>',
    );
    const tooLong = `A room name has at most ${LIMITS.roomNameLength} characters; this one has ${LIMITS.roomNameLength + 1}.`;
    expect(renderToStaticMarkup(createElement(RoomOpenFailure, { roomName: 'x'.repeat(LIMITS.roomNameLength + 1), error: tooLong }))).toBe(`<p>Could not open the room. ${tooLong}</p>`);
  });

  it('any other failure keeps the session’s text as a detail', () => {
    expect(renderToStaticMarkup(createElement(RoomOpenFailure, { roomName: 'standup', error: 'Room name not provided.' }))).toBe(
      '<p>Could not open the room. <span class="detail">(Room name not provided.)</span></p>',
    );
  });
});

describe('A rejoin refused for want of a password says the room was locked while you were away, not to enter a password you were never given (SPEC §4 password-required)', () => {
  const prompt = (shown: Room): string => renderToStaticMarkup(createElement(TabContext, { value: tab }, createElement(RoomPasswordPrompt, { room: shown })));
  const refused = { roomState: 'password-required', joined: false, passwordRequired: true } as const;

  it('a room we had joined (joinedAt kept), refused with no password of ours: ask the owner', () => {
    const status = prompt(room({ ...refused, joinedAt: 1_000, providedPassword: undefined }));
    expect(status).toContain('The room was locked while you were away — ask the owner for the password.');
    expect(status).not.toContain('Enter the room password to join.');
  });

  it('a first join: enter the password; a password the room refused: check it', () => {
    expect(prompt(room({ ...refused, joinedAt: undefined, providedPassword: undefined }))).toContain('Enter the room password to join.');
    expect(prompt(room({ ...refused, joinedAt: undefined, providedPassword: 'wrong' }))).toContain('That password did not open the room.');
  });
});

describe('A failed join says in plain words what to do, with "Try again" (SPEC §4 failed; issue 12: plain words)', () => {
  const failed = { roomState: 'failed', joined: false, joinedAt: undefined } as const;

  it('a first join refused as full: try again in a while, and "Try again"', () => {
    const status = statusWith({ state: 'connected' }, room({ ...failed, roomFull: true, error: 'join refused: service-unavailable' }));
    expect(status).toContain('The room is full. Try again in a while.');
    expect(status).toContain('Try again</button>');
  });

  it('a first join the room refused otherwise: the room did not let you in (no word of your connection), and "Try again"', () => {
    const status = statusWith({ state: 'connected' }, room({ ...failed, error: 'join refused: not-allowed (Room creation is restricted)' }));
    expect(status).toContain('The room did not let you in. Try again, or ask its owner.');
    expect(status).not.toContain('connection');
    expect(status).toContain('Try again</button>');
  });

  it('a first join refused as members only (a plain XMPP owner’s room): ask its owner to add you', () => {
    const status = statusWith({ state: 'connected' }, room({ ...failed, error: 'join refused: registration-required' }));
    expect(status).toContain('This room lets in its members only. Ask its owner to add you, then try again.');
  });

  it('a first join the room never answered, or whose address could not be looked up: check the connection and try again', () => {
    for (const error of ['Room r@muc.example did not answer the join within 15 s', 'Could not fetch room config']) {
      const status = statusWith({ state: 'connected' }, room({ ...failed, error }));
      expect(status).toContain('Could not join the room. Check your connection and try again.');
      expect(status).toContain('Try again</button>');
    }
  });

  it('a rejoin of a room we were in that failed: the session is trying again by itself, and "Try again now" need not wait', () => {
    const full = statusWith({ state: 'connected' }, room({ ...failed, joinedAt: 1_000, roomFull: true }));
    expect(full).toContain('The room is full, so you are out of it for now. Trying again…');
    expect(full).toContain('Try again now</button>');
    const unanswered = statusWith({ state: 'connected' }, room({ ...failed, joinedAt: 1_000, error: 'Room room@rooms.example did not answer the join within 15 s' }));
    expect(unanswered).toContain('You are out of the room for now. Trying to get back in…');
    expect(unanswered).toContain('Try again now</button>');
  });
});

describe('Moved to another room by a destroy, the banner says why you are in it whatever that room’s state (SPEC §4 destroyed room)', () => {
  const movedFrom = { fromAddress: 'standup@rooms.example', fromName: 'standup', reason: undefined, byYou: false };

  it('refused there (failed), waiting for its start, or waiting for the connection: the owner closed the room you were in', () => {
    for (const shown of [
      room({ roomState: 'failed', joined: false, joinedAt: undefined, movedFrom }),
      room({ roomState: 'failed', joined: false, joinedAt: undefined, roomFull: true, movedFrom }),
      room({ roomState: 'waiting', joined: false, joinedAt: undefined, roomNotStarted: true, movedFrom }),
      room({ roomState: 'interrupted', joined: false, joinedAt: undefined, movedFrom }),
    ]) {
      expect(statusWith({ state: 'connected' }, shown)).toContain('The owner closed standup');
    }
  });

  it('joined or joining there: says so once', () => {
    for (const roomState of ['joined', 'joining'] as const) {
      const status = statusWith({ state: 'connected' }, room({ roomState, joined: roomState === 'joined', movedFrom }));
      expect(status.split('The owner closed standup').length).toBe(2);
    }
  });
});
