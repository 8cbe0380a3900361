// The fault suite's call cases on the relay (issue 13): Prosody killed mid-call, a relay worker killed,
// every relay worker killed at once, the relay's whole process killed, a person's network dead without
// a word; and a tab crashed while holding the call. (The cases on direct connections: faults-call-direct.spec.ts.) Real Prosody, relay and
// Chromium with fake devices, in a loopback-only network namespace (README "Tests"). Each case
// prints its figures (time until every tab is back in its room and call, the largest gap in a
// remote video's frames); what is asserted is what the people see and hear, not how fast.
import type { RunningParley } from '../../server/Parley';
import { startRelayHost, type RelayHostProcess } from '../support/relayHosts';
import { startTestParley } from '../support/testParley';
import { CALL_FAULTS_LAUNCH, expectCameraSeenThroughOutages, expectOutageShown, expectVideoStallShown, inACall, samplesWithin, watchedSamples, watchTiles } from './call-faults';
import { handoverCase, type TabGone } from './call-handover-case';
import {
  callButton,
  expectDecodingVideo,
  expectEveryoneSeesAndHearsEveryone,
  expectHearingNothing,
  expectSeeingAndHearing,
  joinCallWithCamera,
  LIGHT_VIDEO_TIERS,
  mediaPath,
} from './call-ui-people';
import { expectNeverShownUnmuted, watchConnections, watchShownMuted } from './call-watch';
import { expectAll, expectOfEveryPair } from './expect-all';
import { BACK_WITHIN_MS, reportFault, timeUntilBackAfterReachable } from './faults';
import { joinThrough, PersonalPath } from './network-cut';
import { chatLog, expect, participantEntry, test, uniqueRoomName, type People, type Person } from './rooms-people';
import { killRenderer } from './renderer-kill';
import { expectFramesRoseWithin, videoGapFigure, type ShownSample } from './video-continuity';

test.use({ parleySettings: { videoResolutionTiers: LIGHT_VIDEO_TIERS }, launchOptions: CALL_FAULTS_LAUNCH });

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

test.describe('Fault suite: Prosody killed mid-call on the relay — the media keeps flowing while signalling is down, everyone is back in the room and the call, a muted person stays muted, one who mutes meanwhile is muted for all, a screen shared meanwhile reaches everyone', () => {
  test('three people on the relay, Carol muted; Prosody down 8 s, Bob mutes and Alice starts sharing her screen meanwhile', async ({ people, parley }) => {
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
    const outageShownAt = Date.now();
    await callButton(bob.page, 'Mute microphone').click();
    await callButton(alice.page, 'Start Screenshare').click();
    // Signalling is down for a while: the relay's media does not go through the chat server.
    await alice.page.waitForTimeout(Math.max(0, killedAt + 8_000 - Date.now()));
    const restartedAt = Date.now();
    await parley.restartXmpp();
    const back = await timeUntilBackAfterReachable(pages, killedAt, () => parley.xmppUpSince);
    const reachableAt = killedAt + back.afterFault - back.afterReachable;
    for (const person of everyone) await expect(callButton(person.page, 'Hang up')).toBeVisible();
    for (const listener of [alice, carol]) await expect(participantEntry(listener.page, 'Bob')).toContainText('muted', { timeout: BACK_WITHIN_MS });
    const bobMutedShownMs = Date.now() - reachableAt;
    const muted = new Set([bob, carol]);
    await expectAll([
      expectOfEveryPair(everyone, (person, other) => [muted.has(other) ? expectDecodingVideo(person.page, other.displayName) : expectSeeingAndHearing(person.page, other.displayName)]),
      ...[bob, carol].map((viewer) => expectDecodingVideo(viewer.page, "Alice's screen")),
    ]);
    const checkedMs = Date.now() - reachableAt;
    const watched = await watchedSamples(everyone);
    const paths = await Promise.all(everyone.map(async (person) => `${person.displayName}: ${await mediaPath(person.page).textContent()}`));
    reportFault('Prosody killed mid-call (relay, 3 people)', [
      `every tab back in its room ${back.afterReachable} ms after the server was reachable again (${back.afterFault} ms after the kill)`,
      `Bob's mute during the outage shown to the others ${bobMutedShownMs} ms after`,
      `every video decoding (Alice's screen too) and Alice heard, checked by ${checkedMs} ms after`,
      videoGapFigure(watched, killedAt),
      `media path then ${paths.join(', ')}`,
    ]);

    // While signalling was down every watched tile kept decoding: new frames from the moment every
    // page said so until Prosody was started again.
    expectFramesRoseWithin(watched, outageShownAt, restartedAt, 'while Prosody was down');
    // Carol and Bob were heard before they muted (onTheRelay): the silence now is their mute.
    for (const listener of [alice, bob]) {
      await expect(participantEntry(listener.page, 'Carol')).toContainText('muted');
      await expectHearingNothing(listener.page, 'Carol');
      await expectNeverShownUnmuted(listener.page, 'Carol');
    }
    for (const listener of [alice, carol]) await expectHearingNothing(listener.page, 'Bob');
  });
});

test.describe('Fault suite: someone who turns their camera off, or on, on the relay while the chat server is down — the others see them without video, or with it, as they do normally, and once back too', () => {
  test('three people on the relay; Prosody down, Bob stops his camera, Prosody back, he starts it again; he stops it, Prosody down, he starts it, Prosody back', async ({ people, parley }) => {
    test.setTimeout(300_000);
    const everyone = await onTheRelay(people, 'fault-relay-camera-off');
    const figures = await expectCameraSeenThroughOutages(parley, everyone, everyone[1]!);
    // Started again, his video came back through the relay.
    for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Through the media relay');
    reportFault('Bob turns his camera off, then on, on the relay while Prosody is down', figures);
  });
});

test.describe('A person whose video stalls on its way to the relay, their connection up: everyone’s tile of them says so and dims its last frame, and both go once the video moves again (beyond the spec)', () => {
  test('three people on the relay; for a while the packets of Alice’s video to the relay are lost, not her audio’s', async ({ people }) => {
    test.setTimeout(180_000);
    const room = uniqueRoomName('relay-video-stall');
    const everyone = [await people.join(room, 'Alice'), await people.join(room, 'Bob'), await people.join(room, 'Carol')];
    const [alice, ...others] = everyone as [Person, Person, Person];
    await alice.page.evaluate(watchConnections);
    for (const [index, person] of everyone.entries()) await joinCallWithCamera(person.page, index);
    for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: 60_000 });
    await expectEveryoneSeesAndHearsEveryone(everyone);
    await expectVideoStallShown(alice, others);
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
        for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Media relay unavailable: direct connections for now', { timeout: BACK_WITHIN_MS });
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

/** Every producer on the relay: a stream ingested anew (its connection lost and made again) gets new ones. */
function relayProducerIds(parley: RunningParley): string[] {
  return (parley.relay?.stats().ingestDetails ?? []).flatMap((ingest) => ingest.producers.map((producer) => producer.id)).sort();
}

test.describe('Fault suite: Alice’s network dies without a word during a relay call — she comes back into the room and the call once it returns; her media never stopped, so nobody loses anybody’s video', () => {
  test('three people on the relay, Alice’s path to the servers (her chat and relay connections) silently cut for 30 s', async ({ people, browser, parley }) => {
    test.setTimeout(300_000);
    const path = new PersonalPath(parley.url);
    let alice: Person | undefined;
    try {
      const room = uniqueRoomName('fault-relay-silent');
      alice = await joinThrough(browser, path, room, 'Alice');
      const everyone = [alice, await people.join(room, 'Bob'), await people.join(room, 'Carol')];
      for (const [index, person] of everyone.entries()) await joinCallWithCamera(person.page, index);
      for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: 60_000 });
      await expectEveryoneSeesAndHearsEveryone(everyone);
      await watchTiles(everyone);
      // Each person's camera and microphone, once: an extra ingest the relay still holds then (seen
      // once: 8 producers for three people) goes by itself, and its going is no new ingest.
      await expect.poll(() => relayProducerIds(parley).length).toBe(2 * everyone.length);
      const producers = relayProducerIds(parley);
      const aliceLog: string[] = [];
      alice.page.on('console', (message) => aliceLog.push(message.text()));

      const cutAt = Date.now();
      path.cut('silent');
      await expect(alice.page.getByRole('status', { name: 'Room state' })).toContainText('The connection stopped answering', { timeout: BACK_WITHIN_MS });
      await alice.page.waitForTimeout(Math.max(0, cutAt + 30_000 - Date.now()));
      path.restore();
      const reachableAt = Date.now();
      const back = await timeUntilBackAfterReachable(
        everyone.map((person) => person.page),
        reachableAt,
        () => reachableAt,
      );
      await expectEveryoneSeesAndHearsEveryone(everyone);
      await expectEveryoneStillThere(everyone);
      const watched = await watchedSamples(everyone);
      reportFault('Alice’s network dead without a word during a relay call, 30 s', [`every tab back in its room ${back.afterReachable} ms after the network was back`, videoGapFigure(watched, cutAt), `media path then ${await mediaPaths(everyone)}`]);
      // The server ended Alice's silent connection as her new one took its place: the others' rooms
      // said she left and came back at once, so their chats say she reconnected. Her media, through
      // the relay, never stopped, so their calls kept her (DepartureHold): no tile ever went away.
      for (const other of everyone.slice(1)) await expect(chatLog(other.page)).toContainText('Alice reconnected');
      for (const { pair, samples } of watched) expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
      // Her relay socket did not live through the cut (her client's PING went unanswered within
      // 25 s), but her relay session did: resumed on a new socket, nobody's stream was ingested anew.
      expect(aliceLog.filter((line) => line.includes('relay session resumed'))).toHaveLength(1);
      expect(relayProducerIds(parley)).toEqual(producers);
    } finally {
      await alice?.context.close();
      path.close();
    }
  });
});

/**
 * The call tab's renderer process dies as in a crash (SIGKILL, renderer-kill.ts): no unload, no
 * goodbye. Bob's other tab must still answer — it must run in a renderer of its own.
 */
const crashTab: TabGone = (page) => killRenderer(page);

test.describe('Fault suite: a tab crashed while holding the call — the other tab takes the call over, muted, camera off, and says so', () => {
  test('Bob’s call tab crashes: his other tab takes the call over', async ({ people }) => {
    const movedMs = await handoverCase(people, 'crashed', crashTab);
    reportFault('tab crashed while holding the call', [`the call back in the other tab ${movedMs} ms after the crash`]);
  });
});
