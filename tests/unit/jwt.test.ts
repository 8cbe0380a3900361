import { describe, expect, it } from 'vitest';
import { signToken, TokenError, verifyToken } from '../../server/auth/jwt';

describe('Credentials are HS256 JWTs with subject and expiry checked', () => {
  const secret = 'test-secret';
  const now = 1_700_000_000;

  it('round-trips claims through sign and verify', () => {
    const token = signToken(secret, { sub: 'alice', jid: 'alice@example', exp: now + 60 });
    expect(verifyToken(secret, token, now)).toMatchObject({ sub: 'alice', jid: 'alice@example' });
  });

  it('refuses a token signed with another secret', () => {
    const token = signToken('other', { sub: 'alice', exp: now + 60 });
    expect(() => verifyToken(secret, token, now)).toThrow(TokenError);
  });

  it('refuses an expired token and one without expiry', () => {
    expect(() => verifyToken(secret, signToken(secret, { sub: 'a', exp: now - 1 }), now)).toThrow('token expired');
    expect(() => verifyToken(secret, signToken(secret, { sub: 'a' }), now)).toThrow('token expired');
  });

  it('refuses a tampered payload, a non-HS256 header and garbage', () => {
    const [header, , sig] = signToken(secret, { sub: 'a', exp: now + 60 }).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin', exp: now + 60 })).toString('base64url');
    expect(() => verifyToken(secret, `${header}.${forged}.${sig}`, now)).toThrow('bad token signature');
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(() => verifyToken(secret, `${none}.${forged}.`, now)).toThrow('unsupported token algorithm');
    expect(() => verifyToken(secret, 'not-a-token', now)).toThrow('malformed token');
    expect(() => verifyToken(secret, 'x'.repeat(9000), now)).toThrow('token too long');
  });
});
