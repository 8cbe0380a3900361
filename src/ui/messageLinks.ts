/** A piece of a chat message's text: plain text, or an http(s) link to make clickable. */
export type MessageSegment = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/**
 * Where a link may start: only the two schemes a chat link may open (never javascript:, data:, …).
 * A backtick is no part of an address (RFC 3986 has it encoded): it closes a preformatted span.
 */
const LINK_START = /https?:\/\/[^\s<>"`]+/gi;
/**
 * Punctuation that ends a sentence rather than the address ("see https://x.org/a."), and the
 * styling directives that close a strong or struck span around it ("*https://x.org/a*", XEP-0393).
 */
const TRAILING = /[.,;:!?'"»”’)\]}*~]+$/;

/**
 * Splits a message into text and links (issue 15: clickable http(s) links, rendered safely). A link
 * is what `URL` parses with scheme http or https; the text shown is exactly what was written, the
 * target the parsed address. Nothing is ever turned into HTML: the pieces are rendered as text nodes
 * and anchor elements.
 */
export function splitLinks(text: string): MessageSegment[] {
  const segments: MessageSegment[] = [];
  let rest = 0;
  for (const match of text.matchAll(LINK_START)) {
    const start = match.index;
    const written = trimTrailing(match[0]);
    const href = httpAddress(written);
    if (!href) continue;
    if (start > rest) segments.push({ kind: 'text', text: text.slice(rest, start) });
    segments.push({ kind: 'link', text: written, href });
    rest = start + written.length;
  }
  if (rest < text.length) segments.push({ kind: 'text', text: text.slice(rest) });
  return segments;
}

/** Drops sentence punctuation at the end; a closing bracket stays when the address opened one ("…/Foo_(bar)"). */
function trimTrailing(candidate: string): string {
  const trailing = TRAILING.exec(candidate)?.[0] ?? '';
  let kept = candidate.slice(0, candidate.length - trailing.length);
  for (const char of trailing) {
    const opener = char === ')' ? '(' : char === ']' ? '[' : char === '}' ? '{' : undefined;
    if (!opener || count(kept, opener) <= count(kept, char)) break;
    kept += char;
  }
  return kept;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function httpAddress(candidate: string): string | undefined {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.href : undefined;
}
