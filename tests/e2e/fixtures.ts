import { test as base } from '@playwright/test';
import { startParley, type RunningParley } from '../../server/Parley';

/** Each Playwright worker runs one set of real servers (Prosody + gateway) on free loopback ports. */
export const test = base.extend<{ appUrl: string }, { parley: RunningParley }>({
  parley: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const parley = await startParley({ port: 0 });
      await use(parley);
      await parley.stop();
    },
    { scope: 'worker', timeout: 30_000 },
  ],
  appUrl: async ({ parley }, use) => {
    await use(parley.url);
  },
});

export { expect } from '@playwright/test';
