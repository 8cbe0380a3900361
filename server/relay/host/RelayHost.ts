import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../../../src/common/errorMessage';
import { GATEWAY_PATHS } from '../../../src/protocol/endpoints';
import { RelayServer, type RelayServerOptions } from '../RelayServer';
import { announcementToken, type RelayAnnouncement } from './announcement';

export interface RelayHostOptions {
  relay: RelayServerOptions;
  /** The address and port its websocket endpoint (`/relay`) listens on; port 0 picks a free one. */
  host: string;
  port: number;
  /** How gateways reach that endpoint; default ws://<host>:<port>/relay. */
  publicUrl: string | undefined;
  /** Base URLs of the gateways it announces itself to (each gets every heartbeat). */
  gateways: string[];
  heartbeatMs: number;
}

/**
 * A media relay on a host of its own (README "How it scales out"): the relay's workers, its
 * websocket endpoint on its own address (the gateways forward clients' relay connections here;
 * media flows between the browsers and this host's address directly), and a heartbeat that
 * announces it to every gateway with its load and rooms.
 */
export class RelayHost {
  readonly id = randomUUID();
  private readonly timer: NodeJS.Timeout;
  /** Gateways the last announcement did not reach, so that each failure is logged once. */
  private readonly unreached = new Set<string>();

  private constructor(
    private readonly options: RelayHostOptions,
    readonly relay: RelayServer,
    private readonly server: Server,
    readonly url: string,
  ) {
    this.timer = setInterval(() => void this.announce(), options.heartbeatMs);
  }

  static async start(options: RelayHostOptions): Promise<RelayHost> {
    const relay = await RelayServer.start(options.relay);
    const server = createServer((_request, response) => response.writeHead(404).end());
    server.on('upgrade', (request, socket, head) => {
      if ((request.url ?? '').split('?')[0] === '/relay') relay.handleUpgrade(request, socket, head);
      else socket.destroy();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, resolve);
      });
    } catch (error) {
      await relay.close();
      throw error;
    }
    const { port } = server.address() as AddressInfo;
    const host = new RelayHost(options, relay, server, options.publicUrl ?? `ws://${options.host}:${port}/relay`);
    await host.announce();
    return host;
  }

  announcement(): RelayAnnouncement {
    const { workers } = this.relay;
    const load = workers.length === 0 ? 0 : workers.reduce((sum, worker) => sum + this.relay.loadOf(worker), 0) / workers.length;
    return { id: this.id, url: this.url, heartbeatMs: this.options.heartbeatMs, load, rooms: this.relay.roomAddresses() };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.server.close();
    await this.relay.close();
  }

  private async announce(): Promise<void> {
    const body = JSON.stringify(this.announcement());
    const token = announcementToken(this.options.relay.tokenSecret, this.id);
    await Promise.all(
      this.options.gateways.map(async (gateway) => {
        try {
          const response = await fetch(new URL(GATEWAY_PATHS.relays, gateway), {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
            signal: AbortSignal.timeout(this.options.heartbeatMs),
          });
          if (!response.ok) throw new Error(`HTTP ${response.status} ${await response.text()}`);
          if (this.unreached.delete(gateway)) this.options.relay.log(`relay host ${this.url}: announced to ${gateway} again`);
        } catch (error) {
          if (!this.unreached.has(gateway)) this.options.relay.log(`relay host ${this.url}: could not announce to ${gateway}: ${errorMessage(error)}`);
          this.unreached.add(gateway);
        }
      }),
    );
  }
}
