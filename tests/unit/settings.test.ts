import { describe, expect, it } from 'vitest';
import { readSettings } from '../../server/settings';
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

describe('Relay doors: PARLEY_RELAY_AUTH_TIMEOUT_MS, _CONNECTIONS_PER_USER, _CONNECTIONS_PER_ADDRESS, _INGESTS_PER_USER', () => {
  it('default to RELAY_LIMITS and are read from the environment', () => {
    expect(readSettings({}).relayLimits).toEqual(RELAY_LIMITS);
    const limits = readSettings({
      PARLEY_RELAY_AUTH_TIMEOUT_MS: '2000',
      PARLEY_RELAY_CONNECTIONS_PER_USER: '2',
      PARLEY_RELAY_CONNECTIONS_PER_ADDRESS: '500',
      PARLEY_RELAY_INGESTS_PER_USER: '3',
    }).relayLimits;
    expect(limits).toEqual({ ...RELAY_LIMITS, authTimeoutMs: 2000, connectionsPerUser: 2, connectionsPerAddress: 500, ingestsPerUser: 3 });
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

describe('PARLEY_GATEWAY_BUFFER_BYTES: what the websocket proxy holds per connection and direction', () => {
  it('defaults to 1 MiB and is read from the environment', () => {
    expect(readSettings({}).gatewayBufferBytes).toBe(1024 * 1024);
    expect(readSettings({ PARLEY_GATEWAY_BUFFER_BYTES: '65536' }).gatewayBufferBytes).toBe(65536);
  });
});
