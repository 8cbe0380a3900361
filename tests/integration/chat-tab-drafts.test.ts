// A draft goes with the tab that wrote it, however the tab goes — closed (its chat input withdraws
// it on pagehide) or killed outright (no pagehide, no unmount: the session learns it from the tab's
// liveness lock only) — while a draft another tab of the room wrote stays. Driven as the SharedWorker
// drives it: one session (createSession) with a connection per tab (TabConnection, as each
// tab's port gets one), the tabs opening the room, and a tab going as its Web Lock tells the session
// (`tabGoes`); against a real Prosody behind the real gateway, Bob reading in a session of his own.
import { randomUUID } from 'node:crypto';
import type { Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIVENESS } from '../../src/protocol/clientDefaults';
import type { SessionApi } from '../../src/protocol/commands';
import { CHAT } from '../../src/protocol/constants';
import type { Peer } from '../../src/protocol/entities';
import type { Clock } from '../../src/common/clock';
import { ManualClock } from '../support/ManualClock';
import { TabConnection } from '../../src/shared-worker/TabConnection';
import { useParley } from '../support/parley';
import { connected, flushed, joinedBy, joinedRoom, peerNamed, useSessions, waitFor, type TestSession } from '../support/sessions';

const parley = useParley();
const openSession = useSessions();

type Alice = TestSession<ManualClock>;

/** One of Alice's tabs: its own connection to her session, attached under its id, holding the room. */
interface Tab {
  id: string;
  api: SessionApi;
}

/** A tab of Alice's attaches to her session, as SessionBridge does over the tab's own port. */
function attachTab(alice: Alice, label: string): Tab {
  const id = `${alice.tabId}-${label}`;
  const api = new TabConnection(alice.tabs);
  api.attach(id, { state: () => {}, event: () => {}, jingle: () => {} });
  return { id, api };
}

/**
 * Alice (fake time: the real-time text schedule) has the room open in two tabs — the room's tab and
 * its pop-out chat — and Bob (a session of his own) is in it too. Alice's liveness check waits longer
 * than any advance here: fake time jumps past the real server's answers.
 */
async function aliceInTwoTabs(options: { realTimeText?: boolean } = {}) {
  const alice: Alice = openSession({ server: parley(), displayName: 'Alice', clock: new ManualClock(), liveness: { ...LIVENESS, quietMs: 10 * CHAT.pausedAfterMs } });
  const bob = openSession({ server: parley(), displayName: 'Bob' });
  await alice.ready;
  await alice.preferences.setPreferences({ realTimeText: options.realTimeText ?? true });
  const roomTab = attachTab(alice, 'room');
  const popout = attachTab(alice, 'popout');
  await connected(alice);
  const name = `tab-drafts-${randomUUID().slice(0, 8)}`;
  const roomId = await roomTab.api.openRoom(roomTab.id, name, { autoJoinCall: false });
  expect(await popout.api.openRoom(popout.id, name, { autoJoinCall: false })).toBe(roomId);
  const room = await joinedRoom(alice, roomId);
  await joinedBy(bob, name, { autoJoinCall: false });
  const aliceAddress = (await peerNamed(bob, room.address, 'Alice')).address;
  return { alice, bob, roomTab, popout, roomId, roomAddress: room.address, aliceAddress };
}

/** The tab's chat input gives the draft; Alice's clock runs until its real-time text is due, and Bob sees it. */
async function typedIn(alice: Alice, bob: TestSession<Clock>, tab: Tab, roomAddress: string, aliceAddress: string, draft: string): Promise<void> {
  await tab.api.chat.updateRealTimeText(roomAddress, draft);
  await alice.clock.advance(CHAT.rttIntervalMs);
  await waitFor(bob, `Alice's '${draft}'`, (state) => state.peers[aliceAddress]?.realTimeText === draft);
}

function chatStatesSent(who: TestSession<Clock>): Array<string | undefined> {
  return who.sentMessages.filter((message) => message.chatState && !message.body).map((message) => message.chatState);
}

function rttEventsSent(who: TestSession<Clock>): Array<Stanzas.RTT['event']> {
  return who.sentMessages.flatMap((message) => (message.rtt ? [message.rtt.event] : []));
}

function aliceAtBob(bob: TestSession<Clock>, aliceAddress: string): Peer | undefined {
  return bob.session.store.state.peers[aliceAddress];
}

/** Bob sees Alice not typing: her draft gone from his screen, her chat state back to active (XEP-0085). */
function draftGoneAtBob(bob: TestSession<Clock>, aliceAddress: string): Promise<Peer> {
  return waitFor(bob, "Alice's draft gone and her chat state active", (state) => {
    const peer = state.peers[aliceAddress];
    return peer?.realTimeText === '' && peer.chatState === 'active' ? peer : undefined;
  });
}

describe('A draft goes with the tab that wrote it, however the tab goes; a draft another tab of the room wrote stays', () => {
  it('the pop-out that wrote the draft is killed (no pagehide): Bob sees the draft go and Alice back to active, once; her room tab keeps the room', async () => {
    const { alice, bob, roomTab, popout, roomId, roomAddress, aliceAddress } = await aliceInTwoTabs();
    await typedIn(alice, bob, popout, roomAddress, aliceAddress, 'half a thought');
    expect(aliceAtBob(bob, aliceAddress)?.chatState).toBe('composing');

    // Killed: its input says nothing; the session only learns that its lock was let go.
    alice.tabGoes(popout.id);
    await draftGoneAtBob(bob, aliceAddress);
    await alice.clock.advance(CHAT.pausedAfterMs);
    await flushed(alice);
    expect(rttEventsSent(alice)).toEqual(['new', 'cancel']);
    expect(chatStatesSent(alice)).toEqual(['composing', 'active']);
    expect(alice.session.store.state.rooms[roomId]?.roomState).toBe('joined');
    expect(aliceAtBob(bob, aliceAddress)).toBeDefined();

    // The room's tab writes on: a new real-time message, typing again.
    await typedIn(alice, bob, roomTab, roomAddress, aliceAddress, 'as I was saying');
    expect(rttEventsSent(alice)).toEqual(['new', 'cancel', 'new']);
    expect(aliceAtBob(bob, aliceAddress)?.chatState).toBe('composing');
  });

  it('both tabs typed, the pop-out last: the room tab killed leaves the pop-out’s draft on Bob’s screen, and nothing is sent', async () => {
    const { alice, bob, roomTab, popout, roomAddress, aliceAddress } = await aliceInTwoTabs();
    await typedIn(alice, bob, roomTab, roomAddress, aliceAddress, 'from the room tab');
    await typedIn(alice, bob, popout, roomAddress, aliceAddress, 'from the pop-out');

    alice.tabGoes(roomTab.id);
    await alice.clock.advance(CHAT.rttIntervalMs);
    await flushed(alice);
    expect(rttEventsSent(alice)).not.toContain('cancel');
    expect(chatStatesSent(alice)).toEqual(['composing']);
    // What Alice sent before the ping has reached Bob once the room has relayed Bob's own ping.
    await flushed(bob);
    expect(aliceAtBob(bob, aliceAddress)).toMatchObject({ realTimeText: 'from the pop-out', chatState: 'composing' });

    // Still the pop-out's: it goes when the pop-out goes.
    await popout.api.chat.updateRealTimeText(roomAddress, '');
    await draftGoneAtBob(bob, aliceAddress);
  });

  it('the tab that wrote the draft closes (its input withdraws it on pagehide, then its lock goes): withdrawn once; the same words from the other tab are that tab’s', async () => {
    const { alice, bob, roomTab, popout, roomAddress, aliceAddress } = await aliceInTwoTabs();
    await typedIn(alice, bob, popout, roomAddress, aliceAddress, 'the same words');
    // The room's tab shows the same text (nothing new for the room): the draft is its own now.
    await roomTab.api.chat.updateRealTimeText(roomAddress, 'the same words');
    // The pop-out closes: its withdrawal does not take back what the room's tab gives, nor does its going.
    await popout.api.chat.withdrawDraft(roomAddress, 'the same words');
    alice.tabGoes(popout.id);
    await flushed(alice);
    expect(rttEventsSent(alice)).toEqual(['new']);
    expect(chatStatesSent(alice)).toEqual(['composing']);

    // The room's tab closes: pagehide withdraws its draft, then its lock is let go: nothing goes twice.
    await roomTab.api.chat.withdrawDraft(roomAddress, 'the same words');
    await draftGoneAtBob(bob, aliceAddress);
    alice.tabGoes(roomTab.id);
    await flushed(alice);
    expect(rttEventsSent(alice)).toEqual(['new', 'cancel']);
    expect(chatStatesSent(alice)).toEqual(['composing', 'active']);
  });

  it('real-time text off: the killed pop-out’s typing state alone (paused by now) goes back to active', async () => {
    const { alice, bob, popout, roomAddress, aliceAddress } = await aliceInTwoTabs({ realTimeText: false });
    await popout.api.chat.updateRealTimeText(roomAddress, 'kept to myself');
    await waitFor(bob, 'Alice typing', (state) => state.peers[aliceAddress]?.chatState === 'composing');
    await alice.clock.advance(CHAT.pausedAfterMs);
    await waitFor(bob, 'Alice paused', (state) => state.peers[aliceAddress]?.chatState === 'paused');

    alice.tabGoes(popout.id);
    await draftGoneAtBob(bob, aliceAddress);
    expect(chatStatesSent(alice)).toEqual(['composing', 'paused', 'active']);
    expect(rttEventsSent(alice)).toEqual([]);
  });
});
