// A network with round trips for the bench's loopback: everything between the browsers and the
// servers (pages, config, websockets) crosses this TCP front and waits `delayMs` each way. Media
// between the browsers stays on loopback.
import { connect, createServer, type Server, type Socket } from 'node:net';

export class DelayFront {
  private readonly connections = new Set<Socket>();
  private readonly server: Server;

  private constructor(
    private readonly target: URL,
    private readonly delayMs: number,
  ) {
    this.server = createServer((client) => this.carry(client));
  }

  /** A front on a free loopback port before the server at `targetUrl`, each chunk held `delayMs` in each direction. */
  static async start(targetUrl: string, delayMs: number): Promise<DelayFront> {
    const front = new DelayFront(new URL(targetUrl), delayMs);
    await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
    return front;
  }

  get url(): string {
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('the delaying front is not listening');
    return `http://127.0.0.1:${address.port}/`;
  }

  async close(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private carry(client: Socket): void {
    client.setNoDelay(true);
    const upstream = connect({ port: Number(this.target.port), host: this.target.hostname, noDelay: true });
    const closeBoth = (): void => {
      this.connections.delete(client);
      this.connections.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    // Chunks keep their order: timers of equal delay fire in the order they were set.
    const delay = (from: Socket, to: Socket): void => {
      from.on('data', (chunk) => setTimeout(() => to.writable && to.write(chunk), this.delayMs));
      from.on('end', () => setTimeout(() => to.end(), this.delayMs));
    };
    delay(client, upstream);
    delay(upstream, client);
    for (const socket of [client, upstream]) {
      socket.on('error', closeBoth).on('close', closeBoth);
      this.connections.add(socket);
    }
  }
}
