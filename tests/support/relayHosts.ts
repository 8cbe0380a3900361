import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOST_MAIN = fileURLToPath(new URL('../../server/relay/host/main.ts', import.meta.url));

/** A relay host process (server/relay/host/main.ts), as an operator starts one. */
export interface RelayHostProcess {
  child: ChildProcess;
  /** Its relay websocket, as it announces it. */
  url: string;
  /** What it wrote to stderr (its log). */
  output: string[];
}

/**
 * Starts a relay host on `address` (a loopback address of its own) with one worker, announcing
 * itself every `heartbeatMs` to the gateway at `gatewayUrl`; resolves once it says it is ready.
 */
export function startRelayHost(options: { address: string; gatewayUrl: string; tokenSecret: string; heartbeatMs: number; env?: NodeJS.ProcessEnv }): Promise<RelayHostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOST_MAIN], {
    env: {
      ...process.env,
      PARLEY_TOKEN_SECRET: options.tokenSecret,
      PARLEY_RELAY_GATEWAYS: options.gatewayUrl,
      PARLEY_RELAY_LISTEN_IP: options.address,
      PARLEY_RELAY_PORT: '0',
      PARLEY_RELAY_WORKERS: '1',
      PARLEY_RELAY_HEARTBEAT_MS: String(options.heartbeatMs),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => output.push(String(chunk)));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`relay host on ${options.address} exited (${code}): ${output.join('')}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const ready = / ready at (\S+)/.exec(String(chunk));
      if (ready) resolve({ child, url: ready[1]!, output });
    });
  });
}
