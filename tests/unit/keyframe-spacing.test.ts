import { EventEmitter } from 'node:events';
import type { types } from 'mediasoup';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyFrameSpacing, SENDER_KEYFRAME_INTERVAL_MS } from '../../server/relay/KeyFrameSpacing';

/**
 * A stand-in for a mediasoup producer's `keyframe` trace events, emitted at chosen moments: a real
 * sender cannot be made to send a keyframe at a given millisecond (relay-media.test.ts has the real one).
 */
class KeyFrameTraces extends EventEmitter {
  enableTraceEvent(): Promise<void> {
    return Promise.resolve();
  }

  keyFrame(): void {
    this.emit('trace', { type: 'keyframe', direction: 'in', timestamp: 0, info: {} });
  }
}

/** `heard` runs `ms` from now, and not a millisecond sooner. */
function expectHeardIn(heard: () => void, ms: number): void {
  vi.advanceTimersByTime(ms - 1);
  expect(heard).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(heard).toHaveBeenCalledTimes(1);
}

describe("A layer move waits until the sender would honour its keyframe request (KeyFrameSpacing), however many keyframes come meanwhile", () => {
  let traces: KeyFrameTraces;
  let spacing: KeyFrameSpacing;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    traces = new KeyFrameTraces();
    spacing = new KeyFrameSpacing(traces as unknown as types.Producer);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('is heard at once when no keyframe came within the interval', () => {
    const heard = vi.fn();
    spacing.whenHeard(heard);
    expect(spacing.msUntilHeard()).toBe(0);
    vi.advanceTimersByTime(0);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('waits out the interval after a keyframe', () => {
    traces.keyFrame();
    const heard = vi.fn();
    spacing.whenHeard(heard);
    expectHeardIn(heard, SENDER_KEYFRAME_INTERVAL_MS);
  });

  it('waits out the interval again when a keyframe comes while it waits', () => {
    traces.keyFrame();
    const heard = vi.fn();
    spacing.whenHeard(heard);
    vi.advanceTimersByTime(200);
    traces.keyFrame();
    expectHeardIn(heard, SENDER_KEYFRAME_INTERVAL_MS);
  });

  it('runs nothing once cancelled', () => {
    traces.keyFrame();
    const heard = vi.fn();
    const cancel = spacing.whenHeard(heard);
    vi.advanceTimersByTime(100);
    cancel();
    vi.advanceTimersByTime(SENDER_KEYFRAME_INTERVAL_MS);
    expect(heard).not.toHaveBeenCalled();
  });
});
