import type { AddressInfo } from 'node:net';
import { createGateway } from './gateway/Gateway';
import { WebsocketProxy, type WebsocketProxyStats } from './gateway/websocketProxy';
import { RelayServer, type RelayServerOptions } from './relay/RelayServer';
import { relayWorkerBinary } from './relay/workerBinary';
import { readSettings, resolveSettings, type ParleySettings } from './settings';
import { startXmppServer, type XmppServer, type XmppServerOptions } from './xmpp/XmppServer';

/** Every server Parley runs, started together; `npm start` and the tests both use this. */
export interface RunningParley {
  readonly url: string;
  readonly settings: ParleySettings;
  /** The XMPP server now running (a new instance after `restartXmpp`). */
  readonly xmpp: XmppServer;
  /** Fault injection: kills the XMPP server at once, as a crash would. */
  killXmpp(): Promise<void>;
  /** Starts the XMPP server again on the same port; the gateway keeps proxying to it. */
  restartXmpp(): Promise<void>;
  /** The media relay now running (a new instance after `restartRelay`); undefined when `relayWorkers` is 0. */
  readonly relay: RelayServer | undefined;
  /** Fault injection: kills the relay as a crash would (workers SIGKILLed, sockets dropped); `/relay` then refuses upgrades. */
  killRelay(): Promise<void>;
  /** Starts the relay again behind the same `/relay` path. */
  restartRelay(): Promise<void>;
  /** The gateway's `/xmpp-websocket` proxy: connections and the most it buffered for one. */
  xmppProxyStats(): WebsocketProxyStats;
  stop(): Promise<void>;
}

export async function startParley(overrides: Partial<ParleySettings> = {}, log: (line: string) => void = () => {}): Promise<RunningParley> {
  const settings = await resolveSettings(readSettings(process.env, overrides));
  const xmppOptions: XmppServerOptions = {
    implementation: settings.xmppServer,
    cluster: settings.xmppCluster,
    domain: settings.xmppDomain,
    mucDomain: settings.mucDomain,
    tokenSecret: settings.tokenSecret,
    dataDir: settings.dataDir,
    roomIdleExpirySeconds: settings.roomIdleExpirySeconds,
    maxOccupants: settings.maxOccupants,
    roomsNeedHost: settings.roomsNeedHost,
    log,
  };
  const relayOptions: RelayServerOptions | undefined =
    settings.relayWorkers > 0
      ? {
          tokenSecret: settings.tokenSecret,
          workers: settings.relayWorkers,
          workerBin: await relayWorkerBinary(log),
          listenIp: settings.relayListenIp,
          announcedAddress: settings.relayAnnouncedIp,
          rtcMinPort: settings.relayRtcMinPort,
          rtcMaxPort: settings.relayRtcMaxPort,
          spillLoad: settings.relaySpillLoad,
          limits: settings.relayLimits,
          log,
        }
      : undefined;
  let xmpp = await startXmppServer(xmppOptions);
  // restartXmpp keeps the port, so the proxy's backend stays the same.
  const xmppProxy = new WebsocketProxy(new URL(xmpp.websocketUrl), settings.gatewayBufferBytes);
  let relay: RelayServer | undefined;
  try {
    relay = relayOptions && (await RelayServer.start(relayOptions));
    const gateway = await createGateway({
      settings,
      xmppProxy,
      log,
      // Looked up per upgrade: after restartRelay the same path reaches the new relay.
      ...(relayOptions ? { relayUpgrade: (request, socket, head) => (relay ? relay.handleUpgrade(request, socket, head) : socket.destroy()) } : {}),
    });
    await gateway.listen({ host: settings.host, port: settings.port });
    const { port } = gateway.server.address() as AddressInfo;
    return {
      url: `http://${settings.host}:${port}/`,
      settings,
      get xmpp() {
        return xmpp;
      },
      async killXmpp() {
        await xmpp.kill();
      },
      async restartXmpp() {
        const crashed = xmpp;
        await crashed.kill();
        // After a kill, stop only removes the runtime folder.
        await crashed.stop();
        xmpp = await startXmppServer({ ...xmppOptions, httpPort: crashed.httpPort });
      },
      get relay() {
        return relay;
      },
      async killRelay() {
        await relay?.kill();
      },
      async restartRelay() {
        if (!relayOptions) throw new Error('the relay is off (relayWorkers is 0)');
        await relay?.kill();
        relay = await RelayServer.start(relayOptions);
      },
      xmppProxyStats: () => xmppProxy.stats(),
      async stop() {
        // Every socket first, whatever its client is doing: the gateway's server waits for open connections.
        xmppProxy.close();
        await relay?.close();
        await gateway.close();
        await xmpp.stop();
      },
    };
  } catch (error) {
    await relay?.close();
    await xmpp.stop();
    throw error;
  }
}
