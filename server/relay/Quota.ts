import { LimitExceededError } from './errors';

/**
 * Counts what is held per key (a user, an address) across every relay connection, against one cap.
 * `take` hands out a release function, so that whoever holds a unit gives back exactly that one.
 */
export class Quota {
  private readonly held = new Map<string, number>();

  constructor(
    private readonly cap: number,
    /** Finishes "too many … : at most N", e.g. "relay connections for this user". */
    private readonly what: string,
  ) {}

  /** Takes one unit for `key`, or throws LimitExceededError when `key` holds the cap already. */
  take(key: string): () => void {
    const count = this.held.get(key) ?? 0;
    if (count >= this.cap) throw new LimitExceededError(`too many ${this.what}: at most ${this.cap}`);
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
