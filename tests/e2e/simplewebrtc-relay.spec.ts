// SimpleWebRTC 1.30.3 itself (the reference client, bench/reference) in a call with Parley through
// the media relay: 1.30.3 ingests with INGEST's SDP offer, Parley with mediasoup-client, and each
// sender's consumers reach the other over Jingle (PROTOCOL.md "Media relay"). Real Prosody, relay
// and Chromium with fake devices (a camera each), in a loopback-only network namespace; the relay
// takes the call from its second person (`relayMinimumPeers` 1, which both clients honour). What the
// relay carries is read from its own stats. The call on direct connections is simplewebrtc.spec.ts.
import type { RunningParley } from '../../server/Parley';
import type { IngestStats } from '../../server/relay/Ingest';
import { expectDecodingVideo, expectHearing, joinCallWithCamera, LIGHT_VIDEO_TIERS, mediaPath } from './call-ui-people';
import { expectReferenceSeesAndHears, withReferenceClient } from './reference-people';
import { iceConnected, relayRoomStats, waitsForReceiver } from './relay-people';
import { expect, roomJid, uniqueRoomName } from './rooms-people';

const test = withReferenceClient({ videoResolutionTiers: LIGHT_VIDEO_TIERS, relayMinimumPeers: 1 });

/**
 * By the relay's own account, per sender of the room (how its stream was ingested): its audio and
 * video are ingested, and consumed by the other person with ICE up and nothing paused.
 */
function carriedBy(parley: RunningParley, roomAddress: string): Partial<Record<IngestStats['madeBy'], string>> {
  const { ingests, consumers } = relayRoomStats(parley, roomAddress);
  return Object.fromEntries(
    ingests.map((ingest) => {
      const kinds = (list: ReadonlyArray<{ kind: string }>) => list.map(({ kind }) => kind).sort().join();
      const forwarded = consumers.filter((consumer) => consumer.source === ingest.id && !waitsForReceiver(consumer) && !consumer.paused && iceConnected(consumer));
      return [ingest.madeBy, `ingested ${kinds(ingest.producers)}; forwarded ${kinds(forwarded)}`];
    }),
  );
}

test.describe('SimpleWebRTC 1.30.3 clients share a call through the media relay with Parley (PROTOCOL.md "Media relay")', () => {
  test('Sam on 1.30.3 and Alice on Parley: the relay carries each one’s camera and microphone to the other, and each sees and hears the other', async ({ people, onReference, parley }) => {
    const roomName = uniqueRoomName('swrtc-relay');
    const sam = await onReference(roomName, 'Sam');
    const alice = await people.join(roomName, 'Alice');
    // A camera of her own: Sam's 1.30.3 captures from the browser's first fake camera.
    await joinCallWithCamera(alice.page, 1);

    await expect(mediaPath(alice.page)).toHaveText('Through the media relay', { timeout: 60_000 });
    await expectDecodingVideo(alice.page, 'Sam');
    await expectHearing(alice.page, 'Sam');
    await expectReferenceSeesAndHears(sam, 'Alice');
    const roomAddress = roomJid(roomName, parley.settings.mucDomain);
    await expect
      .poll(() => carriedBy(parley, roomAddress), { timeout: 30_000 })
      .toEqual({ sdp: 'ingested audio,video; forwarded audio,video', client: 'ingested audio,video; forwarded audio,video' });
  });
});
