import { LimitExceededError } from './errors';
import { HeldCounts } from './HeldCounts';

/**
 * Counts what is held per key (a user, an address) across every relay connection, against one cap.
 * `take` hands out a release function, so that whoever holds a unit gives back exactly that one.
 */
export class Quota {
  private readonly held = new HeldCounts();

  constructor(
    private readonly cap: number,
    /** Finishes "too many … : at most N", e.g. "relay connections for this user". */
    private readonly what: string,
  ) {}

  /** Takes one unit for `key`, or throws LimitExceededError when `key` holds the cap already. */
  take(key: string): () => void {
    if (this.held.of(key) >= this.cap) throw new LimitExceededError(`too many ${this.what}: at most ${this.cap}`);
    return this.held.hold(key);
  }
}
