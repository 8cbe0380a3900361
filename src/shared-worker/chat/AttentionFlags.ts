import { ATTENTION_MS } from '../../protocol/constants';
import type { Clock } from '../../common/clock';

/**
 * SPEC §4 attention request (XEP-0224): a peer who asks for attention is flagged for ATTENTION_MS,
 * then not; a new request while flagged starts the ATTENTION_MS again.
 */
export class AttentionFlags {
  private readonly timers = new Map<string, unknown>();

  constructor(
    private readonly clock: Clock,
    private readonly setFlag: (peerAddress: string, requestingAttention: boolean) => void,
  ) {}

  requested(peerAddress: string): void {
    this.stopTimer(peerAddress);
    this.setFlag(peerAddress, true);
    const timer = this.clock.setTimeout(() => {
      if (this.timers.get(peerAddress) !== timer) return;
      this.timers.delete(peerAddress);
      this.setFlag(peerAddress, false);
    }, ATTENTION_MS);
    this.timers.set(peerAddress, timer);
  }

  /** The connection is gone: every timer stops and every flag still up goes down. */
  reset(): void {
    for (const peerAddress of [...this.timers.keys()]) {
      this.stopTimer(peerAddress);
      this.setFlag(peerAddress, false);
    }
  }

  private stopTimer(peerAddress: string): void {
    const timer = this.timers.get(peerAddress);
    if (timer === undefined) return;
    this.clock.clearTimeout(timer);
    this.timers.delete(peerAddress);
  }
}
