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

function runsOf(line: string): StyledRun[] {
  const inLink: boolean[] = new Array<boolean>(line.length).fill(false);
  let at = 0;
  for (const segment of splitLinks(line)) {
    if (segment.kind === 'link') inLink.fill(true, at, at + segment.text.length);
    at += segment.text.length;
  }
  return runsIn(line, 0, line.length, inLink);
}

/** The runs of `line` from `from` to `to`, spans parsed lazily from the left. */
function runsIn(line: string, from: number, to: number, inLink: readonly boolean[]): StyledRun[] {
  const runs: StyledRun[] = [];
  let plainFrom = from;
  for (let open = from; open < to; open += 1) {
    const kind = openingAt(line, open, from, to, inLink);
    if (kind === undefined) continue;
    const close = closingOf(line, open, to, inLink);
    if (close === -1) continue;
    if (open > plainFrom) runs.push(...splitLinks(line.slice(plainFrom, open)));
    runs.push(kind === 'code' ? { kind, text: line.slice(open + 1, close) } : { kind, runs: runsIn(line, open + 1, close, inLink) });
    open = close;
    plainFrom = close + 1;
  }
  if (plainFrom < to) runs.push(...splitLinks(line.slice(plainFrom, to)));
  return runs;
}

/** The span a directive at `at` opens, if it may open one there. */
function openingAt(line: string, at: number, from: number, to: number, inLink: readonly boolean[]): SpanKind | undefined {
  const char = line[at]!;
  const kind = SPAN_KINDS[char];
  if (kind === undefined || inLink[at] || at + 1 >= to || WHITESPACE.test(line[at + 1]!)) return undefined;
  // At the start of its line or span, after whitespace, or after another directive that opens.
  const before = at === from ? undefined : line[at - 1]!;
  if (before === undefined || WHITESPACE.test(before) || (SPAN_KINDS[before] !== undefined && before !== char)) return kind;
  return undefined;
}

/** Where the span opened at `open` closes: the next same directive with text before it, not in a link; -1 when none. */
function closingOf(line: string, open: number, to: number, inLink: readonly boolean[]): number {
  for (let at = open + 2; at < to; at += 1) {
    if (line[at] === line[open] && !inLink[at] && !WHITESPACE.test(line[at - 1]!)) return at;
  }
  return -1;
}
