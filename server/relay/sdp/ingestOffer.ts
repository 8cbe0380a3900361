import { randomBytes } from 'node:crypto';
import { ortc, type types } from 'mediasoup';
import { SdpError } from '../errors';
import {
  attributeValue,
  attributeValues,
  hasAttribute,
  mediaOrSessionValue,
  parseFormatParameters,
  parseSessionDescription,
  type MediaSection,
  type SessionDescription,
} from './SessionDescription';
import { dtlsFingerprint, type TransportDescription, writeTransportLines } from './transportLines';

/**
 * INGEST: a browser's plain SDP offer (PROTOCOL.md: the 1.30.3 client's, camera video with
 * `a=rid:low|medium|high send` and `a=simulcast:send low;medium;high`) becomes mediasoup producer
 * parameters, and the relay's answer is written for the transport that receives them.
 */

export interface ProducerPlan {
  readonly mid: string;
  readonly kind: types.MediaKind;
  readonly rtpParameters: types.RtpParameters;
  readonly streamId: string;
  readonly trackId: string;
}

interface AcceptedSection {
  readonly accepted: true;
  readonly section: MediaSection;
  readonly mid: string;
  readonly payloadTypes: readonly number[];
  readonly extensions: readonly { id: number; uri: string }[];
  readonly rids: readonly string[];
}
interface RejectedSection {
  readonly accepted: false;
  readonly section: MediaSection;
  readonly mid: string | undefined;
}
type AnswerSection = AcceptedSection | RejectedSection;

export interface IngestPlan {
  readonly producers: readonly ProducerPlan[];
  /** The offerer's DTLS parameters, its role being the one the answer leaves it. */
  readonly remoteDtlsParameters: types.DtlsParameters;
  readonly localSetup: 'active' | 'passive';
  readonly sections: readonly AnswerSection[];
  readonly extmapAllowMixed: boolean;
}

interface OfferedCodec {
  readonly payloadType: number;
  readonly name: string;
  readonly clockRate: number;
  readonly channels: number | undefined;
  readonly parameters: Record<string, string | number>;
  readonly rtcpFeedback: types.RtcpFeedback[];
}

const NOT_MEDIA_CODECS = new Set(['rtx', 'red', 'ulpfec', 'flexfec-03', 'cn', 'telephone-event']);
const FEEDBACK = new Set(['nack', 'nack pli', 'ccm fir', 'goog-remb', 'transport-cc']);
const RID_EXTENSION = 'urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id';
/**
 * Chromium starts its bandwidth estimate at 300 kbps and, against mediasoup, ramps slowly: the
 * high simulcast layer appeared only after ~21 s on loopback (mediasoup-client's path alike).
 * Starting at 1 Mbps, as mediasoup-client's `videoGoogleStartBitrate` codec option does, brings it sooner.
 */
const VIDEO_START_BITRATE_KBPS = 1000;

export function planIngest(sdp: string, capabilities: types.RtpCapabilities, streamId: string, maxProducers: number): IngestPlan {
  const offer = parseSessionDescription(sdp);
  if (offer.media.length > maxProducers + 2) throw new SdpError(`the offer has more than ${maxProducers + 2} media sections`);
  const bundled = new Set((attributeValue(offer.attributes, 'group') ?? '').split(' ').slice(1));
  const sections: AnswerSection[] = [];
  const producers: ProducerPlan[] = [];
  let fingerprint: string | undefined;
  let setup: string | undefined;
  for (const section of offer.media) {
    const mid = attributeValue(section.attributes, 'mid');
    const direction = ['sendonly', 'sendrecv', 'recvonly', 'inactive'].find((name) => hasAttribute(section.attributes, name)) ?? 'sendrecv';
    const sends = (section.kind === 'audio' || section.kind === 'video') && section.port !== 0 && (direction === 'sendonly' || direction === 'sendrecv');
    if (!sends || mid === undefined) {
      sections.push({ accepted: false, section, mid });
      continue;
    }
    if (offer.media.length > 1 && !bundled.has(mid)) throw new SdpError(`media "${mid}" is not in the offer's BUNDLE group: the relay takes one bundled transport`);
    if (producers.length >= maxProducers) throw new SdpError(`the offer sends more than ${maxProducers} media sections`);
    fingerprint ??= mediaOrSessionValue(offer, section, 'fingerprint');
    setup ??= mediaOrSessionValue(offer, section, 'setup');
    const { plan, answer } = planSection(offer, section, section.kind as types.MediaKind, mid, capabilities, streamId);
    producers.push(plan);
    sections.push(answer);
  }
  if (producers.length === 0) throw new SdpError('the offer sends no audio or video');
  if (!fingerprint) throw new SdpError('the offer has no a=fingerprint');
  // The offerer's `actpass` (or `active`) leaves it the DTLS client; only a `passive` offerer is the server.
  const offererIsServer = setup === 'passive';
  return {
    producers,
    remoteDtlsParameters: { role: offererIsServer ? 'server' : 'client', fingerprints: [dtlsFingerprint(fingerprint)] },
    localSetup: offererIsServer ? 'active' : 'passive',
    sections,
    extmapAllowMixed: hasAttribute(offer.attributes, 'extmap-allow-mixed'),
  };
}

export function writeIngestAnswer(plan: IngestPlan, transport: TransportDescription): string {
  const accepted = plan.sections.filter((section): section is AcceptedSection => section.accepted);
  const lines = [
    'v=0',
    `o=- ${BigInt(`0x${randomBytes(7).toString('hex')}`)} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=ice-lite',
    `a=group:BUNDLE ${accepted.map((section) => section.mid).join(' ')}`,
    ...(plan.extmapAllowMixed ? ['a=extmap-allow-mixed'] : []),
    'a=msid-semantic: WMS',
  ];
  for (const answer of plan.sections) {
    const { section } = answer;
    if (!answer.accepted) {
      lines.push(`m=${section.kind} 0 ${section.protocol} ${section.formats.join(' ')}`, 'c=IN IP4 0.0.0.0');
      if (answer.mid !== undefined) lines.push(`a=mid:${answer.mid}`);
      lines.push('a=inactive');
      continue;
    }
    const transportLines = writeTransportLines(transport, plan.localSetup);
    lines.push(`m=${section.kind} ${transportLines.port} ${section.protocol} ${answer.payloadTypes.join(' ')}`, transportLines.connection);
    lines.push(`a=mid:${answer.mid}`, 'a=recvonly', ...transportLines.attributes, 'a=rtcp-mux');
    if (hasAttribute(section.attributes, 'rtcp-rsize')) lines.push('a=rtcp-rsize');
    const [mediaPayloadType, ...repairPayloadTypes] = answer.payloadTypes;
    lines.push(...codecLines(section, mediaPayloadType!, section.kind === 'video' ? VIDEO_START_BITRATE_KBPS : undefined));
    for (const payloadType of repairPayloadTypes) lines.push(...codecLines(section, payloadType));
    for (const extension of answer.extensions) lines.push(`a=extmap:${extension.id} ${extension.uri}`);
    if (answer.rids.length > 0) {
      lines.push(...answer.rids.map((rid) => `a=rid:${rid} recv`), `a=simulcast:recv ${answer.rids.join(';')}`);
    }
    lines.push(...transportLines.candidates);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The offer's own rtpmap / fmtp / rtcp-fb lines for one payload type, feedback limited to what
 * the relay handles, and optionally Chromium's start bitrate added to the fmtp.
 */
function codecLines(section: MediaSection, payloadType: number, startBitrateKbps?: number): string[] {
  const own = (name: string): string[] =>
    attributeValues(section.attributes, name).filter((value) => value.split(' ')[0] === String(payloadType));
  const feedback = own('rtcp-fb').filter((value) => FEEDBACK.has(value.split(' ').slice(1).join(' ')));
  const fmtp = own('fmtp')[0]?.slice(String(payloadType).length + 1);
  const startBitrate = startBitrateKbps === undefined ? [] : [`x-google-start-bitrate=${startBitrateKbps}`];
  const parameters = [...(fmtp ? [fmtp] : []), ...startBitrate].join(';');
  return [
    ...own('rtpmap').map((value) => `a=rtpmap:${value}`),
    ...feedback.map((value) => `a=rtcp-fb:${value}`),
    ...(parameters ? [`a=fmtp:${payloadType} ${parameters}`] : []),
  ];
}

function planSection(
  offer: SessionDescription,
  section: MediaSection,
  kind: types.MediaKind,
  mid: string,
  capabilities: types.RtpCapabilities,
  defaultStreamId: string,
): { plan: ProducerPlan; answer: AcceptedSection } {
  const codecs = offeredCodecs(section);
  const extensions = offeredExtensions(section, kind, capabilities);
  const rids = offeredRids(section);
  if (rids.length > 0 && !extensions.some((extension) => extension.uri === RID_EXTENSION)) {
    throw new SdpError(`media "${mid}" uses rids without the ${RID_EXTENSION} header extension`);
  }
  const encodings = rids.length > 0 ? rids.map((rid) => ({ rid })) : ssrcEncodings(section, mid);
  const ssrcAttributes = attributeValues(section.attributes, 'ssrc');
  const cname = ssrcAttributes.map((value) => /^\d+ cname:(.+)$/.exec(value)?.[1]).find(Boolean) ?? randomBytes(8).toString('base64url');
  const msid = (attributeValue(section.attributes, 'msid') ?? ssrcAttributes.map((value) => /^\d+ msid:(.+)$/.exec(value)?.[1]).find(Boolean) ?? '').split(' ');
  const streamId = msid[0] && msid[0] !== '-' ? msid[0] : defaultStreamId;
  const trackId = msid[1] ?? `${kind}-${mid}`;

  const rtxFor = repairCodecs(codecs);
  for (const codec of codecs) {
    if (NOT_MEDIA_CODECS.has(codec.name.toLowerCase())) continue;
    const rtx = rtxFor.get(codec.payloadType);
    const rtpParameters: types.RtpParameters = {
      mid,
      codecs: [codec, ...(rtx ? [rtx] : [])].map((c) => ({
        mimeType: `${kind}/${c.name}`,
        payloadType: c.payloadType,
        clockRate: c.clockRate,
        ...(c.channels !== undefined ? { channels: c.channels } : {}),
        parameters: c.parameters,
        rtcpFeedback: c.rtcpFeedback,
      })),
      headerExtensions: extensions.map(({ id, uri }) => ({ id, uri: uri as types.RtpHeaderExtensionUri })),
      encodings,
      rtcp: { cname, reducedSize: hasAttribute(section.attributes, 'rtcp-rsize') },
    };
    if (!forwardable(rtpParameters, capabilities)) continue;
    return {
      plan: { mid, kind, rtpParameters, streamId, trackId },
      answer: { accepted: true, section, mid, payloadTypes: rtpParameters.codecs.map((c) => c.payloadType), extensions, rids },
    };
  }
  throw new SdpError(`media "${mid}" offers no ${kind} codec the relay forwards (${kindCodecNames(capabilities, kind)})`);
}

/** The first rtx codec offered for each payload type (its `apt`). */
function repairCodecs(codecs: readonly OfferedCodec[]): Map<string | number, OfferedCodec> {
  const rtxFor = new Map<string | number, OfferedCodec>();
  for (const codec of codecs) {
    const apt = codec.parameters.apt;
    if (codec.name.toLowerCase() === 'rtx' && apt !== undefined && !rtxFor.has(apt)) rtxFor.set(apt, codec);
  }
  return rtxFor;
}

/** mediasoup's own matching (H264 profiles included) decides whether a router can take these parameters. */
function forwardable(rtpParameters: types.RtpParameters, capabilities: types.RtpCapabilities): boolean {
  try {
    ortc.getProducerRtpParametersMapping(structuredClone(rtpParameters), capabilities);
    return true;
  } catch {
    return false;
  }
}

function kindCodecNames(capabilities: types.RtpCapabilities, kind: types.MediaKind): string {
  return (capabilities.codecs ?? [])
    .filter((codec) => codec.kind === kind && !codec.mimeType.endsWith('/rtx'))
    .map((codec) => codec.mimeType.split('/')[1])
    .join(', ');
}

function offeredCodecs(section: MediaSection): OfferedCodec[] {
  const lines = codecAttributesByPayloadType(section);
  const wildcardFeedback = lines.get('*')?.rtcpFeedback ?? [];
  return section.formats.flatMap((format) => {
    const payloadType = Number(format);
    const own = lines.get(format);
    const [name, clockRate, channels] = (own?.rtpmap ?? '').split('/');
    if (!Number.isInteger(payloadType) || !name || !clockRate || !Number.isInteger(Number(clockRate))) return [];
    const rtcpFeedback = [...(own?.rtcpFeedback ?? []), ...wildcardFeedback]
      .filter((value) => FEEDBACK.has(value))
      .map((value) => {
        const [type = '', parameter] = value.split(' ');
        return parameter ? { type, parameter } : { type };
      });
    return [
      {
        payloadType,
        name,
        clockRate: Number(clockRate),
        channels: channels ? Number(channels) : section.kind === 'audio' ? 1 : undefined,
        parameters: parseFormatParameters(own?.fmtp ?? ''),
        rtcpFeedback,
      },
    ];
  });
}

interface CodecAttributes {
  rtpmap: string | undefined;
  fmtp: string | undefined;
  rtcpFeedback: string[];
}

/**
 * A section's rtpmap, fmtp and rtcp-fb values (the text after the payload type) by payload type,
 * read in one pass: the first rtpmap and fmtp of each count. `*` holds rtcp-fb for every codec.
 */
function codecAttributesByPayloadType(section: MediaSection): Map<string, CodecAttributes> {
  const byPayloadType = new Map<string, CodecAttributes>();
  for (const { name, value } of section.attributes) {
    if (value === undefined || (name !== 'rtpmap' && name !== 'fmtp' && name !== 'rtcp-fb')) continue;
    const space = value.indexOf(' ');
    const payloadType = space < 0 ? value : value.slice(0, space);
    const rest = space < 0 ? '' : value.slice(space + 1);
    let codec = byPayloadType.get(payloadType);
    if (!codec) {
      codec = { rtpmap: undefined, fmtp: undefined, rtcpFeedback: [] };
      byPayloadType.set(payloadType, codec);
    }
    if (name === 'rtcp-fb') codec.rtcpFeedback.push(rest);
    else codec[name] ??= rest;
  }
  return byPayloadType;
}

function offeredExtensions(section: MediaSection, kind: types.MediaKind, capabilities: types.RtpCapabilities): { id: number; uri: string }[] {
  const supported = new Set(
    (capabilities.headerExtensions ?? [])
      .filter((extension) => extension.kind === kind && extension.direction !== 'sendonly' && extension.direction !== 'inactive')
      .map((extension) => extension.uri as string),
  );
  return attributeValues(section.attributes, 'extmap').flatMap((value) => {
    const match = /^(\d+)(?:\/\w+)? (\S+)/.exec(value);
    if (!match || !supported.has(match[2]!)) return [];
    return [{ id: Number(match[1]), uri: match[2]! }];
  });
}

/** The send rids in simulcast order (first alternative of each; a `~` paused prefix dropped). */
function offeredRids(section: MediaSection): string[] {
  const sendRids = attributeValues(section.attributes, 'rid')
    .map((value) => value.split(' '))
    .filter(([, direction]) => direction === 'send')
    .map(([rid]) => rid!);
  const simulcast = /^send (\S+)/.exec(attributeValue(section.attributes, 'simulcast') ?? '')?.[1];
  const ordered = simulcast ? simulcast.split(';').map((alternatives) => alternatives.split(',')[0]!.replace(/^~/, '')) : sendRids;
  return ordered.filter((rid) => sendRids.includes(rid));
}

/** Encodings from ssrc signalling: one stream (plus its FID repair stream), or SIM-group layers. */
function ssrcEncodings(section: MediaSection, mid: string): types.RtpEncodingParameters[] {
  const groups = attributeValues(section.attributes, 'ssrc-group').map((value) => value.split(' '));
  const repairOf = new Map(groups.filter(([semantics]) => semantics === 'FID').map(([, primary, repair]) => [Number(primary), Number(repair)]));
  const repairs = new Set(repairOf.values());
  const simulcast = groups.find(([semantics]) => semantics === 'SIM')?.slice(1).map(Number);
  const ssrcs = [...new Set(attributeValues(section.attributes, 'ssrc').map((value) => Number(value.split(' ')[0])))];
  const primaries = simulcast ?? ssrcs.filter((ssrc) => !repairs.has(ssrc)).slice(0, 1);
  if (primaries.length === 0 || primaries.some((ssrc) => !Number.isInteger(ssrc))) {
    throw new SdpError(`media "${mid}" signals neither rids nor ssrcs`);
  }
  return primaries.map((ssrc) => {
    const repair = repairOf.get(ssrc);
    return repair !== undefined ? { ssrc, rtx: { ssrc: repair } } : { ssrc };
  });
}
