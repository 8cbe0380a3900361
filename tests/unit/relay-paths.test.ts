import type { Stanzas } from 'stanza';
import { JINGLE_INFO_ACTIVE, JINGLE_INFO_HOLD, JINGLE_INFO_RINGING } from 'stanza/Constants';
import { SessionManager } from 'stanza/jingle';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/common/clock';
import { PATH_CHANGE } from '../../src/protocol/clientDefaults';
import { DecodeWatch, PathHandover } from '../../src/main-thread/call/PathChange';
import { planPaths, type PathPlanInput } from '../../src/main-thread/call/pathPlan';
import { RelayJingleSession } from '../../src/main-thread/call/relay/RelayJingleSession';
import { ManualClock } from '../support/ManualClock';

const planned = [
  { key: 'bob\nuser', streamKey: 'user' },
  { key: 'carol\nuser', streamKey: 'user' },
];

function input(overrides: Partial<PathPlanInput>): PathPlanInput {
  return {
    planned,
    relayReady: () => false,
    relayPending: () => false,
    relayFailed: () => false,
    relayExists: () => false,
    relayEstablished: () => false,
    meshExists: () => true,
    meshEstablished: () => false,
    ...overrides,
  };
}

function sorted(set: ReadonlySet<string>): string[] {
  return [...set].sort();
}

describe('SPEC §4 relay switch without frozen video: each delivery stays on its old path until the new one carries it (planPaths)', () => {
  it('relay not ready: everything on the mesh', () => {
    const paths = planPaths(input({}));
    expect(sorted(paths.mesh)).toEqual(['bob\nuser', 'carol\nuser']);
    expect(paths.relay.size).toBe(0);
  });

  it('relay ready: consumers are made, and the mesh stays until each consumer is established', () => {
    const paths = planPaths(input({ relayReady: () => true, relayEstablished: (key) => key === 'bob\nuser' }));
    expect(sorted(paths.relay)).toEqual(['bob\nuser', 'carol\nuser']);
    expect(sorted(paths.mesh)).toEqual(['carol\nuser']);
  });

  it('a delivery the relay can carry from the outset gets no mesh session while its consumer connects', () => {
    const paths = planPaths(input({ relayReady: () => true, meshExists: (key) => key === 'bob\nuser' }));
    expect(sorted(paths.relay)).toEqual(['bob\nuser', 'carol\nuser']);
    expect(sorted(paths.mesh)).toEqual(['bob\nuser']);
  });

  it('a newcomer to a call on the relay starts no mesh session while the relay is on its way: it publishes straight to the relay', () => {
    const paths = planPaths(input({ relayPending: () => true, meshExists: () => false }));
    expect(paths.mesh.size).toBe(0);
    expect(paths.relay.size).toBe(0);
  });

  it('while the relay is on its way, running mesh sessions stay and consumers already made are kept', () => {
    const paths = planPaths(input({ relayPending: () => true, meshExists: (key) => key === 'bob\nuser', relayExists: (key) => key === 'carol\nuser' }));
    expect(sorted(paths.mesh)).toEqual(['bob\nuser']);
    expect(sorted(paths.relay)).toEqual(['carol\nuser']);
  });

  it('switched off (or the relay is down): mesh sessions are made, and consumers stay until each mesh session is established', () => {
    const paths = planPaths(input({ relayExists: () => true, meshEstablished: (key) => key === 'carol\nuser' }));
    expect(sorted(paths.mesh)).toEqual(['bob\nuser', 'carol\nuser']);
    expect(sorted(paths.relay)).toEqual(['bob\nuser']);
  });

  it('keys no longer planned are on neither path', () => {
    const paths = planPaths(input({ planned: [planned[0]!], relayReady: () => true, relayEstablished: () => true, relayExists: () => true }));
    expect(sorted(paths.relay)).toEqual(['bob\nuser']);
    expect(paths.mesh.size).toBe(0);
  });

  it('a receiver the relay failed is the mesh’s though the relay can carry the stream, or is on its way to it; its consumer stays until the mesh session is established', () => {
    const failed = (key: string) => key === 'bob\nuser';
    const ready = planPaths(input({ relayReady: () => true, relayFailed: failed, meshExists: () => false, relayExists: () => true }));
    expect(sorted(ready.mesh)).toEqual(['bob\nuser']);
    expect(sorted(ready.relay)).toEqual(['bob\nuser', 'carol\nuser']);
    const pending = planPaths(input({ relayPending: () => true, relayFailed: failed, meshExists: () => false, meshEstablished: () => true }));
    expect(sorted(pending.mesh)).toEqual(['bob\nuser']);
    expect(pending.relay.size).toBe(0);
  });

  it('only streams whose ingest is ready move', () => {
    const two = [...planned, { key: 'bob\nscreen:s', streamKey: 'screen:s' }];
    const paths = planPaths(input({ planned: two, relayReady: (stream) => stream === 'user', relayEstablished: () => true }));
    expect(sorted(paths.relay)).toEqual(['bob\nuser', 'carol\nuser']);
    expect(sorted(paths.mesh)).toEqual(['bob\nscreen:s']);
  });
});

describe('PathHandover: the old path stops once the new one is connected for the grace and its receiver says it decodes (fake time)', () => {
  const { graceMs, decodeWaitMs } = PATH_CHANGE;

  it(`with the receiver's word, a path is established ${graceMs} ms after it connected, and says so once`, async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    const settled: string[] = [];
    handover.on('settled', (path, key) => settled.push(`${path} ${key}`));
    handover.connected('relay', 'k');
    handover.connected('relay', 'k');
    handover.decoding('relay', 'k');
    await clock.advance(graceMs - 1);
    expect(handover.established('relay', 'k')).toBe(false);
    expect(handover.established('mesh', 'k')).toBe(false);
    await clock.advance(1);
    expect(handover.established('relay', 'k')).toBe(true);
    await clock.advance(decodeWaitMs);
    expect(settled).toEqual(['relay k']);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('keeps the old path past the grace until the receiver says it decodes: a slow first key frame is not a frozen tile', async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    const settled: string[] = [];
    handover.on('settled', (path, key) => settled.push(`${path} ${key}`));
    handover.connected('mesh', 'k');
    await clock.advance(graceMs + 500);
    expect(handover.established('mesh', 'k')).toBe(false);
    handover.decoding('mesh', 'k');
    expect(handover.established('mesh', 'k')).toBe(true);
    expect(settled).toEqual(['mesh k']);
  });

  it(`from a receiver that never says so (SimpleWebRTC 1.30.3), it is established ${decodeWaitMs} ms after it connected`, async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    handover.connected('relay', 'k');
    await clock.advance(decodeWaitMs - 1);
    expect(handover.established('relay', 'k')).toBe(false);
    await clock.advance(1);
    expect(handover.established('relay', 'k')).toBe(true);
  });

  it('takes the word when it comes before the sender sees its side connect', async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    handover.decoding('relay', 'k');
    handover.lost('relay', 'k');
    handover.connected('relay', 'k');
    await clock.advance(graceMs);
    expect(handover.established('relay', 'k')).toBe(true);
  });

  it('is established when its timers fire, even if the wall clock then reads a millisecond short', async () => {
    const clock = new ManualClock();
    // Browsers may run a timer a millisecond before Date.now() says its delay has passed.
    const early: Clock = {
      now: () => clock.now(),
      setTimeout: (callback, delayMs) => clock.setTimeout(callback, delayMs - 1),
      clearTimeout: (handle) => clock.clearTimeout(handle),
      setInterval: (callback, intervalMs) => clock.setInterval(callback, intervalMs),
      clearInterval: (handle) => clock.clearInterval(handle),
      random: () => clock.random(),
    };
    const handover = new PathHandover(early);
    handover.connected('relay', 'k');
    handover.decoding('relay', 'k');
    await clock.advance(graceMs - 1);
    expect(handover.established('relay', 'k')).toBe(true);
  });

  it('a path that ended takes the receiver’s word with it, though it never connected: the next one of that key waits for its own', async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    handover.decoding('relay', 'k');
    handover.ended('relay', 'k');
    handover.connected('relay', 'k');
    await clock.advance(graceMs);
    expect(handover.established('relay', 'k')).toBe(false);
  });

  it('losing the connection resets it, the receiver’s word included', async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    handover.connected('mesh', 'k');
    handover.decoding('mesh', 'k');
    await clock.advance(graceMs / 2);
    handover.lost('mesh', 'k');
    expect(clock.pendingDelays()).toEqual([]);
    handover.connected('mesh', 'k');
    await clock.advance(graceMs);
    expect(handover.established('mesh', 'k')).toBe(false);
    handover.clear();
    expect(clock.pendingDelays()).toEqual([]);
  });
});

/** A fake receiver (Node has no WebRTC): its inbound-rtp report says how many frames it decoded. */
function fakeReceiver(kind: 'audio' | 'video') {
  const receiver = { framesDecoded: 0, packetsReceived: 0 };
  const stats = () => new Map([['in', { type: 'inbound-rtp', kind, framesDecoded: receiver.framesDecoded, packetsReceived: receiver.packetsReceived }]]);
  return { receiver, rtc: { track: { kind }, getStats: async () => stats() } as unknown as RTCRtpReceiver };
}

describe('DecodeWatch (the receiver keeps the old path until the new one decodes steadily, fake time)', () => {
  const { decodeWaitMs, decodeCheckIntervalMs, steadyMs, frameGapMs } = PATH_CHANGE;

  /** Advances `ms` of fake time a check at a time, the receiver decoding a frame at each. */
  async function decodeFor(clock: ManualClock, video: ReturnType<typeof fakeReceiver>, ms: number): Promise<void> {
    for (let elapsed = 0; elapsed < ms; elapsed += decodeCheckIntervalMs) {
      video.receiver.framesDecoded += 1;
      await clock.advance(decodeCheckIntervalMs);
    }
  }

  it(`is ready once the new session's video has decoded for ${steadyMs} ms without a gap, checked every interval, and says it saw it decode`, async () => {
    const clock = new ManualClock();
    const video = fakeReceiver('video');
    const ready: boolean[] = [];
    new DecodeWatch(clock, () => [video.rtc, fakeReceiver('audio').rtc], (decoding) => ready.push(decoding)).connected();
    await clock.advance(decodeCheckIntervalMs * 3);
    expect(ready).toEqual([]);
    // The first frame is seen at the first check after it; steady from there.
    await decodeFor(clock, video, steadyMs);
    expect(ready).toEqual([]);
    await decodeFor(clock, video, decodeCheckIntervalMs);
    expect(ready).toEqual([true]);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it(`first frames that stop for more than ${frameGapMs} ms start the wait again: a path that stalls at once is not shown`, async () => {
    const clock = new ManualClock();
    const video = fakeReceiver('video');
    const ready: boolean[] = [];
    new DecodeWatch(clock, () => [video.rtc], (decoding) => ready.push(decoding)).connected();
    await decodeFor(clock, video, steadyMs / 2);
    await clock.advance(frameGapMs + decodeCheckIntervalMs);
    await decodeFor(clock, video, steadyMs / 2);
    expect(ready).toEqual([]);
    await decodeFor(clock, video, steadyMs / 2 + decodeCheckIntervalMs);
    expect(ready).toEqual([true]);
  });

  it(`waits without a limit until the session connects, then at most ${decodeWaitMs} ms — as long as the sender keeps the old path for want of its word — saying it saw nothing decode`, async () => {
    const clock = new ManualClock();
    const ready: boolean[] = [];
    const watch = new DecodeWatch(clock, () => [fakeReceiver('video').rtc], (decoding) => ready.push(decoding));
    await clock.advance(decodeWaitMs * 2);
    expect(ready).toEqual([]);
    watch.connected();
    await clock.advance(decodeWaitMs - decodeCheckIntervalMs);
    expect(ready).toEqual([]);
    await clock.advance(decodeCheckIntervalMs);
    expect(ready).toEqual([false]);
  });

  it('cancelled (the session ended), it never says ready and leaves no timer', async () => {
    const clock = new ManualClock();
    let ready = 0;
    const watch = new DecodeWatch(clock, () => [fakeReceiver('video').rtc], () => (ready += 1));
    watch.connected();
    watch.cancel();
    await clock.advance(decodeWaitMs * 2);
    expect(ready).toBe(0);
    expect(clock.pendingDelays()).toEqual([]);
  });
});

describe("The receiver's word that it decodes reaches the sender's relay session (a session-info active)", () => {
  /** A consumer's Jingle session as the sender holds it, recording what it is told. */
  function relaySession(): { session: RelayJingleSession; decoding: string[] } {
    const decoding: string[] = [];
    const session = new RelayJingleSession({
      parent: new SessionManager({}),
      sid: 'consumer-1',
      peerID: 'room@rooms.example/bob',
      onAnswer: () => {},
      onDescription: () => {},
      onEnded: () => {},
      onDecoding: (decoded) => decoding.push(decoded.sid),
    });
    return { session, decoding };
  }

  /** The receiver's session-info, as StanzaJS hands it to the session. */
  function receive(session: RelayJingleSession, info: Stanzas.JingleInfo): Promise<void> {
    return new Promise((resolve) => session.process('session-info', { sid: session.sid, action: 'session-info', info }, () => resolve()));
  }

  it('active: the sender hears that the receiver decodes the consumer', async () => {
    const { session, decoding } = relaySession();
    await receive(session, { infoType: JINGLE_INFO_ACTIVE });
    expect(decoding).toEqual(['consumer-1']);
  });

  it('other session-info (ringing, hold) is acknowledged and says nothing of decoding', async () => {
    const { session, decoding } = relaySession();
    await receive(session, { infoType: JINGLE_INFO_RINGING });
    await receive(session, { infoType: JINGLE_INFO_HOLD });
    expect(decoding).toEqual([]);
  });
});
