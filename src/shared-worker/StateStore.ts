import type { CollectionName, EntityOf } from '../protocol/entities';
import { applyPatches, initialSessionState, type Patch, type SessionState, type StateMessage } from '../protocol/session-state';

export type StateListener = (message: StateMessage) => void;

/**
 * The state of record. Changes are applied at once and delivered to listeners in order, batched
 * per microtask so a burst of stanzas costs each tab one message.
 */
export class StateStore {
  private current: SessionState = initialSessionState();
  private version = 0;
  private pending: Patch[] = [];
  private readonly listeners = new Set<StateListener>();

  get state(): SessionState {
    return this.current;
  }

  apply(...patches: Patch[]): void {
    this.current = applyPatches(this.current, patches);
    this.version += patches.length;
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(...patches);
  }

  get<C extends CollectionName>(collection: C, id: string): EntityOf<C> | undefined {
    return this.current[collection][id] as EntityOf<C> | undefined;
  }

  upsert<C extends CollectionName>(collection: C, id: string, value: EntityOf<C>): void {
    this.apply({ kind: 'upsert', collection, id, value } as Patch);
  }

  /** Merges a change into an existing record; returns the new record, or undefined when there is none. */
  update<C extends CollectionName>(collection: C, id: string, change: Partial<EntityOf<C>>): EntityOf<C> | undefined {
    const existing = this.get(collection, id);
    if (!existing) return undefined;
    const value = { ...existing, ...change } as EntityOf<C>;
    this.upsert(collection, id, value);
    return value;
  }

  remove(collection: CollectionName, id: string): void {
    if (this.get(collection, id)) this.apply({ kind: 'remove', collection, id });
  }

  /** Sends the listener a snapshot now, then every later batch; returns the unsubscribe function. */
  subscribe(listener: StateListener): () => void {
    this.flush();
    listener({ type: 'snapshot', version: this.version, state: this.current });
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Delivers the pending batch now. Whatever goes to a tab by another channel (a Jingle request)
   * flushes first, so the tab reads it against the state it came after (a peer's presence saying they
   * left the call, then their session's end).
   */
  flush(): void {
    if (this.pending.length === 0) return;
    const message: StateMessage = { type: 'patches', version: this.version, patches: this.pending };
    this.pending = [];
    for (const listener of this.listeners) listener(message);
  }
}
