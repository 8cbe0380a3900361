import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/common/clock';
import { PATH_CHANGE } from '../../src/protocol/clientDefaults';
import { DecodeWatch, PathHandover } from '../../src/main-thread/call/PathChange';
import { planPaths, type PathPlanInput } from '../../src/main-thread/call/pathPlan';
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

describe('planPaths (the relay switch without frozen video)', () => {
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

  it('only streams whose ingest is ready move', () => {
    const two = [...planned, { key: 'bob\nscreen:s', streamKey: 'screen:s' }];
    const paths = planPaths(input({ planned: two, relayReady: (stream) => stream === 'user', relayEstablished: () => true }));
    expect(sorted(paths.relay)).toEqual(['bob\nuser', 'carol\nuser']);
    expect(sorted(paths.mesh)).toEqual(['bob\nscreen:s']);
  });
});

describe('PathHandover (fake time)', () => {
  const HANDOVER_GRACE_MS = PATH_CHANGE.graceMs;

  it(`a path is established after ${HANDOVER_GRACE_MS} ms connected, and says so once`, async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    const settled: string[] = [];
    handover.on('settled', (path, key) => settled.push(`${path} ${key}`));
    handover.connected('relay', 'k');
    handover.connected('relay', 'k');
    await clock.advance(HANDOVER_GRACE_MS - 1);
    expect(handover.established('relay', 'k')).toBe(false);
    expect(handover.established('mesh', 'k')).toBe(false);
    await clock.advance(1);
    expect(handover.established('relay', 'k')).toBe(true);
    expect(settled).toEqual(['relay k']);
  });

  it('is established when its grace timer fires, even if the wall clock then reads a millisecond short', async () => {
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
    await clock.advance(HANDOVER_GRACE_MS - 1);
    expect(handover.established('relay', 'k')).toBe(true);
  });

  it('losing the connection resets it', async () => {
    const clock = new ManualClock();
    const handover = new PathHandover(clock);
    handover.connected('mesh', 'k');
    await clock.advance(HANDOVER_GRACE_MS / 2);
    handover.lost('mesh', 'k');
    expect(clock.pendingDelays()).toEqual([]);
    handover.connected('mesh', 'k');
    await clock.advance(HANDOVER_GRACE_MS / 2);
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

describe('DecodeWatch (the receiver keeps the old path until the new one decodes, fake time)', () => {
  const { graceMs, decodeCheckIntervalMs } = PATH_CHANGE;

  it('is ready once the new session decodes video, checked every interval', async () => {
    const clock = new ManualClock();
    const video = fakeReceiver('video');
    let ready = 0;
    new DecodeWatch(clock, () => [video.rtc, fakeReceiver('audio').rtc], () => (ready += 1)).connected();
    await clock.advance(decodeCheckIntervalMs * 3);
    expect(ready).toBe(0);
    video.receiver.framesDecoded = 1;
    await clock.advance(decodeCheckIntervalMs);
    expect(ready).toBe(1);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('waits without a limit until the session connects, then at most the grace', async () => {
    const clock = new ManualClock();
    let ready = 0;
    const watch = new DecodeWatch(clock, () => [fakeReceiver('video').rtc], () => (ready += 1));
    await clock.advance(graceMs * 2);
    expect(ready).toBe(0);
    watch.connected();
    await clock.advance(graceMs - decodeCheckIntervalMs);
    expect(ready).toBe(0);
    await clock.advance(decodeCheckIntervalMs);
    expect(ready).toBe(1);
  });

  it('cancelled (the session ended), it never says ready and leaves no timer', async () => {
    const clock = new ManualClock();
    let ready = 0;
    const watch = new DecodeWatch(clock, () => [fakeReceiver('video').rtc], () => (ready += 1));
    watch.connected();
    watch.cancel();
    await clock.advance(graceMs * 2);
    expect(ready).toBe(0);
    expect(clock.pendingDelays()).toEqual([]);
  });
});
