// SPEC §4 lock state, as the session's RoomLock runs it against a room that refuses the change: the
// password a rejoin provides stays what the room has, and the owner's tab is told
// (ModerationRefusedError, as for a refused kick), so that it can say the lock stands as it was.
import type { Agent } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { Room } from '../../src/protocol/entities';
import { ModerationRefusedError } from '../../src/protocol/errors';
import { RoomEventLog } from '../../src/shared-worker/roomEvents/RoomEventLog';
import { RoomLock } from '../../src/shared-worker/rooms/RoomLock';
import { RoomRecords } from '../../src/shared-worker/rooms/RoomRecords';
import { StateStore } from '../../src/shared-worker/StateStore';
import { ManualClock } from '../support/ManualClock';
import { ROOM, room } from './callTab-fakes';
import { testSessionContext } from '../support/testSessionContext';

const FORBIDDEN = { type: 'error', error: { type: 'auth', condition: 'forbidden' } };

/** Alice's session, owner of a joined room as `lockState` says, on a client whose room answers a configuration change with `answer`. */
function ownerOf(lockState: Partial<Room>, answer: () => Promise<unknown>) {
  const store = new StateStore();
  store.upsert('rooms', 'room-1', room(lockState));
  const logged: string[] = [];
  const client = { configureRoom: answer } as unknown as Agent;
  const clock = new ManualClock();
  const context = testSessionContext({ store, clock, client, log: { info: () => {}, error: (message: string) => logged.push(message) } });
  const lock = new RoomLock(context, new RoomRecords(store), new RoomEventLog(store, clock));
  /** What a rejoin of the room would provide (RoomsDomain.runJoin), and what the record says of the lock. */
  const lockRecord = () => {
    const { providedPassword, password, passwordRequired } = store.state.rooms['room-1']!;
    return { providedPassword, password, passwordRequired };
  };
  return { lock, logged, lockRecord };
}

/** What the command rejected with, once it has settled; undefined when it resolved. */
function refusalOf(command: Promise<void>): Promise<unknown> {
  return command.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('SPEC §4 lock state: a lock or unlock the room refuses changes nothing we provide on a rejoin, and rejects with ModerationRefusedError (logged)', () => {
  it('an open room whose lock is refused: a rejoin provides no password, and the refusal is said', async () => {
    const { lock, logged, lockRecord } = ownerOf({}, () => Promise.reject(FORBIDDEN));
    const refusal = await refusalOf(lock.lock(ROOM, 'p4ss'));
    expect(lockRecord()).toEqual({ providedPassword: undefined, password: undefined, passwordRequired: false });
    expect(refusal).toBeInstanceOf(ModerationRefusedError);
    expect(refusal).toMatchObject({ condition: 'forbidden', message: 'The room refused to be locked: forbidden' });
    expect(logged).toEqual([expect.stringContaining(`Could not lock room ${ROOM}`)]);
  });

  it('a locked room whose new password is refused keeps the one it has; one whose unlock is refused stays locked with it', async () => {
    const locked = { providedPassword: 'old', password: 'old', passwordRequired: true };
    const changing = ownerOf(locked, () => Promise.reject(FORBIDDEN));
    const refusal = await refusalOf(changing.lock.lock(ROOM, 'new'));
    expect(changing.lockRecord()).toEqual(locked);
    expect(refusal).toBeInstanceOf(ModerationRefusedError);

    const unlocking = ownerOf(locked, () => Promise.reject(FORBIDDEN));
    const unlockRefusal = await refusalOf(unlocking.lock.unlock(ROOM));
    expect(unlocking.lockRecord()).toEqual(locked);
    expect(unlockRefusal).toMatchObject({ condition: 'forbidden', message: 'The room refused to be unlocked: forbidden' });
    expect(unlocking.logged).toEqual([expect.stringContaining(`Could not unlock room ${ROOM}`)]);
  });

  it('a lock the room takes is the password a rejoin provides; an unlock it takes provides none', async () => {
    const { lock, lockRecord } = ownerOf({}, async () => ({ type: 'result' }));
    await lock.lock(ROOM, 'p4ss');
    expect(lockRecord()).toEqual({ providedPassword: 'p4ss', password: 'p4ss', passwordRequired: true });
    await lock.unlock(ROOM);
    expect(lockRecord()).toEqual({ providedPassword: undefined, password: undefined, passwordRequired: false });
  });
});
