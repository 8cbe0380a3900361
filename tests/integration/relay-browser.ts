import { chromium, type Browser, type Page } from 'playwright-core';
import { SIMULCAST_LAYERS } from '../../src/protocol/constants';
import { TEST_CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';

/** What a receiving RTCPeerConnection has decoded so far. */
export interface ReceivedMedia {
  framesDecoded: number;
  frameWidth: number;
  audioPacketsReceived: number;
  iceConnectionState: string;
}

/**
 * Debian's Chromium with fake devices, driving plain RTCPeerConnections the way the 1.30.3 client
 * does (tests only): a sender offers camera (simulcast low/medium/high, SPEC §9) and microphone
 * for INGEST; a receiver answers a relay consumer offer as it would a Jingle session-initiate.
 */
export interface RelayBrowser {
  /**
   * Makes sender `name` and returns its complete offer (ICE gathered): a 720p camera in SPEC §9's
   * layers, or with `light` a 540p one whose layers are capped at LIGHT_LAYER_BITRATES.
   */
  senderOffer(name: string, options?: { light?: boolean }): Promise<string>;
  acceptAnswer(name: string, answer: string): Promise<void>;
  /** The sender's highest layer width as encoded (outbound-rtp with rid "high"). */
  sentWidth(name: string): Promise<number>;
  /** Stops or restarts one of the sender's simulcast layers, as its browser does when its bandwidth estimate drops or recovers. */
  setLayerActive(name: string, rid: string, active: boolean): Promise<void>;
  /** Makes receiver `name` for a consumer offer and returns its answer. */
  receiverAnswer(name: string, offer: string): Promise<string>;
  received(name: string): Promise<ReceivedMedia>;
  close(): Promise<void>;
}

/**
 * A light sender's layers' bitrates (bits per second): what a loaded machine's bandwidth estimate
 * towards a receiver keeps carrying, so that mediasoup's own layer moves stay out of a test of the
 * relay's.
 */
const LIGHT_LAYER_BITRATES = [100_000, 250_000, 600_000];

interface PageGlobals {
  parleyPeers: Map<string, RTCPeerConnection>;
}

/** Opens `url` (a page of a test server), or else an empty page served by a route. */
export async function launchRelayBrowser(url?: string): Promise<RelayBrowser & { page: Page }> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: TEST_CHROMIUM_ARGS });
  const page: Page = await browser.newPage();
  if (url) {
    await page.goto(url);
  } else {
    // getUserMedia needs a secure context: localhost is one, and the route means no server is needed.
    await page.route('http://localhost/**', (route) => route.fulfill({ body: '<!doctype html><title>relay test</title>', contentType: 'text/html' }));
    await page.goto('http://localhost/');
  }
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).parleyPeers = new Map();
  });
  return {
    page,
    senderOffer: (name, options) =>
      page.evaluate(
        async ({ name, layers, size }) => {
          const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: size });
          const pc = new RTCPeerConnection();
          (globalThis as unknown as PageGlobals).parleyPeers.set(name, pc);
          pc.addTransceiver(stream.getAudioTracks()[0]!, { direction: 'sendonly', streams: [stream] });
          pc.addTransceiver(stream.getVideoTracks()[0]!, { direction: 'sendonly', streams: [stream], sendEncodings: layers });
          await pc.setLocalDescription(await pc.createOffer());
          await new Promise<void>((resolve) => {
            if (pc.iceGatheringState === 'complete') resolve();
            pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
          });
          return pc.localDescription!.sdp;
        },
        {
          name,
          layers: SIMULCAST_LAYERS.map((layer, index) => (options?.light ? { ...layer, maxBitrate: LIGHT_LAYER_BITRATES[index] } : { ...layer })),
          size: options?.light ? { width: 960, height: 540 } : { width: 1280, height: 720 },
        },
      ),
    acceptAnswer: (name, answer) =>
      page.evaluate(
        async ({ name, answer }) => {
          await (globalThis as unknown as PageGlobals).parleyPeers.get(name)!.setRemoteDescription({ type: 'answer', sdp: answer });
        },
        { name, answer },
      ),
    sentWidth: (name) =>
      page.evaluate(async (name) => {
        const stats = await (globalThis as unknown as PageGlobals).parleyPeers.get(name)!.getStats();
        let width = 0;
        stats.forEach((report: { type: string; rid?: string; frameWidth?: number }) => {
          if (report.type === 'outbound-rtp' && report.rid === 'high') width = report.frameWidth ?? 0;
        });
        return width;
      }, name),
    setLayerActive: (name, rid, active) =>
      page.evaluate(
        async ({ name, rid, active }) => {
          const sender = (globalThis as unknown as PageGlobals).parleyPeers
            .get(name)!
            .getSenders()
            .find((candidate) => candidate.track?.kind === 'video')!;
          const parameters = sender.getParameters();
          for (const encoding of parameters.encodings) if (encoding.rid === rid) encoding.active = active;
          await sender.setParameters(parameters);
        },
        { name, rid, active },
      ),
    receiverAnswer: (name, offer) =>
      page.evaluate(
        async ({ name, offer }) => {
          const pc = new RTCPeerConnection();
          (globalThis as unknown as PageGlobals).parleyPeers.set(name, pc);
          await pc.setRemoteDescription({ type: 'offer', sdp: offer });
          await pc.setLocalDescription(await pc.createAnswer());
          return pc.localDescription!.sdp;
        },
        { name, offer },
      ),
    received: (name) =>
      page.evaluate(async (name) => {
        const pc = (globalThis as unknown as PageGlobals).parleyPeers.get(name)!;
        const media = { framesDecoded: 0, frameWidth: 0, audioPacketsReceived: 0, iceConnectionState: pc.iceConnectionState };
        (await pc.getStats()).forEach((report: { type: string; kind?: string; framesDecoded?: number; frameWidth?: number; packetsReceived?: number }) => {
          if (report.type !== 'inbound-rtp') return;
          if (report.kind === 'video') {
            media.framesDecoded = report.framesDecoded ?? 0;
            media.frameWidth = report.frameWidth ?? 0;
          } else if (report.kind === 'audio') {
            media.audioPacketsReceived = report.packetsReceived ?? 0;
          }
        });
        return media;
      }, name),
    close: () => browser.close(),
  };
}
