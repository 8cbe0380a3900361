import { describe, expect, it } from 'vitest';
import { MalformedTokenError, signToken, TokenError, TokenExpiredError, TokenSignatureError, verifyToken } from '../../server/auth/jwt';

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
    // Not "expired": a token without exp is malformed (issue 12, below).
    expect(() => verifyToken(secret, signToken(secret, { sub: 'a' }), now)).toThrow('malformed token: it has no expiry (exp)');
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

describe('A refused token says which way it failed: expired, malformed or wrong signature', () => {
  const secret = 'test-secret';
  const now = 1_700_000_000;
  const refusal = (token: string): TokenError => {
    try {
      verifyToken(secret, token, now);
    } catch (error) {
      return error as TokenError;
    }
    throw new Error('the token was accepted');
  };

  it('expired: a numeric exp that has passed, and only that', () => {
    const error = refusal(signToken(secret, { sub: 'a', exp: now }));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('token expired');
  });

  it('malformed: no exp, a string exp, a null exp, not a JWT at all', () => {
    const cases: [string, string][] = [
      [signToken(secret, { sub: 'a' }), 'malformed token: it has no expiry (exp)'],
      [signToken(secret, { sub: 'a', exp: String(now + 60) } as never), 'malformed token: its expiry (exp) is not a number of seconds'],
      [signToken(secret, { sub: 'a', exp: null } as never), 'malformed token: its expiry (exp) is not a number of seconds'],
      ['not-a-token', 'malformed token'],
      ['a.b.c', 'malformed token'],
    ];
    for (const [token, message] of cases) expect(refusal(token).message).toBe(message);
    expect(refusal('not-a-token')).toBeInstanceOf(MalformedTokenError);
  });

  it('wrong signature: another secret, or claims altered after signing', () => {
    const error = refusal(signToken('another-secret', { sub: 'a', exp: now + 60 }));
    expect(error).toBeInstanceOf(TokenSignatureError);
    expect(error.message).toBe('bad token signature');
  });
});
