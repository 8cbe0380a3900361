import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../server/xmpp/freeLoopbackPort';

const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('Server ports: free on 127.0.0.1 and below the ephemeral range, so that a restart on the same port is not beaten to it by an outgoing connection (issue 13 supervision)', () => {
  it('every port handed out lies below the range the system takes outgoing local ports from, and can be listened on', async () => {
    for (let pick = 0; pick < 20; pick += 1) {
      const port = await freeLoopbackPort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart);
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
    }
  });

  it('hands out no port that fetch refuses to connect to (the Fetch standard\'s "bad ports", the highest 10080): a server there would run unreached by its readiness probe', async () => {
    // Those ports lie at the bottom of the range: walk it from there, half a port per pick, so that none is skipped.
    const halfPort = 0.5 / (ephemeralStart - 10_000);
    let picks = 0;
    const walkFromBottom = (): number => halfPort * picks++;
    const ports = new Set<number>();
    while (ports.size < 200) ports.add(await freeLoopbackPort(walkFromBottom));
    const refused = [];
    for (const port of ports) if (!(await fetchReaches(port))) refused.push(port);
    expect(refused).toEqual([]);
  });
});

/** Whether Node's fetch gets an answer from an HTTP server listening on `port`. */
async function fetchReaches(port: number): Promise<boolean> {
  const server = createHttpServer((_, response) => response.end());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
