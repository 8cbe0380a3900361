import type { Stanzas } from 'stanza';
import { NS_JINGLE_RTP_1 } from 'stanza/Namespaces';
import type { SimulcastProfile } from '../../protocol/stanzas/talkyJingle';
import type { MediaKind } from '../media';

const PROFILES: ReadonlySet<string> = new Set<SimulcastProfile>(['high', 'medium', 'low', 'off']);

/** What a description-info says about one media kind of a session (PROTOCOL.md). */
export interface MediaDescription {
  readonly kind: MediaKind;
  /** `<data name/>`: the track's name. */
  readonly name: string | undefined;
  /** `<screen id/>`: the track is a screen capture. */
  readonly screenCapture: boolean;
  /** `<simulcast profile/>`: the quality the receiver asks for. */
  readonly profile: SimulcastProfile | undefined;
}

/** A Jingle content's application that is an RTP description (XEP-0167). */
export function isRtpDescription(application: Stanzas.JingleApplication | undefined): application is Stanzas.JingleRtpDescription {
  return application?.applicationType === NS_JINGLE_RTP_1;
}

/**
 * Reads a description-info. Contents are named by media kind (`audio` / `video`), not by mid;
 * anything else, and unknown profiles, are ignored (the peer is untrusted).
 */
export function readDescriptionInfo(jingle: Pick<Stanzas.Jingle, 'contents'>): MediaDescription[] {
  const descriptions: MediaDescription[] = [];
  for (const content of jingle.contents ?? []) {
    const application = content.application;
    if ((content.name !== 'audio' && content.name !== 'video') || !isRtpDescription(application)) continue;
    const name = application.trackData?.find((data) => typeof data.name === 'string')?.name;
    const profile = application.simulcast?.profile;
    descriptions.push({
      kind: content.name,
      name,
      screenCapture: (application.screenCaptures ?? []).length > 0,
      profile: profile !== undefined && PROFILES.has(profile) ? profile : undefined,
    });
  }
  return descriptions;
}

/** A sent item as description-info describes it. */
export interface DescribedTrack {
  readonly kind: MediaKind;
  readonly trackId: string;
  readonly name: string | undefined;
  readonly screenCapture: boolean;
}

function content(kind: MediaKind, fields: Partial<Stanzas.JingleRtpDescription>): Stanzas.JingleContent {
  const application: Stanzas.JingleRtpDescription = { applicationType: NS_JINGLE_RTP_1, media: kind, ...fields };
  return { creator: 'initiator', name: kind, application };
}

/**
 * The sender's description-info contents: names and screen marks; empty when there is nothing to
 * say. Only a screen's video is marked, as 1.30.3 marks it: the sound that travels with it in its
 * session is the screen's by that session.
 */
export function describeTracks(tracks: readonly DescribedTrack[]): Stanzas.JingleContent[] {
  const marked = (track: DescribedTrack) => track.screenCapture && track.kind === 'video';
  return tracks
    .filter((track) => track.name !== undefined || marked(track))
    .map((track) =>
      content(track.kind, {
        ...(track.name !== undefined ? { trackData: [{ name: track.name }] } : {}),
        ...(marked(track) ? { screenCaptures: [{ id: track.trackId }] } : {}),
      }),
    );
}

/** The receiver's description-info asking for a video quality. */
export function describeProfile(profile: SimulcastProfile): Stanzas.JingleContent[] {
  return [content('video', { simulcast: { profile } })];
}

/** On a mesh session `off` stops sending video and any other profile resumes it. */
export function sendsVideo(profile: SimulcastProfile): boolean {
  return profile !== 'off';
}
