import { LIMITS } from '../../protocol/constants';

/** Bounded readers for values from the wire that are shown, not refused, when too long; and what both the wire and the tabs give. */

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

/**
 * A chat body from the wire, shown rather than refused when too long: its first
 * LIMITS.chatBodyLength characters (UTF-16 code units, as the limit counts everywhere), one fewer
 * rather than half an emoji, and how many were cut off (none: undefined).
 */
export function boundedBody(body: string): { body: string; charactersCut: number | undefined } {
  if (body.length <= LIMITS.chatBodyLength) return { body, charactersCut: undefined };
  let kept = body.slice(0, LIMITS.chatBodyLength);
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return { body: kept, charactersCut: body.length - kept.length };
}

/** No spaces, no control characters: one emoji, or a short word an XMPP app sent as one. */
const REACTION = /^[^\s\p{Cc}]+$/u;

/**
 * XEP-0444: a person's whole set of reactions to one message, in their order and each once; or what
 * is wrong with it (a set too large, or one that is not a short text without spaces).
 */
export function reactionSet(value: unknown): { reactions: string[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: 'reactions must be a list' };
  if (value.length > LIMITS.reactionsPerPerson) return { problem: `more than ${LIMITS.reactionsPerPerson} reactions` };
  const reactions: string[] = [];
  for (const reaction of value) {
    if (typeof reaction !== 'string' || reaction.length > LIMITS.reactionLength || !REACTION.test(reaction)) {
      return { problem: `a reaction must be one emoji (at most ${LIMITS.reactionLength} characters, no spaces)` };
    }
    if (!reactions.includes(reaction)) reactions.push(reaction);
  }
  return { reactions };
}
