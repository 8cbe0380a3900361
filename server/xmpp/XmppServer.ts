import { startProsody } from './prosody/ProsodyServer';

export interface XmppServerOptions {
  /** The users' domain, e.g. 'parley.localhost'. */
  domain: string;
  /** The MUC service, e.g. 'rooms.parley.localhost'. */
  mucDomain: string;
  /** HS256 secret shared with the config service; logins present tokens signed with it. */
  tokenSecret: string;
  /** Fixed port (to start again on the same port); default: a free port on 127.0.0.1. */
  httpPort?: number;
  /** Default: a fresh temporary folder, removed on stop. */
  runtimeDir?: string;
  /** Occupant limit of every room; undefined means unlimited. */
  maxOccupants?: number;
  /** Only registered users (a product token behind their credential) may start a room; guests wait. */
  roomsNeedHost?: boolean;
  /** Receives the server's error output, line by line. */
  log?: (line: string) => void;
}

export interface XmppServerStats {
  /** Authenticated client sessions, websocket included. */
  clientSessions: number;
  /** Live rooms by bare room JID. */
  rooms: Record<string, { occupants: number }>;
}

export interface XmppServer {
  /** ws://127.0.0.1:<port>/xmpp-websocket (RFC 7395). */
  readonly websocketUrl: string;
  readonly httpPort: number;
  readonly domain: string;
  readonly mucDomain: string;
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

/** Starts the project's XMPP server (Prosody; ejabberd will be a second implementation). */
export function startXmppServer(options: XmppServerOptions): Promise<XmppServer> {
  return startProsody(options);
}
