import type { Stanzas } from 'stanza';
import { exportToSDP, importFromSDP } from 'stanza/jingle';
import { convertIntermediateToRequest, convertRequestToIntermediate } from 'stanza/jingle/sdp/Protocol';
import { NS_JINGLE_ICE_UDP_1 } from 'stanza/Namespaces';

/**
 * `sdp` on the Jingle wire as its `writer` sends it (the initiator's offer, the responder's answer,
 * as StanzaJS's MediaSession writes them), changed there by `transform`, then the SDP the other side
 * applies from it (as StanzaJS's ICESession makes it).
 */
export function throughJingle(sdp: string, writer: 'initiator' | 'responder', transform: (jingle: Stanzas.Jingle) => Stanzas.Jingle): string {
  const action = writer === 'initiator' ? 'session-initiate' : 'session-accept';
  const jingle: Stanzas.Jingle = { ...convertIntermediateToRequest(importFromSDP(sdp), writer, NS_JINGLE_ICE_UDP_1), action, sid: 'sid-1' };
  return exportToSDP(convertRequestToIntermediate(transform(jingle), writer === 'initiator' ? 'responder' : 'initiator'));
}

/** A description's fmtp lines, in order. */
export function fmtpLines(sdp: string): string[] {
  return sdp.split('\r\n').filter((line) => line.startsWith('a=fmtp:'));
}
