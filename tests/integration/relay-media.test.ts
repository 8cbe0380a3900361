import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { observer as mediasoupObserver, type types } from 'mediasoup';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import { startTestParley } from '../support/testParley';
import { SENDER_KEYFRAME_INTERVAL_MS } from '../../server/relay/KeyFrameSpacing';
import { SIMULCAST_LAYERS } from '../../src/protocol/constants';
import type { RelayServer } from '../../server/relay/RelayServer';
import type { ProviderConfig } from '../../src/protocol/config';
import { isConsumerIceUp } from '../../src/protocol/relay';
import { launchRelayBrowser, type RelayBrowser } from './relay-browser';
import { connectRelay, fetchConfig, type RelayTestClient } from './relay-client';

/**
 * Media through the relay in Debian's Chromium: a 1.30.3-style sender (plain SDP offer with
 * simulcast rids → INGEST) and Parley's mediasoup-client ingest, each consumed by a plain
 * RTCPeerConnection that answers the relay's consumer offer as it would a Jingle session-initiate.
 * WebRTC stays on 127.0.0.1 (the relay's only candidate); run it in a loopback-only namespace with
 * `unshare -n sh -c 'ip link set lo up && npx vitest run tests/integration/relay-media.test.ts'`.
 */

let parley: RunningParley;
let relay: RelayServer;
let config: ProviderConfig;
let vite: ViteDevServer;
let browser: RelayBrowser & { page: import('playwright-core').Page };
let client: RelayTestClient;

/** mediasoup asks a sender again for a keyframe it asked for and has not had after this long (its KeyFrameRequestManager). */
const MEDIASOUP_KEYFRAME_RETRANSMISSION_MS = 1000;

/** A keyframe request a relay's producer sent its sender (a mediasoup trace event: PLI or FIR, outgoing): the SSRC asked, and when. */
interface KeyframeRequest {
  producerId: string;
  ssrc: number;
  at: number;
}
const keyframeRequests: KeyframeRequest[] = [];
/** When each video producer last received a keyframe (mediasoup trace events, incoming). */
const keyFramesArrived = new EventEmitter<Record<string, [at: number]>>();
const videoProducers = new Map<string, types.Producer>();
/** What the receivers asked the relay for themselves (mediasoup trace events of video consumers: PLI or FIR, incoming), by the producer consumed, and when. */
const receiverKeyframeRequests: { producerId: string; at: number }[] = [];
/** When each video consumer was resumed (its observer's `resume`), by consumer id. */
const consumersResumedAt = new Map<string, number>();
/** Each layer the relay moved a video consumer to (its `setPreferredLayers` calls), and when. */
const layerMoves: { consumerId: string; spatialLayer: number; at: number }[] = [];

/** Every producer the relay makes traces the keyframe requests it sends and the keyframes it gets (mediasoup's observer API; the relay runs in this process). */
function traceKeyframeRequests(): void {
  mediasoupObserver.on('newworker', (worker) =>
    worker.observer.on('newrouter', (router) =>
      router.observer.on('newtransport', (transport) => {
        // The relay traces no consumer: enabling these sets nothing of its own aside.
        transport.observer.on('newconsumer', (consumer) => {
          if (consumer.kind !== 'video') return;
          // A consumer closed meanwhile has nothing to trace.
          consumer.enableTraceEvent(['pli', 'fir']).catch(() => {});
          consumer.observer.on('resume', () => consumersResumedAt.set(consumer.id, performance.now()));
          const setPreferredLayers = consumer.setPreferredLayers.bind(consumer);
          consumer.setPreferredLayers = (layers) => {
            layerMoves.push({ consumerId: consumer.id, spatialLayer: layers.spatialLayer, at: performance.now() });
            return setPreferredLayers(layers);
          };
          consumer.on('trace', (trace) => {
            if (trace.direction === 'in') receiverKeyframeRequests.push({ producerId: consumer.producerId, at: performance.now() });
          });
        });
        transport.observer.on('newproducer', (producer) => {
          if (producer.kind !== 'video') return;
          videoProducers.set(producer.id, producer);
          // The relay enables `pli` and `fir` traces for itself (KeyFrameSpacing) right after this
          // event; enabling replaces the set, so this one keeps them and comes after.
          setImmediate(() => void producer.enableTraceEvent(['keyframe', 'pli', 'fir']).catch(() => {}));
          producer.on('trace', (trace) => {
            const at = performance.now();
            const { ssrc } = trace.info as { ssrc?: number };
            if (trace.type === 'keyframe') keyFramesArrived.emit(producer.id, at);
            else if (trace.direction === 'out' && ssrc !== undefined) keyframeRequests.push({ producerId: producer.id, ssrc, at });
          });
        });
      }),
    ),
  );
}

beforeAll(async () => {
  traceKeyframeRequests();
  parley = await startTestParley();
  relay = parley.relay!;
  config = await fetchConfig(parley.url);
  const fixture = fileURLToPath(new URL('./relay-fixture/', import.meta.url));
  vite = await createServer({
    configFile: false,
    root: fixture,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, hmr: false },
    // Found up front so that no dependency is optimised (and the page reloaded) mid-test.
    optimizeDeps: { entries: ['index.html'], include: ['mediasoup-client'] },
  });
  await vite.listen();
  const { port } = vite.httpServer!.address() as AddressInfo;
  browser = await launchRelayBrowser(`http://127.0.0.1:${port}/index.html`);
  await browser.page.waitForFunction(() => 'parleyRelayFixture' in globalThis);
  client = await connectRelay(config.sfuServer!.url);
  await client.ok('AUTH', { token: config.sfuServer!.password });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await browser?.close();
  await vite?.close();
  await parley?.stop();
});

const roomAddress = (): string => `media@${parley.settings.mucDomain}`;

/** The relay's own view of one consumer (not the browser's claim). */
function relayConsumer(sid: string, kind: 'audio' | 'video') {
  return relay.stats().consumerDetails.find((consumer) => consumer.id === sid && consumer.kind === kind);
}

/**
 * A light browser sender `<source>-sender` ingested (INGEST) as `source`, and a browser receiver
 * `<source>-receiver` of its video alone through consumer `sid`, started. Light, so that on a
 * loaded machine mediasoup's bandwidth estimate towards the receiver keeps every layer and moves
 * none of its own accord in the middle of what a case measures.
 */
async function senderWithVideoReceiver(source: string, sid: string): Promise<void> {
  const { sdp: answer } = (await client.ok('INGEST', { id: source, sdp: await browser.senderOffer(`${source}-sender`, { light: true }) })) as { sdp: string };
  await browser.acceptAnswer(`${source}-sender`, answer);
  const { sdp: offer } = (await client.ok('CREATE_CONSUMER', { id: sid, peerId: `${source}-receiver`, roomAddress: roomAddress(), roomId: 'rid', source, audio: false, video: true })) as {
    sdp: string;
  };
  await client.ok('START_CONSUMER', { id: sid, sdp: await browser.receiverAnswer(`${source}-receiver`, offer) });
}

/**
 * Each simulcast layer's SSRC (by rid) as it arrives at the relay from `source`'s sender, once every
 * layer has: a layer can start arriving after the one a consumer is already on.
 */
async function layerSsrcs(source: string): Promise<Map<string | undefined, number>> {
  const arrived = async () => new Map((await videoProducers.get(source)!.getStats()).map((stream) => [stream.rid, stream.ssrc]));
  await expect.poll(async () => [...(await arrived()).keys()].sort(), { timeout: 20_000 }).toEqual(SIMULCAST_LAYERS.map((layer) => layer.rid).sort());
  return arrived();
}

/** When the relay sent the keyframe request that the keyframe of `source` arriving at `keyFrameAt` answered: the last before it. */
function heardRequestAt(source: string, keyFrameAt: number): number {
  const heard = keyframeRequests.filter((request) => request.producerId === source && request.at <= keyFrameAt).at(-1);
  expect(heard, 'a keyframe request before the keyframe').toBeDefined();
  return heard!.at;
}

/**
 * The keyframe requests to `source`'s sender made from `from` on that the relay made of its own. A
 * receiver that lost a packet on a loaded machine asks for a keyframe itself, which the relay
 * rightly passes on at once: each receiver's request accounts for one request to the sender after it.
 */
function relaysOwnKeyframeRequests(source: string, from: number): KeyframeRequest[] {
  const unanswered = receiverKeyframeRequests.filter((request) => request.producerId === source && request.at >= from);
  return keyframeRequests.filter((request) => {
    if (request.producerId !== source || request.at < from) return false;
    const asked = unanswered.findIndex((receiver) => receiver.at <= request.at);
    if (asked < 0) return true;
    unanswered.splice(asked, 1);
    return false;
  });
}

describe('1.30.3 path: INGEST of a plain SDP offer, CREATE_CONSUMER / START_CONSUMER', () => {
  it('carries simulcast camera and microphone to a receiver, and profiles pick the layer', async () => {
    const { sdp: answer } = (await client.ok('INGEST', { id: 'camera', sdp: await browser.senderOffer('sender', { light: true }) })) as { sdp: string };
    await browser.acceptAnswer('sender', answer);

    const { sdp: offer } = (await client.ok('CREATE_CONSUMER', {
      id: 'sid-1',
      peerId: 'receiver-1',
      roomAddress: roomAddress(),
      roomId: 'rid',
      source: 'camera',
      audio: true,
      video: true,
    })) as { sdp: string };
    const receiverAnswer = await browser.receiverAnswer('receiver', offer);
    expect(await client.ok('START_CONSUMER', { id: 'sid-1', sdp: receiverAnswer })).toEqual({});
    await client.notification((state) => state.id === 'sid-1' && isConsumerIceUp(state.iceConnectionState));

    await expect.poll(async () => (await browser.received('receiver')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await browser.received('receiver')).audioPacketsReceived, { timeout: 20_000 }).toBeGreaterThan(0);

    // SPEC §9 layers: low is a quarter of the sender's width, high is all of it — once the
    // sender's bandwidth estimate lets it send the high layer at all.
    await expect.poll(() => browser.sentWidth('sender'), { timeout: 30_000 }).toBeGreaterThan(0);
    const sent = await browser.sentWidth('sender');
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-1', profile: 'low' });
    await expect.poll(() => relayConsumer('sid-1', 'video')?.currentSpatialLayer, { timeout: 20_000 }).toBe(0);
    await expect.poll(async () => (await browser.received('receiver')).frameWidth, { timeout: 20_000 }).toBeLessThanOrEqual(sent / 3);

    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-1', profile: 'high' });
    await expect.poll(() => relayConsumer('sid-1', 'video')?.currentSpatialLayer, { timeout: 20_000 }).toBe(2);
    await expect.poll(async () => (await browser.received('receiver')).frameWidth, { timeout: 20_000 }).toBe(sent);
  }, 90_000);
});

describe('A consumer made ahead of its receiver (CREATE_CONSUMER without peerId), claimed and started, carries the media (issue 14, the join path)', () => {
  it('a receiver answering the offer made before it came decodes the camera', async () => {
    const { sdp: answer } = (await client.ok('INGEST', { id: 'ahead', sdp: await browser.senderOffer('ahead-sender', { light: true }) })) as { sdp: string };
    await browser.acceptAnswer('ahead-sender', answer);
    try {
      const { sdp: offer } = (await client.ok('CREATE_CONSUMER', { id: 'sid-ahead', roomAddress: roomAddress(), roomId: 'rid', source: 'ahead', audio: false, video: true })) as { sdp: string };
      await client.ok('CLAIM_CONSUMER', { id: 'sid-ahead', peerId: 'ahead-receiver' });
      await client.ok('START_CONSUMER', { id: 'sid-ahead', sdp: await browser.receiverAnswer('ahead-receiver', offer) });
      await client.notification((state) => state.id === 'sid-ahead' && isConsumerIceUp(state.iceConnectionState));
      await expect.poll(async () => (await browser.received('ahead-receiver')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(relayConsumer('sid-ahead', 'video')).toMatchObject({ peerId: 'ahead-receiver', madeAhead: true, paused: false });
    } finally {
      // The user's ingests are bounded (RELAY_LIMITS.ingestsPerUser): the cases below need theirs.
      await client.ok('DISPOSE', { id: 'ahead' });
    }
  }, 60_000);
});

describe('Parley path: mediasoup-client Device / SendTransport ingest', () => {
  it('ingests simulcast camera through PRODUCE and a plain receiver decodes it', async () => {
    const { sfuServer } = await fetchConfig(parley.url);
    const { streamId } = await browser.page.evaluate(
      ({ url, token, room }) =>
        (globalThis as unknown as { parleyRelayFixture: { ingestCamera(url: string, token: string, room: string): Promise<{ streamId: string }> } }).parleyRelayFixture.ingestCamera(
          url,
          token,
          room,
        ),
      { url: sfuServer!.url, token: sfuServer!.password, room: `client-${roomAddress()}` },
    );
    type Fixture = { parleyRelayFixture: { consumerOffer(sid: string, source: string, room: string): Promise<string>; startConsumer(sid: string, answer: string): Promise<void> } };
    const offer = await browser.page.evaluate(
      ({ streamId, room }) => (globalThis as unknown as Fixture).parleyRelayFixture.consumerOffer('sid-client', streamId, room),
      { streamId, room: `client-${roomAddress()}` },
    );
    expect(offer).toContain('a=ssrc-group:FID ');
    const answer = await browser.receiverAnswer('client-receiver', offer);
    await browser.page.evaluate(({ answer }) => (globalThis as unknown as Fixture).parleyRelayFixture.startConsumer('sid-client', answer), { answer });
    await expect.poll(async () => (await browser.received('client-receiver')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(relayConsumer('sid-client', 'video')?.type).toBe('simulcast');
    // The relay's stats say which layers arrive, by rid (mediasoup-client names them r0, r1, …), and
    // how well (mediasoup's 0–10 score): at least the low and medium ones while the sender's
    // bandwidth estimate ramps up towards the high one.
    const arriving = () => parley.relay!.stats().ingestDetails.find((ingest) => ingest.id === streamId)?.producers.find((producer) => producer.kind === 'video')?.scores ?? [];
    await expect.poll(() => arriving().filter(({ score }) => score > 0).map(({ rid }) => rid), { timeout: 20_000 }).toEqual(expect.arrayContaining(['r0', 'r1']));
  }, 60_000);
});

describe('A layer switch asks the sender for a keyframe of the new layer at once', () => {
  it('SET_CONSUMER_PROFILE low and then high: each is followed by a keyframe request of that layer to the sender', async () => {
    await senderWithVideoReceiver('keyframes', 'sid-keyframes');
    await expect.poll(() => relayConsumer('sid-keyframes', 'video')?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);
    const source = relayConsumer('sid-keyframes', 'video')!.producerId;
    const layerSsrc = await layerSsrcs(source);

    for (const profile of ['low', 'high'] as const) {
      const before = keyframeRequests.length;
      await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-keyframes', profile });
      // The sender is asked for a keyframe of the layer switched to: the switch does not wait for its
      // next periodic keyframe. Going down that is at once, or once the sender's keyframe interval
      // is over (below); going up, once mediasoup targets the layer, which on a loaded machine can
      // wait for the bandwidth estimate.
      const askedSsrcs = () => keyframeRequests.slice(before).filter((request) => request.producerId === source).map((request) => request.ssrc);
      await expect.poll(askedSsrcs, { timeout: 20_000 }).toContain(layerSsrc.get(profile));
      await expect.poll(() => relayConsumer('sid-keyframes', 'video')?.currentSpatialLayer, { timeout: 20_000 }).toBe(profile === 'low' ? 0 : 2);
    }
  }, 90_000);
});

describe('A layer switch asked for within the sender\'s keyframe interval waits it out (KeyFrameSpacing): the sender hears the first request', () => {
  it('SET_CONSUMER_PROFILE low the moment a keyframe arrives: the relay moves the consumer to the low layer (and asks for its keyframe) 300 ms or more after the request that keyframe answered, and the switch', async () => {
    await senderWithVideoReceiver('spacing', 'sid-spacing');
    await expect.poll(() => relayConsumer('sid-spacing', 'video')?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);
    const { producerId: source, consumerId } = relayConsumer('sid-spacing', 'video')!;
    const lowSsrc = (await layerSsrcs(source)).get('low');

    // Switching to the medium layer asks the sender for a keyframe; the low layer is asked for as it arrives.
    const keyFrame = once(keyFramesArrived, source) as Promise<[number]>;
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-spacing', profile: 'medium' });
    const [keyFrameAt] = await keyFrame;
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-spacing', profile: 'low' });

    await expect.poll(() => relayConsumer('sid-spacing', 'video')?.currentSpatialLayer, { timeout: 20_000 }).toBe(0);
    // Moved at once, its keyframe request would come within the interval, be ignored, and be asked
    // again a second later. What the relay does is timed by its move, which makes that request:
    // other requests may reach the sender meanwhile (mediasoup repeating the medium layer's, a
    // receiver's packet lost beyond repair on a loaded machine), and the count of requests is no
    // sign either (on a loaded machine the heard request's keyframe can take longer than a second).
    const lowMove = layerMoves.find((move) => move.consumerId === consumerId && move.spatialLayer === 0);
    expect(lowMove).toBeDefined();
    // Timers fire on whole milliseconds.
    expect(lowMove!.at - heardRequestAt(source, keyFrameAt)).toBeGreaterThanOrEqual(SENDER_KEYFRAME_INTERVAL_MS - 1);
    expect(relaysOwnKeyframeRequests(source, lowMove!.at).filter((request) => request.ssrc === lowSsrc).length).toBeGreaterThan(0);
  }, 90_000);
});

describe('A consumer started within the sender\'s keyframe interval waits it out (KeyFrameSpacing): its first keyframe request is heard', () => {
  it('START_CONSUMER the moment a keyframe arrives: the consumer resumes (and asks for its keyframe) 300 ms or more after the request that keyframe answered, and the second receiver decodes', async () => {
    await senderWithVideoReceiver('late', 'sid-late-1');
    try {
      await expect.poll(() => relayConsumer('sid-late-1', 'video')?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);
      const source = relayConsumer('sid-late-1', 'video')!.producerId;
      const { sdp: offer } = (await client.ok('CREATE_CONSUMER', { id: 'sid-late-2', peerId: 'late-receiver-2', roomAddress: roomAddress(), roomId: 'rid', source: 'late', audio: false, video: true })) as {
        sdp: string;
      };
      const answer = await browser.receiverAnswer('late-receiver-2', offer);

      // The first receiver switching to the medium layer makes the sender send a keyframe; the second starts as it arrives.
      const keyFrame = once(keyFramesArrived, source) as Promise<[number]>;
      await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-late-1', profile: 'medium' });
      const [keyFrameAt] = await keyFrame;
      const from = performance.now();
      await client.ok('START_CONSUMER', { id: 'sid-late-2', sdp: answer });

      await expect.poll(async () => (await browser.received('late-receiver-2')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(0);
      // Resumed at once, its request would come within the interval, be ignored, and be asked again
      // a second later. What the relay does for this consumer is timed by its resume, which makes
      // its keyframe request: other requests may reach the sender meanwhile (mediasoup repeating
      // the first receiver's, a receiver's packet lost beyond repair on a loaded machine).
      const resumedAt = consumersResumedAt.get(relayConsumer('sid-late-2', 'video')!.consumerId);
      expect(resumedAt).toBeGreaterThan(from);
      // Timers fire on whole milliseconds.
      expect(resumedAt! - heardRequestAt(source, keyFrameAt)).toBeGreaterThanOrEqual(SENDER_KEYFRAME_INTERVAL_MS - 1);
      expect(relaysOwnKeyframeRequests(source, from).length).toBeGreaterThan(0);
    } finally {
      // The sender's connection ingests at most four streams: the next case needs one.
      await client.ok('DISPOSE', { id: 'late' });
    }
  }, 90_000);
});

describe('A video already on the layer asked for costs the sender no keyframe: the next switch has no interval to wait out', () => {
  it('SET_CONSUMER_PROFILE high for a video receiving the high layer: no keyframe request goes to the sender', async () => {
    await senderWithVideoReceiver('settled', 'sid-settled');
    try {
      await expect.poll(() => relayConsumer('sid-settled', 'video')?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);
      const source = relayConsumer('sid-settled', 'video')!.producerId;
      // A request still pending (its keyframe lost, or ignored within the sender's interval) is
      // sent again by mediasoup: the window starts once none can be.
      const sinceLastRequest = (): number => performance.now() - Math.max(-Infinity, ...keyframeRequests.filter((request) => request.producerId === source).map((request) => request.at));
      await expect.poll(sinceLastRequest, { timeout: 30_000 }).toBeGreaterThan(MEDIASOUP_KEYFRAME_RETRANSMISSION_MS + SENDER_KEYFRAME_INTERVAL_MS);
      const from = performance.now();
      await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-settled', profile: 'high' });
      await sleep(2 * SENDER_KEYFRAME_INTERVAL_MS);
      expect(relaysOwnKeyframeRequests(source, from)).toEqual([]);
      expect(relayConsumer('sid-settled', 'video')?.currentSpatialLayer).toBe(2);
    } finally {
      await client.ok('DISPOSE', { id: 'settled' });
    }
  }, 90_000);
});

describe('A layer the sender stops is left at once: its receivers move to the highest layer that still arrives, and back once it returns (LAYER_WATCH)', () => {
  it('the high layer stopped: a receiver asking for high is moved to medium, not left on nothing until mediasoup notices; restarted, it is moved back', async () => {
    await senderWithVideoReceiver('stopping', 'sid-stopping');
    await client.ok('SET_CONSUMER_PROFILE', { id: 'sid-stopping', profile: 'high' });
    await expect.poll(() => relayConsumer('sid-stopping', 'video')?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);

    await browser.setLayerActive('stopping-sender', 'high', false);
    // The receiver's own request stays high; what it is asked for follows what arrives.
    await expect.poll(() => relayConsumer('sid-stopping', 'video')?.preferredSpatialLayer, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => relayConsumer('sid-stopping', 'video')?.currentSpatialLayer, { timeout: 20_000 }).toBe(1);
    expect(relayConsumer('sid-stopping', 'video')?.profile).toBe('high');
    const decoded = (await browser.received('stopping-receiver')).framesDecoded;
    await expect.poll(async () => (await browser.received('stopping-receiver')).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(decoded);

    await browser.setLayerActive('stopping-sender', 'high', true);
    await expect.poll(() => relayConsumer('sid-stopping', 'video')?.preferredSpatialLayer, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => relayConsumer('sid-stopping', 'video')?.currentSpatialLayer, { timeout: 30_000 }).toBe(2);
  }, 120_000);
});
