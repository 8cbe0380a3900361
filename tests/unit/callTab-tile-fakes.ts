import type { CallTile } from '../../src/main-thread/callTab/callTiles';

/** Another person's camera tile keyed `key` (their address `room@muc/<key>`), with `change` over it. */
export function tile(key: string, change: Partial<CallTile> = {}): CallTile {
  return {
    key,
    kind: 'camera',
    isSelf: false,
    peerAddress: `room@muc/${key}`,
    displayName: key,
    videoItemId: undefined,
    mirrored: false,
    audioItemIds: [],
    withSound: false,
    muted: false,
    speaking: false,
    lastSpokeAt: undefined,
    volumeLimit: 0.8,
    ...change,
  };
}
