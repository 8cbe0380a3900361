import { test as base } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import type { ParleySettings } from '../../server/settings';
import { CrowdedCallSlot } from './crowded-call-slot';

/**
 * Each Playwright worker runs one set of real servers (Prosody, relay, gateway) on free loopback
 * ports. A file may set `test.use({ parleySettings: … })` to run against servers set up otherwise.
 */
export const test = base.extend<{ appUrl: string; crowdedCall: CrowdedCallSlot }, { parley: RunningParley; parleySettings: Partial<ParleySettings> }>({
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
  // A test that holds three or more people in a call takes this slot for that part (crowded-call-slot.ts).
  // eslint-disable-next-line no-empty-pattern
  crowdedCall: async ({}, use, testInfo) => {
    const slot = new CrowdedCallSlot(testInfo);
    await use(slot);
    slot.release();
  },
});

export { expect } from '@playwright/test';
