/**
 * The gateway's paths the shared worker finds on its own origin before it has a config: the config
 * service itself, the XMPP server's readiness, and the XMPP websocket, opened before the config that
 * names it has come back (issue 14, the join path).
 */
export const GATEWAY_PATHS = {
  config: '/api/config',
  xmppReady: '/api/xmpp-ready',
  xmppWebsocket: '/xmpp-websocket',
} as const;

/** RFC 7395: the websocket subprotocol of XMPP. */
export const XMPP_WEBSOCKET_PROTOCOL = 'xmpp';

/** The gateway's addresses the shared worker uses, absolute. */
export interface GatewayAddresses {
  config: string;
  xmppReady: string;
  xmppWebsocket: string;
}

/** The gateway's addresses on the origin `origin` (a page's or a worker's location). */
export function gatewayAddresses(origin: { protocol: string; host: string }): GatewayAddresses {
  const http = `${origin.protocol}//${origin.host}`;
  const websocket = `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}`;
  return { config: `${http}${GATEWAY_PATHS.config}`, xmppReady: `${http}${GATEWAY_PATHS.xmppReady}`, xmppWebsocket: `${websocket}${GATEWAY_PATHS.xmppWebsocket}` };
}
