import { JXT, Namespaces } from 'stanza';
import { NS_TALKY_CORE } from './namespaces';

/**
 * PROTOCOL.md "Jingle": the talky.io extensions inside Jingle contents.
 * - `<ice-lite/>` in an ICE-UDP transport: the far end is ice-lite (relay offers).
 * - `<data name/>` in an RTP description (description-info): the name of a track.
 * - `<screen id/>` in an RTP description (description-info): that track is a screen capture.
 * - `<simulcast profile/>` in an RTP description (description-info from the receiver): the quality
 *   it asks for; `off` stops the video.
 */
export type SimulcastProfile = 'high' | 'medium' | 'low' | 'off';

export interface TalkyTrackData {
  name?: string;
}
export interface TalkyScreenCapture {
  /** The sender's track id. */
  id?: string;
}
export interface TalkySimulcast {
  profile?: SimulcastProfile;
}

// Merged into StanzaJS's own declaration (re-exported as Stanzas.JingleRtpDescription).
declare module 'stanza/protocol/xep0167' {
  interface JingleRtpDescription {
    trackData?: TalkyTrackData[];
    screenCaptures?: TalkyScreenCapture[];
    simulcast?: TalkySimulcast;
  }
}

const { NS_JINGLE_ICE_UDP_1, NS_JINGLE_RTP_1 } = Namespaces;

export const talkyJingleDefinitions: JXT.DefinitionOptions[] = [
  {
    // Adds a field to StanzaJS's own ICE-UDP transport (same element, namespace and type).
    element: 'transport',
    namespace: NS_JINGLE_ICE_UDP_1,
    path: 'iq.jingle.contents.transport',
    type: NS_JINGLE_ICE_UDP_1,
    typeField: 'transportType',
    fields: { iceLite: JXT.childBoolean(NS_TALKY_CORE, 'ice-lite') },
  },
  {
    element: 'data',
    namespace: NS_TALKY_CORE,
    aliases: [{ path: 'iq.jingle.contents.application.trackData', multiple: true, selector: NS_JINGLE_RTP_1 }],
    fields: { name: JXT.attribute('name') },
  },
  {
    element: 'screen',
    namespace: NS_TALKY_CORE,
    aliases: [{ path: 'iq.jingle.contents.application.screenCaptures', multiple: true, selector: NS_JINGLE_RTP_1 }],
    fields: { id: JXT.attribute('id') },
  },
  {
    element: 'simulcast',
    namespace: NS_TALKY_CORE,
    aliases: [{ path: 'iq.jingle.contents.application.simulcast', selector: NS_JINGLE_RTP_1 }],
    fields: { profile: JXT.attribute('profile') },
  },
];
