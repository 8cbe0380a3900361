import { createWorker, type types } from 'mediasoup';
import { RestartBackoff } from '../supervision/RestartBackoff';

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
  /** Replacements of dead workers: at once for a single death, slower when they keep dying. */
  private readonly backoff = new RestartBackoff();
  private readonly replacementTimers = new Set<NodeJS.Timeout>();

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
    this.cancelReplacements();
    for (const worker of this.loads.keys()) worker.close();
    this.loads.clear();
  }

  /** Fault injection: SIGKILLs every worker process, as a crash would; no replacement starts. */
  async kill(): Promise<void> {
    this.stopping = true;
    this.cancelReplacements();
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
    const { workerBin } = this.options;
    const worker = await createWorker({ workerBin, logLevel: 'warn' });
    if (this.stopping) {
      worker.close();
      return;
    }
    this.loads.set(worker, 0);
    this.trackLoad(worker);
    worker.on('died', (error) => {
      this.loads.delete(worker);
      // Its routers close with it, and with them the media of connections there (RelaySession ends those).
      this.replaceWorker(`mediasoup worker ${worker.pid} died: ${error.message}`);
    });
  }

  /** Starts a replacement after the backoff's delay; one log line per replacement. */
  private replaceWorker(why: string): void {
    if (this.stopping) return;
    const delay = this.backoff.nextDelayMs();
    this.options.log(`relay: ${why}; starting a replacement in ${delay} ms (restart ${this.backoff.count} in a row)`);
    const timer = setTimeout(() => {
      this.replacementTimers.delete(timer);
      this.addWorker().catch((startError: unknown) => this.replaceWorker(`could not start a mediasoup worker: ${String(startError)}`));
    }, delay);
    this.replacementTimers.add(timer);
  }

  private cancelReplacements(): void {
    for (const timer of this.replacementTimers) clearTimeout(timer);
    this.replacementTimers.clear();
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
