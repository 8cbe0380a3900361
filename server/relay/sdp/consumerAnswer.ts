import type { types } from 'mediasoup';
import { SdpError } from '../errors';
import { attributeValue, mediaOrSessionValue, parseSessionDescription } from './SessionDescription';
import { dtlsFingerprint } from './transportLines';

export interface ConsumerAnswer {
  /** The receiver's DTLS parameters, with the role its `a=setup` took. */
  readonly dtlsParameters: types.DtlsParameters;
  /** Mids the receiver accepted (port not 0); the others it rejected. */
  readonly acceptedMids: ReadonlySet<string>;
}

/** START_CONSUMER: the receiver's answer to a consumer offer. */
export function readConsumerAnswer(sdp: string, offeredMids: readonly string[]): ConsumerAnswer {
  const answer = parseSessionDescription(sdp);
  const acceptedMids = new Set<string>();
  let fingerprint: string | undefined;
  let setup: string | undefined;
  for (const section of answer.media) {
    const mid = attributeValue(section.attributes, 'mid');
    if (mid === undefined || !offeredMids.includes(mid)) throw new SdpError(`the answer has media "${mid ?? '(no mid)'}" that the offer did not`);
    if (section.port === 0) continue;
    acceptedMids.add(mid);
    fingerprint ??= mediaOrSessionValue(answer, section, 'fingerprint');
    setup ??= mediaOrSessionValue(answer, section, 'setup');
  }
  if (acceptedMids.size === 0) throw new SdpError('the answer rejects every media section');
  if (!fingerprint) throw new SdpError('the answer has no a=fingerprint');
  // The offer said actpass: the answer must pick a side.
  if (setup !== 'active' && setup !== 'passive') throw new SdpError(`the answer's a=setup must be active or passive, not ${setup ?? 'missing'}`);
  return {
    dtlsParameters: { role: setup === 'active' ? 'client' : 'server', fingerprints: [dtlsFingerprint(fingerprint)] },
    acceptedMids,
  };
}
