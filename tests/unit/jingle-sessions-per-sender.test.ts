// Incoming Jingle sessions are bounded per sender: each one the call's tab accepts costs it an
// RTCPeerConnection, so an occupant sending session-initiate after session-initiate is refused past
// LIMITS.jingleSessionsPerSender, while the sessions a client legitimately runs, and replaces, go on.
// The session's JingleRouter on a real StateStore, with a recording stand-in for the XMPP client.
import type { Agent, Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { JingleIq } from '../../src/protocol/commands';
import { LIMITS, UNCLAIMED_CALL_HOLD } from '../../src/protocol/constants';
import { JingleRouter } from '../../src/shared-worker/jingle/JingleRouter';
import { StateStore } from '../../src/shared-worker/StateStore';
import { newCallRecord } from '../../src/shared-worker/rooms/callRecord';
import { ManualClock } from '../support/ManualClock';
import { BOB, peer, room, ROOM, SELF } from './callTab-fakes';
import { testSessionContext } from '../support/testSessionContext';

const MALLORY = `${ROOM}/mallory`;
const TAB = 'tab-1';
const LIMIT = LIMITS.jingleSessionsPerSender;

let requestCount = 0;
function request(from: string, action: Stanzas.Jingle['action'], sid: string): JingleIq {
  requestCount += 1;
  return { type: 'set', id: `request-${requestCount}`, from, to: SELF, jingle: { action, sid } };
}

/** Alice's session in a room's call with Bob and Mallory; `claimed`: her call's tab runs it. */
function aliceInACall({ claimed }: { claimed: boolean }) {
  const store = new StateStore();
  const clock = new ManualClock();
  store.upsert('rooms', 'room-1', room());
  store.upsert('calls', ROOM, { ...newCallRecord(ROOM), joined: true, joinedAt: 1 });
  for (const address of [BOB, MALLORY]) store.upsert('peers', address, peer(address));
  let receive: (iq: JingleIq) => void = () => {};
  /** What the session answered each request with, and the requests it sent. */
  const results: string[] = [];
  const errors: Array<{ id: string | undefined; error: Stanzas.StanzaError | undefined }> = [];
  const terminates: string[] = [];
  const client = {
    removeAllListeners: () => {},
    on: (event: string, listener: (iq: JingleIq) => void) => {
      if (event === 'iq:set:jingle') receive = listener;
    },
    sendIQResult: (original: Stanzas.IQ) => results.push(original.id ?? ''),
    sendIQError: (original: Stanzas.IQ, reply: Partial<Stanzas.IQ>) => errors.push({ id: original.id, error: reply.error }),
    sendIQ: async (iq: JingleIq) => {
      if (iq.jingle.action === 'session-terminate') terminates.push(iq.jingle.sid);
      return { type: 'result' };
    },
  } as unknown as Agent;
  const context = testSessionContext({ store, clock, client });
  /** The requests the call's tab was handed. */
  const delivered: JingleIq[] = [];
  const router = new JingleRouter(context, (_tabId, _roomAddress, iq) => {
    delivered.push(iq);
    return true;
  });
  router.attachClient(client);
  if (claimed) void router.claimCall(TAB, ROOM);
  /** Sends `count` session-initiates from `from`, sids `${prefix}-1`…; returns their requests. */
  const initiates = (from: string, prefix: string, count: number): JingleIq[] =>
    Array.from({ length: count }, (_, index) => {
      const iq = request(from, 'session-initiate', `${prefix}-${index + 1}`);
      receive(iq);
      return iq;
    });
  const deliveredSids = (from: string): string[] => delivered.filter((iq) => iq.from === from && iq.jingle.action === 'session-initiate').map((iq) => iq.jingle.sid);
  return { store, clock, router, receive, initiates, delivered, deliveredSids, results, errors, terminates };
}

const RESOURCE_CONSTRAINT = { type: 'wait', condition: 'resource-constraint' };

describe(`No sender begins more than LIMITS.jingleSessionsPerSender (${LIMIT}) Jingle sessions with us at once: the rest are refused with resource-constraint`, () => {
  it('hands a sender’s session-initiates to the call’s tab up to the limit, and answers the next with a wait / resource-constraint error, never reaching the tab', () => {
    const { initiates, deliveredSids, errors, results } = aliceInACall({ claimed: true });
    initiates(MALLORY, 'flood', LIMIT);
    expect(deliveredSids(MALLORY)).toHaveLength(LIMIT);
    expect(errors).toEqual([]);

    const [over] = initiates(MALLORY, 'over', 1);
    expect(deliveredSids(MALLORY)).toHaveLength(LIMIT);
    expect(errors).toEqual([{ id: over?.id, error: expect.objectContaining(RESOURCE_CONSTRAINT) }]);
    expect(results).not.toContain(over?.id);
  });

  it('a session that ends, by the sender’s session-terminate or the tab’s, frees its place: its replacement is delivered', async () => {
    const { router, receive, initiates, deliveredSids, errors } = aliceInACall({ claimed: true });
    initiates(MALLORY, 'camera', LIMIT);

    receive(request(MALLORY, 'session-terminate', 'camera-1'));
    initiates(MALLORY, 'replacement', 1);
    await router.send({ type: 'set', to: MALLORY, jingle: { action: 'session-terminate', sid: 'camera-2' } });
    initiates(MALLORY, 'after-ours', 1);
    expect(deliveredSids(MALLORY)).toEqual([...Array.from({ length: LIMIT }, (_, index) => `camera-${index + 1}`), 'replacement-1', 'after-ours-1']);
    expect(errors).toEqual([]);
  });

  it('a session-initiate under a sid already begun (a relay consumer made anew under its id, a request routed again) takes no second place', () => {
    const { receive, initiates, deliveredSids, errors } = aliceInACall({ claimed: true });
    initiates(MALLORY, 'screen', LIMIT);
    receive(request(MALLORY, 'session-initiate', 'screen-1'));
    expect(deliveredSids(MALLORY)).toHaveLength(LIMIT + 1);
    expect(errors).toEqual([]);
  });

  it('each sender has a limit of their own, and one who leaves the room takes theirs with them', async () => {
    const { store, initiates, deliveredSids, errors } = aliceInACall({ claimed: true });
    initiates(MALLORY, 'flood', LIMIT);
    initiates(BOB, 'camera', 2);
    expect(deliveredSids(BOB)).toEqual(['camera-1', 'camera-2']);

    store.remove('peers', MALLORY);
    await Promise.resolve();
    initiates(MALLORY, 'back', 1);
    expect(deliveredSids(MALLORY)).toHaveLength(LIMIT + 1);
    expect(errors).toEqual([]);
  });

  it('requests held for the tab that will claim the call count too, and those declined when none did free their places', async () => {
    const { clock, initiates, deliveredSids, errors, terminates } = aliceInACall({ claimed: false });
    expect(UNCLAIMED_CALL_HOLD.sessionsPerRoom).toBeGreaterThan(LIMIT);
    initiates(MALLORY, 'held', LIMIT + 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error).toMatchObject(RESOURCE_CONSTRAINT);

    await clock.advance(UNCLAIMED_CALL_HOLD.timeoutMs);
    expect(terminates).toHaveLength(LIMIT);
    initiates(MALLORY, 'anew', 1);
    expect(errors).toHaveLength(1);
    expect(deliveredSids(MALLORY)).toEqual([]);
  });
});

describe(`Requests for a call no tab has claimed yet wait for the claim by session: ${UNCLAIMED_CALL_HOLD.sessionsPerRoom} sessions per room, ${UNCLAIMED_CALL_HOLD.requestsPerSession} requests each; past either they are refused with resource-constraint, never acknowledged and dropped`, () => {
  /** A session's offer and the candidates its sender trickles after it, one transport-info each (SimpleWebRTC 1.30.3). */
  function offerWithCandidates(receive: (iq: JingleIq) => void, from: string, sid: string, candidates: number): JingleIq[] {
    const requests = [request(from, 'session-initiate', sid), ...Array.from({ length: candidates }, () => request(from, 'transport-info', sid))];
    requests.forEach(receive);
    return requests;
  }

  it('five people’s offers with their trickled candidates, more than 32 requests in all, all reach the tab that claims the call, in the order they came', async () => {
    const { router, receive, delivered, results, errors } = aliceInACall({ claimed: false });
    const sent = [1, 2, 3, 4, 5].flatMap((person) => offerWithCandidates(receive, `${ROOM}/person-${person}`, `camera-${person}`, 8));
    expect(sent.length).toBeGreaterThan(32);

    await router.claimCall(TAB, ROOM);
    expect(delivered.map((iq) => iq.id)).toEqual(sent.map((iq) => iq.id));
    expect(results).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a session’s requests past its bound are refused with a wait / resource-constraint error, never answered with a result; the ones held reach the tab in order', async () => {
    const { router, receive, delivered, results, errors } = aliceInACall({ claimed: false });
    const sent = offerWithCandidates(receive, MALLORY, 'chatty', UNCLAIMED_CALL_HOLD.requestsPerSession);
    const held = sent.slice(0, UNCLAIMED_CALL_HOLD.requestsPerSession);
    const past = sent.slice(UNCLAIMED_CALL_HOLD.requestsPerSession);

    await router.claimCall(TAB, ROOM);
    expect(delivered.map((iq) => iq.id)).toEqual(held.map((iq) => iq.id));
    expect(errors).toEqual(past.map((iq) => ({ id: iq.id, error: expect.objectContaining(RESOURCE_CONSTRAINT) })));
    expect(results).toEqual([]);
  });

  it('an offer of a session past the room’s bound is refused with resource-constraint and frees its sender’s place; the sessions held are delivered', async () => {
    const { router, receive, initiates, delivered, deliveredSids, results, errors } = aliceInACall({ claimed: false });
    const senders = Array.from({ length: UNCLAIMED_CALL_HOLD.sessionsPerRoom }, (_, index) => `${ROOM}/person-${index}`);
    const held = senders.flatMap((sender) => offerWithCandidates(receive, sender, 'camera', 1));
    const [past] = offerWithCandidates(receive, MALLORY, 'one-too-many', 0);
    expect(errors).toEqual([{ id: past?.id, error: expect.objectContaining(RESOURCE_CONSTRAINT) }]);

    await router.claimCall(TAB, ROOM);
    expect(delivered.map((iq) => iq.id)).toEqual(held.map((iq) => iq.id));
    expect(results).toEqual([]);
    // Refused, it is no session of Mallory’s: all their places are free.
    initiates(MALLORY, 'again', LIMIT);
    expect(deliveredSids(MALLORY)).toHaveLength(LIMIT);
    expect(errors).toHaveLength(1);
  });
});

describe(`A Jingle request's sid is bounded (LIMITS.jingleSidLength, ${LIMITS.jingleSidLength}): an empty or longer one is refused as bad-request, never reaching the tab`, () => {
  it('a session-initiate with a sid past the bound, or none, is answered with a modify / bad-request error; one at the bound is delivered', () => {
    const { receive, deliveredSids, errors, results } = aliceInACall({ claimed: true });
    const tooLong = request(MALLORY, 'session-initiate', 'x'.repeat(LIMITS.jingleSidLength + 1));
    const empty = request(MALLORY, 'session-initiate', '');
    receive(tooLong);
    receive(empty);
    expect(deliveredSids(MALLORY)).toEqual([]);
    expect(errors.map(({ id, error }) => ({ id, type: error?.type, condition: error?.condition }))).toEqual([
      { id: tooLong.id, type: 'modify', condition: 'bad-request' },
      { id: empty.id, type: 'modify', condition: 'bad-request' },
    ]);
    expect(results).toEqual([]);

    const atBound = 'y'.repeat(LIMITS.jingleSidLength);
    receive(request(MALLORY, 'session-initiate', atBound));
    expect(deliveredSids(MALLORY)).toEqual([atBound]);
  });
});

describe('What the worker keeps of the sessions a tab runs stays bounded however often people come and go: at most twice LIMITS.jingleSessionsPerSender with one person, the oldest forgotten first', () => {
  it('someone who leaves and comes back at the same address three times, beginning the most sessions each time (ended silently by the tab as they left), leaves only their latest sessions to end when the tab goes', async () => {
    const { store, router, initiates, terminates } = aliceInACall({ claimed: true });
    for (const round of ['first', 'second', 'third']) {
      initiates(MALLORY, round, LIMIT);
      store.remove('peers', MALLORY);
      await Promise.resolve();
      store.upsert('peers', MALLORY, peer(MALLORY));
    }
    router.releaseTab(TAB);
    await Promise.resolve();
    const expected = [...Array.from({ length: LIMIT }, (_, index) => `second-${index + 1}`), ...Array.from({ length: LIMIT }, (_, index) => `third-${index + 1}`)];
    expect(terminates).toEqual(expected);
  });
});
