import { createClient, JXT, type Stanzas } from 'stanza';
import { exportToSDP, importFromSDP } from 'stanza/jingle';
import { convertIntermediateToRequest, convertRequestToIntermediate } from 'stanza/jingle/sdp/Protocol';
import { NS_JINGLE_ICE_UDP_1 } from 'stanza/Namespaces';
import { beforeAll, describe, expect, it } from 'vitest';
import { offersIceLite, relayAnswerSdp, relayOfferToJingle } from '../../src/main-thread/call/relay/relayJingle';
import type { RelayRpcClient } from '../../src/main-thread/call/relay/RelayRpcClient';
import type { ConsumerIceStateParams } from '../../src/protocol/relay';
import { parleyStanzas } from '../../src/protocol/stanzas';
import { ManualClock } from '../support/ManualClock';
import { providerConfig, useParley } from '../support/parley';
import { until } from '../support/until';
import { connectClient, ingestCameraAndMicrophone } from './relay-ingest';

/**
 * The relay's consumer offer on the Jingle wire (PROTOCOL.md "Jingle" / "Media relay"): a real
 * CREATE_CONSUMER offer from the real relay, converted with StanzaJS's SDP helpers into a
 * session-initiate, exported to XML and read back as the receiver's shared worker does, then
 * turned into the SDP the receiver's RTCPeerConnection takes; and the receiver's answer back
 * into START_CONSUMER, which the relay accepts.
 */

const parley = useParley();
let client: RelayRpcClient;
let offer: string;
let room: string;

beforeAll(async () => {
  const { sfuServer } = await providerConfig(parley());
  if (!sfuServer) throw new Error('the test Parley runs no relay');
  client = await connectClient(sfuServer.url, sfuServer.password, new ManualClock());
  room = `jingle@${parley().settings.mucDomain}`;
  await ingestCameraAndMicrophone(client, 'camera-stream', room);
  ({ sdp: offer } = await client.request('CREATE_CONSUMER', { id: 'sid-jingle', peerId: 'bob', roomAddress: room, roomId: room, source: 'camera-stream', audio: true, video: true }));
  return () => client.close();
});

/** Exports a Jingle IQ to XML text and imports it back, as the workers' clients do on the wire. */
function wire(jingle: Stanzas.Jingle): { xml: string; parsed: Stanzas.Jingle } {
  const stanzaClient = createClient({});
  stanzaClient.use(parleyStanzas);
  const xml = stanzaClient.stanzas.export('iq', { type: 'set', id: 'i1', to: 'room@muc/bob', jingle })?.toString() ?? '';
  const parsed = stanzaClient.stanzas.import(JXT.parse(xml)) as Stanzas.IQ & { jingle: Stanzas.Jingle };
  return { xml, parsed: parsed.jingle };
}

function iceOf(content: Stanzas.JingleContent | undefined): Stanzas.JingleIce {
  const transport = content?.transport;
  if (transport?.transportType !== NS_JINGLE_ICE_UDP_1) throw new Error('no ICE-UDP transport');
  return transport as Stanzas.JingleIce;
}

function rtpOf(content: Stanzas.JingleContent | undefined): Stanzas.JingleRtpDescription {
  return content?.application as Stanzas.JingleRtpDescription;
}

describe('a relay consumer offer as a Jingle session-initiate', () => {
  it('is ice-lite, ssrc-signalled, with candidates inline and contents sent by the initiator', () => {
    const jingle = relayOfferToJingle(offer);
    expect(jingle.contents.map((content) => [content.name, content.creator, content.senders])).toEqual([
      ['audio', 'initiator', 'initiator'],
      ['video', 'initiator', 'initiator'],
    ]);
    expect(jingle.groups).toEqual([{ semantics: 'BUNDLE', contents: ['audio', 'video'] }]);
    for (const content of jingle.contents) {
      const ice = iceOf(content);
      expect(ice.iceLite).toBe(true);
      expect(ice.usernameFragment).toBeTruthy();
      expect(ice.candidates?.[0]).toMatchObject({ ip: '127.0.0.1', protocol: 'udp', type: 'host' });
      expect(ice.fingerprints?.[0]).toMatchObject({ algorithm: 'sha-256', setup: 'actpass' });
    }
    const video = rtpOf(jingle.contents[1]);
    // The stream and track ids the sender ingested with, on the a=msid and on the ssrc sources.
    expect(video.streams).toEqual([{ id: 'camera-stream', track: 'camera-track' }]);
    expect(video.ssrc).toBeTruthy();
    expect(video.sourceGroups?.[0]?.semantics).toBe('FID');
    expect(video.sources?.map((source) => source.parameters.msid)).toEqual(['camera-stream camera-track', 'camera-stream camera-track']);
    expect(video.codecs?.map((codec) => codec.name)).toContain('VP8');
    expect(offersIceLite(jingle)).toBe(true);
  });

  it('keeps <ice-lite/> and the ssrcs through XML, and the receiver gets an ice-lite SDP it can answer', () => {
    const { xml, parsed } = wire({ sid: 'sid-jingle', action: 'session-initiate', ...relayOfferToJingle(offer) });
    expect(xml).toContain('<ice-lite xmlns="https://talky.io/ns/core"/>');
    expect(xml).toMatch(/<source xmlns="urn:xmpp:jingle:apps:rtp:ssma:0" ssrc="\d+">/);
    expect(offersIceLite(parsed)).toBe(true);

    // What the receiver's MediaSession.onSessionInitiate hands its RTCPeerConnection.
    const sdp = exportToSDP(convertRequestToIntermediate(parsed, 'initiator'));
    expect(sdp).toMatch(/^a=ice-lite\r$/m);
    expect(sdp).toMatch(/^a=ssrc-group:FID \d+ \d+\r$/m);
    expect(sdp).toMatch(/^a=msid:camera-stream camera-track\r$/m);
    expect(sdp).toMatch(/^a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 \d+ typ host/im);
    expect(sdp).toMatch(/^a=sendonly\r$/m);
    expect(sdp).toMatch(/^a=setup:actpass\r$/m);
  });

  it('a mesh offer (no a=ice-lite) is not taken for a relay one', () => {
    const mesh = convertIntermediateToRequest(importFromSDP(offer.replace('a=ice-lite\r\n', '')), 'initiator', NS_JINGLE_ICE_UDP_1);
    expect(offersIceLite(mesh)).toBe(false);
  });

  it("the receiver's session-accept becomes the answer START_CONSUMER takes", async () => {
    const notifications: ConsumerIceStateParams[] = [];
    client.on('consumerIceState', (params) => notifications.push(params));
    // A Chromium-like answer, converted to Jingle the way the receiver's MediaSession.accept does.
    const answer = [
      'v=0',
      'o=- 1 2 IN IP4 127.0.0.1',
      's=-',
      't=0 0',
      'a=group:BUNDLE audio video',
      ...['audio', 'video'].flatMap((mid) => [
        `m=${mid} 9 UDP/TLS/RTP/SAVPF ${mid === 'audio' ? 100 : 101}`,
        'c=IN IP4 0.0.0.0',
        `a=rtpmap:${mid === 'audio' ? '100 opus/48000/2' : '101 VP8/90000'}`,
        'a=ice-ufrag:abcd',
        'a=ice-pwd:abcdefghijklmnopqrstuvwx',
        'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
        'a=setup:active',
        `a=mid:${mid}`,
        'a=recvonly',
        'a=rtcp-mux',
      ]),
      '',
    ].join('\r\n');
    const accept = convertIntermediateToRequest(importFromSDP(answer), 'responder', NS_JINGLE_ICE_UDP_1);
    const { parsed } = wire({ sid: 'sid-jingle', action: 'session-accept', ...accept, contents: accept.contents?.map((content) => ({ ...content, creator: 'initiator' as const })) });
    const sdp = relayAnswerSdp(parsed);
    expect(sdp).toMatch(/^a=setup:active\r$/m);
    expect(sdp).toMatch(/^a=recvonly\r$/m);
    expect(await client.request('START_CONSUMER', { id: 'sid-jingle', sdp })).toEqual({});
    await until(() => notifications.some((params) => params.id === 'sid-jingle'), 'CONSUMER_ICE_STATE');
    expect(notifications.find((params) => params.id === 'sid-jingle')?.iceConnectionState).toBe('checking');
  });
});
