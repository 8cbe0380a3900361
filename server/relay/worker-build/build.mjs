#!/usr/bin/env node
// Builds mediasoup's C++ worker (mediasoup-worker) from the npm package's own
// sources against Debian 12's libraries and caches the binary outside the
// repository (README.md beside this file says why). Plain Node with no npm
// dependencies, because it runs before `npm install` has.
//
//   node server/relay/worker-build/build.mjs    progress on stderr, the path last on stdout
//   import { ensureRelayWorker } from './build.mjs';
//   process.env.MEDIASOUP_WORKER_BIN = await ensureRelayWorker();

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MEDIASOUP_VERSION = '3.27.1';

const THIS_FILE = fileURLToPath(import.meta.url);
const HERE = path.dirname(THIS_FILE);
const PATCH_FILE = path.join(HERE, `mediasoup-${MEDIASOUP_VERSION}.patch`);
const STANDINS_DIR = path.join(HERE, 'standins');

// What the build runs and links against; the -dev packages pull in the runtime
// libraries (libssl3, libuv1, libsrtp2-1, libabsl) the binary needs.
const DEBIAN_PACKAGES = [
  'g++',
  'meson',
  'ninja-build',
  'pkg-config',
  'patch',
  'libssl-dev',
  'libuv1-dev',
  'libsrtp2-dev',
  'libabsl-dev',
  'libflatbuffers-dev',
  'flatbuffers-compiler',
];

// The project's machines have 2 cores; more jobs would only add memory pressure.
const BUILD_JOBS = 2;
const HEARTBEAT_MS = 15_000;
const LOCK_POLL_MS = 1_000;
// A build takes minutes; a lock this old was left by a process that died
// without cleaning up, even if its pid has since been reused.
const LOCK_STALE_MS = 60 * 60_000;
const VERIFY_TIMEOUT_MS = 10_000;
const ERROR_TAIL_LINES = 40;

function logToStderr(line) {
  process.stderr.write(`[mediasoup-worker build] ${line}\n`);
}

// Calls within one process share one build; the lock file covers other processes.
const buildsInProgress = new Map();

/**
 * Returns the absolute path of a mediasoup-worker binary built from this
 * folder's patch and stand-ins, building and caching it first if needed.
 */
export async function ensureRelayWorker({ log = logToStderr } = {}) {
  const binaryPath = cachedBinaryPath();

  if (isFile(binaryPath)) {
    return binaryPath;
  }

  if (!buildsInProgress.has(binaryPath)) {
    const build = buildUnderLock(binaryPath, log).finally(() => buildsInProgress.delete(binaryPath));
    buildsInProgress.set(binaryPath, build);
  }

  return buildsInProgress.get(binaryPath);
}

async function buildUnderLock(binaryPath, log) {
  const binaryDir = path.dirname(binaryPath);
  await fsp.mkdir(binaryDir, { recursive: true });
  const releaseLock = await acquireLock(`${binaryDir}.lock`, log);

  try {
    if (isFile(binaryPath)) {
      log(`another process finished the build meanwhile: ${binaryPath}`);
    } else {
      await buildAndInstall(binaryPath, log);
    }

    return binaryPath;
  } finally {
    await releaseLock();
  }
}

function cachedBinaryPath() {
  const cacheRoot =
    process.env.PARLEY_CACHE_DIR ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'parley');

  return path.resolve(
    cacheRoot,
    'mediasoup-worker',
    `${MEDIASOUP_VERSION}-${buildInputsHash()}`,
    'mediasoup-worker',
  );
}

// Any change to the patch, the stand-ins or this script yields a new cache entry.
function buildInputsHash() {
  const hash = createHash('sha256');
  const inputs = [
    [path.basename(PATCH_FILE), PATCH_FILE],
    ...standinFiles().map((relativePath) => [
      `standins/${relativePath}`,
      path.join(STANDINS_DIR, relativePath),
    ]),
    [path.basename(THIS_FILE), THIS_FILE],
  ];

  for (const [name, file] of inputs) {
    hash.update(`${name}\0`);
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }

  return hash.digest('hex').slice(0, 12);
}

// Paths relative to STANDINS_DIR, sorted so the hash doesn't depend on
// directory order.
function standinFiles(relativeDir = '') {
  const entries = fs.readdirSync(path.join(STANDINS_DIR, relativeDir), { withFileTypes: true });

  return entries
    .flatMap((entry) => {
      const relativePath = path.posix.join(relativeDir, entry.name);

      return entry.isDirectory() ? standinFiles(relativePath) : [relativePath];
    })
    .sort();
}

function isFile(file) {
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

// The lock only saves a second build: each build works in its own temporary
// directory and installs with an atomic rename, so even two builds racing past
// it leave a complete binary.
async function acquireLock(lockPath, log) {
  // Link a finished file into place so the lock never exists without its pid.
  const claimPath = `${lockPath}.${process.pid}`;
  await fsp.writeFile(claimPath, String(process.pid));

  try {
    const waitStarted = Date.now();
    let lastNotice = 0;

    for (;;) {
      try {
        await fsp.link(claimPath, lockPath);

        return () => fsp.rm(lockPath, { force: true });
      } catch (error) {
        if (error.code !== 'EEXIST') {
          throw error;
        }
      }

      const holderPid = Number(await fsp.readFile(lockPath, 'utf8').catch(() => ''));

      if (await isStaleLock(lockPath, holderPid)) {
        log(`removing the stale lock left by build process ${holderPid}`);
        await fsp.rm(lockPath, { force: true });
        continue;
      }

      if (Date.now() - lastNotice >= HEARTBEAT_MS) {
        lastNotice = Date.now();
        log(
          `waiting for the build in process ${holderPid || '?'} to finish ` +
            `(${formatElapsed(Date.now() - waitStarted)} so far)`,
        );
      }

      await sleep(LOCK_POLL_MS);
    }
  } finally {
    await fsp.rm(claimPath, { force: true });
  }
}

async function isStaleLock(lockPath, holderPid) {
  const lockStat = await fsp.stat(lockPath).catch(() => undefined);

  if (!lockStat || !holderPid) {
    // Released in the meantime: try to take it again.
    return false;
  }

  // This process never waits on itself (see buildsInProgress), so its own pid
  // here was left by an earlier process that had the same pid.
  return (
    holderPid === process.pid ||
    !isProcessAlive(holderPid) ||
    Date.now() - lockStat.mtimeMs > LOCK_STALE_MS
  );
}

function isProcessAlive(pid) {
  try {
    process.kill(pid, 0);

    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return error.code === 'EPERM';
  }
}

async function buildAndInstall(binaryPath, log) {
  const started = Date.now();
  log(`building mediasoup-worker ${MEDIASOUP_VERSION}; this takes several minutes on 2 cores`);

  await ensureDebianPackages(log);

  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parley-mediasoup-worker-'));
  const buildLog = fs.createWriteStream(path.join(workDir, 'build.log'));
  const runLogged = (command, args, options) => run(command, args, { ...options, logStream: buildLog });
  let succeeded = false;

  try {
    log(`fetch: npm pack mediasoup@${MEDIASOUP_VERSION} into ${workDir}`);
    await runLogged('npm', ['pack', `mediasoup@${MEDIASOUP_VERSION}`, '--silent'], { cwd: workDir });
    const tarball = (await fsp.readdir(workDir)).find((name) => name.endsWith('.tgz'));
    await runLogged('tar', ['-xzf', tarball, 'package/worker'], { cwd: workDir });
    const workerDir = path.join(workDir, 'package', 'worker');

    log(`patch: ${path.basename(PATCH_FILE)} and stand-in subprojects`);
    await runLogged('patch', ['-p1', '--batch', '--forward', '--input', PATCH_FILE], {
      cwd: workerDir,
    });
    await copyStandins(path.join(workerDir, 'subprojects'));

    log('configure: meson setup (release: -O2, no debug info, NDEBUG)');
    const buildDir = path.join(workDir, 'build');
    await runLogged(
      'meson',
      [
        'setup',
        // Spelled out rather than --buildtype=release, which would override
        // -Doptimization=2 with -O3 in meson 1.0.
        '-Doptimization=2',
        '-Ddebug=false',
        '-Db_ndebug=true',
        // A missing stand-in must fail here rather than reach for the network.
        '--wrap-mode=nodownload',
        buildDir,
      ],
      { cwd: workerDir },
    );

    log(`compile: ninja -j${BUILD_JOBS}`);
    await compileWithHeartbeat(buildDir, runLogged, log);

    const builtBinary = path.join(buildDir, 'mediasoup-worker');
    log('verify: start the worker the way mediasoup spawns it');
    await verifyWorkerRuns(builtBinary);

    log(`install: ${binaryPath}`);
    await installAtomically(builtBinary, binaryPath);

    succeeded = true;
    log(`done in ${formatElapsed(Date.now() - started)}`);
  } finally {
    buildLog.end();

    if (succeeded) {
      await fsp.rm(workDir, { recursive: true, force: true });
    } else {
      log(`build files and build.log kept for inspection in ${workDir}`);
    }
  }
}

async function ensureDebianPackages(log) {
  const missing = missingDebianPackages();

  if (missing.length === 0) {
    log('debian packages: all present');

    return;
  }

  const installArgs = ['install', '-y', '--no-install-recommends', ...missing];

  if (process.getuid() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}\n` +
        `install them, then run this again:\n  sudo apt-get ${installArgs.join(' ')}`,
    );
  }

  const aptOptions = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, onLine: log };
  log(`debian packages: apt-get ${installArgs.join(' ')}`);

  try {
    await run('apt-get', installArgs, aptOptions);
  } catch {
    // Package lists may be absent or stale; refresh them only when needed.
    log('debian packages: install failed, running apt-get update and retrying');
    await run('apt-get', ['update'], aptOptions);
    await run('apt-get', installArgs, aptOptions);
  }
}

function missingDebianPackages() {
  const query = spawnSync(
    'dpkg-query',
    ['--show', '--showformat=${Package} ${db:Status-Status}\\n', ...DEBIAN_PACKAGES],
    { encoding: 'utf8' },
  );

  if (query.error) {
    throw new Error(`this build needs Debian's dpkg-query: ${query.error.message}`);
  }

  // dpkg-query exits 1 for packages it has never heard of; those are missing too.
  const installed = new Set(
    query.stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed'))
      .map((line) => line.split(' ')[0]),
  );

  return DEBIAN_PACKAGES.filter((name) => !installed.has(name));
}

async function copyStandins(subprojectsDir) {
  for (const relativePath of standinFiles()) {
    const target = path.join(subprojectsDir, relativePath);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.copyFile(path.join(STANDINS_DIR, relativePath), target);
  }
}

async function compileWithHeartbeat(buildDir, runLogged, log) {
  const started = Date.now();
  let progress = 'starting';
  const heartbeat = setInterval(() => {
    log(`compile: ${formatElapsed(Date.now() - started)} elapsed, at step ${progress}`);
  }, HEARTBEAT_MS);

  try {
    await runLogged('ninja', ['-C', buildDir, `-j${BUILD_JOBS}`, 'mediasoup-worker'], {
      onLine: (line) => {
        const step = /^\[(\d+\/\d+)\]/.exec(line);

        if (step) {
          progress = step[1];
        }
      },
    });
  } finally {
    clearInterval(heartbeat);
  }
}

// mediasoup's Node side starts the worker with MEDIASOUP_VERSION in its
// environment and its channel on fds 3 (requests in) and 4 (messages out). A
// healthy worker first sends a "running" notification, which carries its pid,
// and exits with 0 once the channel closes.
function verifyWorkerRuns(binary) {
  return new Promise((resolve, reject) => {
    const worker = spawn(binary, [], {
      env: { ...process.env, MEDIASOUP_VERSION },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    const [, , stderr, toWorker, fromWorker] = worker.stdio;
    let errorOutput = '';
    let firstMessage = Buffer.alloc(0);
    let announcedItself = false;
    const timeout = setTimeout(() => worker.kill('SIGKILL'), VERIFY_TIMEOUT_MS);

    stderr.on('data', (chunk) => {
      errorOutput += chunk;
    });
    fromWorker.on('data', (chunk) => {
      firstMessage = Buffer.concat([firstMessage, chunk]);

      if (!announcedItself && firstMessage.includes(String(worker.pid))) {
        announcedItself = true;
        toWorker.end();
      }
    });
    worker.on('error', reject);
    worker.on('close', (code, signal) => {
      clearTimeout(timeout);

      if (announcedItself && code === 0) {
        resolve();
      } else {
        reject(
          new Error(
            `the built worker did not start and stop cleanly ` +
              `(announced itself: ${announcedItself}, exit: ${signal ?? code})\n${errorOutput}`,
          ),
        );
      }
    });
  });
}

// The temporary build directory may be on another filesystem, so copy next to
// the target first; the rename then makes the binary appear complete or not at all.
async function installAtomically(builtBinary, binaryPath) {
  const partialPath = `${binaryPath}.partial-${process.pid}`;

  try {
    await fsp.copyFile(builtBinary, partialPath);
    await fsp.chmod(partialPath, 0o755);
    await fsp.rename(partialPath, binaryPath);
  } finally {
    await fsp.rm(partialPath, { force: true });
  }
}

// Runs a command, teeing its output to logStream and onLine; on failure the
// error carries the output's last lines.
function run(command, args, { cwd, env, logStream, onLine } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = [];
    const partialLine = { stdout: '', stderr: '' };

    logStream?.write(`$ ${command} ${args.join(' ')}\n`);

    const takeOutput = (streamName) => (chunk) => {
      logStream?.write(chunk);
      const lines = (partialLine[streamName] + chunk).split('\n');
      partialLine[streamName] = lines.pop();

      for (const line of lines) {
        tail.push(line);

        if (tail.length > ERROR_TAIL_LINES) {
          tail.shift();
        }

        onLine?.(line);
      }
    };

    child.stdout.setEncoding('utf8').on('data', takeOutput('stdout'));
    child.stderr.setEncoding('utf8').on('data', takeOutput('stderr'));
    child.on('error', (error) => reject(new Error(`cannot run ${command}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolve();

        return;
      }

      const lastLines = [...tail, partialLine.stdout, partialLine.stderr].filter(Boolean);
      reject(
        new Error(
          `${command} ${args.join(' ')} failed (exit ${signal ?? code}):\n${lastLines.join('\n')}`,
        ),
      );
    });
  });
}

function formatElapsed(milliseconds) {
  const seconds = Math.round(milliseconds / 1000);

  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

function sleep(milliseconds) {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function isRunAsScript() {
  return Boolean(process.argv[1]) && fs.realpathSync(process.argv[1]) === THIS_FILE;
}

if (isRunAsScript()) {
  try {
    console.log(await ensureRelayWorker());
  } catch (error) {
    logToStderr(`failed: ${error.message}`);
    process.exitCode = 1;
  }
}
