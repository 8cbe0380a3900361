import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that is free right now (another process may still take it before us). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the probe socket address'));
      });
    });
  });
}
