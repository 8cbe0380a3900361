import { CONFIG_REQUEST, ROOM_CONFIG_REQUEST } from '../protocol/constants';
import { configRequestInit } from './configRequestInit';
import {
  parseProviderConfig,
  parseRoomConfigResponse,
  type ProviderConfig,
  type RoomConfigRequestBody,
  type RoomConfigResponse,
} from '../protocol/config';
import { ConfigRequestError, RoomConfigRequestError } from '../protocol/errors';
import { sleep, type Clock } from '../common/clock';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

interface RetryPolicy {
  attempts: number;
  retryDelayMs: number;
  timeoutMs: number;
}

/** POSTs JSON with the spec's retry rules; a non-ok status is a failed attempt too. */
async function postWithRetries<T>(
  fetchImpl: Fetch,
  clock: Clock,
  policy: RetryPolicy,
  url: string,
  init: RequestInit,
  parse: (body: unknown) => T,
): Promise<{ ok: true; value: T } | { ok: false; detail: string }> {
  let lastStatus: number | undefined;
  let lastError: unknown;
  for (let attempt = 0; attempt < policy.attempts; attempt += 1) {
    if (attempt > 0) await sleep(clock, policy.retryDelayMs);
    const abort = new AbortController();
    const timer = clock.setTimeout(() => abort.abort(new Error(`timed out after ${policy.timeoutMs} ms`)), policy.timeoutMs);
    try {
      const response = await fetchImpl(url, { ...init, method: 'POST', signal: abort.signal });
      lastStatus = response.status;
      if (response.ok) return { ok: true, value: parse(await response.json()) };
      lastError = undefined;
    } catch (error) {
      lastStatus = undefined;
      lastError = error;
    } finally {
      clock.clearTimeout(timer);
    }
  }
  // The spec's message carries the status; without one (network error, timeout), the error itself.
  return { ok: false, detail: lastStatus !== undefined ? String(lastStatus) : String(lastError) };
}

/** SPEC §7 config request: 10 attempts 1 s apart, 10 s each; with the browser's guest identity credential when it has one. */
export async function fetchConfig(fetchImpl: Fetch, clock: Clock, configUrl: string, token?: string, identity?: string, resume?: string): Promise<ProviderConfig> {
  const result = await postWithRetries(fetchImpl, clock, CONFIG_REQUEST, configUrl, configRequestInit(token, identity, resume), parseProviderConfig);
  if (result.ok) return result.value;
  throw new ConfigRequestError(`SimpleWebRTC configuration request failed: ${result.detail}`, 'ESWRTC_001');
}

/** SPEC §7 room config request: 5 attempts 1 s apart, Bearer credential. */
export async function fetchRoomConfig(
  fetchImpl: Fetch,
  clock: Clock,
  config: Pick<ProviderConfig, 'roomConfigUrl' | 'credential'>,
  name: string,
): Promise<RoomConfigResponse> {
  const request: RoomConfigRequestBody = { name };
  const result = await postWithRetries(
    fetchImpl,
    clock,
    ROOM_CONFIG_REQUEST,
    config.roomConfigUrl,
    { headers: { authorization: `Bearer ${config.credential}`, 'content-type': 'application/json' }, body: JSON.stringify(request) },
    parseRoomConfigResponse,
  );
  if (result.ok) return result.value;
  throw new RoomConfigRequestError(`SimpleWebRTC room configuration request failed: ${result.detail}`, 'ESWRTC_002');
}
