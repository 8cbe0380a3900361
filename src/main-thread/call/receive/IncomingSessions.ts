import type { createStore } from 'jotai';
import type { Stanzas } from 'stanza';
import type { SessionManager, Session as BaseSession } from 'stanza/jingle';
import type { MediaSessionOpts } from 'stanza/jingle/MediaSession';
import { NS_JINGLE_RTP_1 } from 'stanza/Namespaces';
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/logger';
import { InvalidMutePropertyError, type MediaItems, type MediaKind } from '../../media';
import type { CallSession } from '../CallSession';
import type { CallSessions } from '../CallSessions';
import type { MediaDescription } from '../descriptionInfo';
import { ParleyMediaSession } from '../ParleyMediaSession';
import { peersAtom } from '../../sessionAtoms';
import { offersIceLite } from '../relay/relayJingle';
import type { TheirSession } from '../ReceiveFirst';
import { ReceivedVideo } from './ReceivedVideo';

type JotaiStore = ReturnType<typeof createStore>;

/** StanzaJS passes incoming-session options untyped; these are the fields it sets (SessionManager.process). */
export type IncomingSessionOptions = MediaSessionOpts & { applicationTypes: string[] };
/** The session-initiate StanzaJS hands prepareSession beside the options. */
export type IncomingRequest = { jingle?: Pick<Stanzas.Jingle, 'contents'> } | undefined;

export interface IncomingSessionsOptions {
  readonly roomAddress: string;
  readonly store: JotaiStore;
  readonly manager: SessionManager;
  readonly sessions: CallSessions;
  /** The tab's media items: what we receive is added here. */
  readonly media: MediaItems;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This tab is in the call: offers are accepted, else declined. */
  readonly inCall: () => boolean;
  /** The width relay senders capture at (relaySenderWidth of the config's tiers). */
  readonly captureWidth: () => number;
  /** A session we receive is connected (ReceiveFirst waits for it). */
  readonly connected: () => void;
  /** Whether a request a session sent reached its peer (JingleLink.delivered). */
  readonly delivered: (request: object) => Promise<boolean> | undefined;
  /** Signalling reaches this person now (the room is joined and lists them): their Jingle mute can reach us. */
  readonly signallingReaches: (peerAddress: string) => boolean;
}

/**
 * The sessions we receive (PROTOCOL.md one-way sessions), mesh and relay alike — a relay
 * consumer's offer is an ordinary session-initiate whose transport is ice-lite: accepted while
 * this tab is in the call, declined otherwise; their tracks become remote media items, with the
 * sender's names, screen marks and mute state. What the person sees of them is ReceivedVideo's.
 */
export class IncomingSessions {
  readonly view: ReceivedVideo;
  private readonly unsubscribes: Array<() => void> = [];

  constructor(private readonly options: IncomingSessionsOptions) {
    const { manager, sessions, media } = options;
    this.view = new ReceivedVideo({ ...options, show: (call, track, stream) => this.add(call, track, stream) });
    const incoming = (session: BaseSession): void => this.onIncoming(session);
    const trackAdded = (session: BaseSession, track: MediaStreamTrack, stream: MediaStream | undefined): void => this.onTrack(session, track, stream);
    const trackRemoved = (session: BaseSession, track: MediaStreamTrack): void => this.onTrackGone(session, track);
    const mute = (session: BaseSession, info: Stanzas.JingleInfo): void => this.onMute(session, info, true);
    const unmute = (session: BaseSession, info: Stanzas.JingleInfo): void => this.onMute(session, info, false);
    manager.on('incoming', incoming);
    manager.on('peerTrackAdded', trackAdded);
    manager.on('peerTrackRemoved', trackRemoved);
    manager.on('mute', mute);
    manager.on('unmute', unmute);
    this.unsubscribes.push(
      () => {
        manager.off('incoming', incoming);
        manager.off('peerTrackAdded', trackAdded);
        manager.off('peerTrackRemoved', trackRemoved);
        manager.off('mute', mute);
        manager.off('unmute', unmute);
      },
      sessions.on('connectionState', (call, state) => {
        if (call.sending || state !== 'connected') return;
        this.view.connected(call);
        this.options.connected();
      }),
      sessions.on('ended', (call) => {
        if (call.sending) return;
        this.view.ended(call);
        for (const id of call.received.values()) media.remove(id);
      }),
      media.on('removed', (item) => this.view.forget(item)),
    );
  }

  /** StanzaJS's prepareSession: an RTP offer gets a ParleyMediaSession, anything else (file transfer, …) StanzaJS's base session, which can only be ended. */
  prepare(meta: IncomingSessionOptions, request: IncomingRequest): ParleyMediaSession | undefined {
    if (!meta.applicationTypes.includes(NS_JINGLE_RTP_1)) return undefined;
    // StanzaJS lets a session-initiate under the sid of a session still pending take its place (a
    // relay consumer made anew under its id): the old one ends here unsaid — its sender has moved on
    // to the new one, which a session-terminate of that sid would end — and its connection closes.
    if (meta.sid !== undefined) this.options.manager.sessions[meta.sid]?.end('success', true);
    const session = new ParleyMediaSession({ ...meta, onDescription: (from, descriptions) => this.onDescription(from, descriptions) });
    const call = this.options.sessions.register(session, undefined);
    // Issue 13: a person the room shows muted stays muted on their new session until it says unmute
    // (the sender states it once answered): its audio may arrive before its mute session-info.
    const peer = Object.values(this.options.store.get(peersAtom)).find((candidate) => candidate.address === call.peerAddress);
    if (peer?.muted === true) call.remoteMuted.add('audio');
    // PROTOCOL.md: an ice-lite transport marks a relay consumer's offer.
    if (offersIceLite(request?.jingle)) call.path = 'relay';
    return session;
  }

  /**
   * Follows the room: out of the call we receive nothing (sessions still undecided are declined
   * when their accept runs); a sender that left the room is gone. A sender that only left the call
   * ends its own sessions.
   */
  follow(present: ReadonlySet<string>, inCall: boolean): void {
    const { sessions } = this.options;
    for (const call of sessions.all()) {
      if (call.sending) continue;
      if (!present.has(call.peerAddress)) call.session.end('gone', true);
      else if (!inCall && call.accepted) sessions.end(call, 'success');
    }
  }

  /** How `peerAddress`'s sessions to us stand: connected once one of them is. */
  theirSession(peerAddress: string): TheirSession {
    const theirs = this.options.sessions.all().filter((call) => !call.sending && call.peerAddress === peerAddress);
    if (theirs.some((call) => call.session.connectionState === 'connected')) return 'connected';
    return theirs.length > 0 ? 'pending' : 'none';
  }

  /** The RTCRtpReceiver of a remote media item: its statistics (inbound-rtp) for quality displays and tests. */
  receiver(mediaId: string): RTCRtpReceiver | undefined {
    const track = this.options.media.getTrack(mediaId);
    const call = this.options.sessions.all().find((candidate) => [...candidate.received.values()].includes(mediaId));
    return track && call?.session.receiverOf(track);
  }

  close(): void {
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    this.view.dispose();
  }

  /** PROTOCOL.md: a responder accepts when it is in the call and terminates otherwise. */
  private onIncoming(session: BaseSession): void {
    const { sessions } = this.options;
    // Ended while its offer was applied (another took its sid, the call closed): nothing to decide.
    if (session.state === 'ended') return;
    const call = sessions.get(session);
    if (!call) {
      session.end('unsupported-applications');
      return;
    }
    sessions.publish(call);
    // Decided when the accept runs, so that leaving the call meanwhile declines it.
    void sessions.run(call, 'accept', async () => {
      if (!this.options.inCall()) {
        sessions.end(call, 'decline');
        return;
      }
      await call.session.accept();
      // A failed answer has ended the session (failed-application): its tracks are not media.
      if (!sessions.isCurrent(call)) return;
      call.accepted = true;
      this.view.accepted(call);
    });
  }

  /** Tracks arrive while the offer is applied; they become media items once the session is accepted (and has taken over). */
  private onTrack(session: BaseSession, track: MediaStreamTrack, stream: MediaStream | undefined): void {
    const call = this.options.sessions.get(session);
    if (!call || call.sending) return;
    call.tracks.push({ track, stream });
    if (stream) call.streamIds.add(stream.id);
    if (call.accepted && !call.decodeWatch && call.supersededBy === undefined) this.add(call, track, stream);
    else call.arrived.push({ track, stream });
  }

  private add(call: CallSession, track: MediaStreamTrack, stream: MediaStream | undefined): void {
    const { media, roomAddress } = this.options;
    const kind: MediaKind = track.kind === 'audio' ? 'audio' : 'video';
    const described = call.described.get(kind);
    const item = media.addRemoteMedia({
      // Scoped to the session: a restarted session may carry a track of the same id while the old one ends.
      id: `${call.sid}:${track.id}`,
      track,
      stream: stream ?? new MediaStream([track]),
      owner: call.peerAddress,
      roomAddress,
      screenCapture: markedScreen(call, kind),
      ...(described?.name !== undefined ? { name: described.name } : {}),
      // A peer we silenced here stays silenced on its new audio.
      ownerMuted: media.forPeer(call.peerAddress, 'audio').some((other) => other.localDisabled),
    });
    call.received.set(kind, item.id);
    if (call.remoteMuted.has(kind)) media.update(item.id, { remoteDisabled: true });
    this.view.added(item, call, kind);
    this.options.sessions.publish(call);
  }

  private onTrackGone(session: BaseSession, track: MediaStreamTrack): void {
    const call = this.options.sessions.get(session);
    if (!call) return;
    for (const [kind, id] of call.received) {
      if (this.options.media.getTrack(id) !== track) continue;
      call.received.delete(kind);
      this.options.media.remove(id);
    }
  }

  private onMute(session: BaseSession, info: Stanzas.JingleInfo, muted: boolean): void {
    const call = this.options.sessions.get(session);
    if (!call || call.sending) return;
    const name = info.name ?? '';
    try {
      this.options.media.setRemoteMuted(call.connection(this.options.roomAddress), name, muted);
    } catch (error) {
      if (!(error instanceof InvalidMutePropertyError)) throw error;
      this.options.logger.error(`${error.message}: ${name}`);
      return;
    }
    const kind: MediaKind = name === 'audio' ? 'audio' : 'video';
    if (muted) call.remoteMuted.add(kind);
    else call.remoteMuted.delete(kind);
    const video = call.received.get('video');
    if (kind === 'video' && video !== undefined) this.view.senderSaid(video);
  }

  /**
   * description-info on a session we receive: names and screen marks, kept for tracks that arrive
   * later. A screen mark on the video makes the session's audio the screen's sound.
   */
  private onDescription(session: ParleyMediaSession, descriptions: readonly MediaDescription[]): void {
    const call = this.options.sessions.get(session);
    if (!call || call.sending) return;
    for (const description of descriptions) {
      const previous = call.described.get(description.kind);
      call.described.set(description.kind, {
        name: description.name ?? previous?.name,
        screenCapture: description.screenCapture || previous?.screenCapture === true,
      });
    }
    for (const [kind, id] of call.received) {
      const item = this.options.media.get(id);
      if (!item) continue;
      const name = call.described.get(kind)?.name;
      const screenCapture = item.screenCapture || markedScreen(call, kind);
      if (screenCapture !== item.screenCapture || name !== item.name) this.options.media.update(id, { screenCapture, name });
    }
  }
}

/**
 * What the session's track of `kind` is marked as: a video by its own `<screen>` mark (PROTOCOL.md);
 * an audio by the session's, its video's or (from a sender that marks that too) its own.
 */
function markedScreen(call: CallSession, kind: MediaKind): boolean {
  const marked = (described: MediaKind) => call.described.get(described)?.screenCapture === true;
  return marked('video') || (kind === 'audio' && marked('audio'));
}
