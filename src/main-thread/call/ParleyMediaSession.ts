import SDPUtils from 'sdp';
import type { Stanzas } from 'stanza';
import { JINGLE_INFO_ACTIVE, JingleAction, JingleReasonCondition, JingleSessionRole } from 'stanza/Constants';
import { MediaSession } from 'stanza/jingle';
import { importFromSDP } from 'stanza/jingle/sdp/Intermediate';
import { convertCandidateToIntermediate, convertIntermediateToRequest } from 'stanza/jingle/sdp/Protocol';
import { NS_JINGLE_ICE_UDP_1 } from 'stanza/Namespaces';
import type { MediaSessionOpts } from 'stanza/jingle/MediaSession';
import type { ActionCallback } from 'stanza/jingle/Session';
import { SCREEN_SOUND_BITRATE_BPS, VIDEO_START_BITRATE_KBPS } from '../../protocol/clientDefaults';
import type { MediaKind } from '../media';
import { readDescriptionInfo, type MediaDescription } from './descriptionInfo';
import type { SizedEncoding, VideoBox } from './mesh/meshVideoSize';
import { withStartBitrate } from './mesh/startBitrate';
import { answerInStereoWhereOffered, offeredInStereo, withAverageBitrate } from './opusStereo';
import { firstMediaIce, iceUfragOf } from './sdpLines';

export interface ParleyMediaSessionOptions extends MediaSessionOpts {
  /** A description-info arrived (names, screen marks, or the receiver's quality request). */
  readonly onDescription: (session: ParleyMediaSession, descriptions: readonly MediaDescription[]) => void;
  /** It sends a shared screen's sound: offered in stereo, encoded at SCREEN_SOUND_BITRATE_BPS (opusStereo.ts). */
  readonly screenSound?: boolean;
}

/** The part of a received video's statistics (inbound-rtp) read here. */
interface InboundVideoStats {
  readonly id: string;
  readonly type: string;
  readonly kind?: string;
  readonly framesDecoded?: number;
}

/**
 * StanzaJS's MediaSession with Parley's one-way media (PROTOCOL.md): the initiator only sends
 * (sendonly transceivers, so every content is `senders='initiator'`), and description-info is
 * understood instead of being answered with unsupported-info. A screen's sound goes in stereo
 * where the receiver takes it (opusStereo.ts).
 */
export class ParleyMediaSession extends MediaSession {
  private readonly onDescription: ParleyMediaSessionOptions['onDescription'];
  /** Each video receiver's inbound-rtp entry in its statistics (framesDecodedOf). */
  private readonly inboundStatsIds = new WeakMap<RTCRtpReceiver, string>();
  /** The receivers of the remote tracks looked up (receiverOf). */
  private readonly receivers = new WeakMap<MediaStreamTrack, RTCRtpReceiver>();

  private readonly screenSound: boolean;

  constructor(options: ParleyMediaSessionOptions) {
    super(options);
    this.onDescription = options.onDescription;
    this.screenSound = options.screenSound === true;
  }

  /**
   * StanzaJS's accept, which creates, writes and sets the answer in one go: its answer goes in
   * stereo where the offer says so (opusStereo.ts), for this side's decoder and the sender's encoder alike.
   */
  override accept(opts?: RTCAnswerOptions | ActionCallback, next?: ActionCallback): Promise<void> {
    const createAnswer = this.pc.createAnswer.bind(this.pc);
    const createAnswerInStereo = async (answerOptions?: RTCAnswerOptions): Promise<RTCSessionDescriptionInit> => {
      const answer = await createAnswer(answerOptions);
      const offer = this.pc.remoteDescription?.sdp;
      return offer && answer.sdp ? { type: answer.type, sdp: answerInStereoWhereOffered(offer, answer.sdp) } : answer;
    };
    this.pc.createAnswer = createAnswerInStereo as RTCPeerConnection['createAnswer'];
    return super.accept(opts, next);
  }

  /** Every request goes as StanzaJS writes it, but a screen sound's offer, which says its audio is stereo. */
  override send(action: JingleAction, data: Partial<Stanzas.Jingle>): void {
    super.send(action, this.screenSound && action === JingleAction.SessionInitiate ? offeredInStereo(data) : data);
  }

  /**
   * Adds a track to send (MediaSession.addTrack would make it sendrecv), its one encoding starting
   * as `encoding` says (mesh/meshVideoSize: a camera's size until the receiver asks).
   */
  addSendOnlyTrack(track: MediaStreamTrack, stream: MediaStream, encoding?: SizedEncoding): Promise<void> {
    this.includesKind(track.kind);
    return this.processLocal('add-sendonly-track', async () => {
      this.pc.addTransceiver(track, { direction: 'sendonly', streams: [stream], ...(encoding ? { sendEncodings: [encoding] } : {}) });
    });
  }

  /**
   * MediaSession.start for a connection whose offer was made, set and written as a session-initiate
   * ahead (mesh/PreparedOffer, `sessionInitiateOf`): only the session's id is added as it is sent.
   */
  async startPrepared(initiate: Readonly<Partial<Stanzas.Jingle>>): Promise<void> {
    for (const { sender } of this.pc.getTransceivers()) if (sender.track) this.includesKind(sender.track.kind);
    // What StanzaJS's start records before it sends.
    this.state = 'pending';
    this.role = JingleSessionRole.Initiator;
    this.offerOptions = {};
    try {
      await this.processLocal(JingleAction.SessionInitiate, async () => {
        this.send(JingleAction.SessionInitiate, { ...initiate });
      });
    } catch (error) {
      this._log('error', 'Could not send the WebRTC offer made ahead', error);
      this.end('failed-application', true);
    }
  }

  /** MediaSession's record of what the session carries, for a track it sends. */
  private includesKind(kind: string): void {
    if (kind === 'audio') this.includesAudio = true;
    else this.includesVideo = true;
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
   * Mesh quality's size (mesh/meshVideoSize): scales the video down to fit `box` (Chromium's
   * `scaleResolutionDownTo`; browsers without it send the whole capture), or sends the whole capture.
   */
  setVideoBox(box: VideoBox | undefined): Promise<void> {
    return this.processLocal('video-size', async () => {
      const sender = this.sender('video');
      if (!sender) return;
      const parameters = sender.getParameters();
      const encodings = parameters.encodings as SizedEncoding[];
      const fits = (encoding: SizedEncoding) => encoding.scaleResolutionDownTo?.maxWidth === box?.maxWidth && encoding.scaleResolutionDownTo?.maxHeight === box?.maxHeight;
      if (encodings.every(fits)) return;
      for (const encoding of encodings) {
        if (box === undefined) delete encoding.scaleResolutionDownTo;
        else encoding.scaleResolutionDownTo = { ...box };
      }
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

  /** Sends a description-info; resolves with the request as sent, whose delivery JingleLink follows (`delivered`). */
  async sendDescriptionInfo(contents: Stanzas.JingleContent[]): Promise<Partial<Stanzas.Jingle>> {
    const request: Partial<Stanzas.Jingle> = { contents };
    await this.processLocal('description-info', async () => {
      this.send('description-info', request);
    });
    return request;
  }

  /** The sender of our one track of a kind. */
  sender(kind: MediaKind): RTCRtpSender | undefined {
    return this.pc
      .getTransceivers()
      .find((transceiver) => transceiver.direction === 'sendonly' && transceiver.sender.track?.kind === kind)?.sender;
  }

  /**
   * The receiver that carries a remote track, for its statistics. A receiver's track is its own for
   * good, so it is looked up once: `getReceivers` is a blocking call to WebRTC's signalling thread
   * (profiled in the steady call: 10 ms of a tab's 10 s when looked up every read).
   */
  receiverOf(track: MediaStreamTrack): RTCRtpReceiver | undefined {
    const known = this.receivers.get(track);
    if (known) return known;
    const receiver = this.pc.getReceivers().find((candidate) => candidate.track === track);
    if (receiver) this.receivers.set(track, receiver);
    return receiver;
  }

  /**
   * How many frames of a remote video have been decoded, as its receiver's statistics say; undefined
   * while it has no such statistics. Read off the main thread, where `newestPacketOf` waits on
   * WebRTC's busy worker thread (profiled in a steady call: up to 55 ms of a tab's 10 s).
   */
  async framesDecodedOf(track: MediaStreamTrack): Promise<number | undefined> {
    const receiver = this.receiverOf(track);
    if (!receiver) return undefined;
    const report = await receiver.getStats();
    // Each entry a report hands out is made into an object: once its video's entry is known, only that one is read.
    const known = this.inboundStatsIds.get(receiver);
    const entry = (known === undefined ? undefined : report.get(known)) as InboundVideoStats | undefined;
    if (entry) return entry.framesDecoded;
    let frames: number | undefined;
    report.forEach((stats: InboundVideoStats) => {
      if (stats.type !== 'inbound-rtp' || stats.kind !== 'video') return;
      this.inboundStatsIds.set(receiver, stats.id);
      frames = stats.framesDecoded;
    });
    return frames;
  }

  /**
   * When the newest packet of a remote track reached us, as its receiver's synchronization sources
   * say (read at once, no statistics, but a blocking call to WebRTC's worker thread); undefined
   * before its first. Only its changes mean anything: it is not on our clock.
   */
  newestPacketOf(track: MediaStreamTrack): number | undefined {
    const sources = this.receiverOf(track)?.getSynchronizationSources() ?? [];
    return sources.length > 0 ? Math.max(...sources.map((source) => source.timestamp)) : undefined;
  }

  /**
   * StanzaJS parses the whole remote description (importFromSDP) for every trickled candidate, only
   * to see whether its ufrag changed (an ICE restart): some milliseconds per candidate on the main
   * thread while a join is under way (issue 14). The ufrag is read from the description's lines
   * instead; an ICE restart, the end of candidates, and candidates before the description stay
   * StanzaJS's. Each candidate is then added as StanzaJS adds it.
   */
  protected override async onTransportInfo(changes: Stanzas.Jingle, cb: ActionCallback): Promise<void> {
    const contents = changes.contents ?? [];
    const first = contents[0];
    const transport = first?.transport as Stanzas.JingleIce | undefined;
    const remote = this.pc.remoteDescription;
    const restart = transport?.usernameFragment !== undefined && first !== undefined && remote !== null && transport.usernameFragment !== iceUfragOf(remote.sdp, first.name);
    if (!first || !remote || transport?.gatheringComplete || restart) return super.onTransportInfo(changes, cb);
    await Promise.all(
      contents.flatMap((content) => ((content.transport as Stanzas.JingleIce).candidates ?? []).map((candidate) => this.addRemoteCandidate(content.name, candidate))),
    );
    cb();
  }

  /** StanzaJS's end of candidates, naming the first media section's mid and ufrag without parsing the whole local description. */
  protected override onIceEndOfCandidates(): void {
    const local = this.pc.localDescription;
    if (!local) return;
    const { mid, ufrag } = firstMediaIce(local.sdp);
    const transport: Stanzas.JingleIce = { transportType: this.transportType, gatheringComplete: true, ...(ufrag ? { usernameFragment: ufrag } : {}) };
    this.send(JingleAction.TransportInfo, { contents: [{ creator: JingleSessionRole.Initiator, name: mid ?? '', transport }] });
  }

  private async addRemoteCandidate(sdpMid: string, json: Stanzas.JingleIceCandidate): Promise<void> {
    const candidate = SDPUtils.writeCandidate(convertCandidateToIntermediate(json));
    if (!this.pc.remoteDescription || this.pc.signalingState !== 'stable') {
      this.candidateBuffer.push({ sdpMid, candidate });
      return;
    }
    try {
      await this.pc.addIceCandidate({ sdpMid, candidate });
    } catch (error) {
      this._log('error', 'Could not add ICE candidate', error);
    }
  }

  /**
   * An offer this connection cannot take is answered with StanzaJS's error and the session ended
   * failed-application, so that its sender flags it and offers anew after SPEC §4's hold: StanzaJS
   * keeps such a session, its connection open, for good. One ended while its offer was applied (a
   * session-initiate under its sid took its place, or the call closed) has said all there is: an
   * error answer now would end its sid's new session at the sender.
   */
  protected override onSessionInitiate(changes: Stanzas.Jingle, cb: ActionCallback): Promise<void> {
    return super.onSessionInitiate(changes, (error?: unknown) => {
      if (this.state === 'ended') {
        cb();
        return;
      }
      cb(error);
      if (error) this.end(JingleReasonCondition.FailedApplication);
    });
  }

  /**
   * The answer as this sender applies it: starting from VIDEO_START_BITRATE_KBPS (issue 14, the
   * first frame at once); a screen's sound at SCREEN_SOUND_BITRATE_BPS.
   */
  protected override onSessionAccept(changes: Stanzas.Jingle, cb: ActionCallback): Promise<void> {
    const started = withStartBitrate(changes, VIDEO_START_BITRATE_KBPS);
    return super.onSessionAccept(this.screenSound ? withAverageBitrate(started, SCREEN_SOUND_BITRATE_BPS) : started, cb);
  }

  protected override onDescriptionInfo(changes: Stanzas.Jingle, cb: ActionCallback): void {
    this.onDescription(this, readDescriptionInfo(changes));
    cb();
  }
}

/**
 * The session-initiate StanzaJS's MediaSession.start writes for an offer (its session id and action
 * aside), written while the offer waits for a newcomer (mesh/PreparedOffer): converting the SDP was
 * most of the other side's work between a newcomer's arrival and its offer leaving (issue 14, traced).
 * `sdp-lines.test.ts` checks it against StanzaJS's own start.
 */
export function sessionInitiateOf(offerSdp: string): Partial<Stanzas.Jingle> {
  const initiate = convertIntermediateToRequest(importFromSDP(offerSdp), JingleSessionRole.Initiator, NS_JINGLE_ICE_UDP_1);
  for (const content of initiate.contents ?? []) {
    content.creator = JingleSessionRole.Initiator;
    signalStreamsAsSourceMsid(content);
  }
  return initiate;
}

/**
 * StanzaJS's start signals a content's stream as its first source's msid (a=ssrc: msid), and as that
 * of the second source of its first group too (in Chromium's offers, the retransmission source of FID):
 * `applyStreamsCompatibility` of stanza/jingle/MediaSession, which that module keeps to itself.
 */
function signalStreamsAsSourceMsid(content: Stanzas.JingleContent): void {
  const application = content.application as Stanzas.JingleRtpDescription | undefined;
  const stream = application?.streams?.[0];
  const first = application?.sources?.[0];
  if (!application || !stream || !first) return;
  const msid = `${stream.id} ${stream.track}`;
  first.parameters.msid = msid;
  const paired = application.sourceGroups?.[0]?.sources[1];
  if (paired !== undefined) application.sources!.push({ parameters: { cname: first.parameters.cname!, msid }, ssrc: paired });
}
