import { readFileSync } from 'node:fs';
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
});
