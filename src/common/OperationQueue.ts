/** A queued operation that never ran because its queue was closed. */
export class QueueClosedError extends Error {
  override readonly name = 'QueueClosedError';
  constructor(operation: string) {
    super(`${operation} was not run: the queue is closed`);
  }
}

interface QueuedOperation {
  readonly name: string;
  readonly run: () => Promise<void>;
  readonly reject: (error: Error) => void;
}

/**
 * Runs async operations one at a time, in the order they were pushed (like mediasoup-client's
 * AwaitQueue). Capture and constraint changes go through one queue so that, for example, a camera
 * switch never interleaves with a resolution change on the track it replaces.
 */
export class OperationQueue {
  private readonly waiting: QueuedOperation[] = [];
  private running = false;
  private closed = false;

  /** Operations not yet finished, the running one included. */
  get size(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  /** Resolves or rejects with the operation's own result once every earlier operation has finished. */
  push<T>(name: string, operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new QueueClosedError(name));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        name,
        reject,
        // Started through a promise so that a synchronous throw rejects this operation alone.
        run: () => Promise.resolve().then(operation).then(resolve, reject),
      });
      void this.drain();
    });
  }

  /** Rejects every operation that has not started; the running one finishes. Later pushes reject. */
  close(): void {
    this.closed = true;
    for (const operation of this.waiting.splice(0)) operation.reject(new QueueClosedError(operation.name));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
      // Each operation settles its own promise; drain only sequences them.
      await next.run();
    }
    this.running = false;
  }
}
