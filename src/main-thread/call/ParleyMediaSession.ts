import type { Stanzas } from 'stanza';
import { JINGLE_INFO_ACTIVE } from 'stanza/Constants';
import { MediaSession } from 'stanza/jingle';
import type { MediaSessionOpts } from 'stanza/jingle/MediaSession';
import type { ActionCallback } from 'stanza/jingle/Session';
import type { MediaKind } from '../media';
import { readDescriptionInfo, type MediaDescription } from './descriptionInfo';

export interface ParleyMediaSessionOptions extends MediaSessionOpts {
  /** A description-info arrived (names, screen marks, or the receiver's quality request). */
  readonly onDescription: (session: ParleyMediaSession, descriptions: readonly MediaDescription[]) => void;
}

/**
 * StanzaJS's MediaSession with Parley's one-way media (PROTOCOL.md): the initiator only sends
 * (sendonly transceivers, so every content is `senders='initiator'`), and description-info is
 * understood instead of being answered with unsupported-info.
 */
export class ParleyMediaSession extends MediaSession {
  private readonly onDescription: ParleyMediaSessionOptions['onDescription'];

  constructor(options: ParleyMediaSessionOptions) {
    super(options);
    this.onDescription = options.onDescription;
  }

  /** Adds a track to send; MediaSession.addTrack would make it sendrecv. */
  addSendOnlyTrack(track: MediaStreamTrack, stream: MediaStream): Promise<void> {
    if (track.kind === 'audio') this.includesAudio = true;
    else this.includesVideo = true;
    return this.processLocal('add-sendonly-track', async () => {
      this.pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
    });
  }

  /** Swaps the track a sender sends (a new camera or microphone): no renegotiation. */
  replaceSentTrack(kind: MediaKind, track: MediaStreamTrack): Promise<void> {
    return this.processLocal('replace-track', async () => {
      await this.sender(kind)?.replaceTrack(track);
    });
  }

  /** Mesh quality `off` / on: pauses or resumes the video encodings, keeping the track. */
  setVideoActive(active: boolean): Promise<void> {
    return this.processLocal('video-active', async () => {
      const sender = this.sender('video');
      if (!sender) return;
      const parameters = sender.getParameters();
      if (parameters.encodings.every((encoding) => encoding.active === active)) return;
      for (const encoding of parameters.encodings) encoding.active = active;
      await sender.setParameters(parameters);
    });
  }

  /**
   * Tells the sender that this session's media decodes here (a session-info `active`, XEP-0167):
   * while moving a stream from one path to another it keeps the old one until then (PathChange).
   */
  sayDecoding(): Promise<void> {
    return this.processLocal('active', async () => {
      this.send('session-info', { info: { infoType: JINGLE_INFO_ACTIVE } });
    });
  }

  sendDescriptionInfo(contents: Stanzas.JingleContent[]): Promise<void> {
    return this.processLocal('description-info', async () => {
      this.send('description-info', { contents });
    });
  }

  /** The sender of our one track of a kind. */
  sender(kind: MediaKind): RTCRtpSender | undefined {
    return this.pc
      .getTransceivers()
      .find((transceiver) => transceiver.direction === 'sendonly' && transceiver.sender.track?.kind === kind)?.sender;
  }

  /** The receiver that carries a remote track, for its statistics. */
  receiverOf(track: MediaStreamTrack): RTCRtpReceiver | undefined {
    return this.pc.getReceivers().find((receiver) => receiver.track === track);
  }

  protected override onDescriptionInfo(changes: Stanzas.Jingle, cb: ActionCallback): void {
    this.onDescription(this, readDescriptionInfo(changes));
    cb();
  }
}
