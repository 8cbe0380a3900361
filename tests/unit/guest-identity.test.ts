import { describe, expect, it } from 'vitest';
import { IDENTITY_READ_WITHIN_MS } from '../../src/protocol/clientDefaults';
import { LIMITS } from '../../src/protocol/constants';
import { GuestIdentity } from '../../src/shared-worker/identity/GuestIdentity';
import { MemoryIdentityStorage, ReadAheadIdentityStorage, type IdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';

const clock = new ManualClock();

function logged(): { info: string[]; log: { info: (message: string) => void; error: (message: string) => void } } {
  const info: string[] = [];
  return { info, log: { info: (message) => info.push(message), error: (message) => info.push(`error: ${message}`) } };
}

/** A fake storage that fails as a blocked or broken IndexedDB does: a real one cannot be made to in Node. */
const brokenStorage: IdentityStorage = {
  load: () => Promise.reject(new Error('The operation failed for reasons unrelated to the database itself')),
  save: () => Promise.reject(new Error('quota exceeded')),
};

describe("the shared worker's stored identity: the credential a config carried is the one the next config request sends", () => {
  it('has none at first, keeps the renewed one, and keeps it when a config carries none (a product user)', async () => {
    const { info, log } = logged();
    const identity = new GuestIdentity(new MemoryIdentityStorage(), log, clock);
    expect(await identity.current()).toBeUndefined();
    await identity.renew('first.identity.credential');
    expect(await identity.current()).toBe('first.identity.credential');
    await identity.renew('renewed.identity.credential');
    await identity.renew(undefined);
    expect(await identity.current()).toBe('renewed.identity.credential');
    expect(info).toEqual([]);
  });

  it('is the same browser for every session given the same storage (a reload)', async () => {
    const browser = new MemoryIdentityStorage();
    await new GuestIdentity(browser, logged().log, clock).renew('kept.identity.credential');
    expect(await new GuestIdentity(browser, logged().log, clock).current()).toBe('kept.identity.credential');
  });

  it.each<[string, unknown]>([
    ['not a string', { credential: 'x' }],
    ['empty', ''],
    ['longer than any credential', 'x'.repeat(LIMITS.identityCredentialLength + 1)],
  ])('sends nothing (the service then issues a new identity) when what is stored is %s, and logs it', async (_case, stored) => {
    const { info, log } = logged();
    const storage = new MemoryIdentityStorage();
    await storage.save(stored as string);
    expect(await new GuestIdentity(storage, log, clock).current()).toBeUndefined();
    expect(info).toEqual(['the stored identity is not a credential; the config service will issue a new one']);
  });

  it('never fails a connect when the storage fails: it logs and goes on without', async () => {
    const { info, log } = logged();
    const identity = new GuestIdentity(brokenStorage, log, clock);
    expect(await identity.current()).toBeUndefined();
    await identity.renew('renewed.identity.credential');
    expect(info).toEqual([
      'could not read the stored identity: Error: The operation failed for reasons unrelated to the database itself',
      'could not store the renewed identity: Error: quota exceeded',
    ]);
  });
});

/** Memory storage that counts its loads. */
class CountedStorage extends MemoryIdentityStorage {
  loads = 0;

  override load(): Promise<unknown> {
    this.loads += 1;
    return super.load();
  }
}

describe('the shared worker reads the stored identity as it starts, before the session’s code has loaded (issue 14, the join path)', () => {
  it('starts the read when made; every load before a save is that read (the config request sent ahead and the session’s), and one after a save reads the storage anew', async () => {
    const storage = new CountedStorage();
    await storage.save('stored.identity.credential');
    const ahead = new ReadAheadIdentityStorage(storage);
    expect(storage.loads).toBe(1);

    expect(await ahead.load()).toBe('stored.identity.credential');
    expect(await ahead.load()).toBe('stored.identity.credential');
    expect(storage.loads).toBe(1);
    await ahead.save('renewed.identity.credential');
    expect(await ahead.load()).toBe('renewed.identity.credential');
    expect(storage.loads).toBe(2);
  });

  it('a credential saved before the first load is what that load gives, not the read made before it', async () => {
    const storage = new CountedStorage();
    await storage.save('stored.identity.credential');
    const ahead = new ReadAheadIdentityStorage(storage);
    await ahead.save('renewed.identity.credential');
    expect(await ahead.load()).toBe('renewed.identity.credential');
  });

  it('a failed read ahead reaches the session’s first connect, which goes on without (no rejection left unhandled)', async () => {
    const { info, log } = logged();
    const identity = new GuestIdentity(new ReadAheadIdentityStorage(brokenStorage), log, clock);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await identity.current()).toBeUndefined();
    expect(info).toEqual(['could not read the stored identity: Error: The operation failed for reasons unrelated to the database itself']);
  });
});

describe(`A stored-identity read that never answers (a hung IndexedDB) counts as failed after IDENTITY_READ_WITHIN_MS (${IDENTITY_READ_WITHIN_MS} ms): the connect goes on without it`, () => {
  it('gives no identity once the read has gone unanswered that long, and logs it', async () => {
    const { info, log } = logged();
    const hungStorage: IdentityStorage = { load: () => new Promise(() => undefined), save: () => Promise.resolve() };
    const fakeTime = new ManualClock();
    let read: string | undefined | 'unsettled' = 'unsettled';
    void new GuestIdentity(hungStorage, log, fakeTime).current().then((identity) => (read = identity));
    await fakeTime.advance(IDENTITY_READ_WITHIN_MS - 1);
    expect(read).toBe('unsettled');
    await fakeTime.advance(1);
    await flushMicrotasks();
    expect(read).toBeUndefined();
    expect(info).toEqual([`could not read the stored identity: Error: no answer within ${IDENTITY_READ_WITHIN_MS} ms`]);
  });

  it('a read that answers in time leaves no timer behind', async () => {
    const fakeTime = new ManualClock();
    const storage = new MemoryIdentityStorage();
    await storage.save('stored.identity.credential');
    expect(await new GuestIdentity(storage, logged().log, fakeTime).current()).toBe('stored.identity.credential');
    expect(fakeTime.pendingDelays()).toEqual([]);
  });
});
