import type { Agent } from 'stanza';
import type { ProviderConfig } from '../protocol/config';
import type { Clock } from '../common/clock';
import type { Fetch } from './ConfigClient';
import type { Logger } from '../common/logger';
import type { ErrorCode } from '../protocol/errors';
import type { StateStore } from './StateStore';

/** What the session shares with its domains (rooms, chat, …). */
export interface SessionContext {
  readonly clock: Clock;
  readonly log: Logger<ErrorCode>;
  readonly fetch: Fetch;
  readonly store: StateStore;
  /** The XMPP client of the current connection, once its session has started. */
  readonly client: Agent | undefined;
  /** The config of the current connection. */
  readonly config: ProviderConfig | undefined;
  /** True until a deliberate disconnect: the session is connected or on its way back. */
  readonly wantsConnection: boolean;
}

/**
 * A domain of the session. The session calls these hooks in order: `configured` once a connection's
 * provider config is known (`SessionContext.config`), before its XMPP client connects; `attachClient`
 * with that client, before it connects (register stanza handlers there: every connection gets a fresh client),
 * `connected` once that client's session has started, `disconnected` when it drops or is closed,
 * `stopped` on a deliberate disconnect.
 */
export interface SessionDomain {
  configured?(): void;
  attachClient?(client: Agent): void;
  connected?(): void;
  disconnected?(): void;
  /** A deliberate disconnect: nothing reconnects until the next `connect` (after `disconnected`, if connected). */
  stopped?(): void;
}
