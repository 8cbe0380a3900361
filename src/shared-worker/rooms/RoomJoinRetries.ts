import type { Clock } from '../../common/clock';
import { ROOM_START_RETRY } from '../../protocol/constants';

/**
 * The rooms the session joins again by itself, each with its next join attempt on ROOM_START_RETRY's
 * schedule: one waiting for its start (SPEC §4 waiting), and one we had been in whose rejoin failed
 * (`rejoinRetried`). The delays grow to the schedule's last and stay there until the room is joined,
 * left or the connection goes (`forget`, `clear`).
 */
export class RoomJoinRetries {
  private readonly rooms = new Map<string, { attempts: number; timer: unknown }>();

  constructor(
    private readonly clock: Clock,
    /** The delay is over: send the room's join again (it may have been joined or left meanwhile). */
    private readonly retry: (roomId: string) => void,
  ) {}

  /** The room's join was refused or unanswered (again): its next attempt goes after the schedule's next delay. */
  schedule(roomId: string): void {
    const attempts = this.rooms.get(roomId)?.attempts ?? 0;
    this.forget(roomId);
    const { delaysMs, jitterMs } = ROOM_START_RETRY;
    const delay = delaysMs[Math.min(attempts, delaysMs.length - 1)]! + Math.floor(this.clock.random() * jitterMs);
    const timer = this.clock.setTimeout(() => {
      const entry = this.rooms.get(roomId);
      if (!entry || entry.timer !== timer) return;
      entry.timer = undefined;
      this.retry(roomId);
    }, delay);
    this.rooms.set(roomId, { attempts: attempts + 1, timer });
  }

  /** The room is not to be joined again by itself (joined, left, refused for good): no attempt, and the schedule starts over. */
  forget(roomId: string): void {
    const entry = this.rooms.get(roomId);
    if (entry?.timer !== undefined) this.clock.clearTimeout(entry.timer);
    this.rooms.delete(roomId);
  }

  clear(): void {
    for (const roomId of [...this.rooms.keys()]) this.forget(roomId);
  }
}
