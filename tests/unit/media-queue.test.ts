import { describe, expect, it } from 'vitest';
import { OperationQueue, QueueClosedError } from '../../src/common/OperationQueue';
import { flushMicrotasks } from '../support/ManualClock';

/** A promise the test settles by hand. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe('Media operations run one at a time, in the order they were asked for (OperationQueue, as mediasoup-client’s AwaitQueue)', () => {
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
