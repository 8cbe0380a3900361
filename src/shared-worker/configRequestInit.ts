import type { ConfigRequestBody } from '../protocol/config';
import { CLIENT_VERSION } from '../protocol/constants';

/**
 * SPEC §7: the config request, with the product's token and the browser's guest identity when
 * there are, and the config id a reconnect asks back. Made by the session's every config request and
 * by the one the worker's first script sends ahead (entry.ts), which the session's first then is.
 */
export function configRequestInit(token?: string, identity?: string, resume?: string): RequestInit & { method: 'POST'; body: string } {
  const body: ConfigRequestBody = { clientVersion: CLIENT_VERSION, ...(token ? { token } : {}), ...(identity ? { identity } : {}), ...(resume ? { resume } : {}) };
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
