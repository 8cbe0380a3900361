import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const DateTimeFormat = Intl.DateTimeFormat;

// Each case loads the module afresh, though another file of the worker may have loaded it.
beforeEach(() => {
  vi.resetModules();
});

afterEach(() => {
  Intl.DateTimeFormat = DateTimeFormat;
});

/** Counts the formatters made from now on. */
function countFormattersMade(): { made: number } {
  const count = { made: 0 };
  Intl.DateTimeFormat = new Proxy(DateTimeFormat, {
    construct(target, args: ConstructorParameters<typeof DateTimeFormat>) {
      count.made += 1;
      return new target(...args);
    },
  });
  return count;
}

describe('Join path: the chat’s time formats are made on first use, not as the room page loads (issue 14: a first Intl.DateTimeFormat loads the locale’s data on the main thread)', () => {
  it('loading the module makes no formatter; the first time shown makes one, and later ones reuse it', async () => {
    const count = countFormattersMade();
    const { formatTime, formatDateTime } = await import('../../src/ui/formatTime');
    expect(count.made).toBe(0);

    const time = Date.UTC(2026, 10, 26, 14, 5);
    expect(formatTime(time)).toBe(new DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(time));
    expect(formatTime(time + 60_000)).toBe(new DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(time + 60_000));
    expect(count.made).toBe(1);
    expect(formatDateTime(time)).toBe(new DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(time));
    expect(count.made).toBe(2);
  });
});
