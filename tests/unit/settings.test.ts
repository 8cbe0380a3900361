import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, resolveSettings, takeParleySecrets } from '../../server/settings';
import { ServerProcess } from '../../server/xmpp/ServerProcess';
import { VIDEO_RESOLUTION_TIERS } from '../../src/protocol/constants';
import { RELAY_LIMITS } from '../../src/protocol/relay';

describe('PARLEY_VIDEO_RESOLUTION_TIERS: the camera tiers clients get in their config (SPEC §9 by default)', () => {
  it('defaults to SPEC §9’s tiers', () => {
    expect(readSettings({}).videoResolutionTiers).toEqual(VIDEO_RESOLUTION_TIERS);
  });

  it('reads tiers keyed by peer count from JSON', () => {
    const tiers = { 0: { width: 960, height: 540, frameRate: 24 }, 3: { width: 320, height: 180, frameRate: 15 } };
    expect(readSettings({ PARLEY_VIDEO_RESOLUTION_TIERS: JSON.stringify(tiers) }).videoResolutionTiers).toEqual(tiers);
  });

  it.each([
    ['not JSON', '{0:', /PARLEY_VIDEO_RESOLUTION_TIERS must be a JSON object of tiers/],
    ['no tier', '{}', /PARLEY_VIDEO_RESOLUTION_TIERS: no tier given/],
    ['a tier without its frame rate', '{"0":{"width":640,"height":480}}', /PARLEY_VIDEO_RESOLUTION_TIERS: .*width, height and frameRate/],
    ['a key that is no peer count', '{"many":{"width":640,"height":480,"frameRate":30}}', /peer-count key/],
  ])('refuses %s with a clear error', (_case, value, message) => {
    expect(() => readSettings({ PARLEY_VIDEO_RESOLUTION_TIERS: value })).toThrow(message);
  });
});

describe('PARLEY_XMPP_SERVER: which XMPP server carries signalling (Prosody by default)', () => {
  it('defaults to Prosody', () => {
    expect(readSettings({}).xmppServer).toBe('prosody');
  });

  it('picks ejabberd', () => {
    expect(readSettings({ PARLEY_XMPP_SERVER: 'ejabberd' }).xmppServer).toBe('ejabberd');
  });

  it('refuses a server it does not run, naming the ones it does', () => {
    expect(() => readSettings({ PARLEY_XMPP_SERVER: 'openfire' })).toThrow('PARLEY_XMPP_SERVER must be one of prosody, ejabberd, got "openfire"');
  });
});

describe('PARLEY_XMPP_CLUSTER: ejabberd nodes join into one cluster over Erlang distribution', () => {
  it('runs a node on its own by default', () => {
    expect(readSettings({ PARLEY_XMPP_SERVER: 'ejabberd' }).xmppCluster).toBeUndefined();
  });

  it('reads the distribution port, this node’s address and the nodes to join', () => {
    const settings = readSettings({
      PARLEY_XMPP_SERVER: 'ejabberd',
      PARLEY_XMPP_DISTRIBUTION_PORT: '4370',
      PARLEY_XMPP_NODE_ADDRESS: '10.0.0.3',
      PARLEY_XMPP_CLUSTER: 'parley@10.0.0.2, parley@10.0.0.4',
    });
    expect(settings.xmppCluster).toEqual({ address: '10.0.0.3', distributionPort: 4370, join: ['parley@10.0.0.2', 'parley@10.0.0.4'] });
  });

  it('refuses nodes to join without the distribution port they listen on', () => {
    expect(() => readSettings({ PARLEY_XMPP_SERVER: 'ejabberd', PARLEY_XMPP_CLUSTER: 'parley@10.0.0.2' })).toThrow(/needs PARLEY_XMPP_DISTRIBUTION_PORT/);
  });

  it('refuses a cluster of Prosody, which has none', () => {
    expect(() => readSettings({ PARLEY_XMPP_DISTRIBUTION_PORT: '4370' })).toThrow(/need PARLEY_XMPP_SERVER=ejabberd/);
  });
});

describe('Relay doors: PARLEY_RELAY_AUTH_TIMEOUT_MS, _CONNECTIONS_PER_USER, _CONNECTIONS_PER_ADDRESS, _INGESTS_PER_USER, _TRANSPORTS_PER_ADDRESS', () => {
  it('default to RELAY_LIMITS and are read from the environment', () => {
    expect(readSettings({}).relayLimits).toEqual(RELAY_LIMITS);
    const limits = readSettings({
      PARLEY_RELAY_AUTH_TIMEOUT_MS: '2000',
      PARLEY_RELAY_CONNECTIONS_PER_USER: '2',
      PARLEY_RELAY_CONNECTIONS_PER_ADDRESS: '500',
      PARLEY_RELAY_INGESTS_PER_USER: '3',
      PARLEY_RELAY_TRANSPORTS_PER_ADDRESS: '4096',
    }).relayLimits;
    expect(limits).toEqual({ ...RELAY_LIMITS, authTimeoutMs: 2000, connectionsPerUser: 2, connectionsPerAddress: 500, ingestsPerUser: 3, transportsPerAddress: 4096 });
  });

  it('refuses 0, which would refuse every client', () => {
    expect(() => readSettings({ PARLEY_RELAY_CONNECTIONS_PER_USER: '0' })).toThrow('PARLEY_RELAY_CONNECTIONS_PER_USER must be at least 1, got "0"');
  });
});

describe('PARLEY_XMPP_RECONNECTS_PER_SECOND: how fast the gateway tells waiting clients the XMPP server is back', () => {
  it('is 200 by default, takes a positive integer, and refuses 0', () => {
    expect(readSettings({}).xmppReconnectsPerSecond).toBe(200);
    expect(readSettings({ PARLEY_XMPP_RECONNECTS_PER_SECOND: '50' }).xmppReconnectsPerSecond).toBe(50);
    expect(() => readSettings({ PARLEY_XMPP_RECONNECTS_PER_SECOND: '0' })).toThrow(/at least 1/);
  });
});

describe('PARLEY_XMPP_CONNECTIONS_PER_ADDRESS: XMPP websockets the gateway carries at once from one client address (raised behind a load balancer, whose address every client shares)', () => {
  it('is 64 by default, takes a positive integer, and refuses 0', () => {
    expect(readSettings({}).xmppConnectionsPerAddress).toBe(64);
    expect(readSettings({ PARLEY_XMPP_CONNECTIONS_PER_ADDRESS: '5000' }).xmppConnectionsPerAddress).toBe(5000);
    expect(() => readSettings({ PARLEY_XMPP_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(/at least 1/);
  });
});

describe('PARLEY_XMPP_READY_WAITERS_PER_ADDRESS: questions to GET /api/xmpp-ready held from one client address (raised behind a load balancer, whose address every client shares)', () => {
  it('is 32 by default, takes a positive integer, and refuses 0', () => {
    expect(readSettings({}).xmppReadyWaitersPerAddress).toBe(32);
    expect(readSettings({ PARLEY_XMPP_READY_WAITERS_PER_ADDRESS: '20000' }).xmppReadyWaitersPerAddress).toBe(20000);
    expect(() => readSettings({ PARLEY_XMPP_READY_WAITERS_PER_ADDRESS: '0' })).toThrow(/at least 1/);
  });
});

describe('PARLEY_MAX_OCCUPANTS: the occupant limit per room, none by default', () => {
  it('is unlimited unless set, takes a positive integer, and refuses 0, which would refuse every join', () => {
    expect(readSettings({}).maxOccupants).toBeUndefined();
    expect(readSettings({ PARLEY_MAX_OCCUPANTS: '12' }).maxOccupants).toBe(12);
    expect(() => readSettings({ PARLEY_MAX_OCCUPANTS: '0' })).toThrow('PARLEY_MAX_OCCUPANTS must be at least 1, got "0"');
  });
});

describe('PARLEY_GATEWAY_BUFFER_BYTES: what the websocket proxy holds per connection and direction', () => {
  it('defaults to 1 MiB and is read from the environment', () => {
    expect(readSettings({}).gatewayBufferBytes).toBe(1024 * 1024);
    expect(readSettings({ PARLEY_GATEWAY_BUFFER_BYTES: '65536' }).gatewayBufferBytes).toBe(65536);
  });
});

describe('PARLEY_ICE_SERVERS: the ICE servers clients get in their config, checked at startup by the clients’ own parser', () => {
  it('takes RTCIceServer objects and the provider’s {type, host, port} form', () => {
    const servers = [{ urls: 'stun:stun.example.org:3478' }, { type: 'turn', host: 'turn.example.org', port: 3478, username: 'u', password: 'p' }];
    expect(readSettings({ PARLEY_ICE_SERVERS: JSON.stringify(servers) }).iceServers).toEqual(servers);
  });

  it.each([
    ['a bare URL', '["stun:stun.example.org:3478"]', /PARLEY_ICE_SERVERS\[0\]: iceServers entry must be an object/],
    ['`url` for `urls`', '[{"url":"stun:stun.example.org:3478"}]', /PARLEY_ICE_SERVERS\[0\]: iceServers type must be a string/],
    ['an unknown type', '[{"urls":"stun:a.example"},{"type":"udp","host":"b.example"}]', /PARLEY_ICE_SERVERS\[1\]: unknown ICE server type udp/],
  ])('refuses %s, naming the variable and the entry', (_case, value, message) => {
    expect(() => readSettings({ PARLEY_ICE_SERVERS: value })).toThrow(message);
  });
});

describe('PARLEY_PUBLIC_URL: the origin the config’s addresses point at, an http or https URL', () => {
  it('takes an https URL', () => {
    expect(readSettings({ PARLEY_PUBLIC_URL: 'https://parley.example.org' }).publicUrl).toBe('https://parley.example.org');
  });

  it.each([
    ['no scheme', 'parley.example.org'],
    ['another scheme', 'ftp://parley.example.org'],
  ])('refuses a URL with %s, naming the variable', (_case, value) => {
    expect(() => readSettings({ PARLEY_PUBLIC_URL: value })).toThrow(`PARLEY_PUBLIC_URL must be an http:// or https:// URL, got "${value}"`);
  });
});

describe('PARLEY_CREDENTIAL_TTL_SECONDS: how long an issued credential stays valid', () => {
  it('refuses 0, which would issue credentials already expired', () => {
    expect(() => readSettings({ PARLEY_CREDENTIAL_TTL_SECONDS: '0' })).toThrow('PARLEY_CREDENTIAL_TTL_SECONDS must be a positive integer, got "0"');
  });
});

/** A token secret of the shortest length taken. */
const SECRET = 's'.repeat(32);

describe('PARLEY_TOKEN_SECRET: at least 32 characters, as strong as the one Parley makes for itself', () => {
  it('takes 32 characters and refuses 31, saying how long it must be', () => {
    expect(readSettings({ PARLEY_TOKEN_SECRET: SECRET }).tokenSecret).toBe(SECRET);
    expect(() => readSettings({ PARLEY_TOKEN_SECRET: SECRET.slice(1) })).toThrow('PARLEY_TOKEN_SECRET must be at least 32 characters (e.g. openssl rand -base64 32), got 31');
  });
});

describe('PARLEY_USER_TOKEN_SECRET: never the token secret, so that Parley’s own credentials never pass as a product user’s token', () => {
  it('refuses a user token secret equal to PARLEY_TOKEN_SECRET, and takes another', async () => {
    await expect(resolveSettings(readSettings({ PARLEY_TOKEN_SECRET: SECRET, PARLEY_USER_TOKEN_SECRET: SECRET }))).rejects.toThrow(
      /^PARLEY_USER_TOKEN_SECRET must differ from the token secret/,
    );
    expect((await resolveSettings(readSettings({ PARLEY_TOKEN_SECRET: SECRET, PARLEY_USER_TOKEN_SECRET: 'product-backend-secret' }))).userTokenSecret).toBe(
      'product-backend-secret',
    );
  });
});

describe('PORT: the gateway’s port, 0 for a free one', () => {
  it('takes 0 and 65535 and refuses what is no port, naming the variable', () => {
    expect(readSettings({ PORT: '0' }).port).toBe(0);
    expect(readSettings({ PORT: '65535' }).port).toBe(65535);
    for (const value of ['65536', '99999']) expect(() => readSettings({ PORT: value })).toThrow(`PORT must be a port number (1-65535), got "${value}"`);
  });
});

describe('The XMPP server’s process gets the environment without Parley’s settings: no PARLEY_TOKEN_SECRET or PARLEY_USER_TOKEN_SECRET', () => {
  it('starts the server with every variable but the PARLEY_ ones', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'parley-server-env-'));
    try {
      const printed: string[] = [];
      const env = { ...process.env, PARLEY_TOKEN_SECRET: SECRET, PARLEY_USER_TOKEN_SECRET: 'product-backend-secret', KEPT: 'yes' };
      const child = new ServerProcess('/usr/bin/env', [], { cwd, env, log: (line) => printed.push(line) });
      await child.exited;
      expect(printed).toContain('KEPT=yes');
      expect(printed.filter((line) => line.startsWith('PARLEY_'))).toEqual([]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('A server entry takes the token secrets out of its own environment, for mediasoup’s workers inherit it', () => {
  it('returns the whole environment to read and leaves the environment without the two secrets but with every other setting', () => {
    const env: NodeJS.ProcessEnv = { PARLEY_TOKEN_SECRET: SECRET, PARLEY_USER_TOKEN_SECRET: 'product-backend-secret', PARLEY_DATA_DIR: '/data', PATH: '/usr/bin' };
    const whole = takeParleySecrets(env);
    expect(readSettings(whole).tokenSecret).toBe(SECRET);
    expect(readSettings(whole).userTokenSecret).toBe('product-backend-secret');
    expect(env).toEqual({ PARLEY_DATA_DIR: '/data', PATH: '/usr/bin' });
  });
});
