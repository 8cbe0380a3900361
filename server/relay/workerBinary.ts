import { existsSync } from 'node:fs';
import { workerBin as mediasoupWorkerBin } from 'mediasoup';
import { ensureRelayWorker } from './worker-build/build.mjs';

/**
 * The mediasoup-worker to run: `MEDIASOUP_WORKER_BIN` when set; mediasoup's own when its install
 * fetched or built one (a machine with internet access); else the project's build against
 * Debian's libraries (worker-build/README.md), built and cached on first use.
 */
export async function relayWorkerBinary(log: (line: string) => void): Promise<string> {
  const given = process.env.MEDIASOUP_WORKER_BIN;
  if (given) return given;
  if (existsSync(mediasoupWorkerBin)) return mediasoupWorkerBin;
  return ensureRelayWorker({ log });
}
