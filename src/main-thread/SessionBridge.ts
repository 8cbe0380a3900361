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
import {
  EARLY_TAB_LOCK,
  SESSION_LOCK_HELD,
  SESSION_UNAVAILABLE,
  sessionOfAnotherBuild,
  tabLockName,
  type EarlyTabLock,
  type SessionLockHeld,
} from '../protocol/tabs';
import { SESSION_ATTACH_WITHIN_MS } from '../protocol/clientDefaults';
import { sessionStateAtom, sessionUnavailableAtom, workerNotStartedBecause, type SessionUnavailability } from './sessionAtoms';

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
 * The session's end of Comlink, which sends nothing until `release`: what is posted meanwhile
 * waits, in order. What the worker sends passes at once.
 */
class PortHeldUntilReleased extends EventTarget implements Comlink.Endpoint {
  private released = false;
  private readonly waiting: { message: unknown; transfer: Transferable[] }[] = [];

  constructor(private readonly port: MessagePort) {
    super();
    port.addEventListener('message', (event: MessageEvent) => this.dispatchEvent(new MessageEvent('message', { data: event.data })));
    port.start();
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    if (this.released) this.port.postMessage(message, transfer);
    else this.waiting.push({ message, transfer });
  }

  release(): void {
    this.released = true;
    for (const { message, transfer } of this.waiting.splice(0)) this.port.postMessage(message, transfer);
  }
}

/**
 * Resolves once no shared worker of another build of Parley runs in this browser (the locks they
 * hold say so: `sessionOfAnotherBuild`); `whileWaiting` is told before it waits. Queued behind such
 * a worker, a request for its lock is granted once it has ended, and is let go at once.
 */
async function anotherBuildsSessionsGone(locks: LockManager, whileWaiting: () => void): Promise<void> {
  for (;;) {
    const { held = [] } = await locks.query();
    const others = held.flatMap(({ name }) => (name !== undefined && sessionOfAnotherBuild(name) ? [name] : []));
    if (others.length === 0) return;
    whileWaiting();
    await Promise.all(others.map((name) => locks.request(name, () => undefined)));
  }
}

/**
 * Connects this tab to the shared signalling session: holds the tab's liveness lock, subscribes
 * once, mirrors snapshot + patches into the Jotai store, forwards the browser's network events,
 * and hands session events to whoever listens. Says when the session could not start at all, waits
 * for another build's tabs to go, or its worker is gone (`sessionUnavailableAtom`).
 */
export class SessionBridge {
  readonly tabId: string;
  readonly actions: TabActions;
  /** The liveness lock the page's HTML asked for, when it did (issue 14: held before the entry runs, the attach need not wait for it). */
  private readonly earlyTabLock: EarlyTabLock | undefined;
  private readonly session: Comlink.Remote<SessionApi>;
  /** Settles once what the tab sends goes to its session (no other build's session runs). */
  private readonly sessionReleased: Promise<void>;
  private readonly eventListeners = new Set<(event: SessionEvent) => void>();
  /** The call engine of this tab, once it owns a call: it processes the Jingle requests routed here, by the room they come from. */
  jingleHandler: ((roomAddress: string, iq: JingleIq) => void) | undefined;

  constructor(private readonly store: JotaiStore) {
    this.earlyTabLock = (window as Window & { [EARLY_TAB_LOCK]?: EarlyTabLock })[EARLY_TAB_LOCK];
    this.tabId = this.earlyTabLock?.tabId ?? crypto.randomUUID();
    // Started at once (issue 14, the join path): its first script's login ahead joins no room.
    const worker = new SharedWorker(new URL('../shared-worker/entry.ts', import.meta.url), { type: 'module', name: 'parley-session' });
    // The worker's script, or the session's code it loads, did not arrive, or the browser refused the
    // worker to a site it lets keep no data: the tab can only be reloaded, after a change of settings in the latter.
    worker.addEventListener('error', () => this.setUnavailable(workerNotStartedBecause()));
    worker.port.addEventListener('message', (event: MessageEvent) => {
      if (event.data === SESSION_UNAVAILABLE) this.setUnavailable('not-loaded');
      else if ((event.data as Partial<SessionLockHeld> | null)?.type === SESSION_LOCK_HELD) this.watchWorker((event.data as SessionLockHeld).lock);
    });
    const port = new PortHeldUntilReleased(worker.port);
    const session = Comlink.wrap<SessionApi>(port);
    this.session = session;
    this.sessionReleased = this.releaseWhenAlone(port);
    this.actions = {
      rooms: session.rooms,
      chat: session.chat,
      preferences: session.preferences,
      calls: session.calls,
      jingle: session.jingle,
      openRoom: (name, options) => session.openRoom(this.tabId, name, options),
      closeRoom: (roomId) => session.closeRoom(this.tabId, roomId),
      leaveRoom: (roomId) => session.leaveRoom(this.tabId, roomId),
      retryNow: () => session.connect(),
    };
  }

  /**
   * Lets the tab's session hear from it (its attach first) once no other build's session runs in
   * this browser: a page loaded after an update has a worker of its own build, and would else be
   * you once more in every room, logged in anew, beside the tabs of the build before. Meanwhile the
   * tab says why it waits.
   */
  private async releaseWhenAlone(port: PortHeldUntilReleased): Promise<void> {
    await anotherBuildsSessionsGone(navigator.locks, () => this.setUnavailable('another-build'));
    if (this.store.get(sessionUnavailableAtom) === 'another-build') this.setUnavailable(undefined);
    port.release();
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
    // Counted from the attach's going: waiting for another build's tabs to go is no lost start.
    void this.sessionReleased.then(() => {
      const unanswered = setTimeout(() => this.setUnavailable('not-loaded'), SESSION_ATTACH_WITHIN_MS);
      void attached.then(() => clearTimeout(unanswered));
    });
    void attached.then(() => {
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
