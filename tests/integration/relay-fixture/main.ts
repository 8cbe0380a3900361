import { Device } from 'mediasoup-client';
import type { Producer } from 'mediasoup-client/types';
import { SIMULCAST_LAYERS } from '../../../src/protocol/constants';
import {
  parseIngestTransportResult,
  parseProduceResult,
  parseRouterCapabilitiesResult,
  parseSdpResult,
  relayErrorFrom,
  type RelayMethod,
  type RelayParams,
  type RelayRequest,
} from '../../../src/protocol/relay';

/**
 * Parley's own ingest path (src/protocol/relay.ts): mediasoup-client's Device and SendTransport
 * over GET_ROUTER_CAPABILITIES, CREATE_INGEST_TRANSPORT, CONNECT_INGEST_TRANSPORT and PRODUCE,
 * then consumer offers for plain RTCPeerConnection receivers on the same connection.
 */

type Call = <M extends RelayMethod>(method: M, params: RelayParams<M>) => Promise<unknown>;

function openRelay(url: string): Promise<Call> {
  const socket = new WebSocket(url);
  const pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: string; result?: unknown; error?: unknown };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(relayErrorFrom(message.error));
    else waiter.resolve(message.result);
  });
  const call: Call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = crypto.randomUUID();
      pending.set(id, { resolve, reject });
      const request: RelayRequest<typeof method> = { jsonrpc: '2.0', id, method, params };
      socket.send(JSON.stringify(request));
    });
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve(call));
    socket.addEventListener('error', () => reject(new Error('relay websocket failed')));
  });
}

let relay: Call | undefined;
let producer: Producer | undefined;

async function ingestCamera(url: string, token: string, roomAddress: string): Promise<{ streamId: string; width: number }> {
  relay = await openRelay(url);
  const call = relay;
  await call('AUTH', { token });
  const device = new Device();
  await device.load({ routerRtpCapabilities: parseRouterCapabilitiesResult(await call('GET_ROUTER_CAPABILITIES', { roomAddress })).rtpCapabilities });
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 } });
  const transport = device.createSendTransport(parseIngestTransportResult(await call('CREATE_INGEST_TRANSPORT', { id: stream.id, roomAddress })));
  transport.on('connect', ({ dtlsParameters }, done, fail) => {
    call('CONNECT_INGEST_TRANSPORT', { id: stream.id, dtlsParameters }).then(() => done(), fail);
  });
  transport.on('produce', ({ kind, rtpParameters, appData }, done, fail) => {
    call('PRODUCE', { id: stream.id, kind, rtpParameters, appData }).then((result) => done({ id: parseProduceResult(result).producerId }), fail);
  });
  const track = stream.getVideoTracks()[0]!;
  producer = await transport.produce({ track, encodings: SIMULCAST_LAYERS.map((layer) => ({ ...layer })), appData: { trackId: track.id } });
  return { streamId: stream.id, width: track.getSettings().width ?? 0 };
}

async function consumerOffer(sid: string, source: string, roomAddress: string): Promise<string> {
  const result = await relay!('CREATE_CONSUMER', { id: sid, peerId: 'receiver', roomAddress, roomId: 'rid', source, audio: false, video: true });
  return parseSdpResult(result).sdp;
}

async function startConsumer(sid: string, answer: string): Promise<void> {
  await relay!('START_CONSUMER', { id: sid, sdp: answer });
}

/** Widths the sender encodes now, by rid (0 for a layer not sent yet). */
async function sentWidths(): Promise<Record<string, number>> {
  const widths: Record<string, number> = {};
  (await producer!.getStats()).forEach((report: { type: string; rid?: string; frameWidth?: number }) => {
    if (report.type === 'outbound-rtp' && report.rid) widths[report.rid] = report.frameWidth ?? 0;
  });
  return widths;
}

Object.assign(globalThis, { parleyRelayFixture: { ingestCamera, consumerOffer, startConsumer, sentWidths } });
