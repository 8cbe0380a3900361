/** Bounded readers for values from the wire that are shown, not refused, when too long. */

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
