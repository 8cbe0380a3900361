import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { ReceivedMedia } from './call-fixture/api';
import { expect } from './call-server';
import { expectOfEveryPair } from './expect-all';

/** One person running the call engine in a browser context of their own. */
export interface CallPerson {
  context: BrowserContext;
  page: Page;
  /** Their occupant address in the room. */
  address: string;
}

async function openFixture(browser: Browser, url: string, ready: 'callFixture' | 'plainClient'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page] ${error.message}`));
  await page.goto(url);
  const handle = await page.waitForFunction((key) => window[key] !== undefined || window.fixtureError !== undefined, ready, { timeout: 30_000 });
  await handle.dispose();
  const failure = await page.evaluate(() => window.fixtureError);
  if (failure) throw new Error(`call fixture failed: ${failure}`);
  return { context, page };
}

/** A person who opens the room, joins the call with the fake camera and microphone, and runs the engine. */
export async function personInCall(browser: Browser, url: string): Promise<CallPerson> {
  const { context, page } = await openFixture(browser, url, 'callFixture');
  const address = await page.evaluate(() => window.callFixture?.selfAddress ?? '');
  return { context, page, address };
}

/** An independent plain StanzaJS client in the room, in the call, that can offer sessions of its own. */
export async function plainClientInCall(browser: Browser, url: string): Promise<CallPerson> {
  const { context, page } = await openFixture(browser, url, 'plainClient');
  const address = await page.evaluate(() => window.plainClient?.occupantAddress ?? '');
  return { context, page, address };
}

export function received(person: CallPerson): Promise<ReceivedMedia[]> {
  return person.page.evaluate(() => window.callFixture?.received() ?? Promise.resolve([]));
}

/** What `person` receives from `owner`, by kind and screen capture. */
export async function receivedFrom(person: CallPerson, owner: CallPerson, kind: 'audio' | 'video', screenCapture = false): Promise<ReceivedMedia[]> {
  return (await received(person)).filter((item) => item.owner === owner.address && item.kind === kind && item.screenCapture === screenCapture);
}

/**
 * `person` decodes `owner`'s video: the frames-decoded counter of that item is rising (checked
 * twice, so a stalled stream does not pass on its old count).
 */
export async function expectDecodingVideo(person: CallPerson, owner: CallPerson, screenCapture = false): Promise<void> {
  let first = -1;
  await expect
    .poll(async () => {
      const [item] = await receivedFrom(person, owner, 'video', screenCapture);
      first = item?.framesDecoded ?? -1;
      return first;
    }, { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expect.poll(async () => (await receivedFrom(person, owner, 'video', screenCapture))[0]?.framesDecoded ?? -1, { timeout: 10_000 }).toBeGreaterThan(first);
}

/** `person` receives `owner`'s audio: inbound packets and bytes rising. */
export async function expectReceivingAudio(person: CallPerson, owner: CallPerson): Promise<void> {
  let first = { packets: -1, bytes: -1 };
  await expect
    .poll(async () => {
      const [item] = await receivedFrom(person, owner, 'audio');
      first = { packets: item?.packetsReceived ?? -1, bytes: item?.bytesReceived ?? -1 };
      return Math.min(first.packets, first.bytes);
    }, { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expect
    .poll(async () => {
      const [item] = await receivedFrom(person, owner, 'audio');
      return (item?.packetsReceived ?? -1) > first.packets && (item?.bytesReceived ?? -1) > first.bytes;
    }, { timeout: 10_000 })
    .toBe(true);
}

/** Every person decodes every other's video and receives their audio. */
export function expectFullMesh(people: readonly CallPerson[]): Promise<void> {
  return expectOfEveryPair(people, (person, other) => [expectDecodingVideo(person, other), expectReceivingAudio(person, other)]);
}
