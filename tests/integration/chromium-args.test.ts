import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, DISABLED_FEATURES } from '../../playwright.config';

/** The features a Chromium process was told to turn off: its command line's last `--disable-features`. */
function disabledFeaturesOf(pid: number): string[] {
  const switches = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const last = switches.filter((entry) => entry.startsWith('--disable-features=')).at(-1);
  return last ? last.slice('--disable-features='.length).split(',') : [];
}

/** Launches Chromium as Playwright does, with `args` after its own, and returns what it turned off. */
async function launchedDisabledFeatures(args: string[]): Promise<string[]> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_EXECUTABLE, args });
  try {
    const pid = server.process().pid;
    if (pid === undefined) throw new Error('Chromium started without a process id');
    return disabledFeaturesOf(pid);
  } finally {
    await server.close();
  }
}

// The test browsers' own arguments: Chromium honours one `--disable-features`, so ours replaces Playwright's.
describe("The test browsers turn off Playwright's features and Chromium's hidden omnibox UI", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: TEST_CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("keeps every feature Playwright turns off, and turns off the omnibox's popups", async () => {
    const playwrights = await launchedDisabledFeatures([]);
    expect(playwrights.length).toBeGreaterThan(0);
    const ours = await launchedDisabledFeatures(TEST_CHROMIUM_ARGS);
    expect(ours).toEqual(DISABLED_FEATURES);
    expect(playwrights.filter((feature) => !ours.includes(feature))).toEqual([]);
  });

  it('opens a browser context with its page and no window UI of its own', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto('data:text/html,<title>bare</title>');
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      await cdp.detach();
      expect(targetInfos.map((target) => `${target.type} ${target.url}`)).toEqual(['page data:text/html,<title>bare</title>']);
    } finally {
      await context.close();
    }
  });
});
