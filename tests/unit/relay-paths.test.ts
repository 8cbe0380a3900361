import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/common/clock';
import { HANDOVER_GRACE_MS, PathHandover } from '../../src/main-thread/relay/PathHandover';
import { planPaths, type PathPlanInput } from '../../src/main-thread/relay/pathPlan';
import { ManualClock } from '../support/ManualClock';

const planned = [
  { key: 'bob\nuser', streamKey: 'user' },
  { key: 'carol\nuser', streamKey: 'user' },
];

function input(overrides: Partial<PathPlanInput>): PathPlanInput {
  return {
    planned,
    relayReady: () => false,
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
