import { describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { roomNameError } from '../../src/protocol/rooms';
import { providerConfig, useParley } from '../support/parley';

/** Errors in plain words from the room config API (issue 12, item 6): room names and credentials. */

const parley = useParley({ relayWorkers: 0 });

async function roomConfig(credential: string, name: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(new URL('/api/room-config', parley().url), {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}` },
    body: JSON.stringify({ name }),
  });
  return { status: response.status, body: await response.json() };
}

describe('The room config API refuses a name that cannot become an address with 400 and the reason', () => {
  it.each([
    ['a private-use character', 'team\u{E000}'],
    ['an emoji after 127 characters (once cut inside its UTF-16 pair)', `${'a'.repeat(127)}😀`],
    ['257 characters', '\u{20000}'.repeat(257)],
  ])('refuses %s with the words the home page shows', async (_case, name) => {
    const { credential } = await providerConfig(parley());
    expect(await roomConfig(credential, name)).toEqual({ status: 400, body: { error: { status: 400, message: roomNameError(name)!.message } } });
  });

  it('gives a 256-character name outside the BMP a whole-character address', async () => {
    const { credential } = await providerConfig(parley());
    const { status, body } = await roomConfig(credential, '\u{20000}'.repeat(256));
    expect(status).toBe(200);
    expect(body).toEqual({ roomAddress: `${'\u{20000}'.repeat(128)}@${parley().settings.mucDomain}` });
  });
});

describe('A refused credential says whether it expired, is malformed, or has the wrong signature', () => {
  it.each([
    ['expired', (sub: string, now: number) => signToken(parley().settings.tokenSecret, { sub, exp: now - 10 }), 'credential refused: token expired'],
    ['without exp', (sub: string) => signToken(parley().settings.tokenSecret, { sub }), 'credential refused: malformed token: it has no expiry (exp)'],
    [
      'with a string exp',
      (sub: string, now: number) => signToken(parley().settings.tokenSecret, { sub, exp: String(now + 60) } as never),
      'credential refused: malformed token: its expiry (exp) is not a number of seconds',
    ],
    ['signed with another secret', (sub: string, now: number) => signToken('another-secret', { sub, exp: now + 60 }), 'credential refused: bad token signature'],
  ])('answers a credential %s with 401 and its own message', async (_case, make, message) => {
    const now = Math.floor(Date.now() / 1000);
    expect(await roomConfig(make('someone', now), 'room')).toEqual({ status: 401, body: { error: { status: 401, message } } });
  });
});
