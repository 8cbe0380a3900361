import type { Agent } from 'stanza';
import type { Clock } from '../../src/common/clock';
import type { SessionContext } from '../../src/shared-worker/SessionContext';
import type { StateStore } from '../../src/shared-worker/StateStore';

/** What a session domain under test is given: its store and clock, a client when it talks to one, and a log to read; it fetches nothing. */
export function testSessionContext(parts: { store: StateStore; clock: Clock; client?: Agent; log?: SessionContext['log'] }): SessionContext {
  return {
    clock: parts.clock,
    log: parts.log ?? { info: () => {}, error: () => {} },
    fetch: () => Promise.reject(new Error('this test fetches nothing')),
    store: parts.store,
    client: parts.client,
    config: undefined,
    wantsConnection: true,
  };
}
