import type { Stanzas } from 'stanza';
import { withCodecParameters } from '../codecParameters';

/** The fmtp parameter Chromium reads as the bandwidth estimate a sender starts from, in kbps. */
const START_BITRATE_PARAMETER = 'x-google-start-bitrate';

/**
 * A session-accept whose video codecs carry `x-google-start-bitrate=<kbps>`, for the sender to
 * apply in place of the answer it received (VIDEO_START_BITRATE_KBPS). The audio, retransmission
 * and every parameter already there are kept.
 */
export function withStartBitrate<Accept extends Pick<Stanzas.Jingle, 'contents'>>(accept: Accept, kbps: number): Accept {
  return withCodecParameters(accept, 'video', { [START_BITRATE_PARAMETER]: String(kbps) });
}
