import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, type ViteDevServer } from 'vite';
import { test as base } from './fixtures';

/**
 * The call fixture page (tests/e2e/call-fixture) on a Vite dev server of its own, in front of the
 * worker's Parley servers: `/api` and `/xmpp-websocket` are proxied to the gateway, so the page's
 * shared worker logs in and joins rooms exactly as the app does. The Host header is kept, so the
 * config's URLs point back at this server.
 */
export const test = base.extend<{ callPageUrl: (query: Record<string, string>) => string }, { callServer: string }>({
  callServer: [
    async ({ parley }, use) => {
      const gateway = new URL(parley.url);
      const root = fileURLToPath(new URL('../..', import.meta.url));
      // A browser context closing resets its proxied websocket: expected, not worth a stack trace.
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
          },
        },
        // Found up front so that no new dependency is optimised (and the page reloaded) mid-test.
        optimizeDeps: { entries: ['tests/e2e/call-fixture/index.html', 'src/shared-worker/entry.ts'] },
      });
      await vite.listen();
      const { port } = vite.httpServer?.address() as AddressInfo;
      await use(`http://127.0.0.1:${port}/tests/e2e/call-fixture/index.html`);
      await vite.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  callPageUrl: async ({ callServer }, use) => {
    await use((query) => `${callServer}?${new URLSearchParams(query).toString()}`);
  },
});

export { expect } from './fixtures';
