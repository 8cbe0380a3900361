import { describe, expect, it } from 'vitest';
import type { JingleIq } from '../../src/protocol/commands';
import type { Peer } from '../../src/protocol/entities';
import { createSession } from '../../src/shared-worker/createSession';
import { MemoryIdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { MemoryPreferencesStorage } from '../../src/shared-worker/preferences/PreferencesStorage';
import { ManualClock } from '../support/ManualClock';
import { PEER_DEFAULTS } from '../support/peers';

const ROOM = 'room@rooms.parley.test';
const CAROL = `${ROOM}/carol`;

describe('Tabs: a Jingle request reaches a tab after the state changes that came before it (a peer leaves the call, then ends its session)', () => {
  it('the presence’s change is delivered before the session-terminate that followed it in the same turn', async () => {
    const { session, tabs } = createSession({
      clock: new ManualClock(),
      // A named fake: a config service that never answers (nothing here needs the server).
      fetch: () => new Promise<Response>(() => {}),
      log: { info: () => {}, error: () => {} },
      configUrl: 'http://parley.test/api/config',
      preferencesStorage: new MemoryPreferencesStorage(),
      identityStorage: new MemoryIdentityStorage(),
      tabGone: () => new Promise<void>(() => {}),
    });
    const received: string[] = [];
    tabs.attach('tab-1', {
      state: (message) => received.push(message.type === 'snapshot' ? 'snapshot' : `patches: ${message.patches.map((patch) => patch.kind).join(', ')}`),
      event: () => {},
      jingle: (_roomAddress, iq) => received.push(`jingle ${iq.jingle.action}`),
    });
    await Promise.resolve();
    received.length = 0;

    // As two stanzas of one websocket frame are handled: Carol's presence, then her session-terminate.
    const carol = { ...PEER_DEFAULTS, address: CAROL, roomAddress: ROOM, id: 'carol', displayName: 'Carol', isSelf: false, joinedCall: false, requestingMedia: 'none' } as Peer;
    session.store.upsert('peers', CAROL, carol);
    const terminate = { type: 'set', from: CAROL, jingle: { action: 'session-terminate', sid: 's1' } } as unknown as JingleIq;
    tabs.deliverJingle('tab-1', ROOM, terminate);
    await Promise.resolve();

    expect(received).toEqual(['patches: upsert', 'jingle session-terminate']);
    session.disconnect();
  });
});
