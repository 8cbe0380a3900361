// SPEC §4 destroyed room, as the session's moderation runs it against a room that refuses, or with no
// room to destroy: the owner's tab is told (as a kick's refusal is), so that the dialog can say the
// room stands, instead of closing as if it had gone.
import type { Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/common/clock';
import { ModerationRefusedError, RoomNotJoinedError } from '../../src/protocol/errors';
import { RoomModeration } from '../../src/shared-worker/rooms/RoomModeration';
import { RoomRecords } from '../../src/shared-worker/rooms/RoomRecords';
import { StateStore } from '../../src/shared-worker/StateStore';
import { room, ROOM } from './callTab-fakes';
import { testSessionContext } from '../support/testSessionContext';

/** Alice's session, in a joined room, on a client whose room answers a destroy with `answer` (no client: not connected). */
function moderationOf(answer: (() => Promise<unknown>) | undefined): { moderation: RoomModeration; logged: string[] } {
  const store = new StateStore();
  store.upsert('rooms', 'room-1', room());
  const logged: string[] = [];
  const client = answer && ({ destroyRoom: answer } as unknown as Agent);
  const context = testSessionContext({ store, clock: systemClock, client, log: { info: () => {}, error: (message: string) => logged.push(message) } });
  return { moderation: new RoomModeration(context, new RoomRecords(store)), logged };
}

describe('SPEC §4 destroyed room: a destroy the room refuses rejects with ModerationRefusedError, and is logged; one with no room to destroy rejects too', () => {
  it('rejects with the room’s condition, logs the refusal, and does not count the room as destroyed here', async () => {
    const { moderation, logged } = moderationOf(() => Promise.reject({ type: 'error', error: { type: 'auth', condition: 'forbidden' } }));
    const destroying = moderation.destroy(ROOM, { reason: 'Meeting over' });
    await expect(destroying).rejects.toThrow(ModerationRefusedError);
    await expect(destroying).rejects.toMatchObject({ condition: 'forbidden' });
    expect(logged).toEqual([expect.stringContaining('The room refused to be destroyed: forbidden')]);
    expect(moderation.takeDestroyedHere(ROOM)).toBe(false);
  });

  it('rejects with RoomNotJoinedError while not connected, or for a room not joined, and asks nothing', async () => {
    await expect(moderationOf(undefined).moderation.destroy(ROOM, undefined)).rejects.toThrow(RoomNotJoinedError);
    const asked: unknown[] = [];
    const { moderation } = moderationOf(async () => void asked.push('destroy'));
    await expect(moderation.destroy('elsewhere@muc.parley.test', undefined)).rejects.toThrow(RoomNotJoinedError);
    expect(asked).toEqual([]);
  });

  it('resolves once the room is destroyed', async () => {
    const { moderation, logged } = moderationOf(async () => ({ type: 'result' }));
    await expect(moderation.destroy(ROOM, undefined)).resolves.toBeUndefined();
    expect(logged).toEqual([]);
    expect(moderation.takeDestroyedHere(ROOM)).toBe(true);
  });
});
