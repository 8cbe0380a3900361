import { describe, expect, it } from 'vitest';
import { answerInStereoWhereOffered, offeredInStereo, withAverageBitrate } from '../../src/main-thread/call/opusStereo';
import { fmtpLines, throughJingle } from './jingle-wire';

/** A description as Chromium writes it, cut to what matters here: a voice (mid 0), a screen's sound (mid 1), a video (mid 2). */
function description(type: 'offer' | 'answer', opusParameters: readonly [string | undefined, string | undefined]): string {
  const section = (kind: 'audio' | 'video', mid: number, codec: string[]) => [
    `m=${kind} 9 UDP/TLS/RTP/SAVPF ${kind === 'audio' ? 111 : 96}`,
    'c=IN IP4 0.0.0.0',
    'a=ice-ufrag:abcd',
    'a=ice-pwd:abcdefghijklmnopqrstuvwx',
    'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
    `a=setup:${type === 'offer' ? 'actpass' : 'active'}`,
    `a=mid:${mid}`,
    type === 'offer' ? 'a=sendonly' : 'a=recvonly',
    'a=rtcp-mux',
    ...codec,
  ];
  const opus = (parameters: string | undefined) => ['a=rtpmap:111 opus/48000/2', ...(parameters === undefined ? [] : [`a=fmtp:111 ${parameters}`])];
  return [
    'v=0',
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0 1 2',
    ...section('audio', 0, opus(opusParameters[0])),
    ...section('audio', 1, opus(opusParameters[1])),
    ...section('video', 2, ['a=rtpmap:96 VP8/90000', 'a=fmtp:96 x-google-start-bitrate=1000']),
    '',
  ].join('\r\n');
}

describe("A screen's sound goes in stereo at a music bitrate where its receiver takes it, a voice in mono (beyond the spec: RFC 7587's sprop-stereo and stereo)", () => {
  it("a screen sound's offer says its Opus is stereo (sprop-stereo=1), keeping its other parameters; the video is left as it was", () => {
    const offer = description('offer', ['minptime=10;useinbandfec=1', 'minptime=10;useinbandfec=1']);
    expect(fmtpLines(throughJingle(offer, 'initiator', offeredInStereo))).toEqual([
      'a=fmtp:111 minptime=10;useinbandfec=1;sprop-stereo=1',
      'a=fmtp:111 minptime=10;useinbandfec=1;sprop-stereo=1',
      'a=fmtp:96 x-google-start-bitrate=1000',
    ]);
  });

  it('the answer says stereo=1 for the Opus of each section whose offer says sprop-stereo=1 (by mid), and nothing for the others', () => {
    const offer = description('offer', ['minptime=10;useinbandfec=1', 'minptime=10;useinbandfec=1;sprop-stereo=1']);
    const answer = description('answer', ['minptime=10;useinbandfec=1', 'minptime=10;useinbandfec=1']);
    const stereo = answerInStereoWhereOffered(offer, answer);
    expect(fmtpLines(stereo)).toEqual(['a=fmtp:111 minptime=10;useinbandfec=1', 'a=fmtp:111 minptime=10;useinbandfec=1;stereo=1', 'a=fmtp:96 x-google-start-bitrate=1000']);
    // Nothing else of the answer changes.
    expect(stereo.replace(';stereo=1', '')).toBe(answer);
    expect(answerInStereoWhereOffered(offer, stereo)).toBe(stereo);
  });

  it('an answer whose Opus has no fmtp gets one; an offer that says nothing of stereo leaves the answer as it was', () => {
    const answer = description('answer', [undefined, undefined]);
    expect(fmtpLines(answerInStereoWhereOffered(description('offer', [undefined, 'sprop-stereo=1']), answer))).toEqual(['a=fmtp:111 stereo=1', 'a=fmtp:96 x-google-start-bitrate=1000']);
    expect(answerInStereoWhereOffered(description('offer', ['minptime=10', 'minptime=10']), answer)).toBe(answer);
  });

  it("the sender applies its receiver's answer with the Opus average bitrate it sends a screen's sound at", () => {
    const answer = description('answer', ['minptime=10;useinbandfec=1;stereo=1', undefined]);
    expect(fmtpLines(throughJingle(answer, 'responder', (accept) => withAverageBitrate(accept, 96_000)))).toEqual([
      'a=fmtp:111 minptime=10;useinbandfec=1;stereo=1;maxaveragebitrate=96000',
      'a=fmtp:111 maxaveragebitrate=96000',
      'a=fmtp:96 x-google-start-bitrate=1000',
    ]);
  });
});
