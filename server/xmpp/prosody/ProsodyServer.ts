import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ROOM_IDLE_EXPIRY_SECONDS, findBinary, LaunchedXmppServer, launchOnFreePort, validateOptions, waitUntilReady } from '../launch';
import { ServerProcess } from '../ServerProcess';
import type { XmppServer, XmppServerOptions } from '../XmppServer';
import { renderProsodyConfig } from './prosodyConfig';

const PLUGIN_DIR = fileURLToPath(new URL('./modules', import.meta.url));
const INSTALL_COMMAND = 'apt-get install -y prosody lua-dbi-sqlite3';
/** Prosody is up in 0.1–0.2 s; ten seconds means it is not coming. */
const READY_TIMEOUT_MS = 10_000;
const ROOMS_DATABASE = 'rooms.sqlite';
const SETPRIV = '/usr/bin/setpriv';

/** Starts a private Prosody (never the system service) with a generated config in its runtime folder. */
export async function startProsody(options: XmppServerOptions): Promise<XmppServer> {
  validateOptions(options);
  const binary = await findBinary('prosody', 'Prosody', INSTALL_COMMAND);
  return launchOnFreePort(options, 'parley-prosody-', (runtimeDir, ownsRuntimeDir, httpPort) =>
    launch(binary, options, runtimeDir, ownsRuntimeDir, httpPort),
  );
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
  const roomsDir = options.dataDir ?? dataDir;
  // The rooms' store holds who is banned and the rooms' passwords: for this user only.
  await mkdir(roomsDir, { recursive: true, mode: 0o700 });
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
    roomsDatabase: join(roomsDir, ROOMS_DATABASE),
    roomIdleExpirySeconds: options.roomIdleExpirySeconds ?? DEFAULT_ROOM_IDLE_EXPIRY_SECONDS,
    logFile,
    pluginDir: PLUGIN_DIR,
    runAsRoot: process.getuid?.() === 0,
    instanceId,
  });
  // The config holds the token secret.
  await writeFile(configFile, config, { mode: 0o600 });

  // Prosody dies with the Node process that started it, however that one ends (a closed terminal's
  // SIGHUP, SIGKILL, a crash: the 'exit' hook that kills children runs on none of them): setpriv
  // (util-linux, on every Debian) asks the kernel for SIGTERM on its parent's death, then execs
  // Prosody (the same process). Left running, a second `npm start` would run two Prosodys on one store.
  const prosody = new ServerProcess(SETPRIV, ['--pdeathsig', 'TERM', '--', binary, '--config', configFile, '-F'], { cwd: runtimeDir, log: options.log });
  await waitUntilReady(
    prosody,
    {
      product: 'Prosody',
      httpPort,
      instanceId,
      timeoutMs: READY_TIMEOUT_MS,
      portTaken: () => prosody.printed(`Failed to open server port ${httpPort} `),
    },
    logFile,
  );
  return new LaunchedXmppServer(options, httpPort, instanceId, prosody, ownsRuntimeDir ? runtimeDir : undefined);
}
