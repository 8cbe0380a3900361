// A Prosody start that never answers its readiness probe says why the probe failed: a probe that can
// never succeed (fetch refusing the port) once read only as "did not answer within 10000 ms", as if
// Prosody were slow to come up, while its log showed it serving.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startProsody } from '../../server/xmpp/prosody/ProsodyServer';

/** One of the Fetch standard's "bad ports": Prosody listens there, Node's fetch refuses to connect. */
const FETCH_BLOCKED_PORT = 10_080;

describe('Prosody readiness: a start that is never answered names its last probe failure', () => {
  it('on a port fetch refuses, the error says so, not only that Prosody did not answer in time', async () => {
    const start = startProsody({ domain: 'parley.localhost', mucDomain: 'rooms.parley.localhost', tokenSecret: randomUUID(), httpPort: FETCH_BLOCKED_PORT });
    await expect(start).rejects.toThrow(new RegExp(`did not answer on 127\\.0\\.0\\.1:${FETCH_BLOCKED_PORT} within \\d+ ms \\(last probe: fetch failed: bad port\\)`));
  });
});
