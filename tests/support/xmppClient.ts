import type { Agent } from 'stanza';
import { afterEach } from 'vitest';

export { clientFor, login, MODERATED_ROOM, withTimeout } from './plainXmpp';

/** Plain clients of a test file, each disconnected after the test that made it: returns the tracker. */
export function usePlainClients(): (client: Agent) => Agent {
  const open: Agent[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.disconnect()));
  });
  return (client) => {
    open.push(client);
    return client;
  };
}
