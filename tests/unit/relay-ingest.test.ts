// The relay ingest's camera encodings (RelayIngest), on a stand-in for mediasoup-client's send
// transport: what its RTCRtpSender is set to send.
import type { Device } from 'mediasoup-client';
import { describe, expect, it } from 'vitest';
import { RelayIngest, type IngestTrack } from '../../src/main-thread/call/relay/RelayIngest';
import type { RelayRpcClient } from '../../src/main-thread/call/relay/RelayRpcClient';
import { FakeTrack } from './track-fakes';

/** mediasoup-client's producer as far as the ingest uses it: its sender's encodings. */
class FakeProducer {
  readonly rtpSender: { getParameters: () => RTCRtpSendParameters; setParameters: (parameters: RTCRtpSendParameters) => Promise<void> };
  encodings: RTCRtpEncodingParameters[];

  constructor(
    encodings: readonly RTCRtpEncodingParameters[],
    readonly appData: Record<string, unknown>,
  ) {
    this.encodings = encodings.map((encoding) => ({ ...encoding }));
    this.rtpSender = {
      getParameters: () => ({ encodings: this.encodings.map((encoding) => ({ ...encoding })), transactionId: 't', codecs: [], headerExtensions: [], rtcp: {} }),
      setParameters: async (parameters) => {
        this.encodings = parameters.encodings;
      },
    };
  }

  async replaceTrack(): Promise<void> {}
  close(): void {}

  /** Which layers go out. */
  active(): boolean[] {
    return this.encodings.map((encoding) => encoding.active !== false);
  }
}

async function ingestWith(): Promise<{ ingest: RelayIngest; produced: FakeProducer[] }> {
  const produced: FakeProducer[] = [];
  const transport = {
    connectionState: 'connected',
    on: () => undefined,
    close: () => undefined,
    produce: async ({ encodings, appData }: { encodings?: RTCRtpEncodingParameters[]; appData: Record<string, unknown> }) => {
      const producer = new FakeProducer(encodings ?? [{}], appData);
      produced.push(producer);
      return producer;
    },
  };
  const device = { createSendTransport: () => transport } as unknown as Device;
  const rpc = { request: async () => ({}) } as unknown as RelayRpcClient;
  const ingest = await RelayIngest.create({ rpc, device, id: 'stream-1', roomAddress: 'room@muc.example', iceServers: [] });
  return { ingest, produced };
}

function camera(off: boolean): IngestTrack {
  return { itemId: 'camera', kind: 'video', track: new FakeTrack('video') as unknown as MediaStreamTrack, screenCapture: false, off };
}

describe('A camera turned off sends nothing to the relay (no black frames), so that its receivers see its video stop though its mute cannot reach them (issue 13)', () => {
  it('turned off, no layer is sent; on again, the layers the relay asks for (LAYERS_WANTED)', async () => {
    const { ingest, produced } = await ingestWith();
    await ingest.sync([camera(false)]);
    const [producer] = produced;
    await ingest.setLayersWanted(1);
    expect(producer!.active()).toEqual([true, true, false]);
    await ingest.setVideoOff('camera', true);
    expect(producer!.active()).toEqual([false, false, false]);
    await ingest.setLayersWanted(2);
    expect(producer!.active()).toEqual([false, false, false]);
    await ingest.setVideoOff('camera', false);
    expect(producer!.active()).toEqual([true, true, true]);
  });

  it('a camera already off when it is produced starts sending nothing; another item’s word changes nothing', async () => {
    const { ingest, produced } = await ingestWith();
    await ingest.sync([camera(true)]);
    expect(produced[0]!.active()).toEqual([false, false, false]);
    await ingest.setVideoOff('another camera', false);
    expect(produced[0]!.active()).toEqual([false, false, false]);
  });
});
