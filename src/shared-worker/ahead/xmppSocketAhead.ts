import { systemClock, type Clock } from '../../common/clock';
import { XMPP_SOCKET_AHEAD_UNCLAIMED_MS } from '../../protocol/clientDefaults';
import { XMPP_WEBSOCKET_PROTOCOL } from '../../protocol/endpoints';
import { SocketAhead, type AheadSocket } from './SocketAhead';

/** A websocket constructor: the browser's, or `ws`'s in Node. */
export type SocketConstructor<Socket> = new (url: string, protocols?: string | string[]) => Socket;

/**
 * Opens the XMPP websocket at `url` now, for the session's first login (issue 14, the join path), and
 * makes `scope`'s WebSocket constructor hand it over to the first `new WebSocket(url, 'xmpp')`. The
 * shared worker's first script calls it before it loads StanzaJS, whose browser platform takes the
 * global constructor once, as it loads. Every other socket is the native constructor's own.
 */
export function openXmppSocketAhead<Socket extends AheadSocket>(
  scope: { WebSocket: SocketConstructor<Socket> },
  url: string,
  clock: Clock = systemClock,
): void {
  const Native = scope.WebSocket;
  const ahead = new SocketAhead(url, XMPP_WEBSOCKET_PROTOCOL, (address, protocol) => new Native(address, protocol), clock, XMPP_SOCKET_AHEAD_UNCLAIMED_MS);
  scope.WebSocket = new Proxy(Native, {
    construct(target, args: ConstructorParameters<SocketConstructor<Socket>>, newTarget) {
      const [address, protocols] = args;
      return (typeof protocols === 'string' ? ahead.take(address, protocols) : undefined) ?? Reflect.construct(target, args, newTarget);
    },
  });
}
