/** Event name → listener arguments. */
export type EventArgs<Events> = { [K in keyof Events]: unknown[] };

type Listener<Args extends unknown[]> = (...args: Args) => void;

/**
 * A small typed event emitter (the shape of mediasoup-client's EnhancedEventEmitter, without Node's
 * `events`). `on` returns the unsubscribe function, so UI hooks and the call engine can subscribe
 * and clean up in one line.
 */
export class TypedEmitter<Events extends EventArgs<Events>> {
  private readonly listeners = new Map<keyof Events, Set<Listener<unknown[]>>>();

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as unknown as Listener<unknown[]>);
    return () => this.off(event, listener);
  }

  off<K extends keyof Events>(event: K, listener: Listener<Events[K]>): void {
    this.listeners.get(event)?.delete(listener as unknown as Listener<unknown[]>);
  }

  /**
   * Calls every listener. A throwing listener must not leave the emitter's owner half-updated, so
   * its error is rethrown on a fresh task (it still reaches the console and error reporting).
   */
  protected emit<K extends keyof Events>(event: K, ...args: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
