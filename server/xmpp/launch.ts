// What launching any of the XMPP servers shares: option checks, finding the binary, a free port,
// waiting until the server answers its stats route as the instance we started, and the running
// server's stats/stop/kill.
import { constants } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { errorMessage } from '../../src/common/errorMessage';
import { freeLoopbackPort } from './freeLoopbackPort';
import type { ServerProcess } from './ServerProcess';
import type { XmppServer, XmppServerOptions, XmppServerStats } from './XmppServer';
import { XmppServerStartError } from './XmppServerStartError';

const STATS_PATH = '/parley-stats';
const INSTANCE_HEADER = 'x-parley-instance';
const READY_POLL_MS = 20;
const STOP_GRACE_MS = 5_000;
const STATS_TIMEOUT_MS = 5_000;
/** Only for auto-picked ports, which another process can take between our probe and the server's bind. */
const MAX_PORT_ATTEMPTS = 3;
const DOMAIN_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** How long a room nobody is in is kept, where the options do not say (30 days). */
export const DEFAULT_ROOM_IDLE_EXPIRY_SECONDS = 30 * 24 * 3600;

/** The server could not bind its HTTP port; a fresh port may work. */
export class PortTakenError extends XmppServerStartError {}

export function validateOptions(options: XmppServerOptions): void {
  for (const [name, domain] of [['domain', options.domain], ['mucDomain', options.mucDomain]] as const) {
    if (!DOMAIN_PATTERN.test(domain)) throw new XmppServerStartError(`${name} must be a lowercase DNS name, got '${domain}'`);
  }
  if (options.domain === options.mucDomain) throw new XmppServerStartError('domain and mucDomain must differ');
  if (options.tokenSecret.length === 0) throw new XmppServerStartError('tokenSecret must not be empty');
  const { httpPort, maxOccupants, roomIdleExpirySeconds } = options;
  if (httpPort !== undefined && !(Number.isInteger(httpPort) && httpPort > 0 && httpPort < 65536)) {
    throw new XmppServerStartError(`httpPort must be a TCP port number, got ${httpPort}`);
  }
  if (maxOccupants !== undefined && !(Number.isInteger(maxOccupants) && maxOccupants > 0)) {
    throw new XmppServerStartError(`maxOccupants must be a positive integer, got ${maxOccupants}`);
  }
  if (roomIdleExpirySeconds !== undefined && !(Number.isInteger(roomIdleExpirySeconds) && roomIdleExpirySeconds > 0)) {
    throw new XmppServerStartError(`roomIdleExpirySeconds must be a positive integer, got ${roomIdleExpirySeconds}`);
  }
}

/** The absolute path of an executable on PATH (or /usr/bin, /usr/local/bin). */
export async function findBinary(name: string, product: string, installCommand: string): Promise<string> {
  const searchPath = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of searchPath.filter((entry) => entry !== '')) {
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new XmppServerStartError(`${product} is not installed (no '${name}' on PATH). Install it with: ${installCommand}`);
}

/**
 * Runs `launch` in the runtime folder (a fresh temporary one unless the options name one) on the
 * options' fixed port, else on their preferred port or a free one, trying another free port when
 * the picked one was taken meanwhile.
 */
export async function launchOnFreePort(
  options: XmppServerOptions,
  runtimeDirPrefix: string,
  launch: (runtimeDir: string, ownsRuntimeDir: boolean, httpPort: number) => Promise<XmppServer>,
): Promise<XmppServer> {
  const ownsRuntimeDir = options.runtimeDir === undefined;
  const runtimeDir = options.runtimeDir ?? (await mkdtemp(join(tmpdir(), runtimeDirPrefix)));
  try {
    for (let attempt = 1; ; attempt += 1) {
      const httpPort = options.httpPort ?? (attempt === 1 ? options.preferredHttpPort : undefined) ?? (await freeLoopbackPort());
      try {
        return await launch(runtimeDir, ownsRuntimeDir, httpPort);
      } catch (error) {
        const retry = error instanceof PortTakenError && options.httpPort === undefined && attempt < MAX_PORT_ATTEMPTS;
        if (!retry) throw error;
      }
    }
  } catch (error) {
    if (ownsRuntimeDir) await rm(runtimeDir, { recursive: true, force: true });
    throw error;
  }
}

export interface ReadyCheck {
  /** 'Prosody', 'ejabberd': for messages. */
  product: string;
  httpPort: number;
  instanceId: string;
  timeoutMs: number;
  /** True when the server's output says the port was taken. */
  portTaken: () => boolean;
  /** Besides answering: what else must have happened (a cluster joined), or why it cannot. */
  settled?: () => 'yes' | 'not yet' | { failed: string };
}

/** Resolves once the server answers its stats route as our instance; kills it and throws (with its log) otherwise. */
export async function waitUntilReady(server: ServerProcess, check: ReadyCheck, logFile: string): Promise<void> {
  try {
    const deadline = Date.now() + check.timeoutMs;
    let lastProbe = 'none yet';
    for (;;) {
      if (check.portTaken()) throw new PortTakenError(`${check.product} could not bind 127.0.0.1:${check.httpPort}`);
      if (server.exitStatus !== undefined) {
        throw new XmppServerStartError(`${check.product} exited before it was ready (${server.exitStatus})`);
      }
      const settled = check.settled?.() ?? 'yes';
      if (typeof settled === 'object') throw new XmppServerStartError(`${check.product}: ${settled.failed}`);
      if (settled === 'yes') {
        const failure = await probeFailure(check.httpPort, check.instanceId);
        if (failure === undefined) return;
        lastProbe = failure;
      }
      if (Date.now() > deadline) {
        throw new XmppServerStartError(`${check.product} did not answer on 127.0.0.1:${check.httpPort} within ${check.timeoutMs} ms (last probe: ${lastProbe})`);
      }
      await Promise.race([new Promise((resolve) => setTimeout(resolve, READY_POLL_MS)), server.exited]);
    }
  } catch (error) {
    await server.kill();
    if (!(error instanceof XmppServerStartError)) throw error;
    const ErrorClass = error instanceof PortTakenError ? PortTakenError : XmppServerStartError;
    throw new ErrorClass(`${error.message}\n--- ${check.product} output ---\n${await server.logTail(logFile)}`);
  }
}

/**
 * Undefined when our server (not some other server on the port) answers the stats route; otherwise
 * why not, for the message of a start that never answers: most failures mean "not yet", but one that
 * never changes (fetch refusing the port) must not read as a server that is slow to come up.
 */
async function probeFailure(httpPort: number, instanceId: string): Promise<string | undefined> {
  try {
    const response = await fetch(statsUrl(httpPort), { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    if (!response.ok) return `answered ${response.status}`;
    return response.headers.get(INSTANCE_HEADER) === instanceId ? undefined : 'another server answered';
  } catch (error) {
    // fetch's own message is "fetch failed"; its cause says why (ECONNREFUSED while not listening yet).
    const cause = error instanceof Error && error.cause !== undefined ? `: ${errorMessage(error.cause)}` : '';
    return `${errorMessage(error)}${cause}`;
  }
}

function statsUrl(httpPort: number): string {
  return `http://127.0.0.1:${httpPort}${STATS_PATH}`;
}

/** A started server: its stats route, and stop/kill of its process. */
export class LaunchedXmppServer implements XmppServer {
  readonly websocketUrl: string;
  readonly domain: string;
  readonly mucDomain: string;
  private stopping: Promise<void> | undefined;

  constructor(
    options: XmppServerOptions,
    readonly httpPort: number,
    private readonly instanceId: string,
    private readonly server: ServerProcess,
    /** Removed on stop; undefined when the caller chose the folder. */
    private readonly ownedRuntimeDir: string | undefined,
    readonly nodeName?: string,
  ) {
    this.domain = options.domain;
    this.mucDomain = options.mucDomain;
    this.websocketUrl = `ws://127.0.0.1:${httpPort}/xmpp-websocket`;
  }

  get pid(): number | undefined {
    return this.server.pid;
  }

  get exited(): Promise<void> {
    return this.server.exited;
  }

  get exitStatus(): string | undefined {
    return this.server.exitStatus;
  }

  async stats(): Promise<XmppServerStats> {
    const response = await fetch(statsUrl(this.httpPort), { signal: AbortSignal.timeout(STATS_TIMEOUT_MS) });
    if (!response.ok || response.headers.get(INSTANCE_HEADER) !== this.instanceId) {
      await response.body?.cancel();
      throw new Error(`XMPP server stats: unexpected answer ${response.status} from 127.0.0.1:${this.httpPort}`);
    }
    return parseStats(await response.json());
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await this.server.terminate(STOP_GRACE_MS);
      if (this.ownedRuntimeDir !== undefined) await rm(this.ownedRuntimeDir, { recursive: true, force: true });
    })();
    return this.stopping;
  }

  kill(): Promise<void> {
    return this.server.kill();
  }
}

function parseStats(body: unknown): XmppServerStats {
  const invalid = new Error(`XMPP server stats: malformed answer ${JSON.stringify(body)}`);
  if (!isRecord(body) || !isCount(body.clientSessions) || !isRecord(body.rooms)) throw invalid;
  if (body.rejectedPayloads !== undefined && !isCount(body.rejectedPayloads)) throw invalid;
  const sweeps = body.roomSweeps;
  if (sweeps !== undefined && !isRoomSweeps(sweeps)) throw invalid;
  const rooms: XmppServerStats['rooms'] = {};
  for (const [roomJid, room] of Object.entries(body.rooms)) {
    if (!isRecord(room) || !isCount(room.occupants)) throw invalid;
    rooms[roomJid] = { occupants: room.occupants };
  }
  return {
    clientSessions: body.clientSessions,
    rooms,
    ...(body.rejectedPayloads === undefined ? {} : { rejectedPayloads: body.rejectedPayloads }),
    ...(sweeps === undefined ? {} : { roomSweeps: { sweeps: sweeps.sweeps, mostStoredRoomsPerSweep: sweeps.mostStoredRoomsPerSweep } }),
  };
}

function isRoomSweeps(value: unknown): value is NonNullable<XmppServerStats['roomSweeps']> {
  return isRecord(value) && isCount(value.sweeps) && isCount(value.mostStoredRoomsPerSweep);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}
