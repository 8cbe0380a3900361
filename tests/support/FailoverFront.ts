import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * The one address in front of the gateways that a deployment puts there (a load balancer, DNS or
 * anycast: README "How it scales out"), modelled for tests as a TCP front on a loopback address of
 * its own. Each new connection goes to the first gateway in its list that accepts one, so a person
 * keeps to their own node's gateway while it is up and comes in through the next once it is gone.
 * A real balancer would also health-check; here a node that is gone refuses connections (its
 * gateway stopped listening), which is what this front tells by. Connections it carries end with
 * their gateway's.
 */
export class FailoverFront {
  private readonly open = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly gateways: readonly URL[],
  ) {
    server.on('connection', (socket) => this.carry(socket));
  }

  /** Listens on `address` (a free port), for gateways in order of preference. */
  static async start(address: string, gateways: readonly string[]): Promise<FailoverFront> {
    const server = createServer({ pauseOnConnect: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, address, resolve);
    });
    return new FailoverFront(server, gateways.map((gateway) => new URL(gateway)));
  }

  /** The front's http URL: what the person's browser (or session) is given. */
  get url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `http://${address}:${port}/`;
  }

  async close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private carry(client: Socket): void {
    this.track(client);
    client.on('error', () => client.destroy());
    const tryGateway = (index: number): void => {
      const gateway = this.gateways[index];
      if (!gateway || client.destroyed) {
        client.destroy();
        return;
      }
      let connected = false;
      const upstream = connect({ host: gateway.hostname, port: Number(gateway.port) });
      upstream.on('error', () => {
        if (!connected) tryGateway(index + 1);
      });
      upstream.once('connect', () => {
        connected = true;
        this.track(upstream);
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
      });
    };
    tryGateway(0);
  }

  private track(socket: Socket): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }
}
