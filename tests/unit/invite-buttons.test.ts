import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AddressToCopy, noticeLastsMs } from '../../src/ui/InviteButtons';

const ADDRESS = 'https://parley.test/standup';

describe('Copy link: where the browser does not copy, the address to copy by hand stays until the next press, for however long that takes (WCAG 2.2.1 Timing Adjustable)', () => {
  it('“Link copied” goes by itself after 4 s; the address to copy by hand never does', () => {
    expect(noticeLastsMs('copied')).toBe(4000);
    expect(noticeLastsMs('failed')).toBeUndefined();
    expect(noticeLastsMs('idle')).toBeUndefined();
  });

  it('the address shows in a read-only field named for it, to select and copy', () => {
    const field = renderToStaticMarkup(createElement(AddressToCopy, { address: ADDRESS }));
    expect(field).toMatch(/^<input [^>]*readonly/);
    expect(field).toContain(`value="${ADDRESS}"`);
    expect(field).toContain('aria-label="Room address"');
  });
});
