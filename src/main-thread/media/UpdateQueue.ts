import { UPDATE_QUEUE } from '../../protocol/constants';
import type { Clock } from '../../common/clock';

/** What one run is asked to bring up to date: every reason gathered, and their priority. */
export interface UpdateBatch {
  readonly priority: number;
  readonly reasons: readonly string[];
}

/**
 * SPEC §9 update queue: requests to recompute (sessions, capture tier, bitrates) arrive in bursts —
 * one person joining changes peers, media and calls at once. The first request opens a 100 ms window;
 * every request in it joins one batch. Batches run one at a time, lower priority numbers first
 * (default 1, as async's priorityQueue orders them). A run reads the current state, so requests
 * arriving while a batch of the same priority is already waiting simply join that batch.
 */
export class UpdateQueue {
  private readonly gathering = new Map<number, Set<string>>();
  private readonly waiting = new Map<number, Set<string>>();
  private windowTimer: unknown = undefined;
  private running = false;
  private closed = false;

  constructor(
    private readonly run: (batch: UpdateBatch) => Promise<void>,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {}

  request(reason: string, priority: number = UPDATE_QUEUE.defaultPriority): void {
    if (this.closed) return;
    addReason(this.gathering, priority, reason);
    if (this.windowTimer === undefined) {
      this.windowTimer = this.clock.setTimeout(() => this.closeWindow(), UPDATE_QUEUE.debounceMs);
    }
  }

  /** Drops everything not yet started; the running batch finishes. */
  close(): void {
    this.closed = true;
    if (this.windowTimer !== undefined) this.clock.clearTimeout(this.windowTimer);
    this.windowTimer = undefined;
    this.gathering.clear();
    this.waiting.clear();
  }

  private closeWindow(): void {
    this.windowTimer = undefined;
    for (const [priority, reasons] of this.gathering) for (const reason of reasons) addReason(this.waiting, priority, reason);
    this.gathering.clear();
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.waiting.size > 0) {
      const priority = Math.min(...this.waiting.keys());
      const reasons = [...(this.waiting.get(priority) ?? [])];
      this.waiting.delete(priority);
      try {
        await this.run({ priority, reasons });
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = false;
  }
}

function addReason(batches: Map<number, Set<string>>, priority: number, reason: string): void {
  const reasons = batches.get(priority) ?? new Set<string>();
  reasons.add(reason);
  batches.set(priority, reasons);
}
