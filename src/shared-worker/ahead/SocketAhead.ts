import type { Clock } from '../../common/clock';

/** What SocketAhead needs of a websocket: the browser's, or `ws`'s in Node. */
export interface AheadSocket {
  readonly readyState: number;
  /** Its `open` handler: StanzaJS's transport sets one (typed loosely, as the two kinds of socket type its event differently). */
  onopen: unknown;
  close(): void;
}

const CONNECTING = 0;
const OPEN = 1;

/**
 * A websocket opened before anyone has asked for it (issue 14, the join path): the shared worker
 * opens the XMPP websocket as it starts, so that its connect runs beside the config request that
 * names it instead of after it. The first ask for the same address and subprotocol takes it; an
 * ask for another address, or none within `unclaimedMs`, closes it. A socket that has closed
 * meanwhile is not handed out: the asker opens its own.
 */
export class SocketAhead<Socket extends AheadSocket> {
  private socket: Socket | undefined;
  private readonly unclaimedTimer: unknown;

  constructor(
    private readonly url: string,
    private readonly protocol: string,
    open: (url: string, protocol: string) => Socket,
    private readonly clock: Clock,
    unclaimedMs: number,
  ) {
    this.socket = open(url, protocol);
    this.unclaimedTimer = clock.setTimeout(() => this.release()?.close(), unclaimedMs);
  }

  /**
   * The socket opened ahead, if it is for `url` and `protocol` and still open or opening. One
   * already open says so again once the asker has set its `onopen` (a microtask later, as
   * StanzaJS's transport sets it right after construction).
   */
  take(url: string, protocol: string): Socket | undefined {
    const socket = this.release();
    if (!socket) return undefined;
    if (url !== this.url || protocol !== this.protocol || (socket.readyState !== CONNECTING && socket.readyState !== OPEN)) {
      socket.close();
      return undefined;
    }
    if (socket.readyState === OPEN) {
      queueMicrotask(() => {
        const onopen = socket.onopen;
        if (typeof onopen === 'function') onopen.call(socket, new Event('open'));
      });
    }
    return socket;
  }

  private release(): Socket | undefined {
    const socket = this.socket;
    this.socket = undefined;
    this.clock.clearTimeout(this.unclaimedTimer);
    return socket;
  }
}
