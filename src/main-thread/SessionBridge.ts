import * as Comlink from 'comlink';
import type { createStore } from 'jotai';
import type { JingleIq, SessionApi, SessionEvent, TabListener } from '../protocol/commands';
import { applyPatches, type StateMessage } from '../protocol/session-state';
import { tabLockName } from '../protocol/tabs';
import { sessionStateAtom } from './sessionAtoms';

type JotaiStore = ReturnType<typeof createStore>;

/**
 * Connects this tab to the shared signalling session: holds the tab's liveness lock, subscribes
 * once, mirrors snapshot + patches into the Jotai store, forwards the browser's network events,
 * and hands session events to whoever listens.
 */
export class SessionBridge {
  readonly tabId = crypto.randomUUID();
  readonly session: Comlink.Remote<SessionApi>;
  private readonly eventListeners = new Set<(event: SessionEvent) => void>();
  /** The call engine of this tab, once it owns a call: it processes the Jingle requests routed here. */
  jingleHandler: ((iq: JingleIq) => void) | undefined;

  constructor(private readonly store: JotaiStore) {
    const worker = new SharedWorker(new URL('../shared-worker/entry.ts', import.meta.url), { type: 'module', name: 'parley-session' });
    this.session = Comlink.wrap<SessionApi>(worker.port);
  }

  async start(): Promise<void> {
    await this.holdTabLock();
    const listener: TabListener = {
      state: (message) => this.receive(message),
      event: (event) => this.eventListeners.forEach((handle) => handle(event)),
      jingle: (iq) => this.jingleHandler?.(iq),
    };
    await this.session.attach(this.tabId, Comlink.proxy(listener));
    window.addEventListener('online', () => void this.session.online());
    window.addEventListener('offline', () => void this.session.offline());
  }

  onEvent(handle: (event: SessionEvent) => void): () => void {
    this.eventListeners.add(handle);
    return () => this.eventListeners.delete(handle);
  }

  private receive(message: StateMessage): void {
    if (message.type === 'snapshot') this.store.set(sessionStateAtom, message.state);
    else this.store.set(sessionStateAtom, (state) => applyPatches(state, message.patches));
  }

  /** Resolves once the lock is held; it is released only when the tab closes. */
  private holdTabLock(): Promise<void> {
    return new Promise((held) => {
      void navigator.locks.request(tabLockName(this.tabId), () => {
        held();
        return new Promise<never>(() => {});
      });
    });
  }
}
