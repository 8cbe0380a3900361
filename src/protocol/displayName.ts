import { DEFAULT_PREFERENCES, LIMITS } from './constants';

/**
 * A display name from anywhere (the wire, preferences): trimmed, non-empty, cut to
 * LIMITS.displayNameLength code points so an emoji is never split; undefined otherwise.
 */
export function displayNameFrom(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const codePoints = Array.from(trimmed);
  return codePoints.length > LIMITS.displayNameLength ? codePoints.slice(0, LIMITS.displayNameLength).join('') : trimmed;
}

/** The name to show or send: the given one when usable, else 'Anonymous' (SPEC §3). */
export function displayNameOrDefault(value: unknown): string {
  return displayNameFrom(value) ?? DEFAULT_PREFERENCES.displayName;
}

/**
 * Parley's and SimpleWebRTC's clients join a room under the id their config service issued them
 * (a UUID from Parley's: server/gateway/configService.ts), which names nobody; a plain XMPP client
 * joins under the nickname its person chose.
 */
const ISSUED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An occupant's name, from what it says of itself, the first usable of `named` (customerData's
 * displayName, its `<nick>`), else its room nickname when a person chose it (a plain XMPP client
 * sends no other), else 'Anonymous' (SPEC §3).
 */
export function occupantName(named: readonly unknown[], nickname: string | undefined): string {
  for (const value of named) {
    const name = displayNameFrom(value);
    if (name !== undefined) return name;
  }
  return (nickname !== undefined && !ISSUED_ID.test(nickname) ? displayNameFrom(nickname) : undefined) ?? DEFAULT_PREFERENCES.displayName;
}
