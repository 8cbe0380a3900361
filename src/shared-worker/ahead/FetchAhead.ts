import type { Fetch } from '../ConfigClient';

/** Two requests are the same one when their method, address and body are. */
function requestKey(url: string, init: RequestInit): string | undefined {
  return typeof init.body === 'string' ? `${init.method ?? 'GET'} ${url}\n${init.body}` : undefined;
}

/** `request`, or a rejection with the signal's reason once `signal` aborts. */
function untilAborted(request: Promise<Response>, signal: AbortSignal | null | undefined): Promise<Response> {
  if (!signal) return request;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    request.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * Requests sent before their asker exists (issue 14, the join path): the shared worker's first
 * script sends the session's first config request while the session's code is still being fetched
 * and compiled. `fetch` hands a request sent ahead to the first ask for the same one (method,
 * address and body), under the asker's own abort signal; every other ask goes to the network.
 */
export class FetchAhead {
  private readonly ahead = new Map<string, Promise<Response>>();

  constructor(private readonly network: Fetch) {}

  /** Sends the request now, for the first ask for the same one. */
  send(url: string, init: RequestInit): void {
    const key = requestKey(url, init);
    if (key === undefined) return;
    const request = this.network(url, init);
    // Its asker sees a failure; one never asked for fails unseen.
    request.catch(() => undefined);
    this.ahead.set(key, request);
  }

  readonly fetch: Fetch = (url, init) => {
    const key = requestKey(url, init);
    const request = key === undefined ? undefined : this.ahead.get(key);
    if (key === undefined || request === undefined) return this.network(url, init);
    this.ahead.delete(key);
    return untilAborted(request, init.signal);
  };
}
