import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexedDbRecords } from '../../src/shared-worker/indexedDb';
import { flushMicrotasks } from '../support/ManualClock';

/**
 * A fake of the parts of `indexedDB` IndexedDbRecords uses: a real browser's IndexedDB cannot be made
 * to close a connection or abort a commit on demand here. Requests succeed on the next microtask; a
 * transaction commits or aborts only when the case says so.
 */
class FakeRequest<T> {
  result!: T;
  error: DOMException | null = null;
  onsuccess: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onupgradeneeded: (() => void) | null = null;

  succeedSoon(result: T): this {
    queueMicrotask(() => {
      this.result = result;
      this.onsuccess?.();
    });
    return this;
  }
}

class FakeTransaction {
  error: DOMException | null = null;
  oncomplete: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor(private readonly values: Map<string, unknown>) {}

  objectStore() {
    return {
      get: (key: string) => new FakeRequest<unknown>().succeedSoon(this.values.get(key)),
      put: (value: unknown, key: string) => {
        this.values.set(key, value);
        return new FakeRequest<string>().succeedSoon(key);
      },
    };
  }

  complete(): void {
    this.oncomplete?.();
  }

  abort(error: DOMException): void {
    this.error = error;
    this.onabort?.();
  }
}

class FakeDatabase {
  closed = false;
  onclose: (() => void) | null = null;
  onversionchange: (() => void) | null = null;
  readonly transactions: FakeTransaction[] = [];

  constructor(private readonly values: Map<string, unknown>) {}

  transaction(): FakeTransaction {
    if (this.closed) throw new DOMException('The database connection is closing.', 'InvalidStateError');
    const transaction = new FakeTransaction(this.values);
    this.transactions.push(transaction);
    return transaction;
  }

  close(): void {
    this.closed = true;
  }
}

function fakeIndexedDb() {
  const values = new Map<string, unknown>();
  const connections: FakeDatabase[] = [];
  const factory = {
    open: () => {
      const connection = new FakeDatabase(values);
      connections.push(connection);
      return new FakeRequest<FakeDatabase>().succeedSoon(connection);
    },
  };
  vi.stubGlobal('indexedDB', factory);
  /** Commits every transaction started so far, once its requests have succeeded. */
  const commitAll = async (): Promise<void> => {
    await flushMicrotasks();
    for (const connection of connections) for (const transaction of connection.transactions) transaction.complete();
  };
  const connection = (index: number): FakeDatabase => {
    const opened = connections[index];
    if (!opened) throw new Error(`no connection ${index} was opened`);
    return opened;
  };
  return { connections, connection, commitAll };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Records kept in IndexedDB: a write is saved only once committed, and a connection the browser closed is opened again', () => {
  it('opens the database again after the browser closed the connection (the site’s data cleared), instead of failing every later use', async () => {
    const { connections, connection, commitAll } = fakeIndexedDb();
    const records = new IndexedDbRecords('parley', 'preferences');
    const first = records.write('user', { displayName: 'Ada' });
    await commitAll();
    await first;

    connection(0).closed = true;
    connection(0).onclose?.();
    const second = records.write('user', { displayName: 'Bea' });
    await commitAll();
    await second;

    expect(connections).toHaveLength(2);
    expect(await records.read('user')).toEqual({ displayName: 'Bea' });
  });

  it('lets go of its connection when another page deletes the database, and opens a new one at its next use', async () => {
    const { connections, connection } = fakeIndexedDb();
    const records = new IndexedDbRecords('parley', 'preferences');
    await records.read('user');

    connection(0).onversionchange?.();
    expect(connection(0).closed).toBe(true);
    await records.read('user');
    expect(connections).toHaveLength(2);
  });

  it('refuses a write whose commit fails after its put succeeded (a full quota), with the browser’s error', async () => {
    const { connection } = fakeIndexedDb();
    const records = new IndexedDbRecords('parley', 'preferences');
    let outcome: string | undefined;
    const writing = records.write('user', { displayName: 'Ada' }).then(
      () => (outcome = 'saved'),
      (error: unknown) => (outcome = `refused: ${(error as DOMException).name}`),
    );
    await flushMicrotasks();
    expect(outcome).toBeUndefined();

    const [transaction] = connection(0).transactions;
    transaction?.abort(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    await writing;
    expect(outcome).toBe('refused: QuotaExceededError');
  });
});
