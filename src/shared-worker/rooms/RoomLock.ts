import type { Room } from '../../protocol/entities';
import { ModerationRefusedError, ParleyError, RoomNotJoinedError } from '../../protocol/errors';
import type { SessionContext } from '../SessionContext';
import { refusalCondition } from './banList';
import { expectPassword } from './commandInput';
import { readLockStatus } from './lockStatus';
import { lockForm, roomSecretOf } from './roomLockForm';
import type { AddressedRoom, RoomRecords } from './RoomRecords';
import { stanzaErrorText } from './stanzaErrorText';
import type { RoomEventLog } from '../roomEvents/RoomEventLog';

/**
 * SPEC §4 lock state and §5 / §6 rules: only an owner who has joined may lock, unlock or read the
 * password; anyone else is silently ignored (nothing is sent). A lock or unlock the room does not
 * take is logged (SPEC §8) and rejects with ModerationRefusedError, as the other moderation
 * commands do, so that the owner can be told the lock stands as it was.
 */
export class RoomLock {
  /** Per room, the last lock fact asked for (a check or our own change) and the last one applied. */
  private readonly asked = new Map<string, number>();
  private readonly applied = new Map<string, number>();

  constructor(
    private readonly context: SessionContext,
    private readonly records: RoomRecords,
    private readonly events: RoomEventLog,
  ) {}

  async lock(roomAddress: unknown, password: unknown): Promise<void> {
    const secret = expectPassword(password);
    const room = this.ownedRoom(roomAddress);
    if (!room) return;
    // The password a rejoin provides is recorded with the room's confirmation: a lock the room refuses leaves it as it was.
    await this.configure(room, secret, { providedPassword: secret, password: secret, passwordRequired: true });
  }

  async unlock(roomAddress: unknown): Promise<void> {
    const room = this.ownedRoom(roomAddress);
    if (!room) return;
    await this.configure(room, '', { password: undefined, passwordRequired: false, providedPassword: undefined });
  }

  /** SPEC §5: 'Room not joined' when not joined; owners only (others get undefined). */
  async readPassword(roomAddress: unknown): Promise<string | undefined> {
    const room = this.records.joined(roomAddress);
    const client = this.context.client;
    if (!room || !client) throw new RoomNotJoinedError();
    if (room.selfAffiliation !== 'owner') return undefined;
    let secret: string | undefined;
    try {
      secret = roomSecretOf(await client.getRoomConfig(room.address));
    } catch (error) {
      this.context.log.error(`Could not read the password of room ${room.address}: ${stanzaErrorText(error)}`);
      throw new ParleyError('Could not read the room password');
    }
    this.records.updateIfJoined(room, { password: secret, passwordRequired: secret !== undefined });
    return secret;
  }

  /**
   * The lock check after joining and on status 104: owners read the secret, others disco#info.
   * `announce`: a change found is a line in the chat (not on the check after joining: the room was
   * as it is before we came).
   */
  async check(roomId: string, { announce }: { announce: boolean }): Promise<void> {
    const room = this.records.room(roomId);
    const client = this.context.client;
    if (!room?.address || room.roomState !== 'joined' || !client) return;
    const joined = room as AddressedRoom;
    const order = this.ask(roomId);
    try {
      this.applyLock(joined, await readLockStatus(client, joined.address, joined.selfAffiliation === 'owner'), { announce, order });
    } catch (error) {
      this.context.log.error(`Could not read the lock status of room ${joined.address}: ${stanzaErrorText(error)}`);
    }
  }

  private ownedRoom(roomAddress: unknown): AddressedRoom | undefined {
    const room = this.records.joined(roomAddress);
    return room && room.selfAffiliation === 'owner' && this.context.client ? room : undefined;
  }

  /** PROTOCOL.md "Lock": the submitted room config form; the room's confirmation applies `confirmed`, its refusal rejects. */
  private async configure(room: AddressedRoom, secret: string, confirmed: Partial<Room>): Promise<void> {
    const client = this.context.client;
    if (!client) return;
    try {
      await client.configureRoom(room.address, lockForm(secret));
    } catch (error) {
      this.context.log.error(`Could not ${secret ? 'lock' : 'unlock'} room ${room.address}: ${stanzaErrorText(error)}`);
      throw new ModerationRefusedError(secret ? 'be locked' : 'be unlocked', refusalCondition(error));
    }
    this.applyLock(room, confirmed, { announce: true, order: this.ask(room.id) });
  }

  private ask(roomId: string): number {
    const order = (this.asked.get(roomId) ?? 0) + 1;
    this.asked.set(roomId, order);
    return order;
  }

  /**
   * A lock state learnt from the room; a change of passwordRequired is announced when asked. An
   * answer older than one already applied (a check that was on its way while the owner changed the
   * lock) is stale and dropped, so it can neither undo the change nor announce it twice.
   */
  private applyLock(room: AddressedRoom, change: Partial<Room>, { announce, order }: { announce: boolean; order: number }): void {
    if (order < (this.applied.get(room.id) ?? 0)) return;
    this.applied.set(room.id, order);
    const wasLocked = this.records.room(room.id)?.passwordRequired;
    if (!this.records.updateIfJoined(room, change)) return;
    const locked = this.records.room(room.id)?.passwordRequired;
    if (announce && locked !== undefined && locked !== wasLocked) this.events.add(room.address, locked ? 'locked' : 'unlocked', undefined);
  }
}
