/**
 * The state of record the shared worker holds (SPEC §3 entities as plain serialisable records) and
 * the messages that mirror it into each tab: one snapshot, then ordered patches.
 */
import { DEFAULT_PREFERENCES } from './constants';
import type { SfuServerConfig } from './config';
import type { VideoResolutionTier } from './constants';
import type { CollectionName, EntityCollections, EntityOf, Preferences } from './entities';

/** SPEC §4 connection state. */
export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'failed';

export interface ConnectionRecord {
  state: ConnectionState;
  /** The signalling session's own address once connected (user@domain/resource). */
  selfAddress: string | undefined;
  /** Reconnect attempts since the last successful session. */
  reconnectAttempts: number;
  /** When the connection was lost (or the first attempt failed); undefined while connected or after a deliberate disconnect. */
  disconnectedSince: number | undefined;
  /** When the next reconnect attempt is due, while one is scheduled. */
  nextAttemptAt: number | undefined;
  /** The browser says it is offline: reconnecting waits until it is back online. */
  offline: boolean;
  /** Issue 13: the reconnect waits for the gateway to say the chat (XMPP) server is up again. */
  waitingForServer: boolean;
  /** Issue 13: the connection was given up because it stopped answering (a dead network without an offline event). */
  stoppedAnswering: boolean;
  /** A session has started at least once: losing it is a lost connection, whereas before it the chat server was not reached yet. */
  wasConnected: boolean;
  /** The chat server refused the last attempt's sign-in (SASL failure): it is up, but does not let this account in. */
  loginRefused: boolean;
  /**
   * The gateway refused the identity credential this browser presented and made it a new guest (its
   * saved data lost or cleared): rooms it created no longer know it as their owner. Stays true for the session.
   */
  identityReplaced: boolean;
  /** Log text of the last connection error, if any. */
  lastError: string | undefined;
  /** What the tab that runs a call needs from the provider's config, once fetched. */
  callConfig: CallConfig | undefined;
}

/** The provider config's media part (SPEC §3), mirrored to tabs: RTCPeerConnections live there. */
export interface CallConfig {
  iceServers: RTCIceServer[];
  sfuServer: SfuServerConfig | undefined;
  videoResolutionTiers: Record<number, VideoResolutionTier>;
}

export interface SessionState extends EntityCollections {
  connection: ConnectionRecord;
  preferences: Preferences;
  /**
   * The browser refused the last save of the preferences (a private window, site data blocked, a
   * full quota): they hold only until the session ends. False again once a save goes through.
   */
  preferencesNotKept: boolean;
}

export type Patch =
  | { kind: 'connection'; value: ConnectionRecord }
  | { kind: 'preferences'; value: Preferences }
  | { kind: 'preferencesNotKept'; value: boolean }
  | { [C in CollectionName]: { kind: 'upsert'; collection: C; id: string; value: EntityOf<C> } }[CollectionName]
  | { kind: 'remove'; collection: CollectionName; id: string };

export type StateMessage =
  | { type: 'snapshot'; version: number; state: SessionState }
  | { type: 'patches'; version: number; patches: Patch[] };

export function initialSessionState(): SessionState {
  return {
    connection: {
      state: 'disconnected',
      selfAddress: undefined,
      reconnectAttempts: 0,
      disconnectedSince: undefined,
      nextAttemptAt: undefined,
      offline: false,
      waitingForServer: false,
      stoppedAnswering: false,
      wasConnected: false,
      loginRefused: false,
      identityReplaced: false,
      lastError: undefined,
      callConfig: undefined,
    },
    preferences: { ...DEFAULT_PREFERENCES },
    preferencesNotKept: false,
    rooms: {},
    peers: {},
    messages: {},
    calls: {},
    roomEvents: {},
  };
}

/**
 * Applies ordered patches to a state (every tab's mirror and the store itself). The result is a new
 * object wherever something changed, so React sees the change; each touched collection is copied
 * once per batch, not once per patch.
 */
export function applyPatches(state: SessionState, patches: readonly Patch[]): SessionState {
  const next: SessionState = { ...state };
  const copied = new Set<CollectionName>();
  const writable = (collection: CollectionName): Record<string, unknown> => {
    if (!copied.has(collection)) {
      (next as unknown as Record<CollectionName, unknown>)[collection] = { ...next[collection] };
      copied.add(collection);
    }
    return next[collection] as Record<string, unknown>;
  };
  for (const patch of patches) {
    switch (patch.kind) {
      case 'connection':
        next.connection = patch.value;
        break;
      case 'preferences':
        next.preferences = patch.value;
        break;
      case 'preferencesNotKept':
        next.preferencesNotKept = patch.value;
        break;
      case 'upsert':
        writable(patch.collection)[patch.id] = patch.value;
        break;
      case 'remove':
        if (patch.id in next[patch.collection]) delete writable(patch.collection)[patch.id];
        break;
    }
  }
  return next;
}
