import type { Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { withStartBitrate } from '../../src/main-thread/call/mesh/startBitrate';
import { fmtpLines, throughJingle } from './jingle-wire';

/** A receiver's answer as Chromium writes it, cut to what matters here: Opus, and VP8 and H.264 with their retransmission. */
const ANSWER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:abcd',
  'a=ice-pwd:abcdefghijklmnopqrstuvwx',
  'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
  'a=setup:active',
  'a=mid:0',
  'a=recvonly',
  'a=rtcp-mux',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:abcd',
  'a=ice-pwd:abcdefghijklmnopqrstuvwx',
  'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
  'a=setup:active',
  'a=mid:1',
  'a=recvonly',
  'a=rtcp-mux',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:102 H264/90000',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
  'a=rtpmap:103 rtx/90000',
  'a=fmtp:103 apt=102',
  '',
].join('\r\n');

/** The answer on the Jingle wire, then the SDP the sender applies from it. */
function appliedBySender(transform: (accept: Stanzas.Jingle) => Stanzas.Jingle): string {
  return throughJingle(ANSWER, 'responder', transform);
}

describe('A direct sender starts from VIDEO_START_BITRATE_KBPS (issue 14, the join path): the answer it applies says so for each video codec', () => {
  it('gives every video codec x-google-start-bitrate, keeping the parameters they had; retransmission and audio are left as they were', () => {
    const lines = fmtpLines(appliedBySender((accept) => withStartBitrate(accept, 1_000)));
    expect(lines).toContain('a=fmtp:96 x-google-start-bitrate=1000');
    expect(lines).toContain('a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f;x-google-start-bitrate=1000');
    expect(lines).toContain('a=fmtp:97 apt=96');
    expect(lines).toContain('a=fmtp:103 apt=102');
    expect(lines).toContain('a=fmtp:111 minptime=10;useinbandfec=1');
    expect(lines.filter((line) => line.includes('x-google-start-bitrate'))).toHaveLength(2);
  });

  it('changes nothing else of the answer', () => {
    const plain = appliedBySender((accept) => accept);
    const started = appliedBySender((accept) => withStartBitrate(accept, 1_000));
    // The origin line carries a random session id each time StanzaJS writes an SDP.
    const withoutStart = (sdp: string) => sdp.split('\r\n').filter((line) => !line.startsWith('o=') && !line.startsWith('a=fmtp:96') && !line.startsWith('a=fmtp:102'));
    expect(withoutStart(started)).toEqual(withoutStart(plain));
  });
});
