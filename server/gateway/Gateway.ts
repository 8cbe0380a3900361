import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { LIMITS } from '../../src/protocol/constants';
import { GATEWAY_PATHS, publicOrigin, type PublicOrigin } from '../../src/protocol/endpoints';
import { ValidationError } from '../../src/protocol/errors';
import { parseJson } from '../../src/protocol/validate';
import { TokenError } from '../auth/jwt';
import { parseRelayAnnouncement, RELAY_ANNOUNCEMENT_LIMITS, verifyAnnouncementToken } from '../relay/host/announcement';
import type { ParleySettings } from '../settings';
import { isHealthy, type HealthReport } from '../supervision/health';
import { ConfigService } from './configService';
import { identityCookie, identityFromCookies } from './identityCookie';
import { HttpError } from './errors';
import type { RelayRegistry } from './RelayRegistry';
import type { WebsocketProxy } from './websocketProxy';

export interface GatewayOptions {
  settings: ParleySettings;
  /** Forwards `/xmpp-websocket` upgrades to the XMPP server's websocket endpoint. */
  xmppProxy: WebsocketProxy;
  /** Takes `/relay` websocket upgrades (the media relay); absent means the relay is off. */
  relayUpgrade?: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Where the gateway says what it refused without failing a request (e.g. a stale guest identity), and why it answered a 5xx. */
  log?: (line: string) => void;
  /** Answers `GET /api/health`; absent, the route is not served. */
  health?: () => Promise<HealthReport>;
  /**
   * Answers `GET /api/xmpp-ready` (XmppReadiness.whenUp): true once the XMPP server is up, false
   * when it stayed down for the wait (or too many wait, from everywhere or from `clientAddress`);
   * `gone` is given a callback for a client that went away. Absent, the route is not served.
   */
  xmppReady?: (clientAddress: string, gone: (stop: () => void) => void) => Promise<boolean>;
  /** Takes relay hosts' announcements (`POST /api/relays`); absent, the route is not served. */
  relayRegistry?: RelayRegistry;
}

/** The build's content-hashed files (Vite's `assets/`): kept a year, never revalidated. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';

const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** One HTTP origin: the built app, the config API, and the websocket to the XMPP server. */
export async function createGateway({ settings, xmppProxy, relayUpgrade, log, health, xmppReady, relayRegistry }: GatewayOptions): Promise<FastifyInstance> {
  // forceCloseConnections: a shutdown does not wait for idle keep-alive connections.
  const app = Fastify({ bodyLimit: LIMITS.httpBodyBytes, logger: false, forceCloseConnections: true });
  const configs = new ConfigService(settings, log);
  const indexHtml = await readFile(join(settings.staticRoot, 'index.html'), 'utf8').catch(() => undefined);

  // Every body is read as text and parsed by the API itself: the 1.30.3 client sends JSON as text/plain.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : error instanceof ValidationError ? 400 : (error.statusCode ?? 500);
    const message = status >= 500 ? 'internal error' : error.message;
    // The client is told nothing of it, and Fastify's own logger is off: the operator reads it here.
    if (status >= 500) log?.(`gateway: ${request.method} ${request.url} answered ${status}: ${error.stack ?? error.message}`);
    void reply.status(status).send({ error: { status, message } });
  });

  // The origin the browser reached, which the config's addresses point back at.
  const originOf = (request: FastifyRequest): PublicOrigin => {
    if (settings.publicUrl) return publicOrigin(new URL(settings.publicUrl));
    const host = request.headers.host ?? '';
    if (!HOST_HEADER.test(host)) throw new HttpError(400, 'bad Host header');
    return publicOrigin({ protocol: 'http:', host });
  };
  const bodyText = (request: FastifyRequest): string => (typeof request.body === 'string' ? request.body : '');

  app.post(GATEWAY_PATHS.config, async (request, reply) => {
    const origin = originOf(request);
    const config = configs.issueConfig(bodyText(request), origin, identityFromCookies(request.headers.cookie));
    if (config.identity) void reply.header('set-cookie', identityCookie(config.identity, settings.identityTtlSeconds, origin));
    return config;
  });
  app.post(GATEWAY_PATHS.roomConfig, async (request) => configs.roomConfig(request.headers.authorization, bodyText(request)));
  if (relayRegistry) {
    /** The relay host each announcement's token vouches for, checked before its body is read. */
    const announcers = new WeakMap<FastifyRequest, string>();
    app.post(
      GATEWAY_PATHS.relays,
      {
        // A host lists every room it carries: its body may be far larger than others, so only a host's is read.
        bodyLimit: RELAY_ANNOUNCEMENT_LIMITS.bytes,
        onRequest: async (request) => {
          const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
          if (!bearer) throw new HttpError(401, 'a Bearer token is required');
          try {
            announcers.set(request, verifyAnnouncementToken(settings.tokenSecret, bearer));
          } catch (error) {
            throw new HttpError(401, error instanceof TokenError ? `token refused: ${error.message}` : 'token refused');
          }
        },
      },
      async (request) => {
        const announcement = parseRelayAnnouncement(parseJson(bodyText(request), 'request body', RELAY_ANNOUNCEMENT_LIMITS.bytes));
        if (announcement.id !== announcers.get(request)) throw new HttpError(403, 'the token is for another relay host');
        relayRegistry.announce(announcement);
        return {};
      },
    );
  }
  if (health) {
    app.get('/api/health', async (_request, reply) => {
      const report = await health();
      return reply.status(isHealthy(report) ? 200 : 503).header('cache-control', 'no-store').send(report);
    });
  }

  if (xmppReady) {
    // Issue 13: a tab waiting to reconnect asks here instead of guessing; held until the XMPP server is up.
    app.get(GATEWAY_PATHS.xmppReady, async (request, reply) => {
      // The connection's peer, not a forwarded header: the route needs no login, and a header is the client's to write.
      const up = await xmppReady(request.socket.remoteAddress ?? 'unknown', (stop) => reply.raw.once('close', stop));
      return reply.status(up ? 200 : 503).header('cache-control', 'no-store').send({ xmpp: up ? 'up' : 'down' });
    });
  }

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: settings.staticRoot,
      index: false,
      wildcard: false,
      // The build writes a brotli and a gzip copy of every file a browser fetches (scripts/vite/precompress.ts).
      preCompressed: true,
      // The build names every file under assets/ by its content's hash, so a file there never changes:
      // a second tab or a returning visitor loads the scripts from its cache without asking again.
      setHeaders: (reply, path) => {
        if (relative(settings.staticRoot, path).startsWith(`assets${sep}`)) reply.header('cache-control', HASHED_ASSET_CACHE);
      },
    });
  }
  // Every other GET is a room path (`/<room>`, `/<room>?view=chat`): the app decides what to show.
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/api/') || !indexHtml) {
      return reply.status(404).send({ error: { status: 404, message: 'not found' } });
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });

  app.server.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    if (path === GATEWAY_PATHS.xmppWebsocket) xmppProxy.upgrade(request, socket, head);
    else if (path === '/relay' && relayUpgrade) relayUpgrade(request, socket, head);
    else socket.destroy();
  });
  return app;
}
