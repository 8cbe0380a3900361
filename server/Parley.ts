import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { RELAY_ROOM_PARAMETER } from '../src/protocol/relay';
import { createGateway } from './gateway/Gateway';
import { RelayRegistry, relayRoomFault } from './gateway/RelayRegistry';
import { CLIENT_ADDRESS_HEADER, clientAddressToken } from './relay/host/clientAddress';
import { handshakeFault, refuse, WebsocketProxy, type WebsocketProxyStats } from './gateway/websocketProxy';
import { closeAsUnavailable } from './relay/unavailableUpgrade';
import { RelayServer, type RelayServerOptions } from './relay/RelayServer';
import { relayServerOptions } from './relay/relayServerOptions';
import { relayWorkerBinary } from './relay/workerBinary';
import { readSettings, resolveSettings, type ParleySettings } from './settings';
import { checkHealth, XmppProbes, type HealthReport } from './supervision/health';
import { XMPP_READINESS_DEFAULTS, XmppReadiness } from './supervision/XmppReadiness';
import { XmppSupervisor } from './supervision/XmppSupervisor';
import { systemClock } from '../src/common/clock';
import { startXmppServer, type XmppServer, type XmppServerOptions } from './xmpp/XmppServer';

/** Every server Parley runs, started together; `npm start` and the tests both use this. */
export interface RunningParley {
  readonly url: string;
  readonly settings: ParleySettings;
  /** The XMPP server now running (a new instance after a restart). It is supervised: when it dies it is started again. */
  readonly xmpp: XmppServer;
  /** Fault injection: kills the XMPP server at once, as a crash would, and keeps it down until `restartXmpp`. */
  killXmpp(): Promise<void>;
  /** Starts the XMPP server again (on the same port unless it was taken meanwhile); the gateway proxies to it. */
  restartXmpp(): Promise<void>;
  /** What `GET /api/health` answers: which part is up. */
  health(): Promise<HealthReport>;
  /** When the XMPP server now running began accepting connections ("reachable again" after a restart); undefined while down. */
  readonly xmppUpSince: number | undefined;
  /** Questions `GET /api/xmpp-ready` holds now, waiting for the XMPP server. */
  readonly xmppWaiting: number;
  /** Fault injection: the gateway goes away (its websockets cut) and a new one, same settings, listens on the same port. */
  restartGateway(): Promise<void>;
  /** The media relay now running (a new instance after `restartRelay`); undefined when `relayWorkers` is 0. */
  readonly relay: RelayServer | undefined;
  /** Fault injection: kills the relay as a crash would (workers SIGKILLed, sockets dropped); `/relay` then refuses upgrades. */
  killRelay(): Promise<void>;
  /** Starts the relay again behind the same `/relay` path. */
  restartRelay(): Promise<void>;
  /** The relay hosts that announced themselves and the rooms placed on each (with PARLEY_REMOTE_RELAYS). */
  readonly relayRegistry: RelayRegistry | undefined;
  /** The gateway's `/xmpp-websocket` proxy: connections and the most it buffered for one. */
  xmppProxyStats(): WebsocketProxyStats;
  stop(): Promise<void>;
}

/** A listening gateway, its XMPP websocket proxy and the websockets it carries. */
interface OpenGateway {
  gateway: Awaited<ReturnType<typeof createGateway>>;
  xmppProxy: WebsocketProxy;
  sockets: Set<Duplex>;
}

export async function startParley(
  overrides: Partial<ParleySettings> = {},
  log: (line: string) => void = () => {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningParley> {
  const settings = await resolveSettings(readSettings(env, overrides));
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
    settings.relayWorkers > 0 ? relayServerOptions(settings, settings.tokenSecret, await relayWorkerBinary(log), log) : undefined;
  const relayRegistry = settings.remoteRelays ? new RelayRegistry(Date.now, log) : undefined;
  const relayProxy = new WebsocketProxy(undefined, settings.gatewayBufferBytes);
  /**
   * A `/relay` connection goes to the relay host carrying its room (`?room=`, src/protocol/relay.ts),
   * else to the relay beside the gateway (looked up per upgrade: after restartRelay the same path
   * reaches the new relay); with neither, it is closed at once as unavailable.
   */
  const routeRelay = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const room = new URL(request.url ?? '/', 'http://gateway').searchParams.get(RELAY_ROOM_PARAMETER) ?? undefined;
    // Placing a room counts against its host's load: a request that is no handshake, or names no
    // room the relay could take, is refused before it places anything.
    const fault = handshakeFault(request) ?? relayRoomFault(room);
    if (fault) {
      refuse(socket, fault);
      return;
    }
    const route = relayRegistry?.route(room);
    if (route) {
      // The relay host counts connections per client address: the gateway vouches for the one it sees.
      const headers = { [CLIENT_ADDRESS_HEADER]: clientAddressToken(settings.tokenSecret, request.socket.remoteAddress ?? 'unknown') };
      relayProxy.upgrade(request, socket, head, {
        backend: new URL(route.url),
        unreachable: (error) => relayRegistry?.unreachable(route.id, error),
        answerUnreachable: closeAsUnavailable,
        headers,
      });
    }
    else if (relay) relay.handleUpgrade(request, socket, head);
    else closeAsUnavailable(request, socket, head);
  };
  const firstXmpp = await startXmppServer(xmppOptions);
  const readiness = new XmppReadiness(systemClock, {
    ...XMPP_READINESS_DEFAULTS,
    releasesPerSecond: settings.xmppReconnectsPerSecond,
    maxWaitersPerAddress: settings.xmppReadyWaitersPerAddress,
  });
  // A restart starts where the last server was, unless something took that port while it was down.
  const xmpp: XmppSupervisor = new XmppSupervisor(firstXmpp, () => startXmppServer({ ...xmppOptions, preferredHttpPort: xmpp.server.httpPort }), log, undefined, readiness);
  let relay: RelayServer | undefined;
  const xmppProbes = new XmppProbes();
  const health = (): Promise<HealthReport> => checkHealth(xmpp.server, relayOptions ? relay : 'off', xmppProbes);
  try {
    relay = relayOptions && (await RelayServer.start(relayOptions));
    const openGateway = async (listenPort: number): Promise<OpenGateway> => {
      // Looked up per upgrade: a restarted XMPP server may listen on another port than the last one.
      const xmppProxy = new WebsocketProxy(() => new URL(xmpp.server.websocketUrl), settings.gatewayBufferBytes, settings.xmppConnectionsPerAddress);
      const gateway = await createGateway({
        settings,
        xmppProxy,
        log,
        health,
        xmppReady: (clientAddress, gone) => readiness.whenUp(clientAddress, gone),
        ...(relayOptions || relayRegistry ? { relayUpgrade: routeRelay } : {}),
        ...(relayRegistry ? { relayRegistry } : {}),
      });
      const sockets = new Set<Duplex>();
      gateway.server.on('upgrade', (_request, socket: Duplex) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      await gateway.listen({ host: settings.host, port: listenPort });
      return { gateway, xmppProxy, sockets };
    };
    let gateway = await openGateway(settings.port);
    const { port } = gateway.gateway.server.address() as AddressInfo;
    return {
      url: `http://${settings.host}:${port}/`,
      settings,
      get xmpp() {
        return xmpp.server;
      },
      killXmpp: () => xmpp.holdDown(),
      restartXmpp: () => xmpp.restart(),
      health,
      get xmppUpSince() {
        return readiness.upSince;
      },
      get xmppWaiting() {
        return readiness.waiting;
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
      async restartGateway() {
        gateway.xmppProxy.close();
        for (const socket of gateway.sockets) socket.destroy();
        await gateway.gateway.close();
        gateway = await openGateway(port);
      },
      relayRegistry,
      xmppProxyStats: () => gateway.xmppProxy.stats(),
      async stop() {
        // The XMPP server first, its clients still connected: it ends their sessions itself. Cut
        // first, each session would be parked for stream resumption, and Prosody, stopping within
        // that window, would save it into its rooms as an occupant, back on the next start.
        await xmpp.stop();
        // Then every socket, whatever its client is doing: the gateway's server waits for open connections.
        gateway.xmppProxy.close();
        relayProxy.close();
        await relay?.close();
        await gateway.gateway.close();
      },
    };
  } catch (error) {
    await relay?.close();
    await xmpp.stop();
    throw error;
  }
}
