import type { Stanzas } from 'stanza';
import { exportToSDP, importFromSDP } from 'stanza/jingle';
import { convertIntermediateToRequest, convertRequestToIntermediate } from 'stanza/jingle/sdp/Protocol';
import { NS_JINGLE_ICE_UDP_1 } from 'stanza/Namespaces';
import { isRtpDescription } from '../descriptionInfo';

/** What a relay offer becomes on the Jingle wire: the session-initiate's contents and BUNDLE group. */
export type RelayOfferJingle = Required<Pick<Stanzas.Jingle, 'contents' | 'groups'>>;

function isIceTransport(transport: Stanzas.JingleTransport | undefined): transport is Stanzas.JingleIce {
  return transport?.transportType === NS_JINGLE_ICE_UDP_1;
}

/**
 * The relay's CREATE_CONSUMER offer (ice-lite, candidates inline, ssrc-signalled, no rids) as an
 * ordinary session-initiate, converted by StanzaJS's SDP helpers exactly as MediaSession.start
 * converts the mesh's offers: every content is the initiator's, the msid travels on the ssrc
 * sources too (StanzaJS's streams compatibility), and each transport says `<ice-lite/>`
 * (PROTOCOL.md), so that the receiver's RTCPeerConnection takes the controlling ICE role.
 */
export function relayOfferToJingle(sdp: string): RelayOfferJingle {
  const request = convertIntermediateToRequest(importFromSDP(sdp), 'initiator', NS_JINGLE_ICE_UDP_1);
  const contents = (request.contents ?? []).map((content): Stanzas.JingleContent => {
    const transport = isIceTransport(content.transport) ? { ...content.transport, iceLite: true } : content.transport;
    const application = isRtpDescription(content.application) ? withMsidOnSources(content.application) : content.application;
    return { ...content, creator: 'initiator', ...(transport ? { transport } : {}), ...(application ? { application } : {}) };
  });
  return { contents, groups: request.groups ?? [] };
}

/** StanzaJS signals `.streams` as `a=ssrc:… msid:` as well (MediaSession's applyStreamsCompatibility). */
function withMsidOnSources(application: Stanzas.JingleRtpDescription): Stanzas.JingleRtpDescription {
  const stream = application.streams?.[0];
  const [main] = application.sources ?? [];
  if (!stream || !main) return application;
  const msid = `${stream.id} ${stream.track ?? ''}`.trim();
  const sources: Stanzas.JingleRtpSource[] = [{ ...main, parameters: { ...main.parameters, msid } }];
  const rtx = application.sourceGroups?.[0]?.sources[1];
  if (rtx !== undefined) sources.push({ ssrc: rtx, parameters: { cname: main.parameters.cname ?? '', msid } });
  return { ...application, sources };
}

/** The receiver's session-accept as the SDP answer START_CONSUMER takes (StanzaJS's conversion, as ICESession.onSessionAccept does). */
export function relayAnswerSdp(accept: Stanzas.Jingle): string {
  return exportToSDP(convertRequestToIntermediate(accept, 'responder'));
}

/** A session-initiate whose transport is marked `<ice-lite/>`: a relay consumer's (the far end is the relay). */
export function offersIceLite(jingle: Pick<Stanzas.Jingle, 'contents'> | undefined): boolean {
  return (jingle?.contents ?? []).some((content) => isIceTransport(content.transport) && content.transport.iceLite === true);
}
