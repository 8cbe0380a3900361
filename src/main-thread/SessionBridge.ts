import * as Comlink from 'comlink';
import type { createStore } from 'jotai';
import type {
  CallsCommands,
  ChatCommands,
  JingleCommands,
  JingleIq,
  JoinRoomOptions,
  PreferencesCommands,
  RoomsCommands,
  SessionApi,
  SessionEvent,
  TabListener,
} from '../protocol/commands';
import { applyPatches, type StateMessage } from '../protocol/session-state';
import { EARLY_TAB_LOCK, SESSION_LOCK_HELD, SESSION_UNAVAILABLE, tabLockName, type EarlyTabLock, type SessionLockHeld } from '../protocol/tabs';
import { SESSION_ATTACH_WITHIN_MS } from '../protocol/clientDefaults';
import { sessionStateAtom, sessionUnavailableAtom, type SessionUnavailability } from './sessionAtoms';

type JotaiStore = ReturnType<typeof createStore>;

/**
 * What this tab asks of the shared session, as plain calls: the UI and the call runtime use these,
 * never the Comlink handle. Results show up in the mirrored state.
 */
export interface TabActions {
  readonly rooms: RoomsCommands;
  readonly chat: ChatCommands;
  readonly preferences: PreferencesCommands;
  readonly calls: CallsCommands;
  readonly jingle: JingleCommands;
  /** Opens a room for this tab; the session leaves it once no tab holds it. Resolves with the room id. */
  openRoom(name: string, options?: JoinRoomOptions): Promise<string>;
  /** This tab no longer holds the room. */
  closeRoom(roomId: string): Promise<void>;
  /** "Leave": out of the room, for every tab that holds it. */
  leaveRoom(roomId: string): Promise<void>;
  /** "Retry now": the session tries to connect at once instead of at its next scheduled attempt. */
  retryNow(): Promise<void>;
}

/**
 * Connects this tab to the shared signalling session: holds the tab's liveness lock, subscribes
 * once, mirrors snapshot + patches into the Jotai store, forwards the browser's network events,
 * and hands session events to whoever listens. Says when the session could not start at all, or
 * its worker is gone (`sessionUnavailableAtom`).
 */
export class SessionBridge {
  readonly tabId: string;
  readonly actions: TabActions;
  /** The liveness lock the page's HTML asked for, when it did (issue 14: held before the entry runs, the attach need not wait for it). */
  private readonly earlyTabLock: EarlyTabLock | undefined;
  private readonly session: Comlink.Remote<SessionApi>;
  private readonly eventListeners = new Set<(event: SessionEvent) => void>();
  /** The call engine of this tab, once it owns a call: it processes the Jingle requests routed here, by the room they come from. */
  jingleHandler: ((roomAddress: string, iq: JingleIq) => void) | undefined;

  constructor(private readonly store: JotaiStore) {
    this.earlyTabLock = (window as Window & { [EARLY_TAB_LOCK]?: EarlyTabLock })[EARLY_TAB_LOCK];
    this.tabId = this.earlyTabLock?.tabId ?? crypto.randomUUID();
    const worker = new SharedWorker(new URL('../shared-worker/entry.ts', import.meta.url), { type: 'module', name: 'parley-session' });
    const session = Comlink.wrap<SessionApi>(worker.port);
    this.session = session;
    // The worker's script, or the session's code it loads, did not arrive: the tab can only be reloaded.
    worker.addEventListener('error', () => this.setUnavailable('not-loaded'));
    worker.port.addEventListener('message', (event: MessageEvent) => {
      if (event.data === SESSION_UNAVAILABLE) this.setUnavailable('not-loaded');
      else if ((event.data as Partial<SessionLockHeld> | null)?.type === SESSION_LOCK_HELD) this.watchWorker((event.data as SessionLockHeld).lock);
    });
    this.actions = {
      rooms: session.rooms,
      chat: session.chat,
      preferences: session.preferences,
      calls: session.calls,
      jingle: session.jingle,
      openRoom: (name, options) => session.openRoom(this.tabId, name, options),
      closeRoom: (roomId) => session.closeRoom(this.tabId, roomId),
      leaveRoom: (roomId) => session.leaveRoom(roomId),
      retryNow: () => session.connect(),
    };
  }

  /**
   * Attaches the tab once it holds its liveness lock. `attachSent` settles as the attach goes to the
   * session: a command sent from then on reaches the session after it (one port keeps the order), so
   * opening the page's room need not wait for the answer, which comes once the worker has started and
   * this busy page has read it (issue 14, the join path). `attached` settles with that answer.
   */
  start(): { attachSent: Promise<void>; attached: Promise<void> } {
    const listener: TabListener = {
      state: (message) => this.receive(message),
      event: (event) => this.eventListeners.forEach((handle) => handle(event)),
      jingle: (roomAddress, iq) => this.jingleHandler?.(roomAddress, iq),
    };
    const answered = this.holdTabLock().then(() => {
      const answer = this.session.attach(this.tabId, Comlink.proxy(listener));
      this.followNetwork();
      return { answer };
    });
    const attached = answered.then(({ answer }) => answer);
    // A worker that closed as this tab connected (its session's code lost) never answers at all.
    const unanswered = setTimeout(() => this.setUnavailable('not-loaded'), SESSION_ATTACH_WITHIN_MS);
    void attached.then(() => {
      clearTimeout(unanswered);
      // The answer takes back only a start that seemed lost: a worker gone since (its lock granted
      // to this tab first, the answer read after) stays gone.
      if (this.store.get(sessionUnavailableAtom) === 'not-loaded') this.setUnavailable(undefined);
    });
    return { attachSent: answered.then(() => undefined), attached };
  }

  /**
   * Tells the session the browser's network events from the attach on (one port keeps the order),
   * not only once its answer has come: going offline meanwhile reaches it too. `navigator.onLine`
   * is not taken for the network's state: a browser with no network but loopback reads offline,
   * though a Parley on the same machine is reachable; an attempt says so, an event changes it.
   */
  private followNetwork(): void {
    window.addEventListener('online', () => void this.session.online());
    window.addEventListener('offline', () => void this.session.offline());
  }

  /**
   * The worker holds `lock` for its whole life and names it only once it holds it, so this tab's
   * request waits behind it and is granted exactly when the worker is gone — crashed, out of memory,
   * ended by the browser — which neither its port nor Comlink ever says: every call would hang, and
   * the mirror stop. The lock is let go at once; the session cannot come back to this tab, whose
   * rooms, calls and listener lived in that worker, but a reload starts a new worker.
   */
  private watchWorker(lock: string): void {
    void navigator.locks.request(lock, () => this.setUnavailable('stopped'));
  }

  private setUnavailable(unavailable: SessionUnavailability | undefined): void {
    this.store.set(sessionUnavailableAtom, unavailable);
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
    if (this.earlyTabLock) return this.earlyTabLock.held;
    return new Promise((held) => {
      void navigator.locks.request(tabLockName(this.tabId), () => {
        held();
        return new Promise<never>(() => {});
      });
    });
  }
}
