/**
 * The gateway's paths. The shared worker finds the first three on its own origin before it has a
 * config: the config service itself, the XMPP server's readiness, and the XMPP websocket, opened
 * before the config that names it has come back (issue 14, the join path). The room-config lookup
 * it finds in the config (`roomConfigUrl`). Relay hosts announce themselves at `relays`.
 */
export const GATEWAY_PATHS = {
  config: '/api/config',
  xmppReady: '/api/xmpp-ready',
  xmppWebsocket: '/xmpp-websocket',
  roomConfig: '/api/room-config',
  relays: '/api/relays',
} as const;

/** RFC 7395: the websocket subprotocol of XMPP. */
export const XMPP_WEBSOCKET_PROTOCOL = 'xmpp';

/** An origin's bases for HTTP and for websockets: `http://host` and `ws://host`, or `https:` and `wss:`. */
export interface PublicOrigin {
  http: string;
  websocket: string;
}

/**
 * The bases of the origin at `location` (the gateway's public URL, a request's host, a worker's
 * location). The gateway names its addresses in a config from them, and the shared worker, before it
 * has a config, finds them so too: the websocket it opens then is the one the config names.
 */
export function publicOrigin(location: { protocol: string; host: string }): PublicOrigin {
  return { http: `${location.protocol}//${location.host}`, websocket: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}` };
}

/** The gateway's addresses the shared worker uses, absolute. */
export interface GatewayAddresses {
  config: string;
  xmppReady: string;
  xmppWebsocket: string;
}

/** The gateway's addresses at `origin`. */
export function gatewayAddresses(origin: PublicOrigin): GatewayAddresses {
  return { config: `${origin.http}${GATEWAY_PATHS.config}`, xmppReady: `${origin.http}${GATEWAY_PATHS.xmppReady}`, xmppWebsocket: `${origin.websocket}${GATEWAY_PATHS.xmppWebsocket}` };
}
