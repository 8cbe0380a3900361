import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageBody } from '../../src/ui/MessageBody';
import { splitLinks } from '../../src/ui/messageLinks';

describe('Links in chat messages: only http(s) addresses become links, and nothing from a peer becomes HTML (issue 15)', () => {
  it('finds http and https addresses inside the text and keeps the rest as text', () => {
    expect(splitLinks('see https://example.org/a?b=1#c and http://x.test:8080/ too')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.org/a?b=1#c', href: 'https://example.org/a?b=1#c' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.test:8080/', href: 'http://x.test:8080/' },
      { kind: 'text', text: ' too' },
    ]);
    expect(splitLinks('HTTPS://Example.ORG')).toEqual([{ kind: 'link', text: 'HTTPS://Example.ORG', href: 'https://example.org/' }]);
  });

  it('leaves sentence punctuation outside the link, but keeps a bracket the address opened', () => {
    expect(splitLinks('Read https://example.org/page.')).toEqual([
      { kind: 'text', text: 'Read ' },
      { kind: 'link', text: 'https://example.org/page', href: 'https://example.org/page' },
      { kind: 'text', text: '.' },
    ]);
    expect(splitLinks('(https://example.org/x)')).toEqual([
      { kind: 'text', text: '(' },
      { kind: 'link', text: 'https://example.org/x', href: 'https://example.org/x' },
      { kind: 'text', text: ')' },
    ]);
    expect(splitLinks('https://en.wikipedia.org/wiki/Foo_(bar), ok')[0]).toEqual({
      kind: 'link',
      text: 'https://en.wikipedia.org/wiki/Foo_(bar)',
      href: 'https://en.wikipedia.org/wiki/Foo_(bar)',
    });
  });

  it('never links other schemes or an address without a host', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://example.org/', 'vbscript:msgbox', 'http://', 'file:///etc/passwd']) {
      expect(splitLinks(text).every((segment) => segment.kind === 'text'), text).toBe(true);
    }
    // "javascript:" hidden after an http-looking start is still just the text around a real address.
    expect(splitLinks('xhttps://javascript:alert(1)').filter((segment) => segment.kind === 'link')).toEqual([]);
  });

  it('renders links with target _blank and rel noopener noreferrer, and markup in a message as text', () => {
    const html = renderToStaticMarkup(createElement(MessageBody, { text: '<img src=x onerror=alert(1)> https://example.org/"><script>alert(1)</script>' }));
    expect(html).toBe(
      // A ">" in text needs no escape in HTML; every "<" does.
      '&lt;img src=x onerror=alert(1)> <a href="https://example.org/" target="_blank" rel="noopener noreferrer">https://example.org/</a>&quot;>&lt;script>alert(1)&lt;/script>',
    );
  });
});
