import { EventEmitter } from 'node:events';
import type { types } from 'mediasoup';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEYFRAME_REQUEST_JITTER_MS, KeyFrameSpacing, SENDER_KEYFRAME_INTERVAL_MS } from '../../server/relay/KeyFrameSpacing';

/**
 * A stand-in for a mediasoup producer's trace events — its keyframe requests going to the sender and
 * the keyframes coming from it — emitted at chosen moments: a real sender cannot be made to answer
 * at a given millisecond (relay-media.test.ts has the real one).
 */
class ProducerTraces extends EventEmitter {
  enableTraceEvent(): Promise<void> {
    return Promise.resolve();
  }

  requestSent(type: 'pli' | 'fir' = 'pli'): void {
    this.emit('trace', { type, direction: 'out', timestamp: 0, info: { ssrc: 1 } });
  }

  keyFrame(): void {
    this.emit('trace', { type: 'keyframe', direction: 'in', timestamp: 0, info: {} });
  }
}

/** How long after a request the sender heard a move asks for its keyframe. */
const HEARD_AGAIN_MS = SENDER_KEYFRAME_INTERVAL_MS + KEYFRAME_REQUEST_JITTER_MS;

/** `heard` runs `ms` from now, and not a millisecond sooner. */
function expectHeardIn(heard: () => void, ms: number): void {
  vi.advanceTimersByTime(ms - 1);
  expect(heard).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(heard).toHaveBeenCalledTimes(1);
}

describe('A layer move waits until the sender would honour its keyframe request (KeyFrameSpacing): the interval runs from the request the sender heard, not from the keyframes that come', () => {
  let traces: ProducerTraces;
  let spacing: KeyFrameSpacing;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    traces = new ProducerTraces();
    spacing = new KeyFrameSpacing(traces as unknown as types.Producer);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('is heard at once when no request went to the sender within the interval', () => {
    const heard = vi.fn();
    spacing.whenHeard(heard);
    expect(spacing.msUntilHeard()).toBe(0);
    vi.advanceTimersByTime(0);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('waits out the interval from the request the sender heard, however late its keyframes come', () => {
    traces.requestSent();
    vi.advanceTimersByTime(80);
    traces.keyFrame();
    const heard = vi.fn();
    spacing.whenHeard(heard);
    expectHeardIn(heard, HEARD_AGAIN_MS - 80);
  });

  it('a keyframe the sender made of its own accord (no request) holds nothing', () => {
    traces.keyFrame();
    expect(spacing.msUntilHeard()).toBe(0);
  });

  it('a request sent within the interval, which the sender ignores, does not start it again; an FIR counts as a PLI does', () => {
    traces.requestSent('fir');
    vi.advanceTimersByTime(100);
    traces.requestSent();
    expect(spacing.msUntilHeard()).toBe(HEARD_AGAIN_MS - 100);
  });

  it('a request sent so near the interval’s end that the sender may have heard it starts the interval again, which a waiting move waits out too', () => {
    traces.requestSent();
    const heard = vi.fn();
    spacing.whenHeard(heard);
    vi.advanceTimersByTime(SENDER_KEYFRAME_INTERVAL_MS - KEYFRAME_REQUEST_JITTER_MS);
    traces.requestSent();
    expectHeardIn(heard, HEARD_AGAIN_MS);
  });

  it('runs nothing once cancelled', () => {
    traces.requestSent();
    const heard = vi.fn();
    const cancel = spacing.whenHeard(heard);
    vi.advanceTimersByTime(100);
    cancel();
    vi.advanceTimersByTime(HEARD_AGAIN_MS);
    expect(heard).not.toHaveBeenCalled();
  });
});
