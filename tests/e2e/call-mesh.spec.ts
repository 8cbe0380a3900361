import type { Connection } from '../../src/main-thread/call/Connection';
import { TOTAL_VIDEO_BITRATE_BPS } from '../../src/protocol/constants';
import { expect, test } from './call-server';
import { CROWDED_CALL } from '../../playwright.config';
import {
  expectDecodingVideo,
  expectFullMesh,
  expectReceivingAudio,
  personInCall,
  plainClientInCall,
  received,
  receivedFrom,
  type CallPerson,
} from './call-people';
import { uniqueRoomName } from './rooms-people';

/**
 * Mesh calls through the call engine (src/main-thread/call) in real Chromium with fake devices,
 * against real Prosody and the gateway; each person is a browser context of their own (their own
 * shared worker and XMPP session). The call UI does not exist yet, so a fixture page drives the
 * engine (tests/e2e/call-fixture). Run it in a loopback-only network namespace:
 *   unshare -n sh -c 'ip link set lo up && npx playwright test tests/e2e/call-mesh.spec.ts'
 */

function connections(person: CallPerson): Promise<Connection[]> {
  return person.page.evaluate(() => window.callFixture?.connections() ?? []);
}

/** How many of `person`'s sending sessions to `peer` are in `state`. */
async function connectionTo(person: CallPerson, peer: CallPerson, state: Connection['connectionState']): Promise<number> {
  return (await connections(person)).filter((record) => record.peerAddress === peer.address && record.sendingVideoMediaId !== undefined && record.connectionState === state).length;
}

function videoMaxBitrates(person: CallPerson): Promise<Record<string, Array<number | undefined>>> {
  return person.page.evaluate(() => window.callFixture?.videoMaxBitrates() ?? {});
}

async function closeAll(...people: CallPerson[]): Promise<void> {
  await Promise.all(people.map((person) => person.context.close()));
}

test.describe('Calls over direct mesh (PROTOCOL.md Jingle)', () => {
  test('two people: each decodes the other’s video and receives their audio over one-way sessions', async ({ browser, pageUrl }) => {
    const url = pageUrl({ room: uniqueRoomName('mesh-two') });
    const alice = await personInCall(browser, url);
    const bob = await personInCall(browser, url);
    await expectFullMesh([alice, bob]);

    // Two sessions each, one each way: the sender initiated, sending camera and microphone together.
    for (const [person, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const records = await connections(person);
      expect(records).toHaveLength(2);
      const sending = records.find((record) => record.sendingVideoMediaId !== undefined);
      const receiving = records.find((record) => record.receivingVideoMediaId !== undefined);
      expect(sending).toMatchObject({ peerAddress: other.address, connectionState: 'connected', sessionState: 'active', receivingAudioMediaId: undefined });
      expect(sending?.sendingAudioMediaId).toBeDefined();
      expect(receiving).toMatchObject({ peerAddress: other.address, connectionState: 'connected', sendingAudioMediaId: undefined, sendingVideoMediaId: undefined });
      expect(receiving?.receivingAudioMediaId).toBeDefined();
    }

    // On the wire: the offer's contents are senders='initiator', named after the SDP mids.
    // SPEC §9: one receiver, one shared video: the whole budget.
    await expect.poll(() => videoMaxBitrates(alice)).toEqual({ [bob.address]: [TOTAL_VIDEO_BITRATE_BPS] });

    const initiates = (await alice.page.evaluate(() => window.callFixture?.sentJingle ?? [])).filter((sent) => sent.action === 'session-initiate');
    expect(initiates).toEqual([{ action: 'session-initiate', to: bob.address, contents: [{ name: '0', senders: 'initiator' }, { name: '1', senders: 'initiator' }] }]);
    await closeAll(alice, bob);
  });

  test('three people: full mesh, mute, screen share, quality off and on, leaving', CROWDED_CALL, async ({ browser, pageUrl }) => {
    test.setTimeout(180_000);
    const url = pageUrl({ room: uniqueRoomName('mesh-three') });
    const alice = await personInCall(browser, url);
    const bob = await personInCall(browser, url);
    const carol = await personInCall(browser, url);
    await expectFullMesh([alice, bob, carol]);
    // SPEC §9: two video-receiving peers × one shared video.
    await expect.poll(() => videoMaxBitrates(alice)).toEqual({ [bob.address]: [TOTAL_VIDEO_BITRATE_BPS / 2], [carol.address]: [TOTAL_VIDEO_BITRATE_BPS / 2] });

    await test.step('muting shows as muted on the others', async () => {
      await alice.page.evaluate(() => window.callFixture?.setMicrophoneMuted(true));
      for (const other of [bob, carol]) {
        await expect.poll(async () => (await receivedFrom(other, alice, 'audio'))[0]?.remoteDisabled).toBe(true);
        await expect
          .poll(() => other.page.evaluate((peer) => window.callFixture?.reports.filter((report) => report.peerAddress === peer).at(-1)?.change.muted, alice.address))
          .toBe(true);
      }
      await alice.page.evaluate(() => window.callFixture?.setMicrophoneMuted(false));
      for (const other of [bob, carol]) await expect.poll(async () => (await receivedFrom(other, alice, 'audio'))[0]?.remoteDisabled).toBe(false);
    });

    await test.step('a screen share arrives as a separate item marked as a screen capture', async () => {
      await alice.page.evaluate(() => window.callFixture?.shareScreen());
      for (const other of [bob, carol]) {
        await expectDecodingVideo(other, alice, true);
        // The camera is still there beside it.
        expect(await receivedFrom(other, alice, 'video', false)).toHaveLength(1);
      }
      // A session of its own per peer: camera+mic and screen, to each of two peers, plus two received.
      expect((await connections(alice)).filter((record) => record.sendingVideoMediaId !== undefined)).toHaveLength(4);
      // Two peers × two shared videos: a quarter of the budget on each sender.
      const quarter = TOTAL_VIDEO_BITRATE_BPS / 4;
      await expect.poll(() => videoMaxBitrates(alice)).toEqual({ [bob.address]: [quarter, quarter], [carol.address]: [quarter, quarter] });
      await alice.page.evaluate(() => window.callFixture?.stopScreen());
      for (const other of [bob, carol]) await expect.poll(async () => (await receivedFrom(other, alice, 'video', true)).length).toBe(0);
    });

    await test.step("a receiver's quality 'off' stops that sender's video to it alone, and 'low' resumes it", async () => {
      const [camera] = await receivedFrom(bob, alice, 'video');
      if (!camera) throw new Error('bob receives no camera from alice');
      await bob.page.evaluate(({ id }) => window.callFixture?.requestProfile(id, 'off'), camera);
      const encoded = () => alice.page.evaluate(() => window.callFixture?.cameraFramesEncoded() ?? Promise.resolve({} as Record<string, number>));
      // Settled once the count to bob stops moving between two reads.
      let toBob = -1;
      await expect
        .poll(async () => {
          const previous = toBob;
          toBob = (await encoded())[bob.address] ?? 0;
          return toBob === previous;
        }, { intervals: [1_000] })
        .toBe(true);
      const toCarol = (await encoded())[carol.address] ?? 0;
      await expect.poll(async () => (await encoded())[carol.address] ?? 0).toBeGreaterThan(toCarol);
      expect((await encoded())[bob.address]).toBe(toBob);
      await bob.page.evaluate(({ id }) => window.callFixture?.requestProfile(id, 'low'), camera);
      await expect.poll(async () => (await encoded())[bob.address] ?? 0).toBeGreaterThan(toBob);
      await expectDecodingVideo(bob, alice);
    });

    await test.step("leaving the call removes that person's media everywhere", async () => {
      await carol.page.evaluate(() => window.callFixture?.leaveCall());
      for (const other of [alice, bob]) {
        await expect.poll(async () => (await received(other)).filter((item) => item.owner === carol.address).length).toBe(0);
        await expect.poll(async () => (await connections(other)).filter((record) => record.peerAddress === carol.address).length).toBe(0);
      }
      await expect.poll(async () => (await received(carol)).length).toBe(0);
      await expect.poll(async () => (await connections(carol)).length).toBe(0);
      // The two who stay still see and hear each other.
      await expectDecodingVideo(alice, bob);
      await expectReceivingAudio(bob, alice);
    });

    for (const person of [alice, bob, carol]) expect(await person.page.evaluate(() => window.callFixture?.errors ?? [])).toEqual([]);
    await closeAll(alice, bob, carol);
  });

  test('a SimpleWebRTC-style one-way session offered by another client is accepted', async ({ browser, pageUrl }) => {
    const room = uniqueRoomName('mesh-plain');
    const alice = await personInCall(browser, pageUrl({ room }));
    const other = await plainClientInCall(browser, pageUrl({ room, mode: 'plain' }));
    await other.page.evaluate((peer) => window.plainClient?.offerTo(peer), alice.address);

    // The independent client's own offer: every content senders='initiator'.
    const initiate = await other.page.evaluate(() => window.plainClient?.sentInitiates[0] ?? '');
    const senders = [...initiate.matchAll(/<content [^>]*senders="([^"]+)"/g)].map((match) => match[1]);
    expect(senders).toEqual(['initiator', 'initiator']);

    await expectDecodingVideo(alice, other);
    await expectReceivingAudio(alice, other);

    await test.step('a session the receiver ends as failed-transport flags it, and a new session follows', async () => {
      const toOther = () => alice.page.evaluate((peer) => window.callFixture?.sentJingle.filter((sent) => sent.action === 'session-initiate' && sent.to === peer).length ?? 0, other.address);
      await expect.poll(() => connectionTo(alice, other, 'connected')).toBe(1);
      expect(await toOther()).toBe(1);
      expect(await other.page.evaluate(() => window.plainClient?.failIncoming())).toHaveLength(1);
      const lastReport = () =>
        alice.page.evaluate((peer) => window.callFixture?.reports.filter((report) => report.peerAddress === peer && report.change.sessionFailed !== undefined).at(-1)?.change.sessionFailed, other.address);
      await expect.poll(lastReport).toBe(true);
      expect(await alice.page.evaluate(() => window.callFixture?.errors ?? [])).toEqual([expect.stringMatching(/ended: failed-transport$/)]);
      // SPEC §4: recomputed after 500 ms — a new session, and once it connects the flag clears.
      await expect.poll(toOther).toBe(2);
      await expect.poll(() => connectionTo(alice, other, 'connected')).toBe(1);
      await expect.poll(lastReport).toBe(false);
    });
    await closeAll(alice, other);
  });
});
