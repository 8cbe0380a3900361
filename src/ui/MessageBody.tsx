import { splitLinks } from './messageLinks';

/** A message's text with its http(s) links clickable; they open in a new tab that cannot reach back into this one. */
export function MessageBody({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((segment, index) =>
        segment.kind === 'link' ? (
          <a key={index} href={segment.href} target="_blank" rel="noopener noreferrer">
            {segment.text}
          </a>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
