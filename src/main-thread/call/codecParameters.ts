import type { Stanzas } from 'stanza';
import { isRtpDescription } from './descriptionInfo';

/** Payload types that carry no media of their own (retransmission, redundancy, error correction). */
const REPAIR_CODECS = new Set(['rtx', 'red', 'ulpfec', 'flexfec-03']);

/**
 * A Jingle offer or answer whose `media` codecs (those `named`, or every one that carries media)
 * have `parameters` added: StanzaJS writes codec parameters as the description's fmtp lines. Every
 * parameter already there is kept unless named again; other media are left as they were.
 */
export function withCodecParameters<Request extends Pick<Stanzas.Jingle, 'contents'>>(
  request: Request,
  media: 'audio' | 'video',
  parameters: Readonly<Record<string, string>>,
  named?: string,
): Request {
  if (!request.contents) return request;
  const takes = (codec: Stanzas.JingleRtpCodec): boolean => {
    const name = codec.name.toLowerCase();
    return named === undefined ? !REPAIR_CODECS.has(name) : name === named;
  };
  const contents = request.contents.map((content): Stanzas.JingleContent => {
    const application = content.application;
    if (!isRtpDescription(application) || application.media !== media || !application.codecs) return content;
    const codecs = application.codecs.map((codec) => (takes(codec) ? { ...codec, parameters: { ...codec.parameters, ...parameters } } : codec));
    const described: Stanzas.JingleRtpDescription = { ...application, codecs };
    return { ...content, application: described };
  });
  return { ...request, contents };
}
