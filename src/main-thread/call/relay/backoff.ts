import type { Clock } from '../../../common/clock';
import { RELAY_RECONNECT } from '../../../protocol/clientDefaults';

/**
 * How long to wait before trying something on the relay again after `failures` failed tries in a
 * row: RELAY_RECONNECT's doubling, capped, with its jitter (so that many tabs do not ask at once).
 */
export function relayRetryDelayMs(failures: number, clock: Clock): number {
  const { firstDelayMs, maxDelayMs, jitterMs } = RELAY_RECONNECT;
  return Math.min(firstDelayMs * 2 ** failures, maxDelayMs) + Math.floor(clock.random() * jitterMs);
}
