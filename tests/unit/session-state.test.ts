import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/protocol/entities';
import { applyPatches, initialSessionState } from '../../src/protocol/session-state';
import { StateStore } from '../../src/shared-worker/StateStore';
import type { StateMessage } from '../../src/protocol/session-state';
import { OWN_MEDIA_DEFAULTS } from '../../src/shared-worker/rooms/callRecord';

const call = (roomAddress: string): CallRecord => ({
  roomAddress,
  joined: false,
  joinedAt: undefined,
  requestingMedia: 'video',
  allowedMedia: 'video',
  allowedAudioRoles: ['moderator', 'participant'],
  allowedVideoRoles: ['moderator', 'participant'],
  recordable: false,
  ownMedia: OWN_MEDIA_DEFAULTS,
  heldPeers: [],
  recordingState: 'offline',
  state: 'active',
});

describe('Tabs mirror the state of record through a snapshot and ordered patches', () => {
  it('applies upserts and removals in order without touching the previous state', () => {
    const before = initialSessionState();
    const after = applyPatches(before, [
      { kind: 'upsert', collection: 'calls', id: 'a', value: call('a') },
      { kind: 'upsert', collection: 'calls', id: 'b', value: call('b') },
      { kind: 'remove', collection: 'calls', id: 'a' },
    ]);
    expect(Object.keys(after.calls)).toEqual(['b']);
    expect(before.calls).toEqual({});
    expect(after.rooms).toBe(before.rooms);
  });

  it('gives a late subscriber a snapshot that already holds every applied patch, then only newer batches', async () => {
    const store = new StateStore();
    store.apply({ kind: 'upsert', collection: 'calls', id: 'a', value: call('a') });
    const received: StateMessage[] = [];
    store.subscribe((message) => received.push(message));
    store.apply({ kind: 'upsert', collection: 'calls', id: 'b', value: call('b') });
    store.apply({ kind: 'remove', collection: 'calls', id: 'a' });
    await Promise.resolve();
    expect(received).toHaveLength(2);
    const [snapshot, batch] = received;
    expect(snapshot?.type === 'snapshot' && Object.keys(snapshot.state.calls)).toEqual(['a']);
    // One message for the burst, in order, and the mirror ends where the store is.
    expect(batch?.type === 'patches' && batch.patches.map((patch) => patch.kind)).toEqual(['upsert', 'remove']);
    const mirror = received.reduce((state, message) => (message.type === 'snapshot' ? message.state : applyPatches(state, message.patches)), initialSessionState());
    expect(mirror).toEqual(store.state);
  });
});
