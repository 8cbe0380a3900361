import type { types } from 'mediasoup';
import { writeFormatParameters } from './SessionDescription';
import { type TransportDescription, writeTransportLines } from './transportLines';

/** One consumer as its media section describes it. */
export interface ConsumedTrack {
  readonly mid: string;
  readonly kind: types.MediaKind;
  readonly rtpParameters: types.RtpParameters;
  readonly streamId: string;
  readonly trackId: string;
}

/**
 * CREATE_CONSUMER's offer (PROTOCOL.md): ice-lite, candidates inline, one sendonly m-line per
 * consumed kind, the stream signalled by `a=ssrc` (and `a=ssrc-group:FID` with its RTX stream),
 * no rids — what StanzaJS's SDP↔Jingle conversion carries, so the sender can deliver it to the
 * receiver as an ordinary session-initiate.
 */
export function writeConsumerOffer(sessionId: string, transport: TransportDescription, tracks: readonly ConsumedTrack[]): string {
  const streamIds = [...new Set(tracks.map((track) => track.streamId))];
  const lines = [
    'v=0',
    `o=- ${sessionId} 1 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=ice-lite',
    `a=group:BUNDLE ${tracks.map((track) => track.mid).join(' ')}`,
    `a=msid-semantic: WMS ${streamIds.join(' ')}`,
  ];
  for (const track of tracks) {
    const transportLines = writeTransportLines(transport, 'actpass');
    const { codecs, headerExtensions = [], encodings = [], rtcp } = track.rtpParameters;
    lines.push(`m=${track.kind} ${transportLines.port} UDP/TLS/RTP/SAVPF ${codecs.map((codec) => codec.payloadType).join(' ')}`, transportLines.connection);
    lines.push(`a=mid:${track.mid}`, 'a=sendonly', ...transportLines.attributes, 'a=rtcp-mux');
    if (rtcp?.reducedSize !== false) lines.push('a=rtcp-rsize');
    for (const codec of codecs) {
      const [, name] = codec.mimeType.split('/');
      const channels = codec.channels && codec.channels > 1 ? `/${codec.channels}` : '';
      lines.push(`a=rtpmap:${codec.payloadType} ${name}/${codec.clockRate}${channels}`);
      for (const feedback of codec.rtcpFeedback ?? []) {
        lines.push(`a=rtcp-fb:${codec.payloadType} ${feedback.type}${feedback.parameter ? ` ${feedback.parameter}` : ''}`);
      }
      const parameters = writeFormatParameters(codec.parameters ?? {});
      if (parameters) lines.push(`a=fmtp:${codec.payloadType} ${parameters}`);
    }
    for (const extension of headerExtensions) lines.push(`a=extmap:${extension.id} ${extension.uri}`);
    const msid = `${track.streamId} ${track.trackId}`;
    lines.push(`a=msid:${msid}`);
    const encoding = encodings[0];
    const ssrcs = [encoding?.ssrc, encoding?.rtx?.ssrc].filter((ssrc): ssrc is number => ssrc !== undefined);
    if (ssrcs.length === 2) lines.push(`a=ssrc-group:FID ${ssrcs.join(' ')}`);
    for (const ssrc of ssrcs) lines.push(`a=ssrc:${ssrc} cname:${rtcp?.cname ?? track.streamId}`, `a=ssrc:${ssrc} msid:${msid}`);
    lines.push(...transportLines.candidates);
  }
  return `${lines.join('\r\n')}\r\n`;
}
