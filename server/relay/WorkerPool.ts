import { createWorker, type types } from 'mediasoup';

export interface WorkerPoolOptions {
  size: number;
  workerBin: string;
  log: (line: string) => void;
}

/**
 * One mediasoup worker per CPU core (DESIGN.md); a worker that dies is replaced. Tracks each
 * worker's load — the mediasoup objects it carries (transports, producers, consumers, pipes
 * included) — from mediasoup's own observer events, so placement can pick the least-loaded worker.
 */
export class WorkerPool {
  private readonly loads = new Map<types.Worker, number>();
  private stopping = false;

  private constructor(private readonly options: WorkerPoolOptions) {}

  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(options);
    try {
      await Promise.all(Array.from({ length: options.size }, () => pool.addWorker()));
    } catch (error) {
      pool.close();
      throw error;
    }
    return pool;
  }

  get workers(): types.Worker[] {
    return [...this.loads.keys()];
  }

  loadOf(worker: types.Worker): number {
    return this.loads.get(worker) ?? 0;
  }

  /** The live worker with the least load (ties: the first started). */
  leastLoaded(): types.Worker | undefined {
    let best: types.Worker | undefined;
    for (const [worker, load] of this.loads) {
      if (worker.closed) continue;
      if (!best || load < this.loadOf(best)) best = worker;
    }
    return best;
  }

  close(): void {
    this.stopping = true;
    for (const worker of this.loads.keys()) worker.close();
    this.loads.clear();
  }

  /** Fault injection: SIGKILLs every worker process, as a crash would; no replacement starts. */
  async kill(): Promise<void> {
    this.stopping = true;
    const exits = this.workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.subprocessClosed) return resolve();
          worker.once('subprocessclose', () => resolve());
          process.kill(worker.pid, 'SIGKILL');
        }),
    );
    await Promise.all(exits);
    this.loads.clear();
  }

  private async addWorker(): Promise<void> {
    const { workerBin, log } = this.options;
    const worker = await createWorker({ workerBin, logLevel: 'warn' });
    if (this.stopping) {
      worker.close();
      return;
    }
    this.loads.set(worker, 0);
    this.trackLoad(worker);
    worker.on('died', (error) => {
      this.loads.delete(worker);
      if (this.stopping) return;
      // Its routers close with it, and with them the media of connections there (RelaySession ends those).
      log(`relay: mediasoup worker ${worker.pid} died: ${error.message}; starting a replacement`);
      this.addWorker().catch((startError: unknown) => log(`relay: could not replace a mediasoup worker: ${String(startError)}`));
    });
  }

  private trackLoad(worker: types.Worker): void {
    const change = (delta: number): void => {
      if (this.loads.has(worker)) this.loads.set(worker, this.loadOf(worker) + delta);
    };
    const counted = (observer: { once(event: 'close', listener: () => void): unknown }): void => {
      change(1);
      observer.once('close', () => change(-1));
    };
    worker.observer.on('newrouter', (router) => {
      router.observer.on('newtransport', (transport) => {
        counted(transport.observer);
        transport.observer.on('newproducer', (producer) => counted(producer.observer));
        transport.observer.on('newconsumer', (consumer) => counted(consumer.observer));
      });
    });
  }
}
