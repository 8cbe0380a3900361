// `npm run bench`: set up like `npm start` plus the SimpleWebRTC 1.30.3 reference page, then
// measure (scripts/bench/index.ts) inside a loopback-only network namespace when root, so WebRTC
// stays on 127.0.0.1 as in the tests.
import { spawnSync } from 'node:child_process';
import { ensureAppBuilt, ensureDebianPackages, ensureNpmPackages, ensureRelayWorkerBuilt, inLoopbackNamespace, ROOT, SERVER_PACKAGES, TEST_PACKAGES } from './lib/setup.mjs';
import { ensureReferenceBuilt, ensureReferenceInstalled } from './lib/referenceSetup.mjs';

const log = (line) => console.error(`[setup] ${line}`);
ensureDebianPackages([...SERVER_PACKAGES, ...TEST_PACKAGES], log);
await ensureRelayWorkerBuilt(log);
ensureNpmPackages(log);
ensureAppBuilt(log);
ensureReferenceInstalled(log);
ensureReferenceBuilt(log);

const { command, args } = inLoopbackNamespace([process.execPath, '--import', 'tsx', 'scripts/bench/index.ts']);
const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
