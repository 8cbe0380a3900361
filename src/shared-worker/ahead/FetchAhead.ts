import type { Fetch } from '../ConfigClient';

/** Requests to the same method and address, told apart by their body. */
function addressOf(url: string, init: RequestInit): string {
  return `${init.method ?? 'GET'} ${url}`;
}

/** A request sent ahead, and what aborts it once its asker's signal does. */
interface RequestAhead {
  request: Promise<Response>;
  abort: AbortController;
}

/**
 * The request sent ahead, under its asker's abort signal: a timeout holds for the answer's body as it
 * does for the headers (a body that stalls after them would leave its reader waiting for ever).
 */
function underSignal({ request, abort }: RequestAhead, signal: AbortSignal | null | undefined): Promise<Response> {
  if (signal?.aborted) abort.abort(signal.reason);
  else signal?.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
  return request;
}

/**
 * Requests sent before their asker exists (issue 14, the join path): the shared worker's first
 * script sends the session's first config request while the session's code is still being fetched
 * and compiled. The first ask to a method and address settles every request sent ahead to it: it
 * is handed the one with its own body, under its own abort signal, and the others are dropped; every
 * other ask goes to the network.
 */
export class FetchAhead {
  /** By method and address, then by body. */
  private readonly ahead = new Map<string, Map<string, RequestAhead>>();

  constructor(private readonly network: Fetch) {}

  /**
   * Sends the request now, for the first ask to its method and address. Resolves with a copy of its
   * answer for the sender's own reading, or undefined when it failed (its asker sees the failure).
   */
  send(url: string, init: RequestInit & { body: string }): Promise<Response | undefined> {
    const abort = new AbortController();
    const request = this.network(url, { ...init, signal: abort.signal });
    const address = addressOf(url, init);
    const sent = this.ahead.get(address) ?? new Map<string, RequestAhead>();
    this.ahead.set(address, sent.set(init.body, { request, abort }));
    // Copied before the asker can have read the body: this is the answer's first reader.
    return request.then(
      (response) => response.clone(),
      () => undefined,
    );
  }

  readonly fetch: Fetch = (url, init) => {
    const address = addressOf(url, init);
    const sent = this.ahead.get(address);
    this.ahead.delete(address);
    const ahead = typeof init.body === 'string' ? sent?.get(init.body) : undefined;
    return ahead ? underSignal(ahead, init.signal) : this.network(url, init);
  };
}
