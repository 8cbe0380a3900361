import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { PendingRecentRooms, type RoomsStorage } from '../../src/ui/PendingRecentRooms';

/** The browser's localStorage as far as kept rooms use it, in memory: Node has none (a fake, named). */
class MemoryStorage implements RoomsStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** The session's save as a page sees it: each ask answered only when the test says so. */
class SessionSaves {
  readonly asked: string[] = [];
  private readonly answers: Array<{ resolve(): void; reject(error: Error): void }> = [];
  readonly save = (roomName: string): Promise<void> => {
    this.asked.push(roomName);
    return new Promise((resolve, reject) => this.answers.push({ resolve, reject }));
  };
  async answer(index: number, outcome: 'saved' | 'refused'): Promise<void> {
    if (outcome === 'saved') this.answers[index]!.resolve();
    else this.answers[index]!.reject(new Error('refused'));
    await new Promise((settle) => setTimeout(settle, 0));
  }
}

const KEY = 'parley.pendingRecentRooms';

describe('Recent rooms: a room is kept on this device until the session has saved it, for the next page to hand on (beyond the spec)', () => {
  it('keeps a room from the moment it is remembered until the session says it is saved', async () => {
    const storage = new MemoryStorage();
    const session = new SessionSaves();
    new PendingRecentRooms(() => storage, session.save).remember('Weekly Sync');
    expect(session.asked).toEqual(['Weekly Sync']);
    expect(storage.getItem(KEY)).toBe('["Weekly Sync"]');
    await session.answer(0, 'saved');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('hands what an earlier page left unsaved to the session, the oldest first, and keeps each until it is saved', async () => {
    const storage = new MemoryStorage();
    const leaving = new SessionSaves();
    const earlier = new PendingRecentRooms(() => storage, leaving.save);
    earlier.remember('first');
    earlier.remember('second');
    // That page's session ended before it answered.

    const session = new SessionSaves();
    new PendingRecentRooms(() => storage, session.save).handOverAll();
    expect(session.asked).toEqual(['first', 'second']);
    await session.answer(0, 'saved');
    expect(storage.getItem(KEY)).toBe('["second"]');
    await session.answer(1, 'saved');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('a page hands over only what it has not asked for itself: its own rooms on their way are not asked again, out of their order', async () => {
    const storage = new MemoryStorage();
    const session = new SessionSaves();
    const askedHere = new Set<string>();
    const roomPage = new PendingRecentRooms(() => storage, session.save, askedHere);
    const homePage = new PendingRecentRooms(() => storage, session.save, askedHere);
    roomPage.remember('older');
    roomPage.remember('newer');
    homePage.handOverAll();
    expect(session.asked).toEqual(['older', 'newer']);
    await session.answer(0, 'saved');
    await session.answer(1, 'saved');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('a room remembered again moves to the end, once', () => {
    const storage = new MemoryStorage();
    const rooms = new PendingRecentRooms(() => storage, new SessionSaves().save);
    rooms.remember('a');
    rooms.remember('b');
    rooms.remember('a');
    expect(storage.getItem(KEY)).toBe('["b","a"]');
  });

  it('drops a room the session refuses: asking again would not change the answer', async () => {
    const storage = new MemoryStorage();
    const session = new SessionSaves();
    new PendingRecentRooms(() => storage, session.save).remember('x'.repeat(2000));
    await session.answer(0, 'refused');
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('takes from storage only a list of names, its latest LIMITS.recentRooms', () => {
    for (const stored of ['not json', '{"a":1}', '42', '[1, null, {}]']) {
      const storage = new MemoryStorage();
      storage.setItem(KEY, stored);
      const session = new SessionSaves();
      new PendingRecentRooms(() => storage, session.save).handOverAll();
      expect(session.asked).toEqual([]);
    }
    const storage = new MemoryStorage();
    const names = Array.from({ length: LIMITS.recentRooms + 3 }, (_, index) => `room ${index}`);
    storage.setItem(KEY, JSON.stringify([...names.slice(0, 2), 7, ...names.slice(2)]));
    const session = new SessionSaves();
    new PendingRecentRooms(() => storage, session.save).handOverAll();
    expect(session.asked).toEqual(names.slice(-LIMITS.recentRooms));
  });

  it('still asks the session when this browser refuses storage', () => {
    const session = new SessionSaves();
    const refused = (): RoomsStorage => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    const rooms = new PendingRecentRooms(refused, session.save);
    rooms.remember('Weekly Sync');
    rooms.handOverAll();
    expect(session.asked).toEqual(['Weekly Sync']);
  });
});
