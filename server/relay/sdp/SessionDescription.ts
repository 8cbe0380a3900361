import { SdpError } from '../errors';

/**
 * The few parts of an SDP (RFC 8866) the relay reads: session and media attributes, media lines
 * and connection lines. Other lines (o=, s=, t=, b=, …) are accepted and ignored. Size is bounded
 * by the JSON-RPC message limit before this runs.
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
      media.push({ kind, port: Number(port), protocol, formats: formats.trim().split(' ').filter(Boolean), attributes: [] });
    } else if (type === 'a') {
      const colon = value.indexOf(':');
      const attribute = colon < 0 ? { name: value, value: undefined } : { name: value.slice(0, colon), value: value.slice(colon + 1) };
      (media.at(-1)?.attributes ?? session).push(attribute);
    }
  }
  return { attributes: session, media };
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
