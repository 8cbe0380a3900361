import { execFile } from 'node:child_process';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parleyCacheDir } from '../../cacheDir';
import { freeLoopbackPort } from '../freeLoopbackPort';
import { DEFAULT_ROOM_IDLE_EXPIRY_SECONDS, findBinary, LaunchedXmppServer, launchOnFreePort, validateOptions, waitUntilReady } from '../launch';
import { ServerProcess } from '../ServerProcess';
import type { XmppServer, XmppServerOptions } from '../XmppServer';
import { XmppServerStartError } from '../XmppServerStartError';
import { renderEjabberdConfig, renderJwk } from './ejabberdConfig';

/** mod_parley.erl and the modules beside it, compiled together. */
const MODULE_SOURCES = ['mod_parley.erl', 'mod_muc_parley.erl', 'mod_parley_lock_admitted.erl', 'mod_parley_payload_guard.erl', 'mod_parley_room_expiry.erl', 'mod_parley_room_failover.erl'].map((name) =>
  fileURLToPath(new URL(`./${name}`, import.meta.url)),
);
const INSTALL_COMMAND = 'apt-get install -y ejabberd';
/** Where Debian's packages put ejabberd (/usr/lib/<arch>/ejabberd-<version>) and the Erlang libraries. */
const DEBIAN_LIB_ROOT = '/usr/lib';
const ERLANG_LIB_DIR = '/usr/lib/erlang/lib';
/** ejabberd is up in about a second on an idle machine; thirty means it is not coming. */
const READY_TIMEOUT_MS = 30_000;
/** Lines of ejabberd's console log that are passed to `options.log` (as Prosody passes its errors). */
const ERROR_LINE = /\[(error|critical|alert|emergency)\]/;

const run = promisify(execFile);

interface EjabberdInstall {
  /** ERL_LIBS for the ejabberd application (Debian's multiarch lib folder). */
  erlLibs: string;
  ebin: string;
  include: string;
  xmppInclude: string;
}

/**
 * Starts a private ejabberd (never the system service) in the foreground: `erl` with its own node
 * name, cookie and Mnesia folder, so that several run side by side, and Parley's module compiled
 * against the installed ejabberd.
 */
export async function startEjabberd(options: XmppServerOptions): Promise<XmppServer> {
  validateOptions(options);
  const erl = await findBinary('erl', 'ejabberd (Erlang)', INSTALL_COMMAND);
  const install = await findEjabberd();
  const moduleDir = await compiledModuleDir(install);
  return launchOnFreePort(options, 'parley-ejabberd-', (runtimeDir, ownsRuntimeDir, httpPort) =>
    launch(erl, install, moduleDir, options, runtimeDir, ownsRuntimeDir, httpPort),
  );
}

async function findEjabberd(): Promise<EjabberdInstall> {
  for (const arch of await readdir(DEBIAN_LIB_ROOT).catch(() => [])) {
    const archDir = join(DEBIAN_LIB_ROOT, arch);
    const release = (await readdir(archDir).catch(() => [])).find((name) => name.startsWith('ejabberd-'));
    const xmpp = (await readdir(ERLANG_LIB_DIR).catch(() => [])).find((name) => name.startsWith('p1_xmpp-'));
    if (release === undefined || xmpp === undefined) continue;
    const ebin = join(archDir, release, 'ebin');
    if (!existsSync(join(ebin, 'ejabberd.app'))) continue;
    return { erlLibs: archDir, ebin, include: join(archDir, release, 'include'), xmppInclude: join(ERLANG_LIB_DIR, xmpp, 'include') };
  }
  throw new XmppServerStartError(`ejabberd is not installed (no ${DEBIAN_LIB_ROOT}/<arch>/ejabberd-*). Install it with: ${INSTALL_COMMAND}`);
}

let compiling: Promise<string> | undefined;

/** Parley's modules (.beam), compiled once per source and ejabberd release into a shared temporary folder. */
function compiledModuleDir(install: EjabberdInstall): Promise<string> {
  compiling ??= compileModule(install).catch((error: unknown) => {
    compiling = undefined;
    throw error;
  });
  return compiling;
}

async function compileModule(install: EjabberdInstall): Promise<string> {
  const hasher = createHash('sha256');
  for (const source of MODULE_SOURCES) hasher.update(await readFile(source));
  const hash = hasher.update(install.ebin).digest('hex').slice(0, 16);
  // Loaded into ejabberd beside the token secret: compiled into the user's own cache, not a /tmp path
  // anyone could have made first with a module of their own in it.
  const modulesDir = join(parleyCacheDir(), 'ejabberd-module');
  await mkdir(modulesDir, { recursive: true, mode: 0o700 });
  const moduleDir = join(modulesDir, hash);
  if (existsSync(join(moduleDir, 'mod_parley.beam'))) return moduleDir;
  const staging = await mkdtemp(join(modulesDir, 'build-'));
  try {
    const erlc = await findBinary('erlc', 'The Erlang compiler', 'apt-get install -y erlang-base');
    await run(erlc, ['-o', staging, '-pa', install.ebin, '-I', install.include, '-I', install.xmppInclude, '-Werror', ...MODULE_SOURCES]);
    // Another process may have compiled the same module meanwhile; either copy is good.
    await rename(staging, moduleDir).catch(() => undefined);
  } catch (error) {
    const output = error instanceof Error && 'stdout' in error ? String(error.stdout) : String(error);
    throw new XmppServerStartError(`could not compile ${MODULE_SOURCES.join(', ')}:\n${output}`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return moduleDir;
}

async function launch(
  erl: string,
  install: EjabberdInstall,
  moduleDir: string,
  options: XmppServerOptions,
  runtimeDir: string,
  ownsRuntimeDir: boolean,
  httpPort: number,
): Promise<XmppServer> {
  // A folder of its own inside the data folder, which also holds Prosody's rooms and the token secret.
  const mnesiaDir = join(options.dataDir ?? runtimeDir, 'mnesia');
  const configFile = join(runtimeDir, 'ejabberd.yml');
  const jwkFile = join(runtimeDir, 'token-key.jwk');
  const logFile = join(runtimeDir, 'ejabberd.log');
  const instanceId = randomUUID();
  await mkdir(mnesiaDir, { recursive: true, mode: 0o700 });
  // Both hold the token secret.
  await writeFile(jwkFile, renderJwk(options.tokenSecret), { mode: 0o600 });
  const config = renderEjabberdConfig({
    domain: options.domain,
    mucDomain: options.mucDomain,
    httpPort,
    jwkFile,
    maxOccupants: options.maxOccupants,
    roomsNeedHost: options.roomsNeedHost ?? false,
    roomIdleExpirySeconds: options.roomIdleExpirySeconds ?? DEFAULT_ROOM_IDLE_EXPIRY_SECONDS,
    instanceId,
  });
  await writeFile(configFile, config, { mode: 0o600 });

  // Mnesia's schema names its node: the same data folder must come back under the same name. A
  // cluster node has one name that the others can be told (each node its own address).
  const address = options.cluster?.address ?? '127.0.0.1';
  const nodeName = options.cluster
    ? `parley@${address}`
    : `parley-${createHash('sha256').update(mnesiaDir).digest('hex').slice(0, 12)}@${address}`;
  // Distribution without epmd: every node listens on the one port (alone: a free loopback port).
  const distributionPort = options.cluster?.distributionPort ?? (await freeLoopbackPort());
  const joinNodes = options.cluster?.join ?? [];
  // Nodes that share the token secret share the cookie: they may join each other. Erlang reads it from
  // $HOME/.erlang.cookie, a home of this node's own: on the command line every local user could read it.
  const home = join(runtimeDir, 'erlang-home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFile(join(home, '.erlang.cookie'), createHmac('sha256', options.tokenSecret).update('parley erlang cookie').digest('base64url'), { mode: 0o600 });
  const args = [
    '-name', nodeName,
    '-start_epmd', 'false',
    '-erl_epmd_port', String(distributionPort),
    '-kernel', 'inet_dist_use_interface', erlangAddress(address),
    '-noshell',
    // A Node process that dies without stopping its ejabberd (a test worker killed mid-start) closes this stdin.
    '-eval', 'spawn(fun() -> io:get_line(""), erlang:halt() end)',
    '-pa', moduleDir,
    '-mnesia', 'dir', JSON.stringify(mnesiaDir),
    '-s', 'ejabberd',
    ...(joinNodes.length > 0 ? ['-eval', joinClusterExpression(joinNodes)] : []),
  ];
  const env = {
    ...process.env,
    HOME: home,
    ERL_LIBS: install.erlLibs,
    EJABBERD_CONFIG_PATH: configFile,
    EJABBERD_LOG_PATH: logFile,
    ERL_CRASH_DUMP: join(runtimeDir, 'erl_crash.dump'),
    ERL_CRASH_DUMP_BYTES: '0',
  };
  const ejabberd = new ServerProcess(erl, args, {
    cwd: runtimeDir,
    env,
    log: options.log,
    forward: (line) => ERROR_LINE.test(line),
    stdinPipe: true,
  });
  await waitUntilReady(
    ejabberd,
    {
      product: 'ejabberd',
      httpPort,
      instanceId,
      timeoutMs: READY_TIMEOUT_MS,
      portTaken: () => ejabberd.printed(`127.0.0.1:${httpPort}`) && ejabberd.printed('eaddrinuse'),
      settled: () => {
        if (joinNodes.length === 0) return 'yes';
        const outcome = ejabberd.printedLine(JOIN_OUTCOME);
        if (outcome === undefined) return 'not yet';
        return outcome === `${JOIN_OUTCOME} ok` ? 'yes' : { failed: `could not join ${joinNodes.join(', ')}: ${outcome}` };
      },
    },
    logFile,
  );
  return new LaunchedXmppServer(options, httpPort, instanceId, ejabberd, ownsRuntimeDir ? runtimeDir : undefined, nodeName);
}

const JOIN_OUTCOME = 'parley cluster join:';
const NODE_NAME = /^[A-Za-z0-9_.-]+@[A-Za-z0-9_.:-]+$/;

/** An Erlang expression that joins the first node that answers (ejabberd then restarts in the cluster) and prints the outcome. */
function joinClusterExpression(nodes: string[]): string {
  for (const node of nodes) {
    if (!NODE_NAME.test(node)) throw new XmppServerStartError(`cluster node names look like name@address, got '${node}'`);
  }
  const list = nodes.map((node) => `<<"${node}">>`).join(',');
  return `io:format("${JOIN_OUTCOME} ~p~n", [lists:foldl(fun(_, ok) -> ok; (Node, _) -> ejabberd_admin:join_cluster(Node) end, none, [${list}])]).`;
}

/** An IPv4 address as an Erlang tuple, as inet_dist_use_interface takes it. */
function erlangAddress(address: string): string {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) {
    throw new XmppServerStartError(`the cluster address must be an IPv4 address, got '${address}'`);
  }
  return `{${parts.join(',')}}`;
}
