import { VOICE_ACTIVITY } from '../../protocol/constants';

/** The timers the resumer uses, injected so tests run on fake time. */
export interface IntervalTimers {
  setInterval(callback: () => void, intervalMs: number): unknown;
  clearInterval(handle: unknown): void;
}

const systemIntervalTimers: IntervalTimers = {
  setInterval: (callback, intervalMs) => globalThis.setInterval(callback, intervalMs),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof globalThis.setInterval>),
};

/** Events that can carry user activation; whichever comes first starts the resuming. */
const USER_GESTURES = ['pointerdown', 'pointerup', 'keydown', 'touchend', 'click'] as const;

/**
 * Autoplay policies leave an AudioContext created without a user gesture suspended, and a
 * suspended context processes nothing (the AudioWorklet frame path would stay silent). From the
 * first user gesture on, this resumes the context, retrying every 1 s (SPEC §9) until it runs.
 */
export class AudioContextResumer {
  private retryTimer: unknown;
  private done = false;

  constructor(
    private readonly context: Pick<AudioContext, 'state' | 'resume'>,
    private readonly gestureTarget: EventTarget,
    private readonly timers: IntervalTimers = systemIntervalTimers,
    private readonly retryMs: number = VOICE_ACTIVITY.audioContextResumeRetryMs,
  ) {}

  start(): void {
    if (this.finished()) return;
    for (const type of USER_GESTURES) this.gestureTarget.addEventListener(type, this.onGesture, { capture: true, passive: true });
  }

  dispose(): void {
    this.done = true;
    for (const type of USER_GESTURES) this.gestureTarget.removeEventListener(type, this.onGesture, { capture: true });
    if (this.retryTimer !== undefined) this.timers.clearInterval(this.retryTimer);
    this.retryTimer = undefined;
  }

  private readonly onGesture = (): void => {
    for (const type of USER_GESTURES) this.gestureTarget.removeEventListener(type, this.onGesture, { capture: true });
    if (this.retryTimer !== undefined || this.done) return;
    this.retryTimer = this.timers.setInterval(() => this.attempt(), this.retryMs);
    this.attempt();
  };

  /** Running needs nothing more; a closed context can never run again. */
  private finished(): boolean {
    return this.context.state === 'running' || this.context.state === 'closed';
  }

  private attempt(): void {
    if (this.finished()) {
      this.dispose();
      return;
    }
    this.context.resume().then(
      () => {
        if (this.finished()) this.dispose();
      },
      // Refused (no activation yet, or the context closed meanwhile): the next attempt decides.
      () => undefined,
    );
  }
}
