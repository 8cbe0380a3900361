import type { BrowserContext, Page } from '@playwright/test';
import { callButton, callRegion, expectDecodingVideo, joinCall, LIGHT_DIRECT_SERVERS, tile } from './call-ui-people';
import { chatLog, expect, expectJoined, holdBack, inTheRoom, joinFromHome, openPanel, participantEntry, say, test, uniqueRoomName } from './rooms-people';
import { RecordingFront } from '../support/RecordingFront';
import { SESSION_ATTACH_WITHIN_MS, SPINNER_DELAY_MS } from '../../src/protocol/clientDefaults';
import { CHROMIUM_EXECUTABLE, TEST_CHROMIUM_ARGS } from '../../playwright.config';

// What a room page starts as it loads (issue 14, the join path); the rest of the join path is
// tests/integration/join-path.test.ts. Mesh only: nothing here reaches the relay.
test.use({ parleySettings: LIGHT_DIRECT_SERVERS });

/** Counts the page's getUserMedia calls, and keeps what they captured, in `window.parleyCaptures`, from before any of its scripts. */
async function countingCaptures(context: BrowserContext): Promise<Page> {
  await context.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const counted = { captures: 0, streams: [] as MediaStream[] };
    Object.assign(window, { parleyCaptures: counted });
    const getUserMedia = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      counted.captures += 1;
      const stream = await getUserMedia(constraints);
      counted.streams.push(stream);
      return stream;
    };
  });
  return context.newPage();
}

function captures(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { parleyCaptures: { captures: number } }).parleyCaptures.captures);
}

/** The tracks the page has captured, and how many of them are still live: the camera's and microphone's lights are on. */
function capturedTracks(page: Page): Promise<{ captured: number; live: number }> {
  return page.evaluate(() => {
    const tracks = (window as unknown as { parleyCaptures: { streams: MediaStream[] } }).parleyCaptures.streams.flatMap((stream) => stream.getTracks());
    return { captured: tracks.length, live: tracks.filter((track) => track.readyState === 'live').length };
  });
}

test.describe('A room page asks for the camera and microphone as it loads, unless the person refused them or its name cannot name a room (issue 14, the join path; SPEC §2 "Request Media")', () => {
  test('the camera and microphone are asked for before the call’s code has even arrived; the preview then shows them from that one capture, and the call sends it', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      // The call's code (capture, the preview, Jingle) is held back until the camera has been asked for.
      const releaseCallCode = await holdBack(context, /\/assets\/createTabCallRuntime-[^/]+\.js$/);
      const page = await countingCaptures(context);
      await page.goto(new URL(uniqueRoomName('early-camera'), appUrl).href);
      await expect.poll(() => captures(page)).toBe(1);
      // "Join call" is offered already (the test below clicks it); the preview's video comes with the call's code.
      await expect(callButton(page, 'Join call')).toBeEnabled();
      await expect(callRegion(page).locator('.preview-video video')).toHaveCount(0);
      releaseCallCode();
      await expect(callRegion(page).locator('.preview-video video')).toHaveCount(1);
      await callButton(page, 'Join call').click();
      await expect(callRegion(page).getByRole('figure', { name: /\(you\)$/ }).locator('video')).toHaveCount(1);
      expect(await captures(page)).toBe(1);
    } finally {
      await context.close();
    }
  });

  test('a person whose browser says camera and microphone are refused is not asked as the page loads; "Request Media" asks, and focus goes on to "Join call" as its notice goes', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      const page = await countingCaptures(context);
      // The browser's own record of a refusal, as its permission prompt leaves it, for this person's context.
      const { targetInfo } = await (await context.newCDPSession(page)).send('Target.getTargetInfo');
      const cdp = await browser.newBrowserCDPSession();
      for (const name of ['camera', 'microphone'] as const) {
        await cdp.send('Browser.setPermission', { permission: { name }, setting: 'denied', origin: new URL(appUrl).origin, browserContextId: targetInfo.browserContextId });
      }
      await page.goto(new URL(uniqueRoomName('refused-camera'), appUrl).href);
      await expect(callButton(page, 'Join call')).toBeEnabled();
      const requestMedia = callRegion(page).getByRole('button', { name: 'Request Media' });
      await expect(requestMedia).toBeVisible();
      expect(await captures(page)).toBe(0);
      await requestMedia.click();
      // This browser's fake prompt says yes to a request (what a refusal then says: tests/unit/callTab-runtime.test.ts).
      await expect(callRegion(page).locator('.preview-video video')).toHaveCount(1);
      expect(await captures(page)).toBe(1);
      await expect(requestMedia).toHaveCount(0);
      await expect(callButton(page, 'Join call')).toBeFocused();
    } finally {
      await context.close();
    }
  });

  test('a browser that refuses the camera and microphone (no prompt to say yes): one notice says why in plain words and offers "Request Media" to try again', async ({ playwright, appUrl }) => {
    // Without Chromium's fake prompt, a request the person is never asked about is refused.
    const refusing = await playwright.chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: TEST_CHROMIUM_ARGS.filter((arg) => arg !== '--use-fake-ui-for-media-stream') });
    try {
      const page = await (await refusing.newContext()).newPage();
      await page.goto(new URL(uniqueRoomName('refusing-browser'), appUrl).href);
      const notice = callRegion(page).getByRole('alert');
      await expect(notice).toHaveText(/Parley isn't allowed to use your camera and microphone\. Allow access in your browser's site settings, then try again\./);
      await expect(notice).toHaveCount(1);
      await expect(notice.getByRole('button', { name: 'Request Media' })).toBeVisible();
      await expect(callRegion(page).getByText('Your camera and microphone are not on yet.')).toHaveCount(0);
      await expect(callButton(page, 'Join call')).toBeEnabled();
    } finally {
      await refusing.close();
    }
  });

  test('a room name that cannot name a room: the page says why in the home page’s words, and never asks for the camera', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      const page = await countingCaptures(context);
      await page.goto(new URL('!!!', appUrl).href);
      await expect(page.getByRole('status', { name: 'Room state' })).toHaveText('Could not open the room. That room name has no letters or digits that can name a room.');
      await expect(callButton(page, 'Join call')).toHaveCount(0);
      await expect(page.getByText('Ready to join?')).toHaveCount(0);
      expect(await captures(page)).toBe(0);
    } finally {
      await context.close();
    }
  });
});

test.describe('A room page that cannot have a call lets go of the camera and microphone it asked for as it loaded, and offers no "Join call" (issue 14, the join path)', () => {
  test('a room whose address cannot be looked up: the camera goes off', async ({ browser, appUrl }) => {
    const front = await RecordingFront.start(appUrl);
    front.refused = /^\/api\/room-config$/;
    const context = await browser.newContext();
    try {
      const page = await countingCaptures(context);
      await page.goto(new URL(uniqueRoomName('lookup-refused'), front.url).href);
      await expect(page.getByRole('status', { name: 'Room state' })).toContainText('Could not join the room.', { timeout: 20_000 });
      await expect(callButton(page, 'Join call')).toHaveCount(0);
      await expect.poll(() => capturedTracks(page)).toEqual({ captured: 2, live: 0 });
    } finally {
      await context.close();
      await front.close();
    }
  });

  test('the room left while the call’s code is still on its way: the camera goes off, and stays off once the code arrives', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      const releaseCallCode = await holdBack(context, /\/assets\/createTabCallRuntime-[^/]+\.js$/);
      const page = await countingCaptures(context);
      await page.goto(new URL(uniqueRoomName('left-early'), appUrl).href);
      await expect.poll(() => capturedTracks(page)).toEqual({ captured: 2, live: 2 });
      await page.getByRole('button', { name: 'Leave', exact: true }).click();
      await expect(page.getByRole('textbox', { name: 'Room name' })).toBeVisible();
      releaseCallCode();
      await expect.poll(() => capturedTracks(page)).toEqual({ captured: 2, live: 0 });
    } finally {
      await context.close();
    }
  });
});

test.describe('"Join call" is offered before the call is up in the tab; a click made then joins once it is (issue 14, the join path)', () => {
  test('clicked while the call’s code is still held back, it says "Joining…", the room hears of the call and the tab claims it already, and the person is in the call with the camera once the code arrives', async ({ browser, appUrl, people }) => {
    const roomName = uniqueRoomName('early-join');
    const alice = await people.join(roomName, 'Alice');
    await joinCall(alice.page);
    const context = await browser.newContext();
    try {
      // Counts the tab's claims of a call (TabCalls.claimCallAhead, the Call's own), as they leave for the session.
      await context.addInitScript(() => {
        const counted = { claims: 0 };
        Object.assign(window, { parleyClaims: counted });
        const postMessage = MessagePort.prototype.postMessage;
        MessagePort.prototype.postMessage = function (this: MessagePort, ...args: unknown[]) {
          const path = (args[0] as { path?: unknown } | null)?.path;
          if (Array.isArray(path) && path.at(-1) === 'claimCall') counted.claims += 1;
          Reflect.apply(postMessage, this, args);
        } as typeof postMessage;
      });
      const releaseCallCode = await holdBack(context, /\/assets\/createTabCallRuntime-[^/]+\.js$/);
      const page = await countingCaptures(context);
      await page.goto(new URL(roomName, appUrl).href);
      await callButton(page, 'Join call').click();
      await expect(callButton(page, 'Joining…')).toBeDisabled();
      // The join went out as the room's address came, not with the call's code: Alice's call has the newcomer.
      await expect(tile(alice.page, 'Anonymous')).toBeVisible();
      // So did the call's lock and claim: Alice's offer waits in this tab for the Call, not for the code.
      await expect.poll(() => page.evaluate(() => (window as unknown as { parleyClaims: { claims: number } }).parleyClaims.claims)).toBe(1);
      await expect(callButton(page, 'Hang up')).toHaveCount(0);
      releaseCallCode();
      await expect(callButton(page, 'Hang up')).toBeVisible();
      await expect(callRegion(page).getByRole('figure', { name: /\(you\)$/ }).locator('video')).toHaveCount(1);
      await expectDecodingVideo(page, 'Alice');
      expect(await captures(page)).toBe(1);
    } finally {
      await context.close();
    }
  });

  test('clicked while the room’s address is still being looked up, the call’s join goes to the session at once, by the room’s name: the join presence carries the call', async ({ browser, appUrl, people }) => {
    const roomName = uniqueRoomName('join-by-name');
    const alice = await people.join(roomName, 'Alice');
    await joinCall(alice.page);
    const front = await RecordingFront.start(appUrl);
    const context = await browser.newContext();
    try {
      const releaseLookup = front.hold(/^\/api\/room-config$/);
      const page = await context.newPage();
      await page.goto(new URL(roomName, front.url).href);
      await callButton(page, 'Join call').click();
      await expect(callButton(page, 'Joining…')).toBeDisabled();
      releaseLookup();
      await expect(tile(alice.page, 'Anonymous')).toBeVisible();

      const roomPresences = front.xmppFrames.filter((frame) => frame.startsWith('> <presence') && frame.includes(' to='));
      // The join (MUC's <x>), and in it mmuc's <conf>: the call (PROTOCOL.md "Rooms").
      expect(roomPresences[0]).toContain('http://jabber.org/protocol/muc"');
      expect(roomPresences[0]).toContain('<conf');
    } finally {
      await context.close();
      await front.close();
    }
  });

  test('clicked before the call is up, the call’s lock is granted — and so its claim sent — before the call’s stage is drawn, not behind that render', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      await context.addInitScript(() => {
        const seen: { lockGrantedAt?: number; stagesDrawnAt: number[] } = { stagesDrawnAt: [] };
        Object.assign(window, { parleyJoinOrder: seen });
        const request = navigator.locks.request.bind(navigator.locks) as (name: string, ...rest: unknown[]) => Promise<unknown>;
        navigator.locks.request = ((name: string, ...rest: unknown[]) => {
          const granted = rest.pop() as (lock: Lock | null) => unknown;
          if (!name.startsWith('parley:call:')) return request(name, ...rest, granted);
          return request(name, ...rest, (lock: Lock | null) => {
            if (lock) seen.lockGrantedAt ??= performance.now();
            return granted(lock);
          });
        }) as typeof navigator.locks.request;
        new MutationObserver((records) => {
          const stage = (node: Node) => node instanceof Element && (node.matches('section.call-stage') || node.querySelector('section.call-stage') !== null);
          const drawn = records.some((record) => [...record.addedNodes].some(stage));
          if (drawn) seen.stagesDrawnAt.push(performance.now());
        }).observe(document, { childList: true, subtree: true });
      });
      const releaseCallCode = await holdBack(context, /\/assets\/createTabCallRuntime-[^/]+\.js$/);
      const page = await context.newPage();
      await page.goto(new URL(uniqueRoomName('lock-first'), appUrl).href);
      await callButton(page, 'Join call').click();
      await expect(callButton(page, 'Joining…')).toBeDisabled();
      releaseCallCode();
      await expect(callButton(page, 'Hang up')).toBeVisible();
      const { lockGrantedAt, stagesDrawnAt } = await page.evaluate(() => (window as unknown as { parleyJoinOrder: { lockGrantedAt?: number; stagesDrawnAt: number[] } }).parleyJoinOrder);
      // The pending preview's stage first, then the call's own.
      expect(stagesDrawnAt.length).toBeGreaterThanOrEqual(2);
      expect(lockGrantedAt).toBeDefined();
      expect(lockGrantedAt!).toBeLessThan(stagesDrawnAt.at(-1)!);
    } finally {
      await context.close();
    }
  });

  test('should the call’s code not arrive, the preview says so and what to do, and offers no "Join call" that cannot work', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      await context.route(/\/assets\/createTabCallRuntime-[^/]+\.js$/, (route) => route.abort('connectionreset'));
      const page = await context.newPage();
      await page.goto(new URL(uniqueRoomName('call-code-lost'), appUrl).href);
      await expect(callRegion(page).getByRole('alert')).toHaveText('The call could not be loaded. Check your connection and reload the page.');
      await expect(callButton(page, 'Join call')).toBeDisabled();
    } finally {
      await context.close();
    }
  });
});

test.describe('The shared worker opens the XMPP websocket and sends the config request as it starts, before the session’s code has loaded; the session takes both over (issue 14, the join path)', () => {
  test('while a fresh page’s config request is held back, its XMPP websocket is open already; once the config comes, the room is joined on that websocket with that config, neither asked for again', async ({ browser, appUrl }) => {
    const front = await RecordingFront.start(appUrl);
    const context = await browser.newContext();
    try {
      const releaseConfig = front.holdConfig();
      const page = await context.newPage();
      await page.goto(new URL(uniqueRoomName('connect-ahead'), front.url).href);
      // The websocket goes out as the worker starts; the config request once the stored identity is read.
      await expect.poll(() => [...front.steps].sort()).toEqual(['XMPP websocket opened', 'config asked']);
      releaseConfig();
      await openPanel(page, 'Chat');
      await expectJoined(page);
      expect(front.steps.slice(2)).toEqual(['config answered']);
    } finally {
      await context.close();
      await front.close();
    }
  });
});

/** The element of each frame the browser sent on the XMPP websocket, in order. */
function xmppSent(front: RecordingFront): string[] {
  return front.xmppFrames.flatMap((frame) => (frame.startsWith('> ') ? [/^> <([\w:-]+)/.exec(frame)?.[1] ?? frame] : []));
}

test.describe('The shared worker logs in on its websocket before the session’s code has loaded, resource binding included; the session’s client takes the bound stream over (issue 14, the join path)', () => {
  test('while the session’s code is held back, the stream is opened, authenticated, restarted and bound; once it comes, the room is joined on that socket, no step sent twice', async ({ browser, appUrl }) => {
    const front = await RecordingFront.start(appUrl);
    const context = await browser.newContext();
    try {
      const releaseSession = front.hold(/\/assets\/sessionWorker-[^/]+\.js$/);
      const page = await context.newPage();
      await page.goto(new URL(uniqueRoomName('login-ahead'), front.url).href);
      await expect.poll(() => front.xmppFrames.some((frame) => frame.startsWith('< <iq') && frame.includes('<jid>'))).toBe(true);
      expect(front.xmppFrames.some((frame) => frame.startsWith('< <success'))).toBe(true);
      expect(xmppSent(front)).toEqual(['open', 'auth', 'open', 'iq']);
      releaseSession();
      await openPanel(page, 'Chat');
      await expectJoined(page);
      const sent = xmppSent(front);
      expect(sent.slice(0, 5)).toEqual(['open', 'auth', 'open', 'iq', 'presence']);
      expect(sent.filter((element) => element === 'auth' || element === 'open')).toHaveLength(3);
      expect(front.xmppFrames.filter((frame) => frame.startsWith('> <iq') && frame.includes('urn:ietf:params:xml:ns:xmpp-bind'))).toHaveLength(1);
      expect(front.steps.filter((step) => step === 'XMPP websocket opened')).toHaveLength(1);
    } finally {
      await context.close();
      await front.close();
    }
  });
});

test.describe('Should the session’s code not arrive, the page says so in plain words, and a reload brings the session back (issue 14: the shared worker loads it after its first script)', () => {
  test('with the session’s code refused, a room page says what happened and what to do; once the network serves it, "Reload" joins the room', async ({ browser, appUrl }) => {
    const front = await RecordingFront.start(appUrl);
    const context = await browser.newContext();
    try {
      front.refused = /\/assets\/sessionWorker-[^/]+\.js$/;
      const page = await context.newPage();
      await page.goto(new URL(uniqueRoomName('session-code-lost'), front.url).href);
      const alert = page.getByRole('alert').filter({ hasText: 'Parley could not start' });
      // Told by the worker, or, when the worker closed as the tab connected, by the tab's own wait for its attach.
      await expect(alert).toHaveText('Parley could not start: part of it did not load. Check your internet connection, then reload the page.Reload', {
        timeout: SESSION_ATTACH_WITHIN_MS + 5_000,
      });
      front.refused = undefined;
      await alert.getByRole('button', { name: 'Reload' }).click();
      await openPanel(page, 'Chat');
      await expectJoined(page);
      await expect(alert).toHaveCount(0);
    } finally {
      await context.close();
      await front.close();
    }
  });
});

/** What `.spinner` elements the page showed, each change of their class with when it came (performance.now()) and how many animations ran then. */
interface SpinnerChange {
  at: number;
  className: string;
  animations: number;
}

test.describe('Nothing animates while a join is quick: a wait’s spinner shows only once the wait has lasted SPINNER_DELAY_MS (issue 14, the join path)', () => {
  test('while the session’s code is held back, "Joining the room…" shows at once, its spinner hidden and no animation running; a second on, the spinner turns', async ({ browser, appUrl }) => {
    const front = await RecordingFront.start(appUrl);
    const context = await browser.newContext();
    try {
      await context.addInitScript(() => {
        const changes: SpinnerChange[] = [];
        const seen = new WeakMap<Element, string>();
        Object.assign(window, { spinnerChanges: changes });
        new MutationObserver(() => {
          for (const spinner of document.querySelectorAll('.spinner')) {
            if (seen.get(spinner) === spinner.className) continue;
            seen.set(spinner, spinner.className);
            changes.push({ at: performance.now(), className: spinner.className, animations: document.getAnimations().length });
          }
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      });
      const releaseSession = front.hold(/\/assets\/sessionWorker-[^/]+\.js$/);
      const page = await context.newPage();
      await page.goto(new URL(uniqueRoomName('spinner'), front.url).href);
      await expect(page.getByText('Joining the room…')).toBeVisible();
      const spinnerChanges = () => page.evaluate(() => (window as unknown as { spinnerChanges: SpinnerChange[] }).spinnerChanges);
      await expect.poll(async () => (await spinnerChanges()).map((change) => change.className)).toEqual(['spinner spinner-waiting', 'spinner']);
      const [waiting, shown] = await spinnerChanges();
      expect(waiting!.animations).toBe(0);
      expect(shown!.at - waiting!.at).toBeGreaterThanOrEqual(SPINNER_DELAY_MS - 5);
      expect(await page.evaluate(() => document.getAnimations().length)).toBeGreaterThan(0);
      releaseSession();
      await openPanel(page, 'Chat');
      await expectJoined(page);
    } finally {
      await context.close();
      await front.close();
    }
  });
});

/** The names of this page's held Web Locks that are tabs' liveness locks. */
function heldTabLocks(page: Page): Promise<string[]> {
  return page.evaluate(async () => ((await navigator.locks.query()).held ?? []).flatMap((lock) => (lock.name?.startsWith('parley:tab:') ? [lock.name] : [])));
}

test.describe('A page carries its own icon: the tab shows Parley’s mark without a /favicon.ico request of its own in the join (issue 14, the join path)', () => {
  test('a room page’s icon is part of its HTML, and it is an image', async ({ page, appUrl }) => {
    await page.goto(new URL(uniqueRoomName('icon'), appUrl).href);
    const icon = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) return undefined;
      const image = new Image();
      image.src = link.href;
      await image.decode();
      return { inline: link.href.startsWith('data:image/svg+xml,'), width: image.naturalWidth, height: image.naturalHeight };
    });
    // Without an icon in the page, the browser asks the gateway for /favicon.ico, which answers with the app's HTML.
    expect(icon?.inline).toBe(true);
    expect(icon?.width).toBeGreaterThan(0);
    expect(icon?.height).toBe(icon?.width);
  });
});

test.describe('A page takes its tab’s liveness lock from its HTML, before its scripts have arrived; the session bridge adopts it (issue 14, the join path)', () => {
  test('the lock is held while the entry script is still held back; once it runs, the tab attaches with that one lock and its room joins', async ({ browser, appUrl }) => {
    const context = await browser.newContext();
    try {
      const releaseEntry = await holdBack(context, /\/assets\/index-[^/]+\.js$/);
      const page = await context.newPage();
      const roomName = uniqueRoomName('early-tab-lock');
      await page.goto(new URL(roomName, appUrl).href, { waitUntil: 'commit' });
      await expect.poll(() => heldTabLocks(page)).toHaveLength(1);
      const [early] = await heldTabLocks(page);
      expect(await page.locator('h1').count()).toBe(0);
      releaseEntry();
      await expect(callButton(page, 'Join call')).toBeEnabled();
      expect(await heldTabLocks(page)).toEqual([early]);
    } finally {
      await context.close();
    }
  });
});

/**
 * Counts the changes made to the rendered page (`#root`'s subtree: nodes inserted or removed,
 * attributes and text set) in `window.parleyRenders`: those made in a task that handled a port
 * message — the session's patches come so — and those made in other tasks. A task's microtasks
 * are its own: the listener's task is counted as lasting while a chain of 100 microtasks it
 * queues runs, longer than any promise chain of Parley's handling of one message.
 */
async function countingRenderTasks(context: BrowserContext): Promise<Page> {
  await context.addInitScript(() => {
    const counted = { inMessageTasks: 0, inOtherTasks: 0 };
    Object.assign(window, { parleyRenders: counted });
    let messageTasks = 0;
    const untilTheTaskEnds = (rounds: number): void => {
      if (rounds === 0) messageTasks -= 1;
      else queueMicrotask(() => untilTheTaskEnds(rounds - 1));
    };
    const addEventListener = MessagePort.prototype.addEventListener;
    MessagePort.prototype.addEventListener = function (this: MessagePort, type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) {
      if (type !== 'message' || typeof listener !== 'function') return addEventListener.call(this, type, listener, options);
      return addEventListener.call(
        this,
        type,
        function (this: MessagePort, event: Event) {
          messageTasks += 1;
          untilTheTaskEnds(100);
          listener.call(this, event);
        },
        options,
      );
    } as typeof addEventListener;
    const count = (node: Node): void => {
      if (!document.getElementById('root')?.contains(node)) return;
      if (messageTasks > 0) counted.inMessageTasks += 1;
      else counted.inOtherTasks += 1;
    };
    const counting = <T extends object>(prototype: T, name: keyof T & string): void => {
      const original = prototype[name] as (...args: unknown[]) => unknown;
      Object.assign(prototype, {
        [name](this: Node, ...args: unknown[]) {
          count(this);
          return original.apply(this, args);
        },
      });
    };
    counting(Node.prototype, 'insertBefore');
    counting(Node.prototype, 'appendChild');
    counting(Node.prototype, 'removeChild');
    counting(Element.prototype, 'setAttribute');
    counting(Element.prototype, 'removeAttribute');
    const data = Object.getOwnPropertyDescriptor(CharacterData.prototype, 'data')!;
    Object.defineProperty(CharacterData.prototype, 'data', {
      ...data,
      set(this: CharacterData, value: string) {
        count(this);
        data.set!.call(this, value);
      },
    });
  });
  return context.newPage();
}

interface RenderCounts {
  inMessageTasks: number;
  inOtherTasks: number;
}

function renders(page: Page): Promise<RenderCounts> {
  return page.evaluate(() => (window as unknown as { parleyRenders: RenderCounts }).parleyRenders);
}

test.describe('The page renders what the session tells it in a task of its own, not in the task that brought the message (issue 14, long tasks while joining)', () => {
  test('joining a room, seeing another person arrive and reading their message change the page, and never in a port message’s task', async ({ browser, appUrl, people }) => {
    const roomName = uniqueRoomName('render-tasks');
    const context = await browser.newContext();
    try {
      const page = await countingRenderTasks(context);
      await page.goto(new URL(roomName, appUrl).href);
      await openPanel(page, 'People');
      await openPanel(page, 'Chat');
      await expectJoined(page);
      const bob = await people.join(roomName, 'Bob');
      await expect(participantEntry(page, 'Bob')).toBeVisible();
      await say(bob.page, 'rendered apart');
      await expect(chatLog(page)).toContainText('rendered apart');
      const counted = await renders(page);
      expect(counted.inOtherTasks).toBeGreaterThan(0);
      expect(counted.inMessageTasks).toBe(0);
    } finally {
      await context.close();
    }
  });
});

/** Keeps, per video track a <video> of the page shows, the width of the first frame it presented (`window.parleyFirstFrameWidths`). */
async function recordingFirstFrames(context: BrowserContext): Promise<Page> {
  await context.addInitScript(() => {
    const widths: Record<string, number> = {};
    Object.assign(window, { parleyFirstFrameWidths: widths });
    const look = (): void => {
      for (const video of document.querySelectorAll('video')) {
        const track = (video.srcObject as MediaStream | null)?.getVideoTracks()[0];
        // On a loaded machine the frame can be counted a frame before the element knows its size.
        if (track && !(track.id in widths) && video.getVideoPlaybackQuality().totalVideoFrames > 0 && video.videoWidth > 0) widths[track.id] = video.videoWidth;
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  return context.newPage();
}

test.describe('A direct sender starts from VIDEO_START_BITRATE_KBPS: its first frame is not cut to 320×240 while the bandwidth estimate is low (issue 14, the join path)', () => {
  test('the first frame of a camera sent to one person is wider than 320×240 would allow', async ({ browser, appUrl, people }) => {
    const roomName = uniqueRoomName('start-bitrate');
    const alice = await people.join(roomName, 'Alice');
    await joinCall(alice.page);
    const context = await browser.newContext();
    try {
      const page = await recordingFirstFrames(context);
      await joinFromHome(page, appUrl, roomName, 'Bob');
      await openPanel(page, 'Chat');
      await inTheRoom({ displayName: 'Bob', context, page });
      await joinCall(page);
      await expectDecodingVideo(page, 'Alice');
      const trackId = await tile(page, 'Alice').locator('video').evaluate((video: HTMLVideoElement) => (video.srcObject as MediaStream).getVideoTracks()[0]!.id);
      const firstWidth = await page.evaluate((id) => (window as unknown as { parleyFirstFrameWidths: Record<string, number> }).parleyFirstFrameWidths[id], trackId);
      // From Chromium's own start (300 kbps with the audio) the encoder drops the first frames and
      // scales the camera to 320×240 or less before the first goes out: 320 px wide at most. From
      // VIDEO_START_BITRATE_KBPS it goes out at the size the mesh starts a camera at (MESH_VIDEO_SIZE:
      // the medium layer's 640×360 box, 640 px wide from the 1280×720 Alice captures until her tier
      // for one receiver settles, CAPTURE_TIER_SETTLE_MS), or one step below when the loaded machine
      // makes the encoder step down once.
      expect(firstWidth).toBeGreaterThan(320);
    } finally {
      await context.close();
    }
  });
});
