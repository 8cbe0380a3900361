import { startEjabberd } from './ejabberd/EjabberdServer';
import { startProsody } from './prosody/ProsodyServer';

/** The XMPP servers Parley runs on: Prosody for one machine (the default), ejabberd for a cluster. */
export const XMPP_SERVERS = ['prosody', 'ejabberd'] as const;
export type XmppServerName = (typeof XMPP_SERVERS)[number];

export interface XmppServerOptions {
  /** Which server runs; default 'prosody'. */
  implementation?: XmppServerName;
  /** The users' domain, e.g. 'parley.localhost'. */
  domain: string;
  /** The MUC service, e.g. 'rooms.parley.localhost'. */
  mucDomain: string;
  /** HS256 secret shared with the config service; logins present tokens signed with it. */
  tokenSecret: string;
  /** Fixed port: a start that finds it taken fails; default: a free port on 127.0.0.1. */
  httpPort?: number;
  /**
   * Tried first when `httpPort` is not set: a restart starts where the last server was. Taken by
   * something else meanwhile, a free port on 127.0.0.1 is used instead, not waited for.
   */
  preferredHttpPort?: number;
  /** Default: a fresh temporary folder, removed on stop. */
  runtimeDir?: string;
  /** Where rooms (with owners, locks, bans) are stored to outlive this server — Prosody's SQLite file, ejabberd's Mnesia; default: inside the runtime folder (gone on stop). */
  dataDir?: string;
  /** A room nobody is in is destroyed after this many seconds (default 30 days). */
  roomIdleExpirySeconds?: number;
  /** Occupant limit of every room; undefined means unlimited. */
  maxOccupants?: number;
  /** Only registered users (a product token behind their credential) may start a room; guests wait. */
  roomsNeedHost?: boolean;
  /** ejabberd only: this node's place in an Erlang/Mnesia cluster. */
  cluster?: XmppClusterOptions;
  /** Receives the server's error output, line by line. */
  log?: (line: string) => void;
}

export interface XmppClusterOptions {
  /** The address this node's Erlang distribution listens on; the node is named `parley@<address>`. */
  address: string;
  /** The distribution port: every node of a cluster listens on the same one (no epmd). */
  distributionPort: number;
  /** Node names (`name@address`) to join, tried in order until one answers; empty: start alone. */
  join: string[];
}

export interface XmppServerStats {
  /** Authenticated client sessions, websocket included. */
  clientSessions: number;
  /** Live rooms by bare room JID. */
  rooms: Record<string, { occupants: number }>;
  /** Stanzas bounced to their sender because a payload other clients parse was malformed; on ejabberd, this node's count. */
  rejectedPayloads?: number;
  /** Prosody's idle-room sweep: sweeps since start, and the most stored rooms one sweep looked at (its bound). */
  roomSweeps?: { sweeps: number; mostStoredRoomsPerSweep: number };
}

export interface XmppServer {
  /** ws://127.0.0.1:<port>/xmpp-websocket (RFC 7395). */
  readonly websocketUrl: string;
  readonly httpPort: number;
  readonly domain: string;
  readonly mucDomain: string;
  /** ejabberd: its Erlang node name, which other nodes join. */
  readonly nodeName?: string;
  stats(): Promise<XmppServerStats>;
  /** The server process's id while it runs. */
  readonly pid: number | undefined;
  /** Resolves when the server process has exited, for whatever reason (a crash, kill or stop). */
  readonly exited: Promise<void>;
  /** How it exited (an exit code or signal), once it has. */
  readonly exitStatus: string | undefined;
  /** Graceful stop, then SIGKILL after a timeout; removes a runtime folder it created. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL at once (fault tests); a later start on the same port works. */
  kill(): Promise<void>;
}

/** Starts the project's XMPP server that the options name. */
export function startXmppServer(options: XmppServerOptions): Promise<XmppServer> {
  return options.implementation === 'ejabberd' ? startEjabberd(options) : startProsody(options);
}
