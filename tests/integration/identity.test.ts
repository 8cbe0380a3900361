// A person is the same person tomorrow: the config service issues credentials for a stable user —
// the one a product token names, else the guest a browser's identity credential names — and a
// browser's session keeps that credential and sends it with each config request.
import { rm, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { issueGuestIdentity } from '../../server/auth/identity';
import { signToken } from '../../server/auth/jwt';
import { LIMITS } from '../../src/protocol/constants';
import { MemoryIdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { providerConfig, useParley } from '../support/parley';
import { connected, useSessions, waitFor } from '../support/sessions';
import { startTestParley, temporaryDataDir } from '../support/testParley';
import { clientFor, login, usePlainClients } from '../support/xmppClient';

const USER_TOKEN_SECRET = 'product-backend-secret';
const gatewayLog: string[] = [];
const parley = useParley({ userTokenSecret: USER_TOKEN_SECRET }, (line) => gatewayLog.push(line));
const openSession = useSessions();
const track = usePlainClients();

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function userToken(sub: string | undefined, extra: Record<string, unknown> = {}): string {
  return signToken(USER_TOKEN_SECRET, { ...(sub === undefined ? {} : { sub }), exp: nowSeconds() + 600, ...extra });
}

describe('guest identity: a browser that presents its identity credential is the same user, with a renewed credential', () => {
  it('gives the same user (and a new resource) for the credential the first config carried, and renews it', async () => {
    const first = await providerConfig(parley());
    expect(first.identity).toEqual(expect.any(String));
    const again = await providerConfig(parley(), { identity: first.identity });
    expect(again.userId).toBe(first.userId);
    expect(again.id).not.toBe(first.id);
    expect(again.identity).toEqual(expect.any(String));
    // The renewed one works as well as the first.
    expect((await providerConfig(parley(), { identity: again.identity })).userId).toBe(first.userId);
    // And the user logs in with the credential issued for it.
    await login(track(clientFor(again)));
  });

  it('gives a browser without a credential a new user each time', async () => {
    const [one, two] = [await providerConfig(parley()), await providerConfig(parley())];
    expect(one.userId).not.toBe(two.userId);
  });
});

describe('guest identity: a credential that is no good gives a new guest, never an error, and is logged', () => {
  const secret = (): string => parley().settings.tokenSecret;
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['signed with another secret', async () => issueGuestIdentity('another-secret', (await providerConfig(parley())).userId.split('@')[0]!, nowSeconds(), 600)],
    ['expired', async () => issueGuestIdentity(secret(), (await providerConfig(parley())).userId.split('@')[0]!, nowSeconds() - 700, 600)],
    ['an XMPP login credential', async () => (await providerConfig(parley())).credential],
    ['a relay token', async () => (await providerConfig(parley())).sfuServer?.password],
    ['not a token', async () => 'not.a.token'],
    ['not a string', async () => ({ sub: 'someone' })],
    ['far too long', async () => 'x'.repeat(5_000)],
  ];
  it.each(cases)('issues a new guest for a credential %s', async (_case, presented) => {
    const identity = await presented();
    gatewayLog.length = 0;
    const response = await fetch(new URL('/api/config', parley().url), {
      method: 'POST',
      body: JSON.stringify({ clientVersion: '1.30.3', identity }),
    });
    expect(response.status).toBe(200);
    const config = (await response.json()) as { userId: string; identity: string };
    expect(config.identity).toEqual(expect.any(String));
    expect((await providerConfig(parley(), { identity: config.identity })).userId).toBe(config.userId);
    expect(gatewayLog).toEqual([expect.stringMatching(/^config request: guest identity refused \(.+\); issuing a new one$/)]);
  });

  it('never hands back a user another browser holds when the credential names no one', async () => {
    const someone = await providerConfig(parley());
    const stranger = await providerConfig(parley(), { identity: 'forged.identity.credential' });
    expect(stranger.userId).not.toBe(someone.userId);
  });
});

/** A config request as SimpleWebRTC 1.30.3 sends it (no credential in the body), with the browser's cookies; the answer and the cookie it sets. */
async function configWithCookies(cookie: string | undefined, body: Record<string, unknown> = {}): Promise<{ config: { userId: string; id: string; identity?: string; identityReplaced?: unknown }; setCookie: string | null }> {
  const response = await fetch(new URL('/api/config', parley().url), {
    method: 'POST',
    headers: cookie === undefined ? {} : { cookie },
    body: JSON.stringify({ clientVersion: '1.30.3', ...body }),
  });
  expect(response.status).toBe(200);
  return { config: (await response.json()) as { userId: string; id: string; identity?: string; identityReplaced?: unknown }, setCookie: response.headers.get('set-cookie') };
}

describe('guest identity kept by the gateway for a browser that keeps none (SimpleWebRTC 1.30.3): a cookie only the config request carries, so that a reload does not undo a ban', () => {
  it('hands the identity credential back in an HttpOnly, SameSite=Strict cookie of the config path, kept as long as the credential', async () => {
    const { config, setCookie } = await configWithCookies(undefined);
    expect(setCookie).toBe(`parley_identity=${config.identity}; Path=/api/config; Max-Age=${parley().settings.identityTtlSeconds}; HttpOnly; SameSite=Strict`);
  });

  it('gives a request that presents the cookie and no credential of its own the same user, and renews the cookie', async () => {
    const first = await configWithCookies(undefined);
    const again = await configWithCookies(`theme=dark; parley_identity=${first.config.identity}`);
    expect(again.config.userId).toBe(first.config.userId);
    expect(again.config.id).not.toBe(first.config.id);
    expect(again.setCookie).toBe(`parley_identity=${again.config.identity}; Path=/api/config; Max-Age=${parley().settings.identityTtlSeconds}; HttpOnly; SameSite=Strict`);
  });

  it('takes the credential the body presents over the cookie', async () => {
    const [kept, presented] = [await configWithCookies(undefined), await configWithCookies(undefined)];
    const { config } = await configWithCookies(`parley_identity=${kept.config.identity}`, { identity: presented.config.identity });
    expect(config.userId).toBe(presented.config.userId);
  });

  it('takes the cookie’s credential when the body’s is refused (stale, forged), so that the person stays the user their bans and admissions name, and logs the refusal', async () => {
    const kept = await configWithCookies(undefined);
    const stale = issueGuestIdentity(parley().settings.tokenSecret, (await providerConfig(parley())).userId.split('@')[0]!, nowSeconds() - 700, 600);
    for (const identity of [stale, 'forged.identity.credential']) {
      gatewayLog.length = 0;
      const { config } = await configWithCookies(`parley_identity=${kept.config.identity}`, { identity });
      expect(config.userId).toBe(kept.config.userId);
      expect(gatewayLog).toEqual([expect.stringMatching(/^config request: guest identity refused \(.+\); trying the one the gateway kept$/)]);
    }
  });

  it('gives a new guest for a cookie that is no good, never an error, and logs it', async () => {
    const someone = await configWithCookies(undefined);
    gatewayLog.length = 0;
    const { config } = await configWithCookies('parley_identity=forged.identity.credential');
    expect(config.userId).not.toBe(someone.config.userId);
    expect(gatewayLog).toEqual([expect.stringMatching(/^config request: guest identity refused \(.+\); issuing a new one$/)]);
  });

  it('sets no cookie for a product user, who is the user the token names', async () => {
    const { config, setCookie } = await configWithCookies(undefined, { token: userToken('customer-44') });
    expect(config.identity).toBeUndefined();
    expect(setCookie).toBeNull();
  });
});

describe('guest identity lost: the config says when a presented identity credential was refused and a new guest made, so the person can be told why rooms they created no longer know them', () => {
  it('says identityReplaced for an expired or forged credential and no cookie', async () => {
    const expired = issueGuestIdentity(parley().settings.tokenSecret, (await providerConfig(parley())).userId.split('@')[0]!, nowSeconds() - 700, 600);
    for (const identity of [expired, 'forged.identity.credential']) {
      const { config } = await configWithCookies(undefined, { identity });
      expect(config.identityReplaced).toBe(true);
    }
  });

  it('says nothing was replaced on a first visit (no credential presented), nor when the cookie’s credential stands in for a refused one', async () => {
    const firstVisit = await configWithCookies(undefined);
    expect(firstVisit.config.identityReplaced).not.toBe(true);
    const kept = await configWithCookies(undefined, { identity: firstVisit.config.identity });
    expect(kept.config.identityReplaced).not.toBe(true);
    const rescued = await configWithCookies(`parley_identity=${firstVisit.config.identity}`, { identity: 'forged.identity.credential' });
    expect(rescued.config.identityReplaced).not.toBe(true);
  });
});

describe('product users: a user with a product token is always the user the token names', () => {
  it('gives the same user for tokens with the same sub, whatever else they carry, and no guest identity', async () => {
    const guest = await providerConfig(parley());
    const one = await providerConfig(parley(), { token: userToken('customer-42', { customerData: { displayName: 'Ann' } }) });
    const two = await providerConfig(parley(), { token: userToken('customer-42'), identity: guest.identity });
    const other = await providerConfig(parley(), { token: userToken('customer-43') });
    expect(one.userId).toBe(two.userId);
    expect(one.userId).toMatch(new RegExp(`^u-[0-9a-f]{40}@${parley().settings.xmppDomain.replace('.', '\\.')}$`));
    expect(one.userId).not.toContain('customer');
    expect(other.userId).not.toBe(one.userId);
    expect(two.userId).not.toBe(guest.userId);
    expect(one.identity).toBeUndefined();
    await login(track(clientFor(two)));
  });

  it('bounds a product token’s customerData in UTF-8 bytes, as it goes on the wire, and cuts its displayName at whole characters', async () => {
    const response = await fetch(new URL('/api/config', parley().url), {
      method: 'POST',
      body: JSON.stringify({ clientVersion: '1.30.3', token: userToken('customer-46', { customerData: { note: '語'.repeat(LIMITS.customerDataBytes / 3 + 100) } }) }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { status: 400, message: `token customerData is larger than ${LIMITS.customerDataBytes} bytes` } });

    const named = await providerConfig(parley(), { token: userToken('customer-47', { displayName: '😀'.repeat(LIMITS.displayNameLength + 1) }) });
    expect(named.displayName).toBe('😀'.repeat(LIMITS.displayNameLength));
  });

  it('refuses a product token that names no user (no sub) with 401', async () => {
    const response = await fetch(new URL('/api/config', parley().url), {
      method: 'POST',
      body: JSON.stringify({ clientVersion: '1.30.3', token: userToken(undefined) }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { status: 401, message: 'user token refused: it names no user (no "sub")' } });
  });
});

describe('Config request (SPEC §7, §8): a config without customerData when a user token was sent logs ESWRTC_003', () => {
  it('logs ESWRTC_003 for a token that brought no customerData, and nothing for one that did or for a guest', async () => {
    const withoutData = openSession({ server: parley(), userToken: userToken('customer-44') });
    const withData = openSession({ server: parley(), userToken: userToken('customer-45', { customerData: { displayName: 'Ann' } }) });
    const guest = openSession({ server: parley() });
    for (const who of [withoutData, withData, guest]) await connected(who);
    expect(withoutData.errors).toEqual([{ message: expect.stringContaining('customerData'), code: 'ESWRTC_003' }]);
    expect(withData.session.config?.customerData).toEqual({ displayName: 'Ann' });
    expect(withData.errors).toEqual([]);
    expect(guest.errors).toEqual([]);
  });
});

describe('a reconnect comes back at the same occupant address (issue 13): the previous credential presented as resume gives the same config id, to the same user only', () => {
  it('the same user presenting its previous credential gets the same id; another user, or no good credential, a new one', async () => {
    const first = await providerConfig(parley());
    const again = await providerConfig(parley(), { identity: first.identity, resume: first.credential });
    expect(again.userId).toBe(first.userId);
    expect(again.id).toBe(first.id);
    // Someone else presenting it (another guest) cannot take that id, and so not that nickname.
    const stranger = await providerConfig(parley(), { resume: first.credential });
    expect(stranger.userId).not.toBe(first.userId);
    expect(stranger.id).not.toBe(first.id);
    expect((await providerConfig(parley(), { identity: first.identity, resume: 'forged.resume.credential' })).id).not.toBe(first.id);
    // The relay's token is signed with the same secret for the same user, but names no config id.
    expect((await providerConfig(parley(), { identity: first.identity, resume: first.sfuServer?.password })).id).not.toBe(first.id);
  });

  it('the shared worker presents it: after a reconnect its resource is the one it had', async () => {
    const who = openSession({ server: parley() });
    await connected(who);
    const before = who.session.config!.id;
    await parley().restartGateway();
    await waitFor(who, 'the connection lost', (state) => state.connection.state !== 'connected');
    const selfAddress = await waitFor(who, 'the session back', (state) => state.connection.state === 'connected' && state.connection.selfAddress);
    expect(who.session.config!.id).toBe(before);
    expect(selfAddress).toMatch(new RegExp(`/${before}$`));
  });
});

describe('the shared worker keeps its identity: a reload (new session, same browser storage) is the same user', () => {
  it('stores the credential the config carried and sends it with the next config request', async () => {
    const browser = new MemoryIdentityStorage();
    const first = openSession({ server: parley(), identityStorage: browser });
    await connected(first);
    const firstUser = first.session.config!.userId;
    expect(await browser.load()).toBe(first.session.config!.identity);
    first.session.disconnect();

    const reloaded = openSession({ server: parley(), identityStorage: browser });
    await connected(reloaded);
    expect(reloaded.session.config!.userId).toBe(firstUser);
    expect(reloaded.session.config!.id).not.toBe(first.session.config!.id);
    expect(await browser.load()).toBe(reloaded.session.config!.identity);

    const otherBrowser = openSession({ server: parley() });
    await connected(otherBrowser);
    expect(otherBrowser.session.config!.userId).not.toBe(firstUser);
  });
});

describe('PARLEY_TOKEN_SECRET unset: the secret is made once and kept in the data folder, so credentials outlive a restart', () => {
  it('accepts the credentials and identity issued before the restart, and keeps the secret private (0600)', async () => {
    const dataDir = await temporaryDataDir();
    try {
      // tokenSecret undefined: whatever the environment says, the data folder's secret is used.
      const before = await startTestParley({ dataDir, tokenSecret: undefined, relayWorkers: 0 });
      const issued = await providerConfig(before);
      await before.stop();
      expect((await stat(`${dataDir}/token-secret`)).mode & 0o777).toBe(0o600);

      const after = await startTestParley({ dataDir, tokenSecret: undefined, relayWorkers: 0, port: Number(new URL(before.url).port) });
      try {
        expect(after.settings.tokenSecret).toBe(before.settings.tokenSecret);
        const client = clientFor(issued);
        await login(client);
        // The gateway's stop waits for open websockets.
        await client.disconnect();
        const roomConfig = await fetch(new URL('/api/room-config', after.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${issued.credential}` },
          body: JSON.stringify({ name: 'after the restart' }),
        });
        expect(roomConfig.status).toBe(200);
        expect((await providerConfig(after, { identity: issued.identity })).userId).toBe(issued.userId);
      } finally {
        await after.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
