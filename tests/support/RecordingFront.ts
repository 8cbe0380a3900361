import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { WebsocketProxy } from '../../server/gateway/websocketProxy';
import { GATEWAY_PATHS, XMPP_WEBSOCKET_PROTOCOL } from '../../src/protocol/endpoints';

/**
 * An HTTP front on loopback for one gateway: it forwards every request as it is, the Host header
 * kept (so the config's addresses name the front), and every websocket upgrade as the gateway
 * forwards its own (WebsocketProxy), except the XMPP websocket, which it relays frame by frame to
 * record them. It records in order when the config service was asked, when it answered and when the
 * XMPP websocket was upgraded. While a `hold` holds, the answers to the paths it matches wait at the
 * front: what a browser does while they are on their way can then be seen whatever the machine's
 * load. Paths it is told to refuse get a 503.
 */
export class RecordingFront {
  readonly steps: string[] = [];
  /** The XMPP websocket's frames in the order the front passed them: the browser's as `> frame`, the server's as `< frame`. */
  readonly xmppFrames: string[] = [];
  private readonly holds: Array<{ path: RegExp; released: Promise<void> }> = [];
  /** Requests for paths it matches are answered 503 instead of forwarded: a file the network lost. */
  refused: RegExp | undefined;
  /** The gateway's own way of carrying a websocket; a test's front needs no bound of its own. */
  private readonly websockets = new WebsocketProxy(undefined, Number.POSITIVE_INFINITY);
  private readonly xmppRelay = new WebSocketServer({ noServer: true, handleProtocols: () => XMPP_WEBSOCKET_PROTOCOL });

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
      const path = incoming.url ?? '';
      const isConfig = path === GATEWAY_PATHS.config;
      if (isConfig) this.steps.push('config asked');
      const held = Promise.all(this.holds.filter((hold) => hold.path.test(path)).map((hold) => hold.released));
      const forwarded = request({ host: gateway.hostname, port: gateway.port, method: incoming.method, path, headers: incoming.headers }, (answer) => {
        void held.then(() => {
          if (isConfig) this.steps.push('config answered');
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
      });
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    server.on('upgrade', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
      if (incoming.url !== GATEWAY_PATHS.xmppWebsocket) {
        this.websockets.upgrade(incoming, client, head, { backend: new URL(incoming.url ?? '/', gateway), unreachable: () => client.destroy() });
        return;
      }
      this.steps.push('XMPP websocket opened');
      this.xmppRelay.handleUpgrade(incoming, client, head, (browser) => this.relayXmpp(browser));
    });
  }

  /** Carries one XMPP websocket to the gateway's, frame by frame, recording each. */
  private relayXmpp(browser: WebSocket): void {
    const server = new WebSocket(new URL(GATEWAY_PATHS.xmppWebsocket, this.gateway.href.replace(/^http/, 'ws')), XMPP_WEBSOCKET_PROTOCOL);
    const early: string[] = [];
    browser.on('message', (data) => {
      const frame = String(data);
      this.xmppFrames.push(`> ${frame}`);
      if (server.readyState === WebSocket.OPEN) server.send(frame);
      else early.push(frame);
    });
    server.on('open', () => early.splice(0).forEach((frame) => server.send(frame)));
    server.on('message', (data) => {
      const frame = String(data);
      this.xmppFrames.push(`< ${frame}`);
      browser.send(frame);
    });
    const closeBoth = (): void => {
      browser.terminate();
      server.terminate();
    };
    browser.on('close', closeBoth).on('error', closeBoth);
    server.on('close', closeBoth).on('error', closeBoth);
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

  /** Holds the answers to requests for paths `path` matches from now on; the returned function lets them go. */
  hold(path: RegExp): () => void {
    let release!: () => void;
    this.holds.push({ path, released: new Promise((resolve) => (release = resolve)) });
    return release;
  }

  /** Holds the answers of the config service from now on; the returned function lets them go. */
  holdConfig(): () => void {
    return this.hold(new RegExp(`^${GATEWAY_PATHS.config}$`));
  }

  async close(): Promise<void> {
    this.websockets.close();
    for (const socket of this.xmppRelay.clients) socket.terminate();
    this.xmppRelay.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
