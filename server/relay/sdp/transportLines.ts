import type { types } from 'mediasoup';
import { SdpError } from '../errors';

/** What SDP needs from a mediasoup WebRtcTransport: ice-lite credentials, host candidates, DTLS. */
export interface TransportDescription {
  readonly iceParameters: types.IceParameters;
  readonly iceCandidates: readonly types.IceCandidate[];
  readonly dtlsParameters: types.DtlsParameters;
}

const ALGORITHMS: readonly types.FingerprintAlgorithm[] = ['sha-1', 'sha-224', 'sha-256', 'sha-384', 'sha-512'];

/** Reads `a=fingerprint` text: `sha-256 AB:CD:…`. */
export function dtlsFingerprint(text: string): types.DtlsFingerprint {
  const [algorithm = '', value = ''] = text.trim().split(/\s+/);
  const normalised = algorithm.toLowerCase() as types.FingerprintAlgorithm;
  if (!ALGORITHMS.includes(normalised) || !/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2})+$/.test(value)) {
    throw new SdpError(`unusable a=fingerprint "${text.slice(0, 120)}"`);
  }
  return { algorithm: normalised, value };
}

/**
 * The per-media transport lines of a relay description: the first candidate's address in `c=`
 * and the m-line port, ICE credentials, the sha-256 fingerprint, the DTLS setup, and every
 * candidate inline with `a=end-of-candidates` (ice-lite: nothing trickles).
 */
export function writeTransportLines(
  transport: TransportDescription,
  setup: 'active' | 'passive' | 'actpass',
): { port: number; connection: string; attributes: string[]; candidates: string[] } {
  const first = transport.iceCandidates[0];
  if (!first) throw new Error('a relay transport has no ICE candidate');
  const fingerprint =
    transport.dtlsParameters.fingerprints.find((candidate) => candidate.algorithm === 'sha-256') ?? transport.dtlsParameters.fingerprints[0];
  if (!fingerprint) throw new Error('a relay transport has no DTLS fingerprint');
  return {
    port: first.port,
    connection: `c=IN ${first.address.includes(':') ? 'IP6' : 'IP4'} ${first.address}`,
    attributes: [
      `a=ice-ufrag:${transport.iceParameters.usernameFragment}`,
      `a=ice-pwd:${transport.iceParameters.password}`,
      `a=fingerprint:${fingerprint.algorithm} ${fingerprint.value}`,
      `a=setup:${setup}`,
    ],
    candidates: [
      ...transport.iceCandidates.map(
        (candidate) =>
          `a=candidate:${candidate.foundation} 1 ${candidate.protocol} ${candidate.priority} ${candidate.address} ${candidate.port} typ ${candidate.type}` +
          (candidate.tcpType ? ` tcptype ${candidate.tcpType}` : ''),
      ),
      'a=end-of-candidates',
    ],
  };
}
