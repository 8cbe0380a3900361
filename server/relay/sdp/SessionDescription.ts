import { RELAY_LIMITS } from '../../../src/protocol/relay';
import { SdpError } from '../errors';

/**
 * The few parts of an SDP (RFC 8866) the relay reads: session and media attributes, media lines
 * and connection lines. Other lines (o=, s=, t=, b=, …) are accepted and ignored. Size is bounded
 * by the JSON-RPC message limit before this runs; within it, payload types and attributes per
 * section are bounded too, so that what reads a section per payload type stays cheap.
 */

export interface SdpAttribute {
  readonly name: string;
  /** The text after the first ':'; undefined for a flag such as `a=rtcp-mux`. */
  readonly value: string | undefined;
}

export interface MediaSection {
  readonly kind: string;
  readonly port: number;
  readonly protocol: string;
  /** Payload types (for RTP media), in preference order. */
  readonly formats: readonly string[];
  readonly attributes: readonly SdpAttribute[];
}

export interface SessionDescription {
  readonly attributes: readonly SdpAttribute[];
  readonly media: readonly MediaSection[];
}

const LINE = /^([a-z])=(.*)$/;
const MEDIA_LINE = /^(\w+) (\d+)(?:\/\d+)? (\S+)((?: \S+)*)$/;
/** RTP payload types are 7-bit (RFC 3550 §5.1): a media line can list no more than these. */
const RTP_PAYLOAD_TYPES = 128;
const ATTRIBUTES = RELAY_LIMITS.sdpAttributesPerSection;

export function parseSessionDescription(text: string): SessionDescription {
  const lines = text.split(/\r?\n/).filter((line) => line.length > 0);
  if (lines[0] !== 'v=0') throw new SdpError('an SDP starts with "v=0"');
  const session: SdpAttribute[] = [];
  const media: { kind: string; port: number; protocol: string; formats: string[]; attributes: SdpAttribute[] }[] = [];
  for (const line of lines) {
    const match = LINE.exec(line);
    if (!match) throw new SdpError(`malformed line "${line.slice(0, 80)}"`);
    const [, type, value = ''] = match;
    if (type === 'm') {
      const mediaLine = MEDIA_LINE.exec(value);
      if (!mediaLine) throw new SdpError(`malformed media line "m=${value.slice(0, 80)}"`);
      const [, kind = '', port = '', protocol = '', formats = ''] = mediaLine;
      media.push({ kind, port: Number(port), protocol, formats: mediaFormats(kind, formats), attributes: [] });
    } else if (type === 'a') {
      const colon = value.indexOf(':');
      const attribute = colon < 0 ? { name: value, value: undefined } : { name: value.slice(0, colon), value: value.slice(colon + 1) };
      const section = media.at(-1);
      const attributes = section?.attributes ?? session;
      if (attributes.length >= ATTRIBUTES) {
        throw new SdpError(`${section ? mediaLineName(section.kind) : 'the session level'} has more than ${ATTRIBUTES} a= lines`);
      }
      attributes.push(attribute);
    }
  }
  return { attributes: session, media };
}

/** A media line's formats (payload types, for RTP), at most RTP_PAYLOAD_TYPES and none twice. */
function mediaFormats(kind: string, text: string): string[] {
  const formats = text.trim().split(' ').filter(Boolean);
  if (formats.length > RTP_PAYLOAD_TYPES) throw new SdpError(`${mediaLineName(kind)} lists more than ${RTP_PAYLOAD_TYPES} payload types`);
  const seen = new Set<string>();
  for (const format of formats) {
    if (seen.has(format)) throw new SdpError(`${mediaLineName(kind)} lists payload type ${format.slice(0, 20)} twice`);
    seen.add(format);
  }
  return formats;
}

function mediaLineName(kind: string): string {
  return `media line "m=${kind.slice(0, 20)}"`;
}

export function attributeValues(attributes: readonly SdpAttribute[], name: string): string[] {
  return attributes.filter((attribute) => attribute.name === name).map((attribute) => attribute.value ?? '');
}

export function attributeValue(attributes: readonly SdpAttribute[], name: string): string | undefined {
  return attributes.find((attribute) => attribute.name === name)?.value;
}

export function hasAttribute(attributes: readonly SdpAttribute[], name: string): boolean {
  return attributes.some((attribute) => attribute.name === name);
}

/** A media-level attribute, else the session-level one (fingerprint, setup, ice-ufrag may be either). */
export function mediaOrSessionValue(description: SessionDescription, section: MediaSection, name: string): string | undefined {
  return attributeValue(section.attributes, name) ?? attributeValue(description.attributes, name);
}

/** `a=fmtp` parameters: `key=value;key=value`. Numeric values become numbers, as mediasoup expects. */
export function parseFormatParameters(text: string): Record<string, string | number> {
  const parameters: Record<string, string | number> = {};
  for (const pair of text.split(';')) {
    const [key, ...rest] = pair.trim().split('=');
    if (!key) continue;
    const value = rest.join('=');
    // profile-level-id is hex: "640032" must stay a string.
    parameters[key] = key !== 'profile-level-id' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return parameters;
}

export function writeFormatParameters(parameters: Readonly<Record<string, unknown>>): string {
  return Object.entries(parameters)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(';');
}
