import { LIMITS } from '../../protocol/constants';
import { isRecord } from '../../protocol/validate';

/** Bounded readers for values from the wire that are shown, not refused, when too long. */

/** A display name: trimmed, non-empty, cut to LIMITS.displayNameLength code points; undefined otherwise. */
export function displayNameFrom(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const codePoints = Array.from(trimmed);
  return codePoints.length > LIMITS.displayNameLength ? codePoints.slice(0, LIMITS.displayNameLength).join('') : trimmed;
}

/** The `<user>` element's customerData JSON text on a message: an object of bounded size, else undefined. */
export function customerDataFrom(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.trim() === '' || text.length > LIMITS.customerDataBytes) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A stanza id: a non-empty string of bounded length. */
export function stanzaIdFrom(value: unknown, maxLength: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength ? value : undefined;
}

/** The time a message was sent: its XEP-0203 delay stamp when valid and not in the future, else now. */
export function messageTime(delayStamp: unknown, now: number): number {
  if (!(delayStamp instanceof Date)) return now;
  const stamp = delayStamp.getTime();
  return Number.isFinite(stamp) && stamp <= now ? stamp : now;
}
