import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleLogger } from '../../src/common/logger';
import { docsLink, type ErrorCode } from '../../src/protocol/errors';

afterEach(() => {
  vi.restoreAllMocks();
});

/** What the session's logger (sessionWorker.ts: consoleLogger with docsLink) writes to the console for an error. */
function loggedError(message: string, code?: ErrorCode): unknown[] {
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  consoleLogger<ErrorCode>('[parley session]', docsLink).error(message, code);
  expect(consoleError).toHaveBeenCalledTimes(1);
  return consoleError.mock.calls[0]!;
}

describe('SPEC §8 "ESWRTC_001, ESWRTC_002, ESWRTC_003, ESWRTC_004 are logged with a pointer to a documentation site"', () => {
  it.each([
    ['ESWRTC_001', 'https://docs.simplewebrtc.com/#/ErrorCodes?id=eswrtc_001'],
    ['ESWRTC_002', 'https://docs.simplewebrtc.com/#/ErrorCodes?id=eswrtc_002'],
    ['ESWRTC_003', 'https://docs.simplewebrtc.com/#/ErrorCodes?id=eswrtc_003'],
    ['ESWRTC_004', 'https://docs.simplewebrtc.com/#/ErrorCodes?id=eswrtc_004'],
  ] as const)('%s is logged with its code, its message and the documentation page for that code', (code, page) => {
    expect(loggedError('Could not fetch room config', code)).toEqual(['[parley session]', `${code}: Could not fetch room config (${page})`]);
  });

  it('an error without a code is logged as it is, with no pointer', () => {
    expect(loggedError('Room not joined')).toEqual(['[parley session]', 'Room not joined']);
  });
});
