import type { Agent, AgentConfig, Stanzas } from 'stanza';
import { afterEach } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import type { JoinRoomOptions, SessionEvent } from '../../src/protocol/commands';
import type { Peer, Room } from '../../src/protocol/entities';
import type { ErrorCode } from '../../src/protocol/errors';
import type { SessionState } from '../../src/protocol/session-state';
import { systemClock, type Clock } from '../../src/common/clock';
import type { Fetch } from '../../src/shared-worker/ConfigClient';
import { createSession } from '../../src/shared-worker/createSession';
import type { LivenessSettings } from '../../src/shared-worker/ConnectionLiveness';
import { MemoryIdentityStorage, type IdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { MemoryPreferencesStorage } from '../../src/shared-worker/preferences/PreferencesStorage';
import { withTimeout } from './xmppClient';

/** Bounds waits for what local servers do in milliseconds; never decides an outcome. */
export const WAIT_MS = 10_000;

export interface SessionOptions<C extends Clock = Clock> {
  /** Where its config request goes (a RunningParley, or any gateway). */
  server: Pick<RunningParley, 'url'>;
  /** Set as the person's display name preference (PreferencesDomain.setPreferences). */
  displayName?: string;
  /** The session's clock: a ManualClock for fake time; the system clock otherwise. */
  clock?: C;
  fetch?: Fetch;
  /** The config service's path on the server (default `/api/config`). */
  configPath?: string;
  /** The product's token for this user, sent with the config request. */
  userToken?: string;
  /** When a silent connection is given up (default the client's LIVENESS). */
  liveness?: LivenessSettings;
  /** The browser's stored identity: give another session's to be that browser again (a reload); default a new browser's. */
  identityStorage?: IdentityStorage;
  /** Makes the session's XMPP clients (default the product's, `createParleyXmppClient`). */
  createXmppClient?: (config: AgentConfig) => Agent;
}

/** A session built exactly as the SharedWorker builds it (createSession), and what the test sees of it. */
export type TestSession<C extends Clock = Clock> = ReturnType<typeof createSession> & {
  clock: C;
  /** The one tab attached to it once it connects (`connected`): state and events go there. */
  tabId: string;
  /** Everything logged: info as given, errors as `${code ?? 'error'}: ${message}`. */
  logs: string[];
  /** What was logged as an error, with its code. */
  errors: Array<{ message: string; code: ErrorCode | undefined }>;
  /** Every stanza its XMPP clients sent, as XML. */
  sent: string[];
  /** Every message its XMPP clients sent, as StanzaJS gives them. */
  sentMessages: Stanzas.Message[];
  /** Session events (JSON commands) delivered to its tab. */
  events: SessionEvent[];
  /** Resolves once the display name preference is in the state. */
  ready: Promise<void>;
  /** The tab goes away (closed, reloaded, crashed) as its Web Lock tells the session; tabs stay until then. */
  tabGoes(tabId: string): void;
};

let nextTab = 1;

/**
 * A session as the SharedWorker makes one: createSession with preferences in memory and tabs that
 * stay until the test says one goes (`tabGoes`). Not connected yet (`connected` attaches its tab, which connects it).
 */
export function openSession<C extends Clock = Clock>(options: SessionOptions<C>): TestSession<C> {
  const clock = (options.clock ?? systemClock) as C;
  const logs: string[] = [];
  const errors: TestSession['errors'] = [];
  const sent: string[] = [];
  const sentMessages: Stanzas.Message[] = [];
  const departures = new Map<string, () => void>();
  const created = createSession({
    clock,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    log: {
      info: (message) => logs.push(message),
      error: (message, code) => {
        logs.push(`${code ?? 'error'}: ${message}`);
        errors.push({ message, code });
      },
    },
    configUrl: new URL(options.configPath ?? '/api/config', options.server.url).href,
    serverReadyUrl: new URL('/api/xmpp-ready', options.server.url).href,
    preferencesStorage: new MemoryPreferencesStorage(),
    identityStorage: options.identityStorage ?? new MemoryIdentityStorage(),
    tabGone: (tabId) => new Promise<void>((gone) => departures.set(tabId, gone)),
    ...(options.userToken ? { userToken: options.userToken } : {}),
    ...(options.liveness ? { liveness: options.liveness } : {}),
    ...(options.createXmppClient ? { createXmppClient: options.createXmppClient } : {}),
  });
  // Sees every client the session creates, after the session's own domains.
  created.session.addDomain({
    attachClient(client) {
      client.on('raw:outgoing', (xml: string) => sent.push(xml));
      client.on('message:sent', (message) => sentMessages.push(message));
    },
  });
  const ready = options.displayName === undefined ? Promise.resolve() : created.preferences.setPreferences({ displayName: options.displayName });
  const tabGoes = (tabId: string): void => departures.get(tabId)?.();
  return { ...created, clock, tabId: `tab-${nextTab++}`, logs, errors, sent, sentMessages, events: [], ready, tabGoes };
}

/** Every stanza the session's XMPP clients receive from now on, as XML: what the server sent. */
export function receivedBy(who: TestSession<Clock>): string[] {
  const received: string[] = [];
  who.session.addDomain({
    attachClient(client) {
      client.on('raw:incoming', (xml: string) => received.push(xml));
    },
  });
  return received;
}

/** Sessions of a test file, each closed after the test that opened it: returns the opener. */
export function useSessions(): <C extends Clock = Clock>(options: SessionOptions<C>) => TestSession<C> {
  const open: TestSession<Clock>[] = [];
  afterEach(async () => {
    const done = open.splice(0);
    // A ping answered means everything queued before it went out: stanzas still in flight when the
    // stream closes would otherwise end as StanzaJS 'write after end' noise.
    await Promise.all(done.map((who) => (who.session.client ? withTimeout(who.session.client.ping(), WAIT_MS, 'ping').catch(() => undefined) : undefined)));
    for (const who of done) who.session.disconnect();
  });
  return <C extends Clock = Clock>(options: SessionOptions<C>): TestSession<C> => {
    const who = openSession(options);
    open.push(who);
    return who;
  };
}

/**
 * Resolves once the session's state satisfies the condition (checked at once, then after every batch
 * of changes); rejects after WAIT_MS with what it saw.
 */
export function waitFor<T>(who: TestSession<Clock>, what: string, read: (state: SessionState) => T | undefined | false): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      unsubscribe();
      const { rooms, messages } = who.session.store.state;
      reject(new Error(`gave up waiting for ${what}; rooms: ${JSON.stringify(rooms)}; messages: ${JSON.stringify(Object.values(messages))}`));
    }, WAIT_MS);
    // The store calls back at once with a snapshot (before `unsubscribe` is set: hence the
    // microtask), then after every batch of changes.
    const unsubscribe = who.session.store.subscribe(() => {
      if (settled) return;
      const value = read(who.session.store.state);
      if (value === undefined || value === false) return;
      settled = true;
      clearTimeout(timer);
      queueMicrotask(() => unsubscribe());
      resolve(value);
    });
  });
}

/** Connects the session as a tab does (its first call attaches the tab), once its display name is set; resolves when connected. */
export async function connected(who: TestSession<Clock>): Promise<void> {
  await who.ready;
  if (who.tabs.tabCount === 0) {
    who.tabs.attach(who.tabId, {
      state: () => {},
      event: (event) => who.events.push(event),
      jingle: () => {},
    });
  }
  await who.session.connect();
  await waitFor(who, 'the session to start', (state) => state.connection.state === 'connected');
}

/** Every stanza the session's client queued before this has gone out once the server answers a ping. */
export async function flushed(who: TestSession<Clock>): Promise<void> {
  await withTimeout(who.session.client!.ping(), WAIT_MS, 'ping');
}

/** Sets the display name preference, as a tab does. */
export function setDisplayName(who: TestSession<Clock>, displayName: string): Promise<void> {
  return who.preferences.setPreferences({ displayName });
}

export type JoinedRoom = Room & { address: string; selfAddress: string };

/** Resolves once the room (by local id) is joined. */
export function joinedRoom(who: TestSession<Clock>, roomId: string): Promise<JoinedRoom> {
  return waitFor(who, `room ${roomId} joined`, (state) => {
    const room = state.rooms[roomId];
    return room?.roomState === 'joined' ? (room as JoinedRoom) : undefined;
  });
}

/** Connects the session and joins a room by name through the rooms domain; resolves with the joined room. */
export async function joinedBy(who: TestSession<Clock>, name: string, options?: JoinRoomOptions): Promise<JoinedRoom> {
  await connected(who);
  return joinedRoom(who, await who.rooms.joinRoom(name, options));
}

/** Resolves with the room (by local id) once it is in the given state. */
export function roomInState(who: TestSession<Clock>, roomId: string, roomState: Room['roomState']): Promise<Room> {
  return waitFor(who, `room ${roomId} ${roomState}`, (state) => (state.rooms[roomId]?.roomState === roomState ? state.rooms[roomId] : undefined));
}

/** The peer whose display name is given, as this person sees it in the room. */
export function peerNamed(who: TestSession<Clock>, roomAddress: string, displayName: string, also: (peer: Peer) => boolean = () => true): Promise<Peer> {
  return waitFor(who, `${displayName} in ${roomAddress}`, (state) =>
    Object.values(state.peers).find((peer) => peer.roomAddress === roomAddress && peer.displayName === displayName && also(peer)),
  );
}
