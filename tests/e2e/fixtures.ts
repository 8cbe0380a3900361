import { test as base } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import type { ParleySettings } from '../../server/settings';

/**
 * Each Playwright worker runs one set of real servers (Prosody, relay, gateway) on free loopback
 * ports. A file may set `test.use({ parleySettings: … })` to run against servers set up otherwise.
 */
export const test = base.extend<{ appUrl: string }, { parley: RunningParley; parleySettings: Partial<ParleySettings> }>({
  parleySettings: [{}, { scope: 'worker', option: true }],
  parley: [
    async ({ parleySettings }, use) => {
      const parley = await startTestParley({ ...parleySettings });
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
