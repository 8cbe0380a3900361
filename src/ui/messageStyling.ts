import { splitLinks, type MessageSegment } from './messageLinks';

/** A run of a line: text or a link, or a styled span of runs (a preformatted span holds text only). */
export type StyledRun = MessageSegment | { kind: 'strong' | 'emphasis' | 'strike'; runs: StyledRun[] } | { kind: 'code'; text: string };

/** A block of a message: a line of runs, a quotation of blocks, or preformatted lines. */
export type StyledBlock = { kind: 'line'; runs: StyledRun[] } | { kind: 'quote'; blocks: StyledBlock[] } | { kind: 'pre'; text: string };

type SpanKind = 'strong' | 'emphasis' | 'strike' | 'code';

/** XEP-0393's span directives and what each styles. */
const SPAN_KINDS: Readonly<Record<string, SpanKind>> = { '*': 'strong', _: 'emphasis', '~': 'strike', '`': 'code' };
const PRE_FENCE = '```';
const WHITESPACE = /\s/;

/**
 * A message's body as XEP-0393 (Message Styling) reads it, which XMPP apps send and show: lines
 * opened by ``` up to a line of ``` alone are preformatted, lines that begin with ">" a quotation
 * (nested by ">>"), and within a line *strong*, _emphasis_, ~strike~ and `code` spans. A span opens
 * at a line's start, after whitespace or after another opening directive, is followed by no
 * whitespace, closes at the first same directive not preceded by whitespace, holds some text, never
 * crosses a line, and never starts or ends inside a link. The directives themselves are not shown
 * (the XEP leaves that to the client), so a screen reader does not read them either.
 */
export function styleMessage(body: string): StyledBlock[] {
  return blocksOf(body.split('\n'));
}

function blocksOf(lines: readonly string[]): StyledBlock[] {
  const blocks: StyledBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (line.startsWith(PRE_FENCE)) {
      // The opening line's rest is a hint (a language, say), not shown; an unclosed block runs to the end.
      const closing = lines.findIndex((candidate, at) => at > index && candidate.trimEnd() === PRE_FENCE);
      const end = closing === -1 ? lines.length : closing;
      blocks.push({ kind: 'pre', text: lines.slice(index + 1, end).join('\n') });
      index = end + 1;
    } else if (line.startsWith('>')) {
      let end = index;
      while (end < lines.length && lines[end]!.startsWith('>')) end += 1;
      blocks.push({ kind: 'quote', blocks: blocksOf(lines.slice(index, end).map((quoted) => quoted.slice(1).trimStart())) });
      index = end;
    } else {
      blocks.push({ kind: 'line', runs: runsOf(line) });
      index += 1;
    }
  }
  return blocks;
}

/** One line as the span parser reads it: its links, which characters are in one, and where each directive may close a span. */
interface ParsedLine {
  readonly text: string;
  /** The line's links in order, each with where it starts: read once, for the spans and for the text between them. */
  readonly links: readonly LinkSegment[];
  readonly linkStarts: readonly number[];
  readonly inLink: readonly boolean[];
  /** Per directive, in order, the positions where it may close a span: not in a link, after no whitespace. */
  readonly closers: Readonly<Record<string, readonly number[]>>;
}

type LinkSegment = Extract<MessageSegment, { kind: 'link' }>;

function runsOf(text: string): StyledRun[] {
  const inLink: boolean[] = new Array<boolean>(text.length).fill(false);
  const links: LinkSegment[] = [];
  const linkStarts: number[] = [];
  let at = 0;
  for (const segment of splitLinks(text)) {
    if (segment.kind === 'link') {
      inLink.fill(true, at, at + segment.text.length);
      links.push(segment);
      linkStarts.push(at);
    }
    at += segment.text.length;
  }
  // Found once per line, so that a line of directives that never close (any message may be one) is read in n log n, not n².
  const closers: Record<string, number[]> = {};
  for (let position = 1; position < text.length; position += 1) {
    const char = text[position]!;
    if (SPAN_KINDS[char] !== undefined && !inLink[position] && !WHITESPACE.test(text[position - 1]!)) (closers[char] ??= []).push(position);
  }
  return runsIn({ text, links, linkStarts, inLink, closers }, 0, text.length);
}

/** The runs of the line from `from` to `to`, spans parsed lazily from the left. */
function runsIn(line: ParsedLine, from: number, to: number): StyledRun[] {
  const { text } = line;
  const runs: StyledRun[] = [];
  let plainFrom = from;
  for (let open = from; open < to; open += 1) {
    const kind = openingAt(line, open, from, to);
    if (kind === undefined) continue;
    const close = closingOf(line, open, to);
    if (close === -1) continue;
    if (open > plainFrom) runs.push(...segmentsIn(line, plainFrom, open));
    runs.push(kind === 'code' ? { kind, text: text.slice(open + 1, close) } : { kind, runs: runsIn(line, open + 1, close) });
    open = close;
    plainFrom = close + 1;
  }
  if (plainFrom < to) runs.push(...segmentsIn(line, plainFrom, to));
  return runs;
}

/** The span a directive at `at` opens, if it may open one there. */
function openingAt({ text, inLink }: ParsedLine, at: number, from: number, to: number): SpanKind | undefined {
  const char = text[at]!;
  const kind = SPAN_KINDS[char];
  if (kind === undefined || inLink[at] || at + 1 >= to || WHITESPACE.test(text[at + 1]!)) return undefined;
  // At the start of its line or span, after whitespace, or after another directive that opens.
  const before = at === from ? undefined : text[at - 1]!;
  if (before === undefined || WHITESPACE.test(before) || (SPAN_KINDS[before] !== undefined && before !== char)) return kind;
  return undefined;
}

/** Where the span opened at `open` closes: the next same directive with text before it, not in a link, before `to`; -1 when none. */
function closingOf({ text, closers }: ParsedLine, open: number, to: number): number {
  const positions = closers[text[open]!] ?? [];
  // A span holds some text: its end is at open + 2 or later.
  const close = positions[firstAtOrAfter(positions, open + 2)];
  return close !== undefined && close < to ? close : -1;
}

/** The text and links of the line from `from` to `to`, which no link crosses (spans never start or end in one). */
function segmentsIn({ text, links, linkStarts }: ParsedLine, from: number, to: number): MessageSegment[] {
  const segments: MessageSegment[] = [];
  let at = from;
  for (let index = firstAtOrAfter(linkStarts, from); index < links.length && linkStarts[index]! < to; index += 1) {
    const start = linkStarts[index]!;
    if (start > at) segments.push({ kind: 'text', text: text.slice(at, start) });
    segments.push(links[index]!);
    at = start + links[index]!.text.length;
  }
  if (at < to) segments.push({ kind: 'text', text: text.slice(at, to) });
  return segments;
}

/** The index of the first of `sorted` at or past `value`, by bisection (its length when none is). */
function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
