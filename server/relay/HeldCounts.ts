/**
 * How many units each key holds, handed out as release functions, so that whoever holds a unit
 * gives back exactly that one (a second call does nothing): what `Quota` and `RoomBindings` count.
 */
export class HeldCounts {
  private readonly held = new Map<string, number>();

  /** Units `key` holds. */
  of(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** The keys that hold a unit. */
  keys(): string[] {
    return [...this.held.keys()];
  }

  get size(): number {
    return this.held.size;
  }

  /** Counts one unit more for `key`; returns its release. */
  hold(key: string): () => void {
    this.held.set(key, this.of(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.of(key) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
