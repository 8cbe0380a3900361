import { WebSocket } from 'ws';
import type { SocketConstructor } from '../../src/shared-worker/ahead/xmppSocketAhead';

/**
 * `ws`'s socket as the browser's behaves when closed while connecting: `ws` emits an error then,
 * which would throw without a listener; the browser's dispatches it to no one.
 */
export class BrowserLikeWebSocket extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols);
    this.on('error', () => undefined);
  }
}

/** A shared worker's scope in Node: its WebSocket is `ws`'s until the worker's first script replaces it. */
export function workerScope(): { WebSocket: SocketConstructor<WebSocket> } {
  return { WebSocket: BrowserLikeWebSocket };
}
