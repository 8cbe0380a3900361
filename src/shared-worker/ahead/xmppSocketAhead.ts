import { systemClock, type Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { XMPP_SOCKET_AHEAD_UNCLAIMED_MS } from '../../protocol/clientDefaults';
import { XMPP_WEBSOCKET_PROTOCOL } from '../../protocol/endpoints';
import { SocketAhead, type AheadSocket } from './SocketAhead';
import { XmppLoginAhead, type LoginSocket, type XmppLogin } from './XmppLoginAhead';

/** A websocket constructor: the browser's, or `ws`'s in Node. */
export type SocketConstructor<Socket> = new (url: string, protocols?: string | string[]) => Socket;

export interface XmppSocketAheadOptions {
  /** The account to log in ahead with, once known (XmppLoginAhead); without one, the socket is only opened. */
  login?: Promise<XmppLogin | undefined>;
  /** Where a login ahead that the client's differs from is said. */
  log?: Logger;
  clock?: Clock;
}

const silent: Logger = { info: () => undefined, error: () => undefined };

/**
 * Opens the XMPP websocket at `url` now, for the session's first login (issue 14, the join path), logs
 * in on it as far as it can ahead of the client, and makes `scope`'s WebSocket constructor hand it over
 * to the first `new WebSocket(url, 'xmpp')`. The shared worker's first script calls it before it loads
 * StanzaJS, whose browser platform takes the global constructor once, as it loads. Every other socket
 * is the native constructor's own.
 */
export function openXmppSocketAhead<Socket extends AheadSocket & LoginSocket>(
  scope: { WebSocket: SocketConstructor<Socket> },
  url: string,
  { login = Promise.resolve(undefined), log = silent, clock = systemClock }: XmppSocketAheadOptions = {},
): void {
  const Native = scope.WebSocket;
  let loginAhead: XmppLoginAhead | undefined;
  const ahead = new SocketAhead(
    url,
    XMPP_WEBSOCKET_PROTOCOL,
    (address, protocol) => {
      const socket = new Native(address, protocol);
      loginAhead = new XmppLoginAhead(socket, login, log);
      return socket;
    },
    clock,
    XMPP_SOCKET_AHEAD_UNCLAIMED_MS,
  );
  scope.WebSocket = new Proxy(Native, {
    construct(target, args: ConstructorParameters<SocketConstructor<Socket>>, newTarget) {
      const [address, protocols] = args;
      const taken = typeof protocols === 'string' ? ahead.take(address, protocols) : undefined;
      if (!taken) return Reflect.construct(target, args, newTarget);
      loginAhead?.handOver();
      return taken;
    },
  });
}
