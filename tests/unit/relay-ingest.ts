import WebSocket from 'ws';
import type { RtpParameters } from 'mediasoup-client/types';
import { RelayRpcClient, type RelaySocket } from '../../src/main-thread/relay/RelayRpcClient';
import type { Clock } from '../../src/common/clock';

/** Node's websocket for the relay client (the browser's is the default). */
export const nodeSocket = (url: string): RelaySocket => new WebSocket(url) as unknown as RelaySocket;

export function connectClient(url: string, token: string, clock: Clock): Promise<RelayRpcClient> {
  return RelayRpcClient.connect({ url, token, clock, createSocket: nodeSocket });
}

/** A camera as Chromium's mediasoup-client produces it: VP8 with RTX, three simulcast encodings. */
const CAMERA: RtpParameters = {
  mid: '0',
  codecs: [
    {
      mimeType: 'video/VP8',
      payloadType: 96,
      clockRate: 90000,
      rtcpFeedback: [{ type: 'goog-remb' }, { type: 'transport-cc' }, { type: 'ccm', parameter: 'fir' }, { type: 'nack' }, { type: 'nack', parameter: 'pli' }],
    },
    { mimeType: 'video/rtx', payloadType: 97, clockRate: 90000, parameters: { apt: 96 }, rtcpFeedback: [] },
  ],
  headerExtensions: [{ uri: 'urn:ietf:params:rtp-hdrext:sdes:mid', id: 4 }],
  encodings: [
    { ssrc: 1001, rtx: { ssrc: 1002 }, scaleResolutionDownBy: 4 },
    { ssrc: 1003, rtx: { ssrc: 1004 }, scaleResolutionDownBy: 2 },
    { ssrc: 1005, rtx: { ssrc: 1006 }, scaleResolutionDownBy: 1 },
  ],
  rtcp: { cname: 'camera-cname', reducedSize: true },
};

const MICROPHONE: RtpParameters = {
  mid: '1',
  codecs: [{ mimeType: 'audio/opus', payloadType: 111, clockRate: 48000, channels: 2, parameters: { useinbandfec: 1 }, rtcpFeedback: [{ type: 'transport-cc' }] }],
  headerExtensions: [{ uri: 'urn:ietf:params:rtp-hdrext:sdes:mid', id: 4 }],
  encodings: [{ ssrc: 2001 }],
  rtcp: { cname: 'camera-cname', reducedSize: true },
};

/**
 * Parley's ingest methods with the parameters mediasoup-client would send (no media flows: the
 * relay makes producers before DTLS connects), so that CREATE_CONSUMER has a stream to offer.
 */
export async function ingestCameraAndMicrophone(client: RelayRpcClient, streamId: string, roomAddress: string): Promise<void> {
  await client.request('CREATE_INGEST_TRANSPORT', { id: streamId, roomAddress });
  await client.request('PRODUCE', { id: streamId, kind: 'video', rtpParameters: CAMERA, appData: { trackId: 'camera-track' } });
  await client.request('PRODUCE', { id: streamId, kind: 'audio', rtpParameters: MICROPHONE, appData: { trackId: 'microphone-track' } });
}
