import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '../freeLoopbackPort';
import type { XmppServer, XmppServerOptions, XmppServerStats } from '../XmppServer';
import { XmppServerStartError } from '../XmppServerStartError';
import { renderProsodyConfig } from './prosodyConfig';

const PLUGIN_DIR = fileURLToPath(new URL('./modules', import.meta.url));
const INSTALL_COMMAND = 'apt-get install -y prosody';
const STATS_PATH = '/parley-stats';
const INSTANCE_HEADER = 'x-parley-instance';
/** Prosody is up in 0.1–0.2 s; ten seconds means it is not coming. */
const READY_TIMEOUT_MS = 10_000;
const READY_POLL_MS = 20;
const STOP_GRACE_MS = 5_000;
const STATS_TIMEOUT_MS = 5_000;
const LOG_TAIL_LINES = 40;
/** Only for auto-picked ports, which another process can take between our probe and Prosody's bind. */
const MAX_PORT_ATTEMPTS = 3;
const DOMAIN_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Prosody could not bind its HTTP port; a fresh port may work. */
class PortTakenError extends XmppServerStartError {}

/** Prosody processes still running, killed if this Node process exits without stopping them. */
const runningChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function killChildrenOnExit(child: ChildProcess): void {
  runningChildren.add(child);
  child.once('exit', () => runningChildren.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const running of runningChildren) running.kill('SIGKILL');
  });
}

/** Starts a private Prosody (never the system service) with a generated config in its runtime folder. */
export async function startProsody(options: XmppServerOptions): Promise<XmppServer> {
  validateOptions(options);
  const binary = await findProsodyBinary();
  const ownsRuntimeDir = options.runtimeDir === undefined;
  const runtimeDir = options.runtimeDir ?? (await mkdtemp(join(tmpdir(), 'parley-prosody-')));
  try {
    for (let attempt = 1; ; attempt += 1) {
      const httpPort = options.httpPort ?? (await freeLoopbackPort());
      try {
        return await launch(binary, options, runtimeDir, ownsRuntimeDir, httpPort);
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

function validateOptions(options: XmppServerOptions): void {
  for (const [name, domain] of [['domain', options.domain], ['mucDomain', options.mucDomain]] as const) {
    if (!DOMAIN_PATTERN.test(domain)) throw new XmppServerStartError(`${name} must be a lowercase DNS name, got '${domain}'`);
  }
  if (options.domain === options.mucDomain) throw new XmppServerStartError('domain and mucDomain must differ');
  if (options.tokenSecret.length === 0) throw new XmppServerStartError('tokenSecret must not be empty');
  const { httpPort, maxOccupants } = options;
  if (httpPort !== undefined && !(Number.isInteger(httpPort) && httpPort > 0 && httpPort < 65536)) {
    throw new XmppServerStartError(`httpPort must be a TCP port number, got ${httpPort}`);
  }
  if (maxOccupants !== undefined && !(Number.isInteger(maxOccupants) && maxOccupants > 0)) {
    throw new XmppServerStartError(`maxOccupants must be a positive integer, got ${maxOccupants}`);
  }
}

async function findProsodyBinary(): Promise<string> {
  const searchPath = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of searchPath.filter((entry) => entry !== '')) {
    const candidate = join(dir, 'prosody');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new XmppServerStartError(`Prosody is not installed (no 'prosody' on PATH). Install it with: ${INSTALL_COMMAND}`);
}

async function launch(
  binary: string,
  options: XmppServerOptions,
  runtimeDir: string,
  ownsRuntimeDir: boolean,
  httpPort: number,
): Promise<XmppServer> {
  const dataDir = join(runtimeDir, 'data');
  const logFile = join(runtimeDir, 'prosody.log');
  const configFile = join(runtimeDir, 'prosody.cfg.lua');
  const instanceId = randomUUID();
  await mkdir(dataDir, { recursive: true });
  // Prosody indexes <config folder>/certs at startup and logs an error when it is missing; we use no TLS.
  await mkdir(join(runtimeDir, 'certs'), { recursive: true });
  const config = renderProsodyConfig({
    domain: options.domain,
    mucDomain: options.mucDomain,
    tokenSecret: options.tokenSecret,
    httpPort,
    maxOccupants: options.maxOccupants,
    roomsNeedHost: options.roomsNeedHost ?? false,
    pidFile: join(runtimeDir, 'prosody.pid'),
    dataDir,
    logFile,
    pluginDir: PLUGIN_DIR,
    runAsRoot: process.getuid?.() === 0,
    instanceId,
  });
  // The config holds the token secret.
  await writeFile(configFile, config, { mode: 0o600 });

  const prosody = new ProsodyProcess(binary, ['--config', configFile, '-F'], runtimeDir, options.log);
  try {
    await waitUntilReady(prosody, httpPort, instanceId);
  } catch (error) {
    await prosody.kill();
    if (!(error instanceof XmppServerStartError)) throw error;
    const ErrorClass = error instanceof PortTakenError ? PortTakenError : XmppServerStartError;
    throw new ErrorClass(`${error.message}\n--- Prosody output ---\n${await prosody.logTail(logFile)}`);
  }
  return new ProsodyServer(options, httpPort, instanceId, prosody, ownsRuntimeDir ? runtimeDir : undefined);
}

async function waitUntilReady(prosody: ProsodyProcess, httpPort: number, instanceId: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (prosody.failedToBind(httpPort)) throw new PortTakenError(`Prosody could not bind 127.0.0.1:${httpPort}`);
    if (prosody.exitStatus !== undefined) {
      throw new XmppServerStartError(`Prosody exited before it was ready (${prosody.exitStatus})`);
    }
    if (await answersAsInstance(httpPort, instanceId)) return;
    if (Date.now() > deadline) {
      throw new XmppServerStartError(`Prosody did not answer on 127.0.0.1:${httpPort} within ${READY_TIMEOUT_MS} ms`);
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, READY_POLL_MS)), prosody.exited]);
  }
}

/** True when our Prosody (not some other server on the port) answers the stats route. */
async function answersAsInstance(httpPort: number, instanceId: string): Promise<boolean> {
  try {
    const response = await fetch(statsUrl(httpPort), { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return response.ok && response.headers.get(INSTANCE_HEADER) === instanceId;
  } catch {
    return false; // not listening yet
  }
}

function statsUrl(httpPort: number): string {
  return `http://127.0.0.1:${httpPort}${STATS_PATH}`;
}

/** One Prosody child process and the last lines it printed. */
class ProsodyProcess {
  readonly exited: Promise<void>;
  /** Set once the process has exited: its exit code or signal. */
  exitStatus: string | undefined;
  private readonly child: ChildProcess;
  private readonly recentOutput: string[] = [];

  constructor(binary: string, args: string[], cwd: string, log: ((line: string) => void) | undefined) {
    this.child = spawn(binary, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    killChildrenOnExit(this.child);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitStatus = signal === null ? `exit code ${code}` : `signal ${signal}`;
        resolve();
      });
      // Spawn failures emit 'error' and no 'exit'.
      this.child.once('error', (error) => {
        this.exitStatus = `could not run: ${error.message}`;
        resolve();
      });
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines.map((text) => text.trimEnd()).filter((text) => text !== '')) {
          this.recentOutput.push(line);
          if (this.recentOutput.length > LOG_TAIL_LINES) this.recentOutput.shift();
          log?.(line);
        }
      });
    }
  }

  get pid(): number | undefined {
    return this.exitStatus === undefined ? this.child.pid : undefined;
  }

  failedToBind(port: number): boolean {
    return this.recentOutput.some((line) => line.includes(`Failed to open server port ${port} `));
  }

  /** Asks Prosody to shut down, and SIGKILLs it if it has not within the grace time. */
  async terminate(graceMs: number): Promise<void> {
    if (this.exitStatus !== undefined) return;
    this.child.kill('SIGTERM');
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => {
      graceTimer = setTimeout(() => resolve('grace over'), graceMs);
    });
    const outcome = await Promise.race([this.exited, graceOver]);
    clearTimeout(graceTimer);
    if (outcome === 'grace over') await this.kill();
  }

  async kill(): Promise<void> {
    if (this.exitStatus === undefined) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** The console output (errors) followed by the end of Prosody's own log file. */
  async logTail(logFile: string): Promise<string> {
    const fileLines = await readFile(logFile, 'utf8').then(
      (text) => text.trimEnd().split('\n').slice(-LOG_TAIL_LINES),
      () => ['(no log file)'],
    );
    return [...this.recentOutput, ...fileLines].join('\n');
  }
}

class ProsodyServer implements XmppServer {
  readonly websocketUrl: string;
  readonly domain: string;
  readonly mucDomain: string;
  private stopping: Promise<void> | undefined;

  constructor(
    options: XmppServerOptions,
    readonly httpPort: number,
    private readonly instanceId: string,
    private readonly prosody: ProsodyProcess,
    /** Removed on stop; undefined when the caller chose the folder. */
    private readonly ownedRuntimeDir: string | undefined,
  ) {
    this.domain = options.domain;
    this.mucDomain = options.mucDomain;
    this.websocketUrl = `ws://127.0.0.1:${httpPort}/xmpp-websocket`;
  }

  get pid(): number | undefined {
    return this.prosody.pid;
  }

  get exited(): Promise<void> {
    return this.prosody.exited;
  }

  get exitStatus(): string | undefined {
    return this.prosody.exitStatus;
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
      await this.prosody.terminate(STOP_GRACE_MS);
      if (this.ownedRuntimeDir !== undefined) await rm(this.ownedRuntimeDir, { recursive: true, force: true });
    })();
    return this.stopping;
  }

  kill(): Promise<void> {
    return this.prosody.kill();
  }
}

function parseStats(body: unknown): XmppServerStats {
  const invalid = new Error(`XMPP server stats: malformed answer ${JSON.stringify(body)}`);
  if (!isRecord(body) || !isCount(body.clientSessions) || !isRecord(body.rooms)) throw invalid;
  const rooms: XmppServerStats['rooms'] = {};
  for (const [roomJid, room] of Object.entries(body.rooms)) {
    if (!isRecord(room) || !isCount(room.occupants)) throw invalid;
    rooms[roomJid] = { occupants: room.occupants };
  }
  return { clientSessions: body.clientSessions, rooms };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}
