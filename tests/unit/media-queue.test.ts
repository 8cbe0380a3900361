import { describe, expect, it } from 'vitest';
import { UPDATE_QUEUE } from '../../src/protocol/constants';
import { OperationQueue, QueueClosedError } from '../../src/common/OperationQueue';
import { UpdateQueue, type UpdateBatch } from '../../src/main-thread/media/UpdateQueue';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';

/** A promise the test settles by hand. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe('OperationQueue', () => {
  it('runs operations one at a time in push order, each settling with its own result', async () => {
    const queue = new OperationQueue();
    const log: string[] = [];
    const firstGate = gate();
    const first = queue.push('first', async () => {
      log.push('first start');
      await firstGate.promise;
      log.push('first end');
      return 1;
    });
    const second = queue.push('second', async () => {
      log.push('second start');
      return 2;
    });
    await flushMicrotasks();
    expect(log).toEqual(['first start']);
    expect(queue.size).toBe(2);
    firstGate.open();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(log).toEqual(['first start', 'first end', 'second start']);
    expect(queue.size).toBe(0);
  });

  it('rejects only the failing operation, including one that throws before returning a promise', async () => {
    const queue = new OperationQueue();
    const failing = queue.push('failing', () => {
      throw new Error('boom');
    });
    const next = queue.push('next', async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('on close, lets the running operation finish and rejects the rest', async () => {
    const queue = new OperationQueue();
    const running = gate();
    const first = queue.push('first', async () => {
      await running.promise;
      return 'done';
    });
    const waiting = queue.push('waiting', async () => 'never');
    await flushMicrotasks();
    queue.close();
    running.open();
    await expect(first).resolves.toBe('done');
    await expect(waiting).rejects.toBeInstanceOf(QueueClosedError);
    await expect(queue.push('late', async () => 'never')).rejects.toThrow('late was not run: the queue is closed');
  });
});

describe('UpdateQueue (SPEC §9: 100 ms debounce, default priority 1)', () => {
  function setup() {
    const clock = new ManualClock();
    const batches: UpdateBatch[] = [];
    const errors: unknown[] = [];
    let hold: Promise<void> | undefined;
    const queue = new UpdateQueue(
      async (batch) => {
        batches.push(batch);
        await hold;
      },
      clock,
      (error) => errors.push(error),
    );
    return { clock, queue, batches, errors, holdNextRuns: (until: Promise<void> | undefined) => (hold = until) };
  }

  it('gathers the requests of one 100 ms window into one run', async () => {
    const { clock, queue, batches } = setup();
    queue.request('peer-joined');
    await clock.advance(60);
    queue.request('media-shared');
    queue.request('peer-joined');
    await clock.advance(UPDATE_QUEUE.debounceMs - 61);
    expect(batches).toEqual([]);
    await clock.advance(1);
    expect(batches).toEqual([{ priority: UPDATE_QUEUE.defaultPriority, reasons: ['peer-joined', 'media-shared'] }]);
  });

  it('runs lower priority numbers first, one batch at a time, and folds requests into a waiting batch', async () => {
    const { clock, queue, batches, holdNextRuns } = setup();
    const running = gate();
    holdNextRuns(running.promise);
    queue.request('first');
    await clock.advance(UPDATE_QUEUE.debounceMs);
    expect(batches).toHaveLength(1);

    queue.request('routine');
    queue.request('session-ended', 0);
    await clock.advance(UPDATE_QUEUE.debounceMs);
    queue.request('routine-again');
    await clock.advance(UPDATE_QUEUE.debounceMs);
    expect(batches).toHaveLength(1);

    holdNextRuns(undefined);
    running.open();
    await flushMicrotasks();
    expect(batches.map((batch) => [batch.priority, batch.reasons])).toEqual([
      [1, ['first']],
      [0, ['session-ended']],
      [1, ['routine', 'routine-again']],
    ]);
  });

  it('hands a failed run to onError and carries on', async () => {
    const clock = new ManualClock();
    const errors: unknown[] = [];
    const ran: string[] = [];
    const queue = new UpdateQueue(
      async (batch) => {
        ran.push(...batch.reasons);
        if (batch.reasons.includes('bad')) throw new Error('update failed');
      },
      clock,
      (error) => errors.push(error),
    );
    queue.request('bad');
    await clock.advance(UPDATE_QUEUE.debounceMs);
    queue.request('good');
    await clock.advance(UPDATE_QUEUE.debounceMs);
    expect(ran).toEqual(['bad', 'good']);
    expect(errors).toEqual([new Error('update failed')]);
  });

  it('drops what has not started when closed', async () => {
    const { clock, queue, batches } = setup();
    queue.request('pending');
    queue.close();
    queue.request('late');
    await clock.advance(UPDATE_QUEUE.debounceMs * 2);
    expect(batches).toEqual([]);
    expect(clock.pendingDelays()).toEqual([]);
  });
});
