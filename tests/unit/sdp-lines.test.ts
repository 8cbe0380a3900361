import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import SDPUtils from 'sdp';
import type { Stanzas } from 'stanza';
import { MediaSession, SessionManager } from 'stanza/jingle';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParleyMediaSession, sessionInitiateOf } from '../../src/main-thread/call/ParleyMediaSession';
import { firstMediaIce, iceUfragOf, keepSdpLines } from '../../src/main-thread/call/sdpLines';

/** A sendonly audio + video offer as Chromium makes it (candidates gathered), for the description StanzaJS converts. */
const OFFER = readFileSync(new URL('./fixtures/chromium-offer.sdp', import.meta.url), 'utf8');
/** StanzaJS's SDP ↔ Jingle conversion, as its sessions call it (through this module object, so a spy on it sees their calls). */
const Intermediate = createRequire(import.meta.url)('stanza/jingle/sdp/Intermediate') as { importFromSDP: (sdp: string) => unknown };

afterEach(() => vi.restoreAllMocks());

describe('A join’s SDP work, made cheaper (issue 14): StanzaJS converts the same descriptions in fewer passes', () => {
  it('with the lines kept, a description converts to the same result, and each blob is split into lines once', () => {
    const blobs: string[] = [];
    const split = SDPUtils.splitLines;
    SDPUtils.splitLines = (blob) => {
      blobs.push(blob);
      return split(blob);
    };
    const before = Intermediate.importFromSDP(OFFER);
    const splitsBefore = blobs.splice(0).length;
    keepSdpLines();
    const after = Intermediate.importFromSDP(OFFER);

    expect(after).toEqual(before);
    expect(blobs.length).toBe(new Set(blobs).size);
    console.log(`splitLines on a Chromium audio + video offer: ${splitsBefore} splits, ${blobs.length} with the lines kept`);
  });

  it('reads a media section’s ICE ufrag, and the first section’s mid, from the lines alone', () => {
    expect(iceUfragOf(OFFER, '1')).toBe('ZGDN');
    expect(iceUfragOf(OFFER, '7')).toBeUndefined();
    expect(firstMediaIce(OFFER)).toEqual({ mid: '0', ufrag: 'ZGDN' });
    const sessionLevel = 'v=0\r\na=ice-ufrag:top\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:a\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:v\r\na=ice-ufrag:own\r\n';
    expect([iceUfragOf(sessionLevel, 'a'), iceUfragOf(sessionLevel, 'v')]).toEqual(['top', 'own']);
  });
});

/** A received session whose remote description is OFFER, with a peer connection that records the candidates added. */
function receivedSession() {
  const added: RTCIceCandidateInit[] = [];
  const sent: Stanzas.Jingle[] = [];
  const pc = {
    remoteDescription: { type: 'offer', sdp: OFFER } as RTCSessionDescription | null,
    localDescription: { type: 'answer', sdp: OFFER } as RTCSessionDescription | null,
    signalingState: 'stable' as RTCSignalingState,
    addIceCandidate: async (candidate: RTCIceCandidateInit) => void added.push(candidate),
    addEventListener: () => undefined,
    getReceivers: () => [],
    close: () => undefined,
  };
  const manager = new SessionManager({ createPeerConnection: () => pc as unknown as RTCPeerConnection });
  manager.on('send', (iq: { jingle?: Stanzas.Jingle }) => iq.jingle && sent.push(iq.jingle));
  const session = new ParleyMediaSession({ parent: manager, sid: 'sid-1', peerID: 'room@muc.test/alice', initiator: false, onDescription: () => undefined });
  const transportInfo = (ufrag: string): Promise<void> =>
    new Promise((done) =>
      session.process(
        'transport-info',
        {
          action: 'transport-info',
          sid: 'sid-1',
          contents: [
            {
              creator: 'initiator',
              name: '0',
              transport: {
                transportType: 'urn:xmpp:jingle:transports:ice-udp:1',
                usernameFragment: ufrag,
                candidates: [{ component: 1, foundation: '2638346620', generation: 0, id: 'c1', ip: '127.0.0.1', port: 59572, priority: 2122260223, protocol: 'udp', type: 'host' }],
              },
            },
          ],
        } as unknown as Stanzas.Jingle,
        () => done(),
      ),
    );
  return { pc, session, added, sent, transportInfo };
}

describe('A trickled candidate is added without converting the whole remote description again (issue 14)', () => {
  it('a candidate of the same ICE generation is added as StanzaJS adds it, without importFromSDP', async () => {
    const parse = vi.spyOn(Intermediate, 'importFromSDP');
    const { added, transportInfo } = receivedSession();
    await transportInfo('ZGDN');
    expect(parse).not.toHaveBeenCalled();
    expect(added).toEqual([{ sdpMid: '0', candidate: 'candidate:2638346620 1 UDP 2122260223 127.0.0.1 59572 typ host' }]);
  });

  it('a changed ufrag (an ICE restart) is StanzaJS’s to handle, with its full conversion', async () => {
    const parse = vi.spyOn(Intermediate, 'importFromSDP');
    const { transportInfo } = receivedSession();
    await transportInfo('RESTART');
    expect(parse).toHaveBeenCalled();
  });

  it('a candidate before the description is kept for it', async () => {
    const { pc, session, added, transportInfo } = receivedSession();
    pc.remoteDescription = null;
    pc.signalingState = 'have-local-offer';
    await transportInfo('ZGDN');
    expect(added).toEqual([]);
    expect(session.candidateBuffer).toHaveLength(1);
  });

  it('the end of candidates names the first media section and its ufrag, without importFromSDP', () => {
    const parse = vi.spyOn(Intermediate, 'importFromSDP');
    const { pc, sent } = receivedSession();
    (pc as unknown as { onicecandidate: (event: { candidate: null }) => void }).onicecandidate({ candidate: null });
    expect(parse).not.toHaveBeenCalled();
    expect(sent.map((jingle) => jingle.contents?.[0])).toEqual([
      { creator: 'initiator', name: '0', transport: { transportType: 'urn:xmpp:jingle:transports:ice-udp:1', gatheringComplete: true, usernameFragment: 'ZGDN' } },
    ]);
  });
});

/** What a session started on a connection offering OFFER sends, its id left out: `start` is StanzaJS's own, or the start from a session-initiate written ahead. */
async function initiateSent(start: (session: ParleyMediaSession) => Promise<void>): Promise<Partial<Stanzas.Jingle>> {
  const sent: Stanzas.Jingle[] = [];
  const pc = {
    localDescription: { type: 'offer', sdp: OFFER } as RTCSessionDescription,
    createOffer: async () => ({ type: 'offer', sdp: OFFER }),
    setLocalDescription: async () => undefined,
    addEventListener: () => undefined,
    getTransceivers: () => [],
  };
  const manager = new SessionManager({ createPeerConnection: () => pc as unknown as RTCPeerConnection });
  manager.on('send', (iq: { jingle?: Stanzas.Jingle }) => iq.jingle && sent.push(iq.jingle));
  const session = new ParleyMediaSession({ parent: manager, sid: 'sid-1', peerID: 'room@muc.test/bob', initiator: true, onDescription: () => undefined });
  await start(session);
  expect(sent).toHaveLength(1);
  expect(session.state).toBe('pending');
  expect(session.role).toBe('initiator');
  const { sid, ...initiate } = sent[0]!;
  expect(sid).toBe('sid-1');
  return initiate;
}

describe('An offer made ahead goes out as StanzaJS’s own start writes it, converted while it waits (issue 14, the join path)', () => {
  it('the session-initiate written ahead for a Chromium offer is the one MediaSession.start sends for it, the streams’ msid on every source of the FID group included', async () => {
    const ownStart = await initiateSent((session) => MediaSession.prototype.start.call(session));
    const written = sessionInitiateOf(OFFER);
    const parse = vi.spyOn(Intermediate, 'importFromSDP');
    const fromAhead = await initiateSent((session) => session.startPrepared(written));

    expect(fromAhead).toEqual(ownStart);
    expect(parse).not.toHaveBeenCalled();
    const video = ownStart.contents?.[1]?.application as Stanzas.JingleRtpDescription;
    expect(video.sources?.map((source) => [source.ssrc, source.parameters.msid])).toContainEqual(['3942731808', 'd342693d-e532-40e8-97d8-392495d9b3f8 6ca5815c-cd9d-45af-a6d3-9936aa9bcc9c']);
  });
});
