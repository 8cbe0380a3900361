/** Letters, digits and the underscore: what a name must not run into to be named on its own. */
const WORD = '[\\p{L}\\p{N}\\p{M}_]';

/**
 * Whether a message names you, as XMPP apps highlight a message that says your nickname: your name as
 * a word of its own, in any case, with "@" before it or not. `name` undefined (you go by the default
 * name): nothing names you.
 */
export function mentionMatcher(name: string | undefined): (body: string) => boolean {
  const wanted = name?.trim();
  if (!wanted) return () => false;
  const escaped = wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`(?<!${WORD})${escaped}(?!${WORD})`, 'iu');
  return (body) => named.test(body);
}
