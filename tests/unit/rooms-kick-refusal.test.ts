// SPEC §6 kick, as the session's moderation runs it against a room that refuses: the owner's tab is
// told (ModerationRefusedError, as the ban list commands), so that it can say the person stays.
import type { Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/common/clock';
import { ModerationRefusedError } from '../../src/protocol/errors';
import { RoomModeration } from '../../src/shared-worker/rooms/RoomModeration';
import { RoomRecords } from '../../src/shared-worker/rooms/RoomRecords';
import { StateStore } from '../../src/shared-worker/StateStore';
import { BOB, peer, room } from './callTab-fakes';
import { testSessionContext } from '../support/testSessionContext';

/** Alice's session, owner of a joined room Bob is in, on a client whose room answers an affiliation change with `answer`. */
function moderationOf(answer: () => Promise<unknown>): { moderation: RoomModeration; logged: string[] } {
  const store = new StateStore();
  store.upsert('rooms', 'room-1', room());
  store.upsert('peers', BOB, peer(BOB, { displayName: 'Bob', userAddress: 'bob@parley.test/phone' }));
  const logged: string[] = [];
  const client = { setRoomAffiliation: answer, getRoomMembers: async () => ({ muc: { users: [] } }) } as unknown as Agent;
  const context = testSessionContext({ store, clock: systemClock, client, log: { info: () => {}, error: (message: string) => logged.push(message) } });
  return { moderation: new RoomModeration(context, new RoomRecords(store)), logged };
}

describe('SPEC §6 kick: a kick the room refuses rejects with ModerationRefusedError, as listBans and liftBan do, and is logged', () => {
  it('rejects with the room’s condition and logs the refusal', async () => {
    const { moderation, logged } = moderationOf(() => Promise.reject({ type: 'error', error: { type: 'cancel', condition: 'not-allowed' } }));
    const kicking = moderation.kick(BOB);
    await expect(kicking).rejects.toThrow(ModerationRefusedError);
    await expect(kicking).rejects.toMatchObject({ condition: 'not-allowed' });
    expect(logged).toEqual([expect.stringContaining(`The room refused to kick ${BOB}: not-allowed`)]);
  });

  it('resolves once the room has banned the person', async () => {
    const { moderation, logged } = moderationOf(async () => ({ type: 'result' }));
    await expect(moderation.kick(BOB)).resolves.toBeUndefined();
    expect(logged).toEqual([]);
  });
});
