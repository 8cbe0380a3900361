// Brings a fresh clone on a fresh machine to a runnable state. Plain Node with no npm
// dependencies: it runs before `npm ci` has.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRelayWorker } from '../../server/relay/worker-build/build.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** ejabberd (`PARLEY_XMPP_SERVER=ejabberd`); it brings erlc and the headers its Parley module compiles against. */
const EJABBERD_PACKAGES = ['ejabberd'];
/** Debian packages the servers need (`npm start`), and what the test suite adds (it runs on both XMPP servers). */
/** util-linux: its setpriv starts Prosody so that it dies with the server that started it (ProsodyServer.ts). */
export const SERVER_PACKAGES = ['prosody', 'lua-unbound', 'lua-dbi-sqlite3', 'util-linux', ...(process.env.PARLEY_XMPP_SERVER === 'ejabberd' ? EJABBERD_PACKAGES : [])];
/**
 * nftables: the fault suite cuts one person's path to the gateway for real (tests/e2e/network-cut.ts);
 * sqlite3: the idle-room sweep's test writes thousands of stored rooms into Prosody's database;
 * fonts-noto-color-emoji: the chat's reactions, in the accessibility suite's screenshots, as a person's browser draws them.
 */
export const TEST_PACKAGES = ['chromium', 'fonts-liberation', 'fonts-noto-color-emoji', 'espeak-ng', 'sox', 'iproute2', 'nftables', 'sqlite3', ...EJABBERD_PACKAGES];

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.signal ?? `exit ${result.status}`})`);
  }
}

function missingDebianPackages(packages) {
  return packages.filter((name) => {
    const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return !status.stdout?.includes('install ok installed');
  });
}

/** Installs missing Debian packages when root; otherwise says exactly what to run. */
export function ensureDebianPackages(packages, log) {
  const missing = missingDebianPackages(packages);
  if (missing.length === 0) return;
  const command = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing Debian packages: ${missing.join(', ')}. Install them with:\n  sudo apt-get update && sudo ${command}`);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
  stopDebianServices(missing, log);
}

/** Packages whose Debian install enables and starts a system-wide server of its own. */
const PACKAGED_SERVICES = ['prosody', 'ejabberd'];

/**
 * Parley runs its own Prosody or ejabberd, on loopback, with its own configuration: the system
 * service Debian enables on install would listen on every interface with Debian's. Only a service
 * this run installed is stopped and disabled; one the machine had before is the operator's.
 */
function stopDebianServices(installed, log) {
  const services = PACKAGED_SERVICES.filter((name) => installed.includes(name));
  if (services.length === 0 || !existsSync('/run/systemd/system')) return;
  log(`disabling the system services Debian started for them: ${services.join(' ')}`);
  run('systemctl', ['disable', '--now', ...services]);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stats.mtimeMs);
}

/**
 * Builds (once, then cached outside the repository) the relay's mediasoup worker against Debian's
 * libraries, and points mediasoup at it for this process and every child.
 */
export async function ensureRelayWorkerBuilt(log) {
  process.env.MEDIASOUP_WORKER_BIN = await ensureRelayWorker({ log: (line) => log(`relay worker: ${line}`) });
}

/** `npm ci` when node_modules is missing or older than the lock file. */
export function ensureNpmPackages(log) {
  const installed = join(ROOT, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(ROOT, 'package-lock.json')).mtimeMs) return;
  log('installing npm packages (npm ci)');
  // MEDIASOUP_WORKER_BIN (set by ensureRelayWorkerBuilt) makes mediasoup's install skip its own download and build.
  // With dev packages whatever NODE_ENV says: the build (vite) and the servers' loader (tsx) are among them.
  run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund']);
}

/** Builds the app when any of its sources is newer than the last build. */
export function ensureAppBuilt(log) {
  const built = join(ROOT, 'dist', 'index.html');
  const sources = ['src', 'index.html', 'vite.config.ts', 'scripts/vite', 'package-lock.json'].map((path) => newestMtime(join(ROOT, path)));
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources)) return;
  log('building the app (vite build)');
  // As it ships, whoever asks: a test runner's NODE_ENV=test (vitest starting `npm start`) would
  // build React's development code, and every later page of the suite would run it.
  run(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { env: { ...process.env, NODE_ENV: 'production' } });
}

/**
 * As root, wraps a command so it runs in a network namespace that has only loopback: there
 * Chromium's only ICE candidate is 127.0.0.1, so WebRTC media never uses the host's network.
 */
export function inLoopbackNamespace(command) {
  const isolated = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0;
  if (!isolated) return { isolated, command: command[0], args: command.slice(1) };
  return { isolated, command: 'unshare', args: ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...command] };
}
