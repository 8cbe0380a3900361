// `npm start`: set up whatever is missing, then run Prosody, the relay and the gateway until Ctrl-C.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureAppBuilt, ensureDebianPackages, ensureNpmPackages, ensureRelayWorkerBuilt, ROOT, SERVER_PACKAGES } from './lib/setup.mjs';

const log = (line) => console.error(`[setup] ${line}`);
try {
  ensureDebianPackages(SERVER_PACKAGES, log);
  await ensureRelayWorkerBuilt(log);
  ensureNpmPackages(log);
  ensureAppBuilt(log);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const server = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], { cwd: ROOT, stdio: 'inherit' });
// The server stops its children on these signals; pass them on and leave with its exit code.
// SIGHUP: the terminal closed (unhandled, it would end this process at once).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
