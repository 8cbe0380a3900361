import { RECONNECT } from '../protocol/constants';

/** What a reconnect policy is told about the attempt it schedules. */
export interface ReconnectContext {
  /** Attempts already made since the last session that started (0 for the first retry). */
  attemptsSoFar: number;
  /** A number in [0, 1) from the session's clock, for the jitter. */
  random: number;
}

/**
 * When the signalling session tries again after a drop or a failed config request (like LiveKit's
 * ReconnectPolicy: one object, swappable). It never gives up: the session asks it again for as long
 * as the person wants to be connected.
 */
export interface ReconnectPolicy {
  nextDelayMs(context: ReconnectContext): number;
}

/** The client's reconnect defaults, in one place. */
export const RECONNECT_DEFAULTS = {
  /** SPEC §7's step and jitter: (attempts + 1) × step plus up to maxJitter. */
  stepMs: RECONNECT.stepMs,
  maxJitterMs: RECONNECT.maxJitterMs,
  /** Not in the spec: the longest wait between two attempts, jitter included, so a long outage ends soon after the server is back. */
  maxDelayMs: 30_000,
} as const;

export type ReconnectSettings = { readonly [K in keyof typeof RECONNECT_DEFAULTS]: number };

/** SPEC §7's linear backoff, capped (jitter included) at `maxDelayMs`. */
export class CappedLinearReconnectPolicy implements ReconnectPolicy {
  constructor(private readonly settings: ReconnectSettings = RECONNECT_DEFAULTS) {}

  nextDelayMs({ attemptsSoFar, random }: ReconnectContext): number {
    const { stepMs, maxJitterMs, maxDelayMs } = this.settings;
    const base = Math.min((attemptsSoFar + 1) * stepMs, Math.max(0, maxDelayMs - maxJitterMs));
    return base + random * maxJitterMs;
  }
}
