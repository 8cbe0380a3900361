import { RECONNECT_POLICY } from '../protocol/clientDefaults';
import { RECONNECT } from '../protocol/constants';

/** What a reconnect policy is told about the attempt it schedules. */
export interface ReconnectContext {
  /** Attempts already made since the last session that started (0 for the first retry). */
  attemptsSoFar: number;
  /** The chat server refused the sign-in of this many attempts in a row, the last one's included (0 when it did not refuse it). */
  loginsRefusedInARow: number;
  /** A number in [0, 1) from the session's clock, for the jitter. */
  random: number;
}

/** When the next attempt goes. */
export interface ReconnectStep {
  /** Try again after this long (unless `waitForServer` and the gateway says sooner). */
  delayMs: number;
  /**
   * Wait for the gateway to say the XMPP server is up, and try then (after `afterServerUpMs`); the
   * delay is what is waited instead when the gateway cannot say.
   */
  waitForServer: boolean;
}

/**
 * When the signalling session tries again after a drop or a failed config request (like LiveKit's
 * ReconnectPolicy: one object, swappable). It never gives up: the session asks it again for as long
 * as the person wants to be connected.
 */
export interface ReconnectPolicy {
  next(context: ReconnectContext): ReconnectStep;
  /** Once the gateway says the server is up: a random spread before trying, so tabs do not all come at one instant. */
  afterServerUpMs(random: number): number;
}

export type ReconnectSettings = { readonly [K in keyof typeof RECONNECT_POLICY]: number } & { readonly stepMs: number; readonly maxJitterMs: number };

/** The client's reconnect settings, in one place: the spec's step and jitter, and issue 13's (clientDefaults). */
export const RECONNECT_DEFAULTS: ReconnectSettings = { stepMs: RECONNECT.stepMs, maxJitterMs: RECONNECT.maxJitterMs, ...RECONNECT_POLICY };

/**
 * SPEC §7's (attempts + 1) steps plus up to maxJitter for the spec's first attempts; then waiting
 * for the server to be back, as the gateway knows it, with the spec's schedule capped at
 * `maxDelayMs` (jitter included) as the fallback when the gateway cannot say. Beyond the spec:
 * whatever the outage's length, the session tries within `spreadAfterUpMs` of the server accepting
 * connections again, and a server that is down meets no attempts meanwhile, only waiting questions.
 * A server that keeps refusing the sign-in is up, and is tried again only after a long wait.
 */
export class ServerAwareReconnectPolicy implements ReconnectPolicy {
  constructor(private readonly settings: ReconnectSettings = RECONNECT_DEFAULTS) {}

  next({ attemptsSoFar, loginsRefusedInARow, random }: ReconnectContext): ReconnectStep {
    const { stepMs, maxJitterMs, maxDelayMs, specAttempts, refusedLoginsBeforeBackoff, afterRefusedLoginsMs, refusedLoginsJitterMs } = this.settings;
    // Up, the gateway would say so at once: waiting for it would not slow the refusals down.
    if (loginsRefusedInARow >= refusedLoginsBeforeBackoff) return { delayMs: afterRefusedLoginsMs + random * refusedLoginsJitterMs, waitForServer: false };
    const spec = (attemptsSoFar + 1) * stepMs;
    if (attemptsSoFar < specAttempts) return { delayMs: spec + random * maxJitterMs, waitForServer: false };
    const jitter = Math.min(maxJitterMs, maxDelayMs / 2);
    return { delayMs: Math.min(spec, maxDelayMs - jitter) + random * jitter, waitForServer: true };
  }

  afterServerUpMs(random: number): number {
    return random * this.settings.spreadAfterUpMs;
  }
}
