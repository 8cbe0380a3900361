import SDPUtils from 'sdp';
import type { Stanzas } from 'stanza';
import { withCodecParameters } from './codecParameters';

/*
 * A shared screen's sound in stereo, at a music bitrate (RFC 7587's Opus parameters). Its sender
 * says in its offer that the audio is likely stereo (`sprop-stereo=1`); a receiver that reads it
 * answers `stereo=1`. Chromium needs that answer on both sides — the receiver's decoder follows the
 * answer it sets, the sender's encoder the answer it applies — and otherwise decodes and encodes
 * mono, a voice's 32 kbps. A voice's offer says nothing, so voices stay mono.
 */

const OPUS = 'opus';
const OPUS_RTPMAP = /^a=rtpmap:(\d+) opus\/48000/i;

/** The session-initiate of a session that sends a screen's sound: its Opus said to be stereo. */
export function offeredInStereo<Initiate extends Pick<Stanzas.Jingle, 'contents'>>(initiate: Initiate): Initiate {
  return withCodecParameters(initiate, 'audio', { 'sprop-stereo': '1' }, OPUS);
}

/** The receiver's answer to a screen's sound, as its sender applies it: Opus encoded at `bitrate` (bps) on average. */
export function withAverageBitrate<Accept extends Pick<Stanzas.Jingle, 'contents'>>(accept: Accept, bitrate: number): Accept {
  return withCodecParameters(accept, 'audio', { maxaveragebitrate: String(bitrate) }, OPUS);
}

/**
 * `answerSdp` with `stereo=1` on the Opus of each media section whose offer (`offerSdp`, same mid)
 * says `sprop-stereo=1`; as it was where none does.
 */
export function answerInStereoWhereOffered(offerSdp: string, answerSdp: string): string {
  const stereo = new Set(SDPUtils.getMediaSections(offerSdp).filter((section) => opusParameters(section).get('sprop-stereo') === '1').map(SDPUtils.getMid));
  if (stereo.size === 0) return answerSdp;
  const [session = '', ...media] = SDPUtils.splitSections(answerSdp);
  return [session, ...media.map((section) => (stereo.has(SDPUtils.getMid(section)) ? withStereo(section) : section))].join('');
}

/** Where a media section's lines describe Opus: its rtpmap line, payload type and fmtp line (-1 without one); undefined without Opus. */
function opusIn(lines: readonly string[]): { rtpmap: number; payload: string; fmtp: number } | undefined {
  const rtpmap = lines.findIndex((line) => OPUS_RTPMAP.test(line));
  const payload = rtpmap < 0 ? undefined : OPUS_RTPMAP.exec(lines[rtpmap]!)?.[1];
  if (payload === undefined) return undefined;
  return { rtpmap, payload, fmtp: lines.findIndex((line) => line.startsWith(`a=fmtp:${payload} `)) };
}

/** An fmtp line's parameters, by name; none without the line. */
function fmtpParameters(line: string | undefined): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const pair of line?.slice(line.indexOf(' ') + 1).split(';') ?? []) {
    const [name = '', value = ''] = pair.split('=');
    parameters.set(name.trim(), value.trim());
  }
  return parameters;
}

/** A media section's Opus fmtp parameters, by name; none without Opus. */
function opusParameters(section: string): Map<string, string> {
  const lines = section.split(/\r?\n/);
  const opus = opusIn(lines);
  return fmtpParameters(opus === undefined || opus.fmtp < 0 ? undefined : lines[opus.fmtp]);
}

/** The media section with `stereo=1` on its Opus fmtp (a line of its own if it had none). */
function withStereo(section: string): string {
  const lines = section.trimEnd().split(/\r?\n/);
  const opus = opusIn(lines);
  if (opus === undefined) return section;
  if (opus.fmtp < 0) lines.splice(opus.rtpmap + 1, 0, `a=fmtp:${opus.payload} stereo=1`);
  else if (!fmtpParameters(lines[opus.fmtp]).has('stereo')) lines[opus.fmtp] += ';stereo=1';
  return `${lines.join('\r\n')}\r\n`;
}
