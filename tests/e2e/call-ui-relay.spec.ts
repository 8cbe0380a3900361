import type { Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import { PROFILE_SPATIAL_LAYER } from '../../src/protocol/relay';
import {
  callButton,
  callRegion,
  camerasHeld,
  expectDecodingVideo,
  expectEveryoneSeesAndHearsEveryone,
  expectScreenSoundApartFromVoice,
  expectScreenSoundInStereo,
  joinCall,
  joinCallWithCamera,
  LIGHT_VIDEO_TIERS,
  mediaPath,
  openCallDetails,
  shownWidth,
  tile,
  watchCameraCaptures,
} from './call-ui-people';
import { watchConnections } from './call-watch';
import { expect, expectJoined, roomJid, test, uniqueRoomName, type Person } from './rooms-people';
import { iceConnected, relayRoomStats, waitsForReceiver } from './relay-people';
import { expectNeverStopped, reportContinuity, tileSamples, watchTile, type ShownSample } from './video-continuity';

/**
 * The call through the media relay as people see it in the app (issue 5, UI): whether the call
 * runs directly or through the relay, per person which layer arrives (both in "Call details"), and enlarging a tile. Real
 * Chromium with fake devices against real Prosody, the gateway and the real mediasoup relay; what
 * the relay carries is read from its own stats. Run it in a loopback-only network namespace:
 *   unshare -n sh -c 'ip link set lo up && npx playwright test tests/e2e/call-ui-relay.spec.ts'
 */

test.use({ parleySettings: { videoResolutionTiers: LIGHT_VIDEO_TIERS } });

/** How a person's video arrives, as "Call details" says beside their name: "Direct", "Relay · low", … */
function tilePath(page: Page, tileName: string) {
  return callRegion(page)
    .getByRole('list', { name: 'Video you receive' })
    .getByRole('listitem')
    .filter({ has: page.getByText(tileName, { exact: true }) })
    .locator('.chip-path');
}

/** The relay's consumers in the room that serve a receiver: not one a sender made ahead for the next person (CLAIM_CONSUMER). */
function roomConsumers(parley: RunningParley, roomAddress: string) {
  return relayRoomStats(parley, roomAddress).consumers.filter((consumer) => !waitsForReceiver(consumer));
}

/** Per camera the relay receives in the room, the simulcast layers (rids) that arrive and their 0–10 scores. */
function arrivingLayers(parley: RunningParley, roomAddress: string): string {
  const cameras = relayRoomStats(parley, roomAddress).ingests.flatMap((ingest) => ingest.producers.filter((producer) => producer.kind === 'video'));
  return cameras.map((camera) => camera.scores.map(({ rid, score }) => `${rid ?? '?'}:${score}`).join(' ')).join(' | ');
}

/**
 * Per camera the relay receives in the room: the highest layer its receivers ask for (their
 * profiles; the low layer at least) and the highest that arrives from its sender (LayerWatch).
 */
function camerasAskedAndArriving(parley: RunningParley, roomAddress: string): { asked: number; arriving: number | undefined }[] {
  const { ingests } = relayRoomStats(parley, roomAddress);
  const consumers = roomConsumers(parley, roomAddress);
  return ingests.flatMap((ingest) =>
    ingest.producers
      .filter((producer) => producer.kind === 'video' && producer.type === 'simulcast')
      .map((camera) => ({
        asked: Math.max(
          PROFILE_SPATIAL_LAYER.low,
          ...consumers.flatMap((consumer) => (consumer.producerId !== camera.id || consumer.profile === 'off' ? [] : [PROFILE_SPATIAL_LAYER[consumer.profile]])),
        ),
        arriving: camera.highestLayerArriving,
      })),
  );
}

/** No sender sends a layer above what its receivers ask for (LAYERS_WANTED), as the relay sees what arrives. */
const nothingSentUnasked = (parley: RunningParley, roomAddress: string) => () => {
  const cameras = camerasAskedAndArriving(parley, roomAddress);
  return cameras.length === 3 && cameras.every(({ asked, arriving }) => arriving !== undefined && arriving <= asked) ? 'as asked' : JSON.stringify(cameras);
};

/** The two people of the call before Carol joins and after she leaves, each watching the other's tile. */
type Pairs = ReadonlyArray<{ viewer: Person; shown: Person }>;

/** What the viewer's tile of the other showed since `since`. */
async function samplesSince(viewer: Person, shown: Person, since: number): Promise<ShownSample[]> {
  return (await tileSamples(viewer.page, shown.displayName)).filter((sample) => sample.at >= since);
}

/** How long a tile is still watched once it shows the new path's video: a new path can stall right after its first frames. */
const WATCHED_AFTER_SWITCH_MS = 2_000;

/**
 * Through a change of media path (from `since` on), each watched tile never went without a playing
 * video of that person (video-continuity: no sample without a video, a new one shown only with
 * frames, frames rising in each); the largest gap of each is printed first, for information. The change is
 * followed until each tile has shown the new path's video — another <video> element than at
 * `since`, with frames of its own — for WATCHED_AFTER_SWITCH_MS.
 */
async function expectTilesNeverStopped(change: string, pairs: Pairs, since: number): Promise<void> {
  const watched: Array<{ pair: string; samples: ShownSample[] }> = [];
  for (const { viewer, shown } of pairs) {
    const switched = (samples: readonly ShownSample[]): boolean => {
      const firstNew = samples.find((sample) => sample.shown !== samples[0]?.shown && sample.frames > 0);
      const last = samples.at(-1);
      return firstNew !== undefined && last !== undefined && last.at - firstNew.at >= WATCHED_AFTER_SWITCH_MS;
    };
    await expect.poll(async () => switched(await samplesSince(viewer, shown, since)), { timeout: 30_000, message: `${viewer.displayName}'s tile of ${shown.displayName} has shown the new path's video for ${WATCHED_AFTER_SWITCH_MS} ms` }).toBe(true);
    watched.push({ pair: `${viewer.displayName} → ${shown.displayName}`, samples: await samplesSince(viewer, shown, since) });
  }
  reportContinuity(change, watched);
  for (const { samples } of watched) expectNeverStopped(samples);
}

test.describe('Calls through the media relay in the app (SPEC §4 relay switch; the tile asks for the layer it needs)', () => {
  test('three people: the UI says the relay carries the call, small tiles show the low layer, an enlarged one asks for the high; one leaves and the two go back to direct without their video stopping', async ({
    people,
    parley,
  }) => {
    test.setTimeout(300_000);
    const roomName = uniqueRoomName('ui-relay');
    const roomAddress = roomJid(roomName, parley.settings.mucDomain);
    const alice = await people.join(roomName, 'Alice');
    const bob = await people.join(roomName, 'Bob');
    for (const person of [alice, bob]) await person.page.evaluate(watchConnections);
    await joinCallWithCamera(alice.page, 0);
    await joinCallWithCamera(bob.page, 1);

    await test.step('two people: direct connections, and the relay carries nothing of theirs', async () => {
      await expectEveryoneSeesAndHearsEveryone([alice, bob]);
      for (const [person, other] of [
        [alice, bob],
        [bob, alice],
      ] as const) {
        await expect(mediaPath(person.page)).toHaveText('Direct connections');
        await expect(tilePath(person.page, other.displayName)).toHaveText('Direct');
      }
      expect(roomConsumers(parley, roomAddress)).toEqual([]);
    });

    // Each of the two watches the other's tile from before the call moves to the relay until after it is back on direct connections.
    const pairs = [
      { viewer: alice, shown: bob },
      { viewer: bob, shown: alice },
    ];
    for (const { viewer, shown } of pairs) await watchTile(viewer.page, shown.displayName);
    const carol = await people.join(roomName, 'Carol');
    await carol.page.evaluate(watchConnections);
    const toRelayFrom = Date.now();
    await joinCallWithCamera(carol.page, 2);
    const everyone = [alice, bob, carol];

    await test.step('a third joins: every person’s UI says the relay carries the call, and by the relay’s own stats it does; the two tiles watched never stopped', async () => {
      // Every sender's audio and video to each of the two others, connected.
      await expect
        .poll(() => roomConsumers(parley, roomAddress).filter(iceConnected).length, { timeout: 60_000 })
        .toBe(3 * 2 * 2);
      for (const person of everyone) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: 30_000 });
      await expectTilesNeverStopped('direct → relay', pairs, toRelayFrom);
      await expectEveryoneSeesAndHearsEveryone(everyone);
      for (const person of everyone) {
        for (const other of everyone.filter((candidate) => candidate !== person)) {
          await expect(tilePath(person.page, other.displayName)).toHaveText(/^Relay · (low|medium|high)$/, { timeout: 30_000 });
        }
      }
    });

    await test.step('a small tile shows the low layer; enlarged it asks for the high layer and shows a larger one; back in the grid the low again', async () => {
      // Carol's grid of three: one of the others two rows high, the other a small tile.
      const heights = await Promise.all(['Alice', 'Bob'].map(async (name) => ({ name, height: (await tile(carol.page, name).boundingBox())?.height ?? 0 })));
      const small = heights.sort((a, b) => a.height - b.height)[0]!.name;
      const sender = everyone.find((person) => person.displayName === small)!;
      // The sender's capture, as their own tile shows it: through the relay, SPEC §9's largest tier.
      const senderWidth = LIGHT_VIDEO_TIERS[0]!.width;
      await expect.poll(() => shownWidth(sender.page, `${small} (you)`), { timeout: 30_000 }).toBe(senderWidth);
      await expect(tilePath(carol.page, small)).toHaveText('Relay · low', { timeout: 30_000 });
      await expect.poll(() => shownWidth(carol.page, small), { timeout: 30_000 }).toBeLessThanOrEqual(senderWidth / 3);
      await expectDecodingVideo(carol.page, small);
      const lowWidth = await shownWidth(carol.page, small);
      // Asked by its receiver (SET_CONSUMER_PROFILE); the layer the relay then prefers is capped at what arrives from the sender.
      const askingHigh = () => roomConsumers(parley, roomAddress).filter((consumer) => consumer.kind === 'video' && consumer.profile === 'high').length;
      const askingHighBefore = askingHigh();
      // Nobody's tile is large enough for a top layer: no sender encodes one (issue 14, a steady call that costs little).
      await expect.poll(nothingSentUnasked(parley, roomAddress), { timeout: 30_000 }).toBe('as asked');
      expect(camerasAskedAndArriving(parley, roomAddress).some(({ asked }) => asked < PROFILE_SPATIAL_LAYER.high)).toBe(true);

      const enlarge = tile(carol.page, small).getByRole('button', { name: `Enlarge ${small}` });
      await enlarge.click();
      await expect(enlarge).toHaveAttribute('aria-pressed', 'true');
      // The relay is asked for the sender's top layer: one more consumer's receiver asks for high.
      await expect.poll(askingHigh, { timeout: 30_000 }).toBe(askingHighBefore + 1);
      // What arrives grows (to the top layer when the sender's encoder and the link carry it). Short
      // of that, the failure names the layers the relay receives from the sender, and their scores.
      const relayView = () =>
        `current layer of the consumers asked for the top: ${roomConsumers(parley, roomAddress)
          .filter((consumer) => consumer.kind === 'video' && consumer.profile === 'high')
          .map((consumer) => `${consumer.currentSpatialLayer} (preferred ${consumer.preferredSpatialLayer})`)
          .join(', ')}; layers arriving at the relay: ${arrivingLayers(parley, roomAddress)}`;
      await expect
        .poll(async () => ((await shownWidth(carol.page, small)) >= 2 * lowWidth ? 'grown' : `still ${lowWidth} px; ${relayView()}`), { timeout: 30_000 })
        .toBe('grown');
      // Asked for, the top layer is sent again.
      const topSent = () => {
        const askedTop = camerasAskedAndArriving(parley, roomAddress).filter(({ asked }) => asked === PROFILE_SPATIAL_LAYER.high);
        return askedTop.length > 0 && askedTop.every(({ arriving }) => arriving === PROFILE_SPATIAL_LAYER.high) ? 'sent' : JSON.stringify(askedTop);
      };
      await expect.poll(topSent, { timeout: 30_000 }).toBe('sent');
      // The caption names the layer that arrives: the top one, or medium while the sender's encoder
      // holds the top layer back on a loaded machine.
      await expect(tilePath(carol.page, small)).toHaveText(/^Relay · (medium|high)$/, { timeout: 30_000 });
      await expectDecodingVideo(carol.page, small);
      // The other became part of the strip under it: small, so low.
      const other = small === 'Alice' ? 'Bob' : 'Alice';
      await expect(tilePath(carol.page, other)).toHaveText('Relay · low', { timeout: 30_000 });

      await enlarge.click();
      await expect(enlarge).toHaveAttribute('aria-pressed', 'false');
      await expect.poll(askingHigh, { timeout: 30_000 }).toBe(askingHighBefore);
      await expect(tilePath(carol.page, small)).toHaveText('Relay · low', { timeout: 30_000 });
      await expect.poll(() => shownWidth(carol.page, small), { timeout: 30_000 }).toBeLessThanOrEqual(senderWidth / 3);
      await expect.poll(nothingSentUnasked(parley, roomAddress), { timeout: 30_000 }).toBe('as asked');
    });

    await test.step("Alice shares her screen with its sound through the relay, in stereo: Bob and Carol hear it in the screen's tile, not as her voice; stopped, it goes", async () => {
      await callButton(alice.page, 'Start Screenshare').click();
      // The screen's video and sound, each to the two others, beside everyone's camera and voice.
      await expect
        .poll(() => roomConsumers(parley, roomAddress).filter(iceConnected).length, { timeout: 60_000 })
        .toBe(3 * 2 * 2 + 2 * 2);
      await expectScreenSoundInStereo(alice, [bob, carol]);
      await expectScreenSoundApartFromVoice(alice, [bob, carol]);
      await callButton(alice.page, 'Stop Screenshare').click();
      for (const viewer of [bob, carol]) await expect(tile(viewer.page, "Alice's screen")).toHaveCount(0);
    });

    await test.step('Carol turns her camera off, which lets it go: Alice and Bob see her without video; on again, it is opened anew in the stand-in’s place, and they see its video through the relay', async () => {
      await callButton(carol.page, 'Stop camera').click();
      for (const viewer of [alice, bob]) await expect(tile(viewer.page, 'Carol').locator('video')).toHaveCount(0);
      await callButton(carol.page, 'Start camera').click();
      for (const viewer of [alice, bob]) {
        await expectDecodingVideo(viewer.page, 'Carol');
        await expect(tilePath(viewer.page, 'Carol')).toHaveText(/^Relay · (low|medium|high)$/, { timeout: 30_000 });
      }
    });

    await test.step('Carol leaves: 5 s later Alice and Bob are on direct connections, and their videos never stopped', async () => {
      const toDirectFrom = Date.now();
      await callButton(carol.page, 'Hang up').click();
      for (const person of [alice, bob]) await expect(mediaPath(person.page)).toHaveText('Direct connections', { timeout: 30_000 });
      // Nothing of theirs is left on the relay, the consumers made ahead included.
      await expect.poll(() => relayRoomStats(parley, roomAddress).consumers.length, { timeout: 30_000 }).toBe(0);
      await expect(tilePath(alice.page, 'Bob')).toHaveText('Direct');
      await expect(tilePath(bob.page, 'Alice')).toHaveText('Direct');
      await expectTilesNeverStopped('relay → direct', pairs, toDirectFrom);
      await expectEveryoneSeesAndHearsEveryone([alice, bob]);
    });
  });

  test('a person who joins a call on the relay with the camera off opens no camera: the others see them without video; turned on, the camera is opened and its video comes through the relay', async ({
    people,
  }) => {
    test.setTimeout(300_000);
    const roomName = uniqueRoomName('ui-relay-camera-off');
    const three = [await people.join(roomName, 'Alice'), await people.join(roomName, 'Bob'), await people.join(roomName, 'Carol')];
    for (const [camera, person] of three.entries()) await joinCallWithCamera(person.page, camera);
    for (const person of three) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: 30_000 });
    const dave = await people.join(roomName, 'Dave');
    await watchCameraCaptures(dave.context);
    await dave.page.reload();
    await expectJoined(dave.page);
    await expect.poll(() => camerasHeld(dave.page), { message: 'the preview holds his camera' }).toBe(1);

    await test.step('Dave turns his camera off in the preview and joins: he sees the three through the relay, they see him without video, and no camera is open in his page', async () => {
      await callButton(dave.page, 'Stop camera').click();
      await expect.poll(() => camerasHeld(dave.page), { message: 'his camera let go' }).toBe(0);
      await joinCall(dave.page);
      await openCallDetails(dave.page);
      await expect(mediaPath(dave.page)).toHaveText('Through the media relay', { timeout: 30_000 });
      for (const other of three) {
        await expectDecodingVideo(dave.page, other.displayName);
        await expect(tilePath(dave.page, other.displayName)).toHaveText(/^Relay · (low|medium|high)$/, { timeout: 30_000 });
      }
      for (const viewer of three) {
        await expect(tile(viewer.page, 'Dave')).toBeVisible();
        await expect(tile(viewer.page, 'Dave').locator('video')).toHaveCount(0);
      }
      expect(await camerasHeld(dave.page), 'no camera opened by the join').toBe(0);
    });

    await test.step('Dave turns his camera on: it is opened, and the three decode its video through the relay', async () => {
      await callButton(dave.page, 'Start camera').click();
      await expect.poll(() => camerasHeld(dave.page)).toBe(1);
      for (const viewer of three) {
        await expectDecodingVideo(viewer.page, 'Dave');
        await expect(tilePath(viewer.page, 'Dave')).toHaveText(/^Relay · (low|medium|high)$/, { timeout: 30_000 });
      }
    });
  });
});
