import { sleep, type Clock } from '../common/clock';
import type { Fetch } from './ConfigClient';

/** What the gateway said: the XMPP server is up, or it could not say (unreachable, no such route, no answer in time). */
export type ServerAnswer = 'up' | 'cannot-say';

export interface ServerReadinessSettings {
  readinessTimeoutMs: number;
  readinessMinIntervalMs: number;
}

/**
 * Issue 13: waits for the gateway to say the XMPP server is up (`GET /api/xmpp-ready`, held by the
 * gateway until then or for its wait; "still down" is asked again, at most once per
 * `readinessMinIntervalMs`). Resolves 'up' or 'cannot-say'; once `signal` aborted it stops asking
 * and resolves 'cannot-say', which its caller no longer reads.
 */
export async function waitForServerUp(fetchImpl: Fetch, clock: Clock, url: string, settings: ServerReadinessSettings, signal: AbortSignal): Promise<ServerAnswer> {
  for (;;) {
    const askedAt = clock.now();
    const answer = await ask(fetchImpl, clock, url, settings.readinessTimeoutMs, signal);
    if (signal.aborted) return 'cannot-say';
    if (answer !== 'still down') return answer;
    await sleep(clock, Math.max(0, settings.readinessMinIntervalMs - (clock.now() - askedAt)));
    if (signal.aborted) return 'cannot-say';
  }
}

async function ask(fetchImpl: Fetch, clock: Clock, url: string, timeoutMs: number, signal: AbortSignal): Promise<ServerAnswer | 'still down'> {
  const abort = new AbortController();
  const stop = (): void => abort.abort(new Error('reconnect wait ended'));
  signal.addEventListener('abort', stop);
  const timer = clock.setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetchImpl(url, { method: 'GET', cache: 'no-store', signal: abort.signal });
    await response.body?.cancel();
    if (response.status === 200) return 'up';
    return response.status === 503 ? 'still down' : 'cannot-say';
  } catch {
    return 'cannot-say';
  } finally {
    clock.clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}
