import type { types } from 'mediasoup';

/** The codecs every router forwards: opus, VP8 and constrained-baseline H264 (what browsers send). */
export const ROUTER_MEDIA_CODECS: types.RouterRtpCodecCapability[] = [
  { kind: 'audio', mimeType: 'audio/opus', clockRate: 48000, channels: 2 },
  { kind: 'video', mimeType: 'video/VP8', clockRate: 90000 },
  {
    kind: 'video',
    mimeType: 'video/H264',
    clockRate: 90000,
    parameters: { 'packetization-mode': 1, 'profile-level-id': '42e01f', 'level-asymmetry-allowed': 1 },
  },
];

/**
 * Header extensions a consumer offer carries: ones every browser receives and StanzaJS's
 * Jingle conversion (XEP-0294) passes through. Capture-time, playout-delay and mediasoup's own
 * are left out: they would only travel as far as the Jingle translation.
 */
const CONSUMER_EXTENSIONS = new Set<string>([
  'urn:ietf:params:rtp-hdrext:sdes:mid',
  'http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time',
  'http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  'urn:3gpp:video-orientation',
  'urn:ietf:params:rtp-hdrext:toffset',
]);

/**
 * What a CREATE_CONSUMER receiver is assumed to take: it never talks to the relay, so its
 * capabilities are the router's (browsers all receive opus and VP8), minus extensions above.
 */
export function receiverCapabilities(router: types.RtpCapabilities): types.RtpCapabilities {
  return {
    codecs: router.codecs ?? [],
    headerExtensions: (router.headerExtensions ?? []).filter((extension) => CONSUMER_EXTENSIONS.has(extension.uri)),
  };
}
