import { readFileSync } from 'node:fs';
import { ortc } from 'mediasoup';
import { describe, expect, it } from 'vitest';
import { ROUTER_MEDIA_CODECS } from '../../server/relay/mediaCodecs';
import { planIngest } from '../../server/relay/sdp/ingestOffer';
import { RELAY_LIMITS } from '../../src/protocol/relay';

/** A sendonly microphone + camera offer as Chromium makes it. */
const CHROMIUM_OFFER = readFileSync(new URL('./fixtures/chromium-offer.sdp', import.meta.url), 'utf8');
const CAPABILITIES = ortc.generateRouterRtpCapabilities(ROUTER_MEDIA_CODECS);
const OFFER_HEAD = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'a=fingerprint:sha-256 B0:AC:52:DC:51:4B:DD:12:D7:36:C1:67:3D:7D:53:A2:32:CE:37:42:C3:4B:57:D4:E3:D9:7F:E5:52:9A:5C:FB',
  'a=setup:actpass',
];

/** An offer of one sendonly video section listing `payloadTypes`, with `attributes` a= lines of its own. */
function videoOffer(payloadTypes: readonly (string | number)[], attributes: readonly string[]): string {
  const section = [`m=video 9 UDP/TLS/RTP/SAVPF ${payloadTypes.join(' ')}`, 'c=IN IP4 0.0.0.0', 'a=mid:0', 'a=sendonly', 'a=ssrc:1 cname:x'];
  return `${[...OFFER_HEAD, ...section, ...attributes].join('\r\n')}\r\n`;
}

/** The INGEST request's size on the wire, which RELAY_LIMITS.messageBytes bounds. */
function ingestMessageBytes(sdp: string): number {
  return Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'INGEST', params: { id: 'stream', sdp } }));
}

describe('An INGEST offer costs the relay time in proportion to its size: payload types and a= lines per section are bounded', () => {
  it('refuses a media line with more than 128 payload types (RTP’s 7 bits), however small the message', () => {
    const payloadTypes = Array.from({ length: 8_000 }, (_, index) => index % 10);
    const rtpmaps = Array.from({ length: 1_800 }, (_, index) => `a=rtpmap:${index % 10} X/9`);
    const offer = videoOffer(payloadTypes, rtpmaps);
    expect(ingestMessageBytes(offer)).toBeLessThanOrEqual(RELAY_LIMITS.messageBytes);

    expect(() => planIngest(offer, CAPABILITIES, 'stream', RELAY_LIMITS.producersPerIngest)).toThrow('sdp: media line "m=video" lists more than 128 payload types');
  });

  it('refuses a media line that lists a payload type twice', () => {
    const offer = videoOffer([96, 97, 96], ['a=rtpmap:96 VP8/90000']);
    expect(() => planIngest(offer, CAPABILITIES, 'stream', RELAY_LIMITS.producersPerIngest)).toThrow('sdp: media line "m=video" lists payload type 96 twice');
  });

  it('refuses a section with more than sdpAttributesPerSection a= lines', () => {
    const attributes = Array.from({ length: RELAY_LIMITS.sdpAttributesPerSection }, (_, index) => `a=rtcp-fb:96 x${index}`);
    const offer = videoOffer([96], ['a=rtpmap:96 VP8/90000', ...attributes]);
    expect(ingestMessageBytes(offer)).toBeLessThanOrEqual(RELAY_LIMITS.messageBytes);

    expect(() => planIngest(offer, CAPABILITIES, 'stream', RELAY_LIMITS.producersPerIngest)).toThrow(
      `sdp: media line "m=video" has more than ${RELAY_LIMITS.sdpAttributesPerSection} a= lines`,
    );
  });

  it('reads an offer within the bounds whole: 128 payload types none of which the relay forwards are each looked at, and refused', () => {
    const payloadTypes = Array.from({ length: 128 }, (_, index) => index);
    const codecLines = payloadTypes.flatMap((payloadType) => [`a=rtpmap:${payloadType} X${payloadType}/90000`, `a=rtcp-fb:${payloadType} nack`, `a=fmtp:${payloadType} apt=1`]);
    const offer = videoOffer(payloadTypes, codecLines);

    expect(() => planIngest(offer, CAPABILITIES, 'stream', RELAY_LIMITS.producersPerIngest)).toThrow('sdp: media "0" offers no video codec the relay forwards (VP8, H264)');
  });

  it('still takes Chromium’s microphone and simulcast-less camera offer: opus, and VP8 with its rtx', () => {
    const plan = planIngest(CHROMIUM_OFFER, CAPABILITIES, 'stream', RELAY_LIMITS.producersPerIngest);

    expect(plan.producers.map(({ kind, rtpParameters }) => [kind, rtpParameters.codecs.map((codec) => `${codec.mimeType} ${codec.payloadType}`)])).toEqual([
      ['audio', ['audio/opus 111']],
      ['video', ['video/VP8 96', 'video/rtx 97']],
    ]);
    const [opus] = plan.producers[0]!.rtpParameters.codecs;
    expect(opus).toMatchObject({ channels: 2, parameters: { minptime: 10, useinbandfec: 1 }, rtcpFeedback: [{ type: 'transport-cc' }] });
    const [vp8, rtx] = plan.producers[1]!.rtpParameters.codecs;
    expect(vp8!.rtcpFeedback).toEqual([{ type: 'goog-remb' }, { type: 'transport-cc' }, { type: 'ccm', parameter: 'fir' }, { type: 'nack' }, { type: 'nack', parameter: 'pli' }]);
    expect(rtx!.parameters).toEqual({ apt: 96 });
  });
});
