/**
 * Web Locks as a browser grants them, in this process's memory, for code that calls
 * `navigator.locks.request(name, [options,] callback)`: exclusive, each name granted to its requests
 * in the order they came, held until the callback's promise settles. Options are ignored. And
 * `navigator.locks.query()`, as far as the locks held go.
 */
export class FakeWebLocks {
  private readonly held = new Set<string>();
  private readonly queued = new Map<string, (() => void)[]>();
  /** Every name asked for, in order. */
  readonly requested: string[] = [];

  readonly request = (name: string, ...rest: unknown[]): Promise<unknown> => {
    const callback = rest.at(-1) as (lock: { name: string; mode: 'exclusive' }) => unknown;
    this.requested.push(name);
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        this.held.add(name);
        const done = Promise.resolve({ name, mode: 'exclusive' as const }).then(callback);
        done.then(resolve, reject);
        const release = (): void => this.release(name);
        void done.then(release, release);
      };
      if (this.held.has(name)) this.queued.set(name, [...(this.queued.get(name) ?? []), grant]);
      else grant();
    });
  };

  /** What `navigator.locks.query()` answers: the locks held now (the requests waiting for them are not listed). */
  readonly query = async (): Promise<{ held: { name: string; mode: 'exclusive' }[] }> => ({ held: [...this.held].map((name) => ({ name, mode: 'exclusive' as const })) });

  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  private release(name: string): void {
    this.held.delete(name);
    this.queued.get(name)?.shift()?.();
  }
}
