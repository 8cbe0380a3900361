// The fault suite's call cases (issue 13): Prosody killed mid-call, a relay worker killed, every
// relay worker killed at once, the relay's whole process killed, a tab crashed while holding the call. Real Prosody, relay and
// Chromium with fake devices, in a loopback-only network namespace (README "Tests"). Each case
// prints its figures (time until every tab is back in its room and call, the largest gap in a
// remote video's frames); what is asserted is what the people see and hear, not how fast.
import type { Page } from '@playwright/test';
import { RELAY_CHROMIUM_ARGS } from '../../playwright.config';
import type { RunningParley } from '../../server/Parley';
import { startRelayHost, type RelayHostProcess } from '../support/relayHosts';
import { startTestParley } from '../support/testParley';
import { handoverCase, type TabGone } from './call-handover-case';
import {
  callButton,
  tile,
  expectDecodingVideo,
  expectEveryoneSeesAndHearsEveryone,
  expectHearing,
  hear,
  joinCallWithCamera,
  LIGHT_VIDEO_TIERS,
  mediaPath,
} from './call-ui-people';
import { shownMutedWatch, watchShownMuted } from './call-watch';
import { BACK_WITHIN_MS, reportFault, timeUntilBackAfterReachable } from './faults';
import { joinThrough, PersonalPath } from './network-cut';
import { expect, participantEntry, test, uniqueRoomName, type People, type Person } from './rooms-people';
import { tileSamples, videoGapFigure, watchTile, type ShownSample } from './video-continuity';

test.use({
  parleySettings: { videoResolutionTiers: LIGHT_VIDEO_TIERS },
  // Past Chromium's own limit (from the machine's memory) a new tab shares a renderer of the same
  // site with another tab, and a crash takes both: a renderer per tab, as on a roomier machine.
  launchOptions: { executablePath: process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium', args: [...RELAY_CHROMIUM_ARGS, '--renderer-process-limit=100'] },
});

/** The people of one call, each on a fake camera of their own (playwright.config FAKE_CAMERAS). */
async function inACall(people: People, label: string, names: readonly string[]): Promise<Person[]> {
  const room = uniqueRoomName(label);
  const everyone: Person[] = [];
  for (const name of names) everyone.push(await people.join(room, name));
  for (const [index, person] of everyone.entries()) await joinCallWithCamera(person.page, index);
  return everyone;
}

/** Each person watches the tile of the next one round the circle (Alice → Bob → … → Alice). */
function watchedPairs(everyone: readonly Person[]): Array<{ viewer: Person; shown: Person }> {
  return everyone.map((viewer, index) => ({ viewer, shown: everyone[(index + 1) % everyone.length]! }));
}

async function watchTiles(everyone: readonly Person[]): Promise<void> {
  for (const { viewer, shown } of watchedPairs(everyone)) await watchTile(viewer.page, shown.displayName);
}

/** Per watched pair, what the viewer's tile of the other showed since `watchTiles`. */
async function watchedSamples(everyone: readonly Person[]): Promise<Array<{ pair: string; samples: ShownSample[] }>> {
  return Promise.all(
    watchedPairs(everyone).map(async ({ viewer, shown }) => ({ pair: `${viewer.displayName} → ${shown.displayName}`, samples: await tileSamples(viewer.page, shown.displayName) })),
  );
}

/** The watched samples from `from` to `to` only. */
function samplesWithin(watched: ReadonlyArray<{ pair: string; samples: ShownSample[] }>, from: number, to: number): Array<{ pair: string; samples: ShownSample[] }> {
  return watched.map(({ pair, samples }) => ({ pair, samples: samples.filter((sample) => sample.at >= from && sample.at <= to) }));
}

/** The relay's workers now, the busiest first (the room's router lives on a worker with load). */
function relayWorkersByLoad(parley: RunningParley): Array<{ pid: number; load: number }> {
  return [...(parley.relay?.stats().workers ?? [])].sort((a, b) => b.load - a.load);
}

/** Three people whose call runs through the relay: every UI says so and everyone sees and hears everyone. */
async function onTheRelay(people: People, label: string): Promise<Person[]> {
  const everyone = await inACall(people, label, ['Alice', 'Bob', 'Carol']);
  for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: 60_000 });
  await expectEveryoneSeesAndHearsEveryone(everyone);
  return everyone;
}

/** After a relay fault: everyone sees and hears everyone again; the figures are printed. */
async function relayRecovery(everyone: readonly Person[], scenario: string, faultAt: number): Promise<void> {
  await expectEveryoneSeesAndHearsEveryone(everyone);
  const watched = await watchedSamples(everyone);
  // Nobody leaves the room or the call for a relay fault: the figure is the video's.
  reportFault(scenario, [videoGapFigure(watched, faultAt), `media path then ${await mediaPaths(everyone)}`]);
  expectEveryTileShowsVideo(watched);
}

/** Every watched tile kept a video element or got a new one with frames: the call never lost a person. */
function expectEveryTileShowsVideo(watched: ReadonlyArray<{ pair: string; samples: ShownSample[] }>): void {
  for (const { pair, samples } of watched) expect(samples.at(-1)?.shown, `${pair} shows a video at the end`).not.toBeUndefined();
}

test.describe('Fault suite: Prosody killed mid-call — the media keeps flowing while signalling is down, everyone is back in the room and the call, a muted person stays muted', () => {
  test('two people on direct connections, Bob muted', async ({ people, parley }) => {
    test.setTimeout(240_000);
    const [alice, bob] = (await inACall(people, 'fault-call-prosody', ['Alice', 'Bob'])) as [Person, Person];
    await expectDecodingVideo(alice.page, 'Bob');
    await expectDecodingVideo(bob.page, 'Alice');
    await expectHearing(bob.page, 'Alice');
    await callButton(bob.page, 'Mute microphone').click();
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
    // Listed or shown while the room is back: always muted (while signalling is down nobody is listed).
    await watchShownMuted(alice.page, 'Bob', false);
    await watchTiles([alice, bob]);

    const killedAt = Date.now();
    process.kill(parley.xmpp.pid!, 'SIGKILL');
    const pages = [alice.page, bob.page];
    await test.step('both tabs say the connection is lost; the supervisor restarts Prosody; both rejoin the room', async () => {
      for (const page of pages) await expect(page.getByRole('status', { name: 'Room state' })).toBeVisible({ timeout: BACK_WITHIN_MS });
    });
    const back = await timeUntilBackAfterReachable(pages, killedAt, () => parley.xmppUpSince);
    const reachableAt = killedAt + back.afterFault - back.afterReachable;
    await expect(callButton(alice.page, 'Hang up')).toBeVisible();
    await expect(callButton(bob.page, 'Hang up')).toBeVisible();
    await expectDecodingVideo(alice.page, 'Bob');
    await expectDecodingVideo(bob.page, 'Alice');
    await expectHearing(bob.page, 'Alice');
    const backInCallMs = Date.now() - killedAt;
    const watched = await watchedSamples([alice, bob]);
    reportFault('Prosody killed mid-call (mesh)', [
      `every tab back in its room ${back.afterFault} ms and its call ${backInCallMs} ms after the kill`,
      `back ${back.afterReachable} ms after the server was reachable again (call and video checked ${Date.now() - reachableAt} ms after)`,
      videoGapFigure(watched, killedAt),
    ]);

    // The tiles never went away while signalling was down: each kept showing the other's video.
    for (const { pair, samples } of watched) expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
    // One video element throughout: the media that flowed before the kill is the media that flows now.
    for (const { pair, samples } of watched) expect(new Set(samples.map((sample) => sample.shown)).size, `${pair}: videos shown`).toBe(1);
    await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
    const seen = await shownMutedWatch(alice.page);
    expect(seen.checks).toBeGreaterThan(0);
    expect(seen.unmutedSeen).toBe(0);
    expect((await hear(alice.page, 'Bob')).peak).toBeLessThan(0.01);
  });
});

/** Both tabs say the connection is lost (the chat server is down for them). */
async function expectOutageShown(pages: readonly Page[]): Promise<void> {
  for (const page of pages) await expect(page.getByRole('status', { name: 'Room state' })).toBeVisible({ timeout: BACK_WITHIN_MS });
}

for (const change of ['unmutes', 'mutes'] as const) {
  const mutedBefore = change === 'unmutes';
  test.describe(`Fault suite: someone who ${change} while the chat server is down — once back, everyone has them as they are now (${mutedBefore ? 'heard' : 'muted, never heard'}), the people list too`, () => {
    test(`Prosody down, Bob ${change}, Prosody back`, async ({ people, parley }) => {
      test.setTimeout(240_000);
      const [alice, bob] = (await inACall(people, `fault-call-${change}`, ['Alice', 'Bob'])) as [Person, Person];
      await expectDecodingVideo(alice.page, 'Bob');
      await expectHearing(alice.page, 'Bob');
      if (mutedBefore) {
        await callButton(bob.page, 'Mute microphone').click();
        await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
      }
      await parley.killXmpp();
      const pages = [alice.page, bob.page];
      await expectOutageShown(pages);
      await callButton(bob.page, mutedBefore ? 'Unmute microphone' : 'Mute microphone').click();
      await expect(callButton(bob.page, mutedBefore ? 'Mute microphone' : 'Unmute microphone')).toBeVisible();
      const restartedAt = Date.now();
      await parley.restartXmpp();
      const back = await timeUntilBackAfterReachable(pages, restartedAt, () => parley.xmppUpSince);
      const reachableAt = restartedAt + back.afterFault - back.afterReachable;
      if (mutedBefore) {
        await expectHearing(alice.page, 'Bob');
        await expect(participantEntry(alice.page, 'Bob')).not.toContainText('muted');
      } else {
        await expect(participantEntry(alice.page, 'Bob')).toContainText('muted', { timeout: BACK_WITHIN_MS });
        await expect(tile(alice.page, 'Bob')).toContainText('muted');
        expect((await hear(alice.page, 'Bob')).peak).toBeLessThan(0.01);
      }
      const shownMs = Date.now() - reachableAt;
      await expectDecodingVideo(alice.page, 'Bob');
      reportFault(`Bob ${change} while Prosody is down`, [
        `every tab back in its room ${back.afterReachable} ms after the server was reachable again`,
        `${mutedBefore ? 'Alice hears Bob, listed unmuted' : 'Alice has Bob muted, list and tile'} ${shownMs} ms after`,
      ]);
    });
  });
}

test.describe('Fault suite: Prosody killed mid-call on the relay — the media keeps flowing while signalling is down, everyone is back in the room and the call, a muted person stays muted, one who mutes meanwhile is muted for all', () => {
  test('three people on the relay, Carol muted; Prosody down 8 s, Bob mutes meanwhile', async ({ people, parley }) => {
    test.setTimeout(300_000);
    const everyone = await onTheRelay(people, 'fault-relay-prosody');
    const [alice, bob, carol] = everyone as [Person, Person, Person];
    await callButton(carol.page, 'Mute microphone').click();
    for (const listener of [alice, bob]) await expect(participantEntry(listener.page, 'Carol')).toContainText('muted');
    for (const listener of [alice, bob]) await watchShownMuted(listener.page, 'Carol', false);
    await watchTiles(everyone);

    const killedAt = Date.now();
    await parley.killXmpp();
    const pages = everyone.map((person) => person.page);
    await expectOutageShown(pages);
    await callButton(bob.page, 'Mute microphone').click();
    // Signalling is down for a while: the relay's media does not go through the chat server.
    await alice.page.waitForTimeout(Math.max(0, killedAt + 8_000 - Date.now()));
    const duringOutage = await watchedSamples(everyone);
    await parley.restartXmpp();
    const back = await timeUntilBackAfterReachable(pages, killedAt, () => parley.xmppUpSince);
    const reachableAt = killedAt + back.afterFault - back.afterReachable;
    for (const person of everyone) await expect(callButton(person.page, 'Hang up')).toBeVisible();
    for (const listener of [alice, carol]) await expect(participantEntry(listener.page, 'Bob')).toContainText('muted', { timeout: BACK_WITHIN_MS });
    const bobMutedShownMs = Date.now() - reachableAt;
    const muted = new Set([bob, carol]);
    for (const person of everyone) {
      for (const other of everyone) {
        if (other === person) continue;
        await expectDecodingVideo(person.page, other.displayName);
        if (!muted.has(other)) await expectHearing(person.page, other.displayName);
      }
    }
    const checkedMs = Date.now() - reachableAt;
    const watched = await watchedSamples(everyone);
    const paths = await Promise.all(everyone.map(async (person) => `${person.displayName}: ${await mediaPath(person.page).textContent()}`));
    reportFault('Prosody killed mid-call (relay, 3 people)', [
      `every tab back in its room ${back.afterReachable} ms after the server was reachable again (${back.afterFault} ms after the kill)`,
      `Bob's mute during the outage shown to the others ${bobMutedShownMs} ms after`,
      `every video decoding and Alice heard, checked by ${checkedMs} ms after`,
      videoGapFigure(watched, killedAt),
      `media path then ${paths.join(', ')}`,
    ]);

    // While signalling was down every watched tile kept decoding: new frames during the outage.
    for (const { pair, samples } of duringOutage) {
      const inOutage = samples.filter((sample) => sample.at >= killedAt + 1_000);
      expect(inOutage.length, `${pair}: watched during the outage`).toBeGreaterThan(0);
      expect(inOutage.at(-1)!.frames, `${pair}: new frames during the outage`).toBeGreaterThan(inOutage[0]!.frames);
    }
    for (const listener of [alice, bob]) {
      await expect(participantEntry(listener.page, 'Carol')).toContainText('muted');
      expect((await hear(listener.page, 'Carol')).peak, `${listener.displayName} hears nothing of Carol`).toBeLessThan(0.01);
      const seen = await shownMutedWatch(listener.page);
      expect(seen.checks).toBeGreaterThan(0);
      expect(seen.unmutedSeen, `${listener.displayName} never saw Carol unmuted`).toBe(0);
    }
    for (const listener of [alice, carol]) expect((await hear(listener.page, 'Bob')).peak, `${listener.displayName} hears nothing of Bob`).toBeLessThan(0.01);
  });
});

test.describe('Fault suite: Alice’s network dies without a word mid-call — she notices, comes back into the room and the call once it returns, and hears Bob as he is now', () => {
  test('silent cut of Alice’s path for 30 s; Bob unmutes meanwhile', async ({ people, browser, parley }) => {
    test.setTimeout(240_000);
    const path = new PersonalPath(parley.url);
    let alice: Person | undefined;
    try {
      const room = uniqueRoomName('fault-call-silent');
      alice = await joinThrough(browser, path, room, 'Alice');
      const bob = await people.join(room, 'Bob');
      await joinCallWithCamera(alice.page, 0);
      await joinCallWithCamera(bob.page, 1);
      await expectDecodingVideo(alice.page, 'Bob');
      await expectDecodingVideo(bob.page, 'Alice');
      await callButton(bob.page, 'Mute microphone').click();
      await expect(participantEntry(alice.page, 'Bob')).toContainText('muted');
      await watchTiles([alice, bob]);

      const cutAt = Date.now();
      path.cut('silent');
      await callButton(bob.page, 'Unmute microphone').click();
      await expect(alice.page.getByRole('status', { name: 'Room state' })).toContainText('The connection stopped answering', { timeout: BACK_WITHIN_MS });
      const noticedMs = Date.now() - cutAt;
      await alice.page.waitForTimeout(Math.max(0, cutAt + 30_000 - Date.now()));
      path.restore();
      const reachableAt = Date.now();
      const back = await timeUntilBackAfterReachable([alice.page, bob.page], reachableAt, () => reachableAt);
      await expect(callButton(alice.page, 'Hang up')).toBeVisible();
      await expectHearing(alice.page, 'Bob');
      await expect(participantEntry(alice.page, 'Bob')).not.toContainText('muted');
      const heardMs = Date.now() - reachableAt;
      await expectDecodingVideo(alice.page, 'Bob');
      await expectDecodingVideo(bob.page, 'Alice');
      const watched = await watchedSamples([alice, bob]);
      reportFault('Alice’s network dead without a word mid-call, 30 s', [
        `noticed ${noticedMs} ms after the cut`,
        `every tab back in its room ${back.afterReachable} ms after the network was back`,
        `Alice hears Bob, listed unmuted, ${heardMs} ms after`,
        videoGapFigure(watched, cutAt),
      ]);
    } finally {
      await alice?.context.close();
      path.close();
    }
  });
});

test.describe('Fault suite: a relay worker killed during a relay call — it is replaced and everyone sees and hears everyone again', () => {
  test('three people on the relay; the busiest worker SIGKILLed', async ({ people, parley }) => {
    test.setTimeout(300_000);
    const everyone = await onTheRelay(people, 'fault-relay-worker');
    await watchTiles(everyone);
    const [busiest] = relayWorkersByLoad(parley);
    const killedAt = Date.now();
    process.kill(busiest!.pid, 'SIGKILL');
    await expect.poll(() => relayWorkersByLoad(parley).some((worker) => worker.pid === busiest!.pid), { timeout: BACK_WITHIN_MS }).toBe(false);
    await relayRecovery(everyone, 'relay worker killed', killedAt);
  });
});

// By default the relay runs inside the gateway's Node process (server/Parley.ts: RelayServer behind
// `/relay`), its media carried by mediasoup worker processes it starts: every one of them dying at
// once takes every router and transport while the gateway stays. (A relay in a process of its own,
// killed whole, is the relay-host case below.)
test.describe('Fault suite: every relay worker killed at once during a relay call — the call goes on and everyone sees and hears everyone again', () => {
  test('three people on the relay; all workers SIGKILLed', async ({ people, parley }) => {
    test.setTimeout(300_000);
    const everyone = await onTheRelay(people, 'fault-relay-all');
    await watchTiles(everyone);
    const workers = relayWorkersByLoad(parley);
    const killedAt = Date.now();
    for (const worker of workers) process.kill(worker.pid, 'SIGKILL');
    await expect
      .poll(() => relayWorkersByLoad(parley).filter((worker) => !workers.some((killed) => killed.pid === worker.pid)).length, { timeout: BACK_WITHIN_MS })
      .toBe(workers.length);
    await relayRecovery(everyone, 'every relay worker killed at once', killedAt);
  });
});

/** How each person's call says its media travels. */
async function mediaPaths(everyone: readonly Person[]): Promise<string> {
  const paths = await Promise.all(everyone.map(async (person) => `${person.displayName}: ${await mediaPath(person.page).textContent()}`));
  return paths.join(', ');
}

/** Everyone is still in the room and the call, and lists the others: a media fault makes nobody leave. */
async function expectEveryoneStillThere(everyone: readonly Person[]): Promise<void> {
  for (const person of everyone) {
    await expect(callButton(person.page, 'Hang up')).toBeVisible();
    for (const other of everyone) if (other !== person) await expect(participantEntry(person.page, other.displayName)).toBeVisible();
  }
}

/**
 * The relay as its own process: a gateway with no relay in its own process (PARLEY_REMOTE_RELAYS,
 * no workers), forwarding each room's relay connections to the relay hosts that announce themselves
 * to it (server/relay/host, README "How it scales out"). The people of the case use this gateway.
 */
const withRelayHosts = test.extend<{ hostsGateway: RunningParley }>({
  hostsGateway: [
    async ({ parleySettings }, use) => {
      const gateway = await startTestParley({ ...parleySettings, remoteRelays: true, relayWorkers: 0 });
      await use(gateway);
      await gateway.stop();
    },
    { timeout: 30_000 },
  ],
  appUrl: async ({ hostsGateway }, use) => {
    await use(hostsGateway.url);
  },
});

test.describe('Fault suite: the relay’s whole process killed during a relay call — the call carries on over direct connections and returns to the relay by itself once a relay process is back', () => {
  /** Heartbeats of the relay host: the gateway takes it for dead after three missed ones. */
  const HEARTBEAT_MS = 500;

  withRelayHosts('three people on a relay host, the only one; its process SIGKILLed, then started again', async ({ people, hostsGateway: parley }) => {
    test.setTimeout(300_000);
    const hosts: RelayHostProcess[] = [];
    const startHost = async (): Promise<void> => {
      hosts.push(await startRelayHost({ address: '127.0.0.2', gatewayUrl: parley.url, tokenSecret: parley.settings.tokenSecret, heartbeatMs: HEARTBEAT_MS }));
      await expect.poll(() => parley.relayRegistry!.liveAnnouncements().length).toBe(1);
    };
    try {
      await startHost();
      const everyone = await onTheRelay(people, 'fault-relay-process');
      await watchTiles(everyone);

      const killedAt = Date.now();
      hosts[0]!.child.kill('SIGKILL');
      await test.step('meanwhile the call carries on over direct connections: nobody leaves, everyone sees and hears everyone', async () => {
        for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Media relay unreachable: direct connections', { timeout: BACK_WITHIN_MS });
        await expectEveryoneSeesAndHearsEveryone(everyone);
        await expectEveryoneStillThere(everyone);
      });

      // As a service manager would (systemd's Restart=, a container's restart policy): a new relay
      // process on the same address, which announces itself to the gateway.
      const restartedAt = Date.now();
      await startHost();
      await test.step('once a relay process is back the call returns to it by itself: everyone sees and hears everyone through it', async () => {
        for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: BACK_WITHIN_MS });
        const backOnRelayMs = Date.now() - restartedAt;
        await expectEveryoneSeesAndHearsEveryone(everyone);
        await expectEveryoneStillThere(everyone);
        const watched = await watchedSamples(everyone);
        reportFault('relay process killed', [
          `without a relay: ${videoGapFigure(samplesWithin(watched, killedAt, restartedAt), killedAt)}`,
          `the call back on the relay ${backOnRelayMs} ms after a relay process started again`,
          `on the way back: ${videoGapFigure(samplesWithin(watched, restartedAt, Infinity), restartedAt, 'the start')}`,
          `media path then ${await mediaPaths(everyone)}`,
        ]);
        expectEveryTileShowsVideo(watched);
      });
    } finally {
      for (const { child } of hosts) child.kill('SIGKILL');
    }
  });
});

/** CPU seconds each renderer process of the browser has used, by pid (Chromium DevTools SystemInfo.getProcessInfo). */
async function rendererCpu(page: Page): Promise<Map<number, number>> {
  const session = await page.context().browser()!.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number; cpuTime: number }> };
  await session.detach();
  return new Map(processInfo.filter((process) => process.type === 'renderer').map((process) => [process.id, process.cpuTime]));
}

/**
 * The renderer process a page runs in: DevTools names no page's process, so the page keeps its main
 * thread busy for 1.5 s and the renderer whose CPU time grew by most of that is the one.
 */
async function rendererOf(page: Page): Promise<number> {
  const before = await rendererCpu(page);
  await page.evaluate(() => {
    const until = performance.now() + 1_500;
    while (performance.now() < until);
  });
  const grown = [...(await rendererCpu(page))].map(([pid, cpu]) => ({ pid, grew: cpu - (before.get(pid) ?? 0) })).sort((a, b) => b.grew - a.grew);
  expect(grown[0]?.grew, 'a renderer ran the busy page').toBeGreaterThan(1);
  return grown[0]!.pid;
}

/**
 * The call tab's renderer process dies as in a crash (SIGKILL): no unload, no goodbye. (DevTools'
 * Page.crash left the renderer running in this Chromium.) Only the call tab may die: its crash event
 * is awaited, and Bob's other tab must still answer — it must run in a renderer of its own.
 */
const crashTab: TabGone = async (page) => {
  const others = page.context().pages().filter((other) => other !== page);
  const pid = await rendererOf(page);
  const crashed = new Promise<boolean>((resolve) => page.once('crash', () => resolve(true)));
  process.kill(pid, 'SIGKILL');
  const inTime = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000));
  expect(await Promise.race([crashed, inTime]), 'the call tab crashed').toBe(true);
  for (const other of others) expect(await other.evaluate(() => true), 'Bob’s other tab still runs').toBe(true);
};

test.describe('Fault suite: a tab crashed while holding the call — the other tab takes the call over, muted, camera off, and says so', () => {
  test('Bob’s call tab crashes: his other tab takes the call over', async ({ people }) => {
    const movedMs = await handoverCase(people, 'crashed', crashTab);
    reportFault('tab crashed while holding the call', [`the call back in the other tab ${movedMs} ms after the crash`]);
  });
});
