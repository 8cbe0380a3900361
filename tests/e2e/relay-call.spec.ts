import type { Browser } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import type { Connection } from '../../src/main-thread/call/Connection';
import { maxBitratePerVideo } from '../../src/main-thread/media/videoBitrate';
import type { VideoSendLoad } from '../../src/main-thread/media/videoResolution';
import { TOTAL_VIDEO_BITRATE_BPS } from '../../src/protocol/constants';
import {
  cameraFrom,
  expectDecoding,
  expectEveryoneDecodesEveryone,
  personWithRelay,
  relayCarriesEveryone,
  relayConsumers,
  waitsForReceiver,
  type RelayPerson,
} from './relay-people';
import { expect, test } from './relay-server';
import { expectNeverStopped, reportContinuity, type ShownSample } from './video-continuity';
import { uniqueRoomName } from './rooms-people';

/**
 * Calls through the media relay (SPEC §4 relay switch, DESIGN "Media paths") in real Chromium
 * with fake devices, against real Prosody, the gateway and the real mediasoup relay; each person
 * is a browser context of their own running the call engine through a fixture page
 * (tests/e2e/relay-fixture). What the relay carries is read from the relay's own stats, not from
 * the clients. Run it in a loopback-only network namespace:
 *   unshare -n sh -c 'ip link set lo up && npx playwright test tests/e2e/relay-call.spec.ts'
 */

function connections(person: RelayPerson): Promise<Connection[]> {
  return person.page.evaluate(() => window.relayFixture?.connections() ?? []);
}

/**
 * The sessions `person` sends video in, told apart by the relay's own consumer ids (a relay
 * session's sid is its consumer's id): relay ones counted, mesh ones named with their states so
 * that a session left running says which it is.
 */
async function sendingSessions(parley: RunningParley, person: RelayPerson): Promise<{ relay: number; mesh: string[] }> {
  const consumerIds = new Set(parley.relay?.stats().consumerDetails.map((consumer) => consumer.id));
  const sending = (await connections(person)).filter((record) => record.sendingVideoMediaId !== undefined);
  return {
    relay: sending.filter((record) => consumerIds.has(record.id)).length,
    mesh: sending.filter((record) => !consumerIds.has(record.id)).map((record) => `${record.id} to ${record.peerAddress}: ${record.sessionState}, ${record.connectionState}`),
  };
}

function sendLoad(person: RelayPerson): Promise<VideoSendLoad | undefined> {
  return person.page.evaluate(() => window.relayFixture?.sendLoad());
}

/** Each of the two people watches the other's camera as the fixture shows it (RelayFixtureApi.watchShownVideo). */
async function watchEachOther(pair: readonly [RelayPerson, RelayPerson]): Promise<void> {
  const [first, second] = pair;
  await first.page.evaluate((owner) => window.relayFixture?.watchShownVideo(owner), second.address);
  await second.page.evaluate((owner) => window.relayFixture?.watchShownVideo(owner), first.address);
}

/**
 * Through a change of media path the video each of the two shows of the other never stopped (decoded
 * frames, video-continuity's checks), going from path `from` to path `to`; the largest gaps are printed.
 */
async function expectShownThrough(pair: readonly [RelayPerson, RelayPerson], from: 'mesh' | 'relay', to: 'mesh' | 'relay'): Promise<void> {
  const watched: Array<{ pair: string; samples: ShownSample[]; paths: Array<string | undefined> }> = [];
  for (const [person, owner] of [pair, [pair[1], pair[0]]] as const) {
    const shown = await person.page.evaluate((address) => window.relayFixture?.shownVideo(address) ?? [], owner.address);
    watched.push({ pair: `${person.name} → ${owner.name}`, samples: shown.map(({ at, id, framesDecoded }) => ({ at, shown: id, frames: framesDecoded })), paths: shown.map((sample) => sample.path) });
  }
  reportContinuity(`${from} → ${to}`, watched);
  for (const { samples, paths } of watched) {
    // The samples cover the handover: the old path first, the new one at the end.
    expect(paths[0]).toBe(from);
    expect(paths.at(-1)).toBe(to);
    expectNeverStopped(samples);
  }
}

/** Alice, Bob and Carol in the call at `url`, once the relay carries it (by its own stats). */
async function threeOnTheRelay(browser: Browser, url: string, parley: RunningParley): Promise<RelayPerson[]> {
  const three = [await personWithRelay(browser, url, 'alice'), await personWithRelay(browser, url, 'bob'), await personWithRelay(browser, url, 'carol')];
  await expect.poll(() => relayCarriesEveryone(parley, three), { timeout: 60_000 }).toBe(true);
  return three;
}

async function closeAll(...people: RelayPerson[]): Promise<void> {
  await Promise.all(people.map((person) => person.context.close()));
}

test.describe('Calls through the media relay (SPEC §4)', () => {
  test('three people move to the relay; small tiles get the low layer; one leaves and 5 s later the two are back on mesh, video never stopping', async ({
    browser,
    pageUrl,
    parley,
  }) => {
    test.setTimeout(300_000);
    const url = pageUrl({ room: uniqueRoomName('relay-three') });
    const alice = await personWithRelay(browser, url, 'alice');
    const bob = await personWithRelay(browser, url, 'bob');

    await test.step('two people stay on the mesh (1 remote peer each, below minimumPeers 2)', async () => {
      await expectDecoding(alice, bob, 'mesh');
      await expectDecoding(bob, alice, 'mesh');
      expect(parley.relay?.stats().consumerDetails.filter((consumer) => [alice.streamId, bob.streamId].includes(consumer.source))).toEqual([]);
    });

    await watchEachOther([alice, bob]);
    const carol = await personWithRelay(browser, url, 'carol');
    const everyone = [alice, bob, carol];

    await test.step('a third joins: the relay carries every stream to every other person, by its own stats; alice and bob’s video of each other never stopped', async () => {
      await expect.poll(() => relayCarriesEveryone(parley, everyone), { timeout: 60_000 }).toBe(true);
      await expectEveryoneDecodesEveryone(everyone, 'relay');
      // The mesh sessions that carried the streams have ended: only relay sessions send.
      for (const person of everyone) {
        await expect.poll(async () => (await person.page.evaluate(() => window.relayFixture?.relayStatus()))?.state).toBe('relay');
        await expect.poll(() => sendingSessions(parley, person)).toEqual({ relay: 2, mesh: [] });
        // SPEC §9: with the relay the budget counts 1 peer — two receivers, yet the whole budget for the one video.
        const load = await sendLoad(person);
        expect(load).toEqual({ videoReceivingPeers: 2, sharedVideoStreams: 1, relayInUse: true, relayPending: false });
        expect(maxBitratePerVideo(load!)).toBe(TOTAL_VIDEO_BITRATE_BPS);
      }
      await expectShownThrough([alice, bob], 'mesh', 'relay');
    });

    await test.step('a small tile receives the low layer; enlarging it brings the high layer', async () => {
      const item = await cameraFrom(bob, alice);
      if (!item) throw new Error('bob receives no camera from alice');
      const aliceToBob = () => relayConsumers(parley, alice, bob).find((consumer) => consumer.kind === 'video');
      await bob.page.evaluate((id) => window.relayFixture?.setTileNeed(id, { visible: true, width: 200, height: 113 }), item.id);
      await expect.poll(() => aliceToBob()?.preferredSpatialLayer).toBe(0);
      await expect.poll(() => aliceToBob()?.currentSpatialLayer, { timeout: 20_000 }).toBe(0);
      await expect.poll(async () => (await cameraFrom(bob, alice))?.frameWidth ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
      await expect.poll(async () => (await cameraFrom(bob, alice))?.frameWidth ?? Infinity, { timeout: 20_000 }).toBeLessThanOrEqual(alice.cameraWidth / 3);
      await expect.poll(async () => (await cameraFrom(bob, alice))?.layer, { timeout: 10_000 }).toBe('low');

      await bob.page.evaluate((id) => window.relayFixture?.setTileNeed(id, { visible: true, width: 1280, height: 720 }), item.id);
      // The relay prefers the top layer once it arrives (LayerWatch): alice's encoder starts it
      // again when her bandwidth estimate allows, which one fresh-clone run did not see within 15 s.
      // Should it not come, the failure says what alice's encodings report.
      await expect
        .poll(() => aliceToBob()?.preferredSpatialLayer, { timeout: 30_000 })
        .toBe(2)
        .catch(async (error: unknown) => {
          const sent = await alice.page.evaluate(() => window.relayFixture?.sentVideoLayers());
          throw new Error(`${error instanceof Error ? error.message : String(error)}\nalice's video encodings: ${JSON.stringify(sent)}`);
        });
      await expect.poll(() => aliceToBob()?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);
      await expect.poll(async () => (await cameraFrom(bob, alice))?.frameWidth ?? 0, { timeout: 30_000 }).toBeGreaterThan(alice.cameraWidth / 2);
      await expect.poll(async () => (await cameraFrom(bob, alice))?.layer, { timeout: 10_000 }).toBe('high');

      // Hidden: the relay pauses that video to bob alone.
      await bob.page.evaluate((id) => window.relayFixture?.setTileNeed(id, { visible: false, width: 1280, height: 720 }), item.id);
      await expect.poll(() => aliceToBob()?.paused).toBe(true);
      expect(relayConsumers(parley, alice, carol).find((consumer) => consumer.kind === 'video')?.paused).toBe(false);
      await bob.page.evaluate((id) => window.relayFixture?.setTileNeed(id, { visible: true, width: 1280, height: 720 }), item.id);
      await expect.poll(() => aliceToBob()?.paused).toBe(false);
      await expectDecoding(bob, alice, 'relay');
    });

    await test.step('carol leaves: her consumers go at once, and the relay still carries alice and bob until the shutdown delay', async () => {
      await watchEachOther([alice, bob]);
      await carol.page.evaluate(() => window.relayFixture?.leaveCall());
      await expect.poll(() => relayConsumers(parley, alice, carol).length + relayConsumers(parley, bob, carol).length).toBe(0);
      // SPEC §4: off only once the count has stayed below the minimum for 5 s.
      expect(relayConsumers(parley, alice, bob).length + relayConsumers(parley, bob, alice).length).toBe(4);
    });

    await test.step('5 s later the two are back on the mesh: the relay has no consumer or ingest of theirs, and their video never stopped', async () => {
      await expect
        .poll(() => {
          const stats = parley.relay?.stats();
          const theirs = [alice.streamId, bob.streamId];
          return (stats?.consumerDetails.filter((consumer) => theirs.includes(consumer.source)).length ?? -1) + (stats?.ingestDetails.filter((ingest) => theirs.includes(ingest.id)).length ?? -1);
        }, { timeout: 30_000 })
        .toBe(0);
      await expectDecoding(alice, bob, 'mesh');
      await expectDecoding(bob, alice, 'mesh');
      for (const person of [alice, bob]) {
        await expect.poll(async () => (await person.page.evaluate(() => window.relayFixture?.relayStatus()))?.state).toBe('mesh');
        await expect.poll(() => sendLoad(person)).toEqual({ videoReceivingPeers: 1, sharedVideoStreams: 1, relayInUse: false, relayPending: false });
      }
      await expectShownThrough([alice, bob], 'relay', 'mesh');
    });

    for (const person of everyone) expect(await person.page.evaluate(() => window.relayFixture?.errors ?? [])).toEqual([]);
    await closeAll(...everyone);
  });

  test('a fourth person joins a call the relay carries: each sender offers them the consumer it made ahead, and makes the next one (issue 14, the join path)', async ({
    browser,
    pageUrl,
    parley,
  }) => {
    test.setTimeout(300_000);
    const url = pageUrl({ room: uniqueRoomName('relay-ahead') });
    const three = await threeOnTheRelay(browser, url, parley);
    /** The consumers of `sender`'s camera and microphone made ahead and still waiting for a receiver, by the relay's own stats. */
    const waitingAhead = (sender: RelayPerson) => relayConsumers(parley, sender).filter((consumer) => consumer.madeAhead && waitsForReceiver(consumer));
    const kindsWaiting = (people: RelayPerson[]) => people.map((sender) => waitingAhead(sender).map((consumer) => consumer.kind).sort().join());

    await test.step('settled, each sender has the next person’s consumer made ahead, with no receiver yet', async () => {
      await expect.poll(() => kindsWaiting(three), { timeout: 30_000 }).toEqual(['audio,video', 'audio,video', 'audio,video']);
    });

    const madeAhead = new Set(three.flatMap((sender) => waitingAhead(sender).map((consumer) => consumer.id)));
    const dave = await personWithRelay(browser, url, 'dave');
    const everyone = [...three, dave];

    await test.step('Dave joins: what each sender sends him is the consumer it made ahead, claimed for him; he decodes everyone over the relay', async () => {
      await expect.poll(() => relayCarriesEveryone(parley, everyone), { timeout: 60_000 }).toBe(true);
      await expectEveryoneDecodesEveryone(everyone, 'relay');
      const toDave = three.flatMap((sender) => relayConsumers(parley, sender, dave));
      expect(toDave.map((consumer) => consumer.kind).sort()).toEqual(['audio', 'audio', 'audio', 'video', 'video', 'video']);
      expect(toDave.filter((consumer) => !madeAhead.has(consumer.id) || !consumer.madeAhead)).toEqual([]);
    });

    await test.step('settled again, every sender, Dave too, has one made ahead for the person after him', async () => {
      await expect.poll(() => kindsWaiting(everyone), { timeout: 30_000 }).toEqual(['audio,video', 'audio,video', 'audio,video', 'audio,video']);
    });

    for (const person of everyone) expect(await person.page.evaluate(() => window.relayFixture?.errors ?? [])).toEqual([]);
    await closeAll(...everyone);
  });

  test('the relay killed mid-call: calls fall back to the mesh, and come back to the relay once it restarts, without a page reload', async ({
    browser,
    pageUrl,
    parley,
  }) => {
    test.setTimeout(300_000);
    const url = pageUrl({ room: uniqueRoomName('relay-kill') });
    const everyone = await threeOnTheRelay(browser, url, parley);
    await expectEveryoneDecodesEveryone(everyone, 'relay');

    await test.step('killed: everyone decodes everyone over the mesh', async () => {
      await parley.killRelay();
      await expectEveryoneDecodesEveryone(everyone, 'mesh');
      for (const person of everyone) await expect.poll(async () => (await person.page.evaluate(() => window.relayFixture?.relayStatus()))?.state).toBe('unavailable');
    });

    await test.step('restarted: the calls are back on the relay, by its own stats', async () => {
      await parley.restartRelay();
      await expect.poll(() => relayCarriesEveryone(parley, everyone), { timeout: 60_000 }).toBe(true);
      await expectEveryoneDecodesEveryone(everyone, 'relay');
      for (const person of everyone) {
        await expect.poll(async () => (await person.page.evaluate(() => window.relayFixture?.relayStatus()))?.state).toBe('relay');
        // The same page: no reload happened.
        expect(await person.page.evaluate(() => window.relayFixture?.pageLoadId)).toBe(person.pageLoadId);
        // The outage was logged once, as it began. (A receiver may also end a relay session that died with the
        // relay as failed-transport before its sender has handed it over to the mesh: SPEC §4's 5 s limit.)
        const errors = await person.page.evaluate(() => window.relayFixture?.errors ?? []);
        expect(errors.filter((error) => !/ended: failed-transport$/.test(error))).toEqual([expect.stringMatching(/^media relay connection closed \(\d+\); the call continues over the mesh$/)]);
      }
    });
    await closeAll(...everyone);
  });
});
