import { Fragment, useMemo, type ReactNode } from 'react';
import type { MessageSegment } from './messageLinks';
import { styleMessage, type StyledBlock, type StyledRun } from './messageStyling';

/**
 * A message's text, styled as XMPP apps style it (XEP-0393: *strong*, _emphasis_, ~strike~, `code`,
 * ``` blocks and "> " quotations), with its http(s) links clickable; they open in a new tab that
 * cannot reach back into this one. Only elements of our own, never the sender's markup.
 */
export function MessageBody({ text }: { text: string }) {
  // Read once per text, not on every render of the chat.
  const styled = useMemo(() => styleMessage(text), [text]);
  return <>{blocks(styled)}</>;
}

function blocks(list: readonly StyledBlock[]): ReactNode[] {
  return list.map((block, index) => {
    // Lines keep their breaks (the body wraps as written); a quotation or a preformatted block is a box of its own.
    const lineBreak = index > 0 && block.kind === 'line' && list[index - 1]!.kind === 'line' ? '\n' : '';
    if (block.kind === 'quote') {
      return (
        <span key={index} className="message-quote">
          {blocks(block.blocks)}
        </span>
      );
    }
    if (block.kind === 'pre') {
      return (
        <code key={index} className="message-pre">
          {block.text}
        </code>
      );
    }
    return (
      <Fragment key={index}>
        {lineBreak}
        {runs(block.runs)}
      </Fragment>
    );
  });
}

function runs(list: readonly StyledRun[]): ReactNode[] {
  return list.map((run, index) => {
    switch (run.kind) {
      case 'strong':
        return <strong key={index}>{runs(run.runs)}</strong>;
      case 'emphasis':
        return <em key={index}>{runs(run.runs)}</em>;
      case 'strike':
        return <s key={index}>{runs(run.runs)}</s>;
      case 'code':
        return <code key={index}>{run.text}</code>;
      default:
        return segment(run, index);
    }
  });
}

function segment(run: MessageSegment, index: number): ReactNode {
  return run.kind === 'link' ? (
    <a key={index} href={run.href} target="_blank" rel="noopener noreferrer">
      {run.text}
    </a>
  ) : (
    run.text
  );
}
