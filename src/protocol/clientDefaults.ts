/**
 * The client's tuning numbers: not the spec's (those are in constants.ts with their SPEC section),
 * but choices of ours, kept in one place so that they are tuned together and read where they apply.
 */

/**
 * A change of media path (mesh ↔ relay) without frozen video, counted from the moment the new path
 * connects. The receiver shows the new path as soon as it decodes (checked every
 * `decodeCheckIntervalMs`) and then says so to the sender (a session-info `active`); the sender
 * keeps the old path running until the new one has been connected for `graceMs` and its receiver has
 * said so. Without that — a new path that does not decode, a receiver that never says so
 * (SimpleWebRTC 1.30.3) — both give up after `decodeWaitMs`: the receiver shows the new path
 * anyway and the sender stops the old one.
 */
export const PATH_CHANGE = { graceMs: 1_500, decodeCheckIntervalMs: 100, decodeWaitMs: 4_000 } as const;

/** Reconnecting after the relay went away or refused us: 1 s, doubling to at most 8 s, plus up to 0.5 s of jitter. */
export const RELAY_RECONNECT = { firstDelayMs: 1_000, maxDelayMs: 8_000, jitterMs: 500 } as const;

/** A relay request not answered by then fails (RelayRpcClient). */
export const RELAY_REQUEST_TIMEOUT_MS = 15_000;

/** How often relay video receivers are measured (getStats per item) for the layer that arrives. */
export const LAYER_POLL_INTERVAL_MS = 1_000;

/**
 * A layer serves a tile up to this much upscaling: beyond 1.5× the picture visibly softens, so the
 * next layer up is asked for.
 */
export const LAYER_UPSCALE_LIMIT = 1.5;

/**
 * Issue 13: how long after our rejoin a person of the room's call who has not reappeared yet is
 * still counted as in the call (their media kept, their media facts kept for their return). They
 * lost the same server and come back on their own reconnect schedule (up to 30 s between attempts);
 * one who really went away ends sooner through their sessions (ICE interrupted 5 s, SPEC §4).
 */
export const REJOIN_GRACE_MS = 30_000;
