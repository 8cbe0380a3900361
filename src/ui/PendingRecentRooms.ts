import { LIMITS } from '../protocol/constants';

/** The part of the browser's `localStorage` kept rooms need. */
export type RoomsStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const STORAGE_KEY = 'parley.pendingRecentRooms';

/**
 * Rooms on their way to the home page's recent rooms, kept in this browser's localStorage until the
 * session has saved them. The session saves in the origin's shared worker, which ends with the
 * origin's last page: a room opened by a link and left at once, or its tab closed, would be lost
 * with a worker that ended before it saved. Written synchronously, a room is kept even when its page
 * goes in the same task; the next page hands what is left to the session.
 */
export class PendingRecentRooms {
  constructor(
    private readonly storage: () => RoomsStorage,
    private readonly saveRoom: (roomName: string) => Promise<void>,
    /**
     * The rooms this page has asked the session to save and not heard back of, shared by the page's
     * every user of kept rooms: handed over again, an older room asked once more after a newer one
     * would move back ahead of it.
     */
    private readonly askedHere: Set<string> = new Set(),
  ) {}

  /** Keeps `roomName` until the session has saved it, and asks the session to. */
  remember(roomName: string): void {
    this.write([...this.read().filter((name) => name !== roomName), roomName]);
    this.handOver(roomName);
  }

  /** Asks the session to save every room an earlier page left kept, the oldest first. */
  handOverAll(): void {
    for (const roomName of this.read()) if (!this.askedHere.has(roomName)) this.handOver(roomName);
  }

  private handOver(roomName: string): void {
    this.askedHere.add(roomName);
    // Settled either way, it is kept no longer: saved, or refused (a name the session does not take,
    // storage the session cannot write), which asking again would not change.
    const settled = (): void => {
      this.askedHere.delete(roomName);
      this.write(this.read().filter((name) => name !== roomName));
    };
    this.saveRoom(roomName).then(settled, settled);
  }

  /** What storage holds is not trusted: only a list of names, its latest `LIMITS.recentRooms`. */
  private read(): string[] {
    try {
      const value: unknown = JSON.parse(this.storage().getItem(STORAGE_KEY) ?? '[]');
      return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string').slice(-LIMITS.recentRooms) : [];
    } catch {
      return [];
    }
  }

  private write(names: readonly string[]): void {
    try {
      if (names.length === 0) this.storage().removeItem(STORAGE_KEY);
      else this.storage().setItem(STORAGE_KEY, JSON.stringify(names));
    } catch {
      // Storage can be refused (privacy settings): the session's own save is then all there is.
    }
  }
}
