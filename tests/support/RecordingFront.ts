import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebsocketProxy } from '../../server/gateway/websocketProxy';
import { GATEWAY_PATHS } from '../../src/protocol/endpoints';

/**
 * An HTTP front on loopback for one gateway: it forwards every request as it is, the Host header
 * kept (so the config's addresses name the front), and every websocket upgrade as the gateway
 * forwards its own (WebsocketProxy). It records in order when the config service was asked, when it
 * answered and when the XMPP websocket was upgraded. While `holdConfig` holds, the config's answers
 * wait at the front: what a browser does while its config is on its way can then be seen whatever
 * the machine's load. Paths it is told to refuse get a 503.
 */
export class RecordingFront {
  readonly steps: string[] = [];
  private held: Promise<void> = Promise.resolve();
  /** Requests for paths it matches are answered 503 instead of forwarded: a file the network lost. */
  refused: RegExp | undefined;
  /** The gateway's own way of carrying a websocket; a test's front needs no bound of its own. */
  private readonly websockets = new WebsocketProxy(undefined, Number.POSITIVE_INFINITY);

  private constructor(
    private readonly server: Server,
    private readonly gateway: URL,
  ) {
    server.on('request', (incoming: IncomingMessage, outgoing) => {
      if (this.refused?.test(incoming.url ?? '')) {
        this.steps.push(`refused ${incoming.url}`);
        outgoing.writeHead(503).end();
        return;
      }
      const isConfig = incoming.url === GATEWAY_PATHS.config;
      if (isConfig) this.steps.push('config asked');
      const forwarded = request({ host: gateway.hostname, port: gateway.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
        void (isConfig ? this.held : Promise.resolve()).then(() => {
          if (isConfig) this.steps.push('config answered');
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
      });
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    server.on('upgrade', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
      if (incoming.url === GATEWAY_PATHS.xmppWebsocket) this.steps.push('XMPP websocket opened');
      this.websockets.upgrade(incoming, client, head, { backend: new URL(incoming.url ?? '/', gateway), unreachable: () => client.destroy() });
    });
  }

  /** Listens on a free loopback port in front of `gatewayUrl`. */
  static async start(gatewayUrl: string): Promise<RecordingFront> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new RecordingFront(server, new URL(gatewayUrl));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  /** Holds the answers of the config service from now on; the returned function lets them go. */
  holdConfig(): () => void {
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    return release;
  }

  async close(): Promise<void> {
    this.websockets.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
