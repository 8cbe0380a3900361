import { describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { configLifetimeMs, parseProviderConfig, parseRoomConfigResponse, tokenLifetimeMs } from '../../src/protocol/config';
import { VIDEO_RESOLUTION_TIERS } from '../../src/protocol/constants';
import { ValidationError } from '../../src/protocol/errors';
import { roomNameToLocalpart } from '../../src/protocol/rooms';

const minimal = {
  credential: 'c',
  id: 'id1',
  roomConfigUrl: 'http://h/api/room-config',
  signalingUrl: 'ws://h/xmpp-websocket',
  userId: 'u@h',
};

describe('Config responses are validated at the boundary (SPEC §7 fields)', () => {
  it('fills the spec defaults: resolution tiers of §9, no relay, no ICE servers', () => {
    const config = parseProviderConfig(minimal);
    expect(config.videoResolutionTiers).toEqual(VIDEO_RESOLUTION_TIERS);
    expect(config.sfuServer).toBeUndefined();
    expect(config.iceServers).toEqual([]);
  });

  it('reads the provider form of ICE servers as RTCIceServer', () => {
    const config = parseProviderConfig({
      ...minimal,
      iceServers: [
        { type: 'stun', host: 'stun.example', port: 3478 },
        { type: 'turn', host: 'turn.example', port: 3478, transport: 'udp', username: 'u', password: 'p' },
        { urls: ['stun:a.example'] },
      ],
    });
    expect(config.iceServers).toEqual([
      { urls: 'stun:stun.example:3478' },
      { urls: 'turn:turn.example:3478?transport=udp', username: 'u', credential: 'p' },
      { urls: ['stun:a.example'] },
    ]);
  });

  it('defaults the relay minimum peer count to 2', () => {
    expect(parseProviderConfig({ ...minimal, sfuServer: { url: 'ws://r', password: 'p' } }).sfuServer?.minimumPeers).toBe(2);
  });

  it('rejects missing or mistyped fields with a clear error', () => {
    expect(() => parseProviderConfig({ ...minimal, credential: undefined })).toThrow('credential must be a string');
    expect(() => parseProviderConfig({ ...minimal, iceServers: 'x' })).toThrow(ValidationError);
    expect(() => parseProviderConfig({ ...minimal, videoResolutionTiers: { a: { width: 1 } } })).toThrow(ValidationError);
    expect(() => parseProviderConfig([])).toThrow('config response must be an object');
    expect(() => parseRoomConfigResponse({})).toThrow('roomAddress must be a string');
  });
});

describe('Room names become valid MUC localparts', () => {
  it('lowercases and replaces what a localpart may not hold', () => {
    expect(roomNameToLocalpart('Team Sync')).toBe('team-sync');
    expect(roomNameToLocalpart("  a@b/c:d<e>f&g'h\"i  ")).toBe('a-b-c-d-e-f-g-h-i');
    expect(roomNameToLocalpart('Ｆｕｌｌ')).toBe('full');
  });

  it('refuses a name with nothing usable in it, or one that is too long', () => {
    expect(() => roomNameToLocalpart(' @@ ')).toThrow('room name is empty');
    expect(() => roomNameToLocalpart('x'.repeat(300))).toThrow(ValidationError);
  });
});

describe('A config’s lifetime, read from its tokens’ own claims (exp less iat), for its refresh (CONFIG_REFRESH)', () => {
  const token = (claims: Record<string, unknown>) => signToken('secret', claims);

  it('is the shortest of the credential’s and the relay token’s, relative to their issue', () => {
    const credential = token({ sub: 'u', iat: 1_000, exp: 1_000 + 43_200, name: 'Zoë' });
    expect(tokenLifetimeMs(credential)).toBe(43_200_000);
    const password = token({ sub: 'u', aud: 'relay', iat: 1_010, exp: 1_010 + 600 });
    expect(configLifetimeMs({ credential, sfuServer: { url: 'wss://h/relay', password, minimumPeers: 2 } })).toBe(600_000);
    expect(configLifetimeMs({ credential, sfuServer: undefined })).toBe(43_200_000);
  });

  it('is not known for an opaque credential, or claims without iat and a later exp', () => {
    expect(tokenLifetimeMs('c')).toBeUndefined();
    expect(tokenLifetimeMs('a.%%%.b')).toBeUndefined();
    expect(tokenLifetimeMs(token({ sub: 'u', exp: 2_000 }))).toBeUndefined();
    expect(tokenLifetimeMs(token({ sub: 'u', iat: 2_000, exp: 2_000 }))).toBeUndefined();
    expect(configLifetimeMs({ credential: 'c', sfuServer: undefined })).toBeUndefined();
  });
});
