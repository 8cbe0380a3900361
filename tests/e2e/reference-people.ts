import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import type { ParleySettings } from '../../server/settings';
import { siteWithReference } from '../support/referenceSite';
import { expectVideoPlays, listen } from './call-ui-people';
import { expectAll } from './expect-all';
import { expect, test as base } from './rooms-people';

/**
 * SimpleWebRTC 1.30.3 in the room: the reference client (bench/reference), a page of its own that
 * joins the room's call on load. What it shows is found by role and name as in Parley's pages: its
 * own video ("(you)"), each remote video ("remote video <id>"), the remote audio players, and with
 * `?controls=1` its chat ("Chat": the messages, the "Message" box, who is typing), its microphone
 * ("Mute") and its screen share ("Share screen"); out of the room, a status saying why ("Not in the
 * room: banned").
 */
export interface ReferencePerson {
  displayName: string;
  context: BrowserContext;
  page: Page;
}

/** How a 1.30.3 person arrives: with a locked room's password; refused (1.30.3's room state, e.g. `password-required`) rather than joining. */
export interface ReferenceArrival {
  password?: string;
  refusedAs?: string;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The people of rooms-people, and `onReference` to bring someone in on SimpleWebRTC 1.30.3, on
 * servers set up with `settings` whose gateway serves the reference page beside the app.
 */
export function withReferenceClient(settings: Partial<ParleySettings>) {
  return base.extend<{ onReference: (roomName: string, displayName: string, arrival?: ReferenceArrival) => Promise<ReferencePerson> }, { referenceSite: string }>({
    referenceSite: [
      // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter
      async ({}, use) => {
        const site = siteWithReference(join(ROOT, 'dist'));
        await use(site.root);
        site.remove();
      },
      { scope: 'worker' },
    ],
    parleySettings: [async ({ referenceSite }, use) => use({ ...settings, staticRoot: referenceSite }), { scope: 'worker' }],
    onReference: async ({ browser, appUrl }, use) => {
      const contexts: BrowserContext[] = [];
      await use(async (roomName, displayName, { password, refusedAs } = {}) => {
        const context = await browser.newContext();
        contexts.push(context);
        const page = await context.newPage();
        const query = new URLSearchParams({ room: roomName, name: displayName, controls: '1', ...(password === undefined ? {} : { password }) });
        await page.goto(new URL(`reference/index.html?${query.toString()}`, appUrl).href);
        const person = { displayName, context, page };
        if (refusedAs) await expect(page.getByRole('status')).toHaveText(`Not in the room: ${refusedAs}`, { timeout: 30_000 });
        else await expect(referenceOwnVideo(person)).toBeVisible({ timeout: 30_000 });
        return person;
      });
      await Promise.all(contexts.map((context) => context.close()));
    },
  });
}

/** The 1.30.3 person's own video: there while its client is in the room. */
export function referenceOwnVideo(person: ReferencePerson) {
  return person.page.getByRole('figure', { name: '(you)' }).locator('video');
}

/** The videos the 1.30.3 person receives, one element each. */
export function referenceRemoteVideos(person: ReferencePerson) {
  return person.page.getByRole('figure', { name: /^remote video / }).locator('video');
}

/** The 1.30.3 person decodes a video of each of the `others` and hears each of them (its remote videos and audio players, one each). */
export async function expectReferenceSeesAndHears(person: ReferencePerson, others: readonly string[]): Promise<void> {
  const videos = referenceRemoteVideos(person);
  const audio = person.page.locator('audio');
  const whom = others.join(' and ');
  await expect(videos, `${person.displayName} shows a video of ${whom}`).toHaveCount(others.length, { timeout: 30_000 });
  await expect(audio, `${person.displayName} plays the audio of ${whom}`).toHaveCount(others.length, { timeout: 30_000 });
  await expectAll(
    others.flatMap((_, index) => [
      expectVideoPlays(videos.nth(index), `${person.displayName}'s remote video ${index + 1} of ${whom}:`),
      expect
        .poll(async () => {
          const heard = await listen(audio.nth(index)).catch(() => undefined);
          return heard && { live: heard.live, playing: heard.playing, audible: heard.peak > 0.01 };
        }, { timeout: 30_000, message: `${person.displayName} hears remote audio ${index + 1} of ${whom}` })
        .toEqual({ live: true, playing: true, audible: true }),
    ]),
  );
}

/** The 1.30.3 person's chat: its messages as "<name>: <text>", its "Message" box, and who is typing ("Typing"). */
export function referenceChat(person: ReferencePerson) {
  return person.page.getByRole('region', { name: 'Chat' });
}

/** The 1.30.3 person's microphone button: pressed while muted. */
export function referenceMute(person: ReferencePerson) {
  return person.page.getByRole('button', { name: 'Mute' });
}
