import type { Stanzas } from 'stanza';
import { isRtpDescription } from '../descriptionInfo';

/** The fmtp parameter Chromium reads as the bandwidth estimate a sender starts from, in kbps. */
const START_BITRATE_PARAMETER = 'x-google-start-bitrate';

/** Payload types that carry no picture of their own (retransmission, redundancy, error correction). */
const REPAIR_CODECS = new Set(['rtx', 'red', 'ulpfec', 'flexfec-03']);

/**
 * A session-accept whose video codecs carry `x-google-start-bitrate=<kbps>`, for the sender to
 * apply in place of the answer it received (VIDEO_START_BITRATE_KBPS): StanzaJS writes codec
 * parameters as the answer's fmtp lines. The audio and every parameter already there are kept.
 */
export function withStartBitrate<Accept extends Pick<Stanzas.Jingle, 'contents'>>(accept: Accept, kbps: number): Accept {
  if (!accept.contents) return accept;
  const contents = accept.contents.map((content): Stanzas.JingleContent => {
    const application = content.application;
    if (!isRtpDescription(application) || application.media !== 'video' || !application.codecs) return content;
    const codecs = application.codecs.map((codec) =>
      REPAIR_CODECS.has(codec.name.toLowerCase()) ? codec : { ...codec, parameters: { ...codec.parameters, [START_BITRATE_PARAMETER]: String(kbps) } },
    );
    const described: Stanzas.JingleRtpDescription = { ...application, codecs };
    return { ...content, application: described };
  });
  return { ...accept, contents };
}
