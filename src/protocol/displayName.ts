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
