import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where ports are looked for when the system's ephemeral range cannot be read (Linux's default starts at 32768). */
const FALLBACK_EPHEMERAL_START = 32_768;
/**
 * The highest of the Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#bad-port), to which
 * Node's fetch and browsers refuse to connect: a server there runs, but the launcher's readiness probe
 * (a fetch) never reaches it and gives up ("Prosody did not answer on 127.0.0.1:10080").
 */
const HIGHEST_FETCH_BLOCKED_PORT = 10_080;
/** Lowest port handed out: clear of the well-known and the usual registered service ports, and of every port fetch refuses. */
const LOWEST_PORT = HIGHEST_FETCH_BLOCKED_PORT + 1;
const ATTEMPTS = 50;

/**
 * The first port of the system's ephemeral range, from which it picks the local ports of outgoing
 * connections (and of `listen(0)`).
 */
function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > LOWEST_PORT + ATTEMPTS ? start : FALLBACK_EPHEMERAL_START;
  } catch {
    return FALLBACK_EPHEMERAL_START;
  }
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A TCP port on 127.0.0.1 that is free right now (another process may still take it before us),
 * chosen below the system's ephemeral range. A server keeps its port across restarts (the supervisor
 * restarts Prosody where the gateway proxies to); a port from the ephemeral range could meanwhile
 * become the local port of any outgoing connection on the machine, and the restart would find it
 * taken. Ports below the range are only ever taken by a listener that asks for them.
 * `random` (a number in [0, 1) per try) is given by tests, to choose which ports are tried.
 */
export async function freeLoopbackPort(random: () => number = Math.random): Promise<number> {
  const end = ephemeralRangeStart();
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = LOWEST_PORT + Math.floor(random() * (end - LOWEST_PORT));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 between ${LOWEST_PORT} and ${end} after ${ATTEMPTS} tries`);
}
