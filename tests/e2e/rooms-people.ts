import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { roomNameToLocalpart } from '../../src/protocol/rooms';
import { attachSessionWorker } from '../support/attachedWorker';
import { expect, test as base } from './fixtures';

/** How far the page reaches past the window's right edge, in CSS px: 0 when nothing makes it scroll sideways (WCAG 1.4.10, reflow). */
export function widthPastWindow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * The boxes inside the page that a person could scroll sideways (WCAG 1.4.10 within the page: a
 * scrolling box whose content is wider than it), named by tag and class: none when everything reflows.
 */
export function boxesScrollingSideways(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX) && element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${element.scrollWidth - element.clientWidth} px)`),
  );
}

/** The right edge of an element's box on screen, in CSS px. */
export async function rightEdge(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box on screen`);
  return box.x + box.width;
}

/** One person: a browser context of their own (separate storage, separate shared worker) and their tabs. */
export interface Person {
  displayName: string;
  context: BrowserContext;
  /** Their first tab. */
  page: Page;
}

let rooms = 0;

/** A room name no other test uses, on this server or a reused one. */
export function uniqueRoomName(label: string): string {
  rooms += 1;
  return `${label}-${process.pid}-${rooms}-${Date.now().toString(36)}`;
}

/** The room's bare JID as the XMPP server names it (for its stats). */
export function roomJid(roomName: string, mucDomain: string): string {
  return `${roomNameToLocalpart(roomName)}@${mucDomain}`;
}

/** From the home page: sets the display name, gives the room name, presses Join. */
export async function joinFromHome(page: Page, appUrl: string, roomName: string, displayName: string): Promise<void> {
  await page.goto(appUrl);
  await page.getByRole('textbox', { name: 'Display name' }).fill(displayName);
  await page.getByRole('textbox', { name: 'Room name' }).fill(roomName);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page).toHaveURL(new URL(encodeURIComponent(roomName), appUrl).href);
}

/** A side panel's toggle in the room header ("People" or "Chat"; closed, Chat's name counts what is unread: "Chat 2 unread"). */
export function panelToggle(page: Page, name: 'People' | 'Chat') {
  return page.getByRole('navigation', { name: 'Room controls' }).getByRole('button', { name: new RegExp(`^${name}(?: \\d+ unread)?$`) });
}

/**
 * Opens a side panel the way a person does: its toggle in the room header. The room starts with both
 * closed (the call fills the window); the product remembers the choice for this person's later pages
 * (reloads, other tabs), so it is done once per person.
 */
export async function openPanel(page: Page, name: 'People' | 'Chat'): Promise<void> {
  const toggle = panelToggle(page, name);
  await expect(toggle).toBeVisible();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** The room is joined in this tab: the message input is enabled and no room state is shown (joining, reconnecting…). */
export async function expectJoined(page: Page, timeout?: number): Promise<void> {
  await expect(messageBox(page)).toBeEnabled({ timeout });
  await expect(page.getByRole('status', { name: 'Room state' })).toHaveCount(0, { timeout });
}

/**
 * From each page's first paint on, records every text the first element `selector` finds shows, in
 * order (`shownTexts` reads them): what a person saw, however briefly, before the page settled.
 */
export async function recordShownTexts(context: BrowserContext, selector: string): Promise<void> {
  await context.addInitScript((watched) => {
    const shown: string[] = [];
    Object.assign(window, { parleyShownTexts: shown });
    new MutationObserver(() => {
      const text = document.querySelector<HTMLElement>(watched)?.innerText;
      if (text && shown.at(-1) !== text) shown.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  }, selector);
}

/** The texts `recordShownTexts` saw in this page since it loaded. */
export function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { parleyShownTexts: string[] }).parleyShownTexts);
}

/** Types into the message box and presses Enter. */
/** Holds back the context's requests for `url` (routing also turns its cache off) until the returned function is called. */
export async function holdBack(context: BrowserContext, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

export async function say(page: Page, text: string): Promise<void> {
  const input = messageBox(page);
  await input.fill(text);
  await input.press('Enter');
  await expect(input).toHaveValue('');
}

/**
 * The browser goes offline (or back online). Playwright's setOffline cuts the pages' network, but in
 * the loopback-only namespace Chromium already counts itself offline, so the window's offline and
 * online events never fire by themselves: they are dispatched here, a fake of what the operating
 * system's network change would make the browser do.
 */
export async function setBrowserOnline(context: BrowserContext, online: boolean): Promise<void> {
  await context.setOffline(!online);
  for (const page of context.pages()) await page.evaluate((type) => dispatchEvent(new Event(type)), online ? 'online' : 'offline');
}

/**
 * Records the notes of the tones the page plays from now on, read by the function returned: each
 * OscillatorNode's frequency (a RecordingOscillator around the real node, which still plays; a
 * headless browser has no speaker to listen to). The page makes its nodes when it plays, so this
 * may come at any time. Rising 660, 880 Hz: a join; falling 880, 660 Hz: a leave.
 */
export async function recordTones(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const notes: number[] = [];
    (window as unknown as { notes: number[] }).notes = notes;
    class RecordingOscillator extends OscillatorNode {
      constructor(context: BaseAudioContext, options?: OscillatorOptions) {
        super(context, options);
        notes.push(options?.frequency ?? 440);
      }
    }
    window.OscillatorNode = RecordingOscillator;
  });
  return () => page.evaluate(() => (window as unknown as { notes: number[] }).notes);
}

/** A text the chat log showed, and for how long (the page's clock, ms; `goneAt` unset while it shows). */
export interface ShownLine {
  text: string;
  shownAt: number;
  goneAt?: number;
}

/**
 * Records every text the chat log's own paragraphs show from now on, without their `<time>`s: its
 * event lines, and what an empty log says (messages are articles). The chat is open; the function returns
 * them in the order first seen, each with when it showed and went.
 */
export async function recordEventLines(page: Page): Promise<() => Promise<ShownLine[]>> {
  await chatLog(page).evaluate((log) => {
    const seen: ShownLine[] = [];
    (window as unknown as { eventLinesSeen: ShownLine[] }).eventLinesSeen = seen;
    const look = () => {
      const now = performance.now();
      const texts = [...log.querySelectorAll(':scope > p')].map((line) =>
        [...line.childNodes]
          .filter((node) => node.nodeName !== 'TIME')
          .map((node) => node.textContent)
          .join('')
          .trim(),
      );
      for (const text of texts) if (!seen.some((line) => line.text === text)) seen.push({ text, shownAt: now });
      for (const line of seen) if (line.goneAt === undefined && !texts.includes(line.text)) line.goneAt = now;
    };
    look();
    new MutationObserver(look).observe(log, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { eventLinesSeen: ShownLine[] }).eventLinesSeen);
}

/**
 * Pauses the person's shared worker (their session) in the debugger until `resume`: a session
 * thread too busy to answer, made certain. The page goes on drawing what it holds itself.
 */
export async function pauseSessionWorker(page: Page): Promise<{ resume(): Promise<void>; terminate(): Promise<void> }> {
  const { worker, detach } = await attachSessionWorker(page);
  await worker.send('Debugger.enable');
  // An idle worker pauses at the first statement it runs next: the handler of the page's next message.
  await worker.send('Debugger.pause');
  return {
    /** Ends the paused worker before it handles anything more, as a browser ends a session it has no page for. */
    async terminate() {
      await worker.terminate();
      await detach();
    },
    async resume() {
      await worker.send('Debugger.resume');
      await detach();
    },
  };
}

/** The chat's message box. */
export function messageBox(page: Page) {
  return page.getByRole('textbox', { name: 'Message' });
}

/** One of the chat's options ("Send on Enter", "Show my typing live", "Sounds"), behind the composer's "Options", opened first. */
export async function chatOption(page: Page, name: 'Send on Enter' | 'Show my typing live' | 'Sounds') {
  const toggle = page.getByRole('button', { name: 'Chat options' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('checkbox', { name });
}

/** The room ended for this person: in place of the message box, why nothing more can be written (left: how to write again). */
export async function expectChatClosed(page: Page, how: 'ended' | 'left' = 'ended'): Promise<void> {
  const words = how === 'left' ? 'You left this room. Join it again to write here.' : 'You can no longer write in this room. What was said stays here to read.';
  await expect(page.getByText(words)).toBeVisible();
  await expect(messageBox(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);
}

export function chatLog(page: Page) {
  return page.getByRole('log', { name: 'Chat' });
}

/** Who is typing in the room, as the page shows it (SPEC §4 chat state, §9 real-time text). */
export function typingIndicator(page: Page) {
  return page.getByRole('region', { name: 'Typing' });
}

export function participants(page: Page) {
  return page.getByRole('list', { name: 'Participants' });
}

/** A person's entry in the Participants list. */
export function participantEntry(page: Page, displayName: string) {
  return participants(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(displayName, { exact: true }) });
}

/** The owner locks the room with `password` through the lock dialog; the room then offers to unlock it. */
export async function lockRoom(page: Page, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Lock room' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lock room' });
  await dialog.getByRole('textbox', { name: 'Room password' }).fill(password);
  await dialog.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unlock room' })).toBeVisible();
}

/** A newcomer to a locked room gives `password` in the room's prompt. */
export async function enterPassword(page: Page, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Room password' }).fill(password);
  await page.getByRole('button', { name: 'Enter room' }).click();
}

/** The owner kicks `displayName` from the People list and confirms "Kick and ban". */
export async function kickAndBan(page: Page, displayName: string): Promise<void> {
  await participantEntry(page, displayName).getByRole('button', { name: `Kick ${displayName}`, exact: true }).click();
  await page.getByRole('dialog', { name: `Kick ${displayName}?` }).getByRole('button', { name: 'Kick and ban' }).click();
}

/** The people of one test. Each is a browser context of their own, closed when the test ends, passed or failed. */
export interface People {
  /** A new person joins the room from the home page, opens Chat and People, and waits until they are in. */
  join(roomName: string, displayName: string): Promise<Person>;
  /** A new person opens the room from the home page and opens Chat; they may stop short of joining (a password prompt, a ban). */
  arrive(roomName: string, displayName: string): Promise<Person>;
  /** A new person, in a browser context made with `options` (a window's size, a touch screen), opens the room from the home page, and nothing more: the room's layout as a first visit shows it. */
  enter(roomName: string, displayName: string, options: BrowserContextOptions): Promise<Person>;
}

/** A new person (a browser context of their own made with `options`, the caller's to close) opens the room from the home page at `appUrl`. */
async function enterFromHome(browser: Browser, appUrl: string, roomName: string, displayName: string, options: BrowserContextOptions = {}): Promise<Person> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await joinFromHome(page, appUrl, roomName, displayName);
  return { displayName, context, page };
}

/** A new person (a browser context of their own, the caller's to close) opens the room from the home page at `appUrl` and opens Chat. */
export async function newPerson(browser: Browser, appUrl: string, roomName: string, displayName: string): Promise<Person> {
  const person = await enterFromHome(browser, appUrl, roomName, displayName);
  // The people of these tests write and read the chat: they open it first thing (its toggle is there
  // whatever happens to the room, a password prompt or a ban).
  await openPanel(person.page, 'Chat');
  return person;
}

/** Waits until the person who arrived is in the room; there they keep an eye on who is there too (People). */
export async function inTheRoom(person: Person): Promise<void> {
  await expectJoined(person.page);
  await openPanel(person.page, 'People');
}

export const test = base.extend<{ people: People }>({
  people: async ({ browser, appUrl }, use) => {
    const contexts: BrowserContext[] = [];
    const kept = (person: Person) => {
      contexts.push(person.context);
      return person;
    };
    const arrive = async (roomName: string, displayName: string) => kept(await newPerson(browser, appUrl, roomName, displayName));
    await use({
      arrive,
      enter: async (roomName, displayName, options) => kept(await enterFromHome(browser, appUrl, roomName, displayName, options)),
      async join(roomName, displayName) {
        const person = await arrive(roomName, displayName);
        await inTheRoom(person);
        return person;
      },
    });
    // Closing every context ends its shared worker, so the servers stop with no session left open.
    await Promise.all(contexts.map((context) => context.close()));
  },
});

export { expect };
