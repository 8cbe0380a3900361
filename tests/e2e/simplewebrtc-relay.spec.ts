// SimpleWebRTC 1.30.3 itself (the reference client, bench/reference) in a call with Parley that moves
// to the media relay and back (SPEC §4 relay switch): 1.30.3 ingests with INGEST's SDP offer, Parley
// with mediasoup-client, each sender's consumers reach the others over Jingle (PROTOCOL.md "Media
// relay"), and the path changes both ways with a receiver that never says it decodes. Real Prosody,
// relay and Chromium with fake devices (a camera each), in a loopback-only network namespace; what
// the relay carries is read from its own stats. The call on direct connections alone is
// simplewebrtc.spec.ts.
import type { RunningParley } from '../../server/Parley';
import { callButton, expectSeeingAndHearing, joinCallWithCamera, LIGHT_VIDEO_TIERS, mediaPath } from './call-ui-people';
import { expectAll } from './expect-all';
import { expectReferenceSeesAndHears, withReferenceClient } from './reference-people';
import { iceConnected, relayRoomStats, waitsForReceiver } from './relay-people';
import { expect, roomJid, uniqueRoomName } from './rooms-people';

const test = withReferenceClient({ videoResolutionTiers: LIGHT_VIDEO_TIERS });

/**
 * By the relay's own account, per sender of the room (how its stream was ingested: `sdp` for
 * INGEST, `client` for PRODUCE): the kinds ingested, and those forwarded to a receiver with ICE up
 * and nothing paused.
 */
function carried(parley: RunningParley, roomAddress: string): string[] {
  const { ingests, consumers } = relayRoomStats(parley, roomAddress);
  const kinds = (list: ReadonlyArray<{ kind: string }>) => list.map(({ kind }) => kind).sort().join();
  return ingests
    .map((ingest) => {
      const forwarded = consumers.filter((consumer) => consumer.source === ingest.id && !waitsForReceiver(consumer) && !consumer.paused && iceConnected(consumer));
      return `${ingest.madeBy}: ingested ${kinds(ingest.producers)}; forwarded ${kinds(forwarded)}`;
    })
    .sort();
}

test.describe('SimpleWebRTC 1.30.3 clients share a call through the media relay with Parley (PROTOCOL.md "Media relay")', () => {
  test('Sam on 1.30.3 and Alice on Parley call directly; Bob joins and the call moves to the relay, which carries everyone’s camera and microphone to the others; Bob leaves and the two are back on direct connections', async ({ people, onReference, parley }) => {
    test.setTimeout(180_000);
    const roomName = uniqueRoomName('swrtc-relay');
    const roomAddress = roomJid(roomName, parley.settings.mucDomain);
    const sam = await onReference(roomName, 'Sam');
    const alice = await people.join(roomName, 'Alice');
    // Cameras of their own: Sam's 1.30.3 captures from the browser's first fake camera.
    await joinCallWithCamera(alice.page, 1);

    await test.step('two people: a direct call, each seeing and hearing the other', async () => {
      await expect(mediaPath(alice.page)).toHaveText('Direct connections');
      await expectAll([expectSeeingAndHearing(alice.page, 'Sam'), expectReferenceSeesAndHears(sam, ['Alice'])]);
    });

    const bob = await people.join(roomName, 'Bob');
    await joinCallWithCamera(bob.page, 2);

    await test.step('three people: the call moves to the relay, where each sender’s stream reaches the two others', async () => {
      for (const person of [alice, bob]) await expect(mediaPath(person.page)).toHaveText('Through the media relay', { timeout: 60_000 });
      const client = 'client: ingested audio,video; forwarded audio,audio,video,video';
      await expect.poll(() => carried(parley, roomAddress), { timeout: 60_000 }).toEqual([client, client, 'sdp: ingested audio,video; forwarded audio,audio,video,video']);
      await expectAll([
        ...(
          [
            [alice, ['Sam', 'Bob']],
            [bob, ['Sam', 'Alice']],
          ] as const
        ).flatMap(([person, others]) => others.map((other) => expectSeeingAndHearing(person.page, other))),
        expectReferenceSeesAndHears(sam, ['Alice', 'Bob']),
      ]);
    });

    await test.step('Bob hangs up: the two are back on direct connections, still seeing and hearing each other', async () => {
      await callButton(bob.page, 'Hang up').click();
      await expect(mediaPath(alice.page)).toHaveText('Direct connections', { timeout: 60_000 });
      await expect.poll(() => carried(parley, roomAddress), { timeout: 30_000 }).toEqual([]);
      await expectAll([expectSeeingAndHearing(alice.page, 'Sam'), expectReferenceSeesAndHears(sam, ['Alice'])]);
    });
  });
});
