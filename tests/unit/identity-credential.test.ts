import { describe, expect, it } from 'vitest';
import { guestLocalpartOf, IdentityCredentialError, issueGuestIdentity, newGuestLocalpart, userLocalpart } from '../../server/auth/identity';
import { signToken } from '../../server/auth/jwt';
import { LIMITS } from '../../src/protocol/constants';

const SECRET = 'parley-token-secret';
const NOW = 1_800_000_000;
const TTL = 90 * 24 * 3600;

describe('guest identity credential: issued for a guest, renewed with the same guest, good until it expires', () => {
  it('names the guest it was issued for, until just before its expiry', () => {
    const guest = newGuestLocalpart();
    const credential = issueGuestIdentity(SECRET, guest, NOW, TTL);
    expect(guestLocalpartOf(SECRET, credential, NOW)).toBe(guest);
    expect(guestLocalpartOf(SECRET, credential, NOW + TTL - 1)).toBe(guest);
    expect(() => guestLocalpartOf(SECRET, credential, NOW + TTL)).toThrow(new IdentityCredentialError('token expired'));
  });

  it('renews: one issued later for the same guest outlives the first', () => {
    const guest = newGuestLocalpart();
    const renewed = issueGuestIdentity(SECRET, guestLocalpartOf(SECRET, issueGuestIdentity(SECRET, guest, NOW, TTL), NOW + TTL - 10), NOW + TTL - 10, TTL);
    expect(guestLocalpartOf(SECRET, renewed, NOW + TTL + 1000)).toBe(guest);
  });

  it('gives every new guest a different lowercase localpart', () => {
    const guests = new Set(Array.from({ length: 50 }, () => newGuestLocalpart()));
    expect(guests.size).toBe(50);
    for (const guest of guests) expect(guest).toBe(guest.toLowerCase());
  });
});

describe('guest identity credential: anything else is refused with the reason', () => {
  const guest = newGuestLocalpart();
  const claims = { sub: guest, aud: 'parley-identity', type: 'guest-identity', iat: NOW, exp: NOW + TTL };
  it.each<[string, unknown, RegExp]>([
    ['signed with another secret (forged)', issueGuestIdentity('another-secret', guest, NOW, TTL), /bad token signature/],
    ['expired', issueGuestIdentity(SECRET, guest, NOW - TTL - 1, TTL), /token expired/],
    ['an XMPP login credential (no audience)', signToken(SECRET, { sub: guest, exp: NOW + TTL }), /not a guest identity credential/],
    ['a relay token', signToken(SECRET, { sub: guest, aud: 'parley-relay', exp: NOW + TTL }), /not a guest identity credential/],
    ['of another type', signToken(SECRET, { ...claims, type: 'registered' }), /not a guest identity credential/],
    ['naming no guest', signToken(SECRET, { ...claims, sub: 'admin' }), /names no guest/],
    ['naming an uppercase guest', signToken(SECRET, { ...claims, sub: guest.toUpperCase() }), /names no guest/],
    ['not a string', 42, /not a string/],
    ['longer than the bound', `${issueGuestIdentity(SECRET, guest, NOW, TTL)}${'x'.repeat(LIMITS.identityCredentialLength)}`, /longer than 1024 characters/],
    ['malformed', 'a.b', /malformed token/],
  ])('refuses a credential %s', (_case, credential, reason) => {
    expect(() => guestLocalpartOf(SECRET, credential, NOW)).toThrow(IdentityCredentialError);
    expect(() => guestLocalpartOf(SECRET, credential, NOW)).toThrow(reason);
  });
});

describe("product users: the localpart is a keyed hash of the token's subject", () => {
  it('is the same for the same subject, differs by subject and by secret, and is a lowercase localpart', () => {
    const one = userLocalpart(SECRET, 'Customer-42');
    expect(userLocalpart(SECRET, 'Customer-42')).toBe(one);
    expect(one).toMatch(/^u-[0-9a-f]{40}$/);
    expect(userLocalpart(SECRET, 'customer-42')).not.toBe(one);
    expect(userLocalpart('another-secret', 'Customer-42')).not.toBe(one);
    expect(userLocalpart(SECRET, 'ünïcode user@example.com')).toMatch(/^u-[0-9a-f]{40}$/);
  });
});
