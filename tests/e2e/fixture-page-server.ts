import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, type ViteDevServer } from 'vite';
import { test as base } from './fixtures';

/** A fixture page served by a Vite dev server of its own; `close` stops that server. */
export interface FixturePageServer {
  url: string;
  close(): Promise<void>;
}

/**
 * A fixture page (tests/e2e/<fixture>/index.html) on a Vite dev server of its own, in front of the
 * Parley gateway at `gatewayUrl`: `/api`, `/xmpp-websocket` and the relay's `/relay` are proxied to
 * the gateway with the Host header kept, so the config's URLs (sfuServer.url included) point back at
 * this server and the page's shared worker and relay client work exactly as the app's do. The
 * benchmarks (scripts/bench) serve the relay fixture with it too.
 */
export async function startFixturePageServer(fixture: string, gatewayUrl: string, prebundled: string[] = []): Promise<FixturePageServer> {
  const gateway = new URL(gatewayUrl);
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // A closing browser context, or the relay killed on purpose, resets a proxied websocket: expected.
  const logger = createLogger('error');
  const logError = logger.error.bind(logger);
  logger.error = (message, options) => {
    if (!message.includes('ws proxy')) logError(message, options);
  };
  const vite: ViteDevServer = await createServer({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    root,
    customLogger: logger,
    server: {
      host: '127.0.0.1',
      port: 0,
      hmr: false,
      proxy: {
        '/api': { target: gateway.origin },
        '/xmpp-websocket': { target: `ws://${gateway.host}`, ws: true },
        '/relay': { target: `ws://${gateway.host}`, ws: true },
      },
    },
    // Found up front so that no dependency is optimised (and the page reloaded) mid-run.
    optimizeDeps: { entries: [`tests/e2e/${fixture}/index.html`, 'src/shared-worker/entry.ts'], include: prebundled },
  });
  await vite.listen();
  const { port } = vite.httpServer?.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/tests/e2e/${fixture}/index.html`, close: () => vite.close() };
}

/** The fixture page on its own server in front of the worker's Parley servers (startFixturePageServer). */
export function fixturePageTest(fixture: string, prebundled: string[] = []) {
  return base.extend<{ pageUrl: (query: Record<string, string>) => string }, { fixturePage: string }>({
    fixturePage: [
      async ({ parley }, use) => {
        const server = await startFixturePageServer(fixture, parley.url, prebundled);
        await use(server.url);
        await server.close();
      },
      { scope: 'worker', timeout: 60_000 },
    ],
    pageUrl: async ({ fixturePage }, use) => {
      await use((query) => `${fixturePage}?${new URLSearchParams(query).toString()}`);
    },
  });
}
