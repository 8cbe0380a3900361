import type { Stanzas } from 'stanza';
import { JINGLE_INFO_ACTIVE, JINGLE_INFO_MUTE, JINGLE_INFO_UNMUTE, type JingleReasonCondition } from 'stanza/Constants';
import { Session, type SessionManager } from 'stanza/jingle';
import type { ActionCallback } from 'stanza/jingle/Session';
import type { ConsumerIceState } from '../../../protocol/relay';
import { readDescriptionInfo, type MediaDescription } from '../descriptionInfo';
import type { MediaKind } from '../../media';
import { relayAnswerSdp, type RelayOfferJingle } from './relayJingle';

export interface RelayJingleSessionOptions {
  readonly parent: SessionManager;
  /** The consumer id: the relay names the consumer by the Jingle sid (PROTOCOL.md CREATE_CONSUMER). */
  readonly sid: string;
  /** The receiver's occupant address. */
  readonly peerID: string;
  /** The receiver accepted: its answer as SDP, for START_CONSUMER. */
  readonly onAnswer: (session: RelayJingleSession, sdp: string) => void;
  /** The receiver's description-info (its quality request). */
  readonly onDescription: (session: RelayJingleSession, descriptions: readonly MediaDescription[]) => void;
  /** The session ended, by either side. */
  readonly onEnded: (session: RelayJingleSession, reason: Stanzas.JingleReason | undefined) => void;
  /** The receiver said it decodes the relay's media (a session-info `active`, PathChange). */
  readonly onDecoding: (session: RelayJingleSession) => void;
}

/** CONSUMER_ICE_STATE in StanzaJS's connection-state words (ICESession.onIceStateChange's mapping). */
function connectionStateOf(state: ConsumerIceState): string {
  switch (state) {
    case 'checking':
      return 'connecting';
    case 'connected':
    case 'completed':
      return 'connected';
    case 'disconnected':
      return 'interrupted';
    case 'failed':
      return 'failed';
    case 'closed':
      return 'disconnected';
  }
}

/**
 * A Jingle session whose media never touches this tab: the sender delivers the relay's consumer
 * offer to the receiver as an ordinary session-initiate and hands the receiver's session-accept to
 * the relay (START_CONSUMER). It lives in the call's SessionManager beside the mesh sessions, so
 * the receiver's requests reach it by sid; the sender-side signalling (names, screen marks, mute)
 * is the same as a mesh session's. The far end is ice-lite and needs no trickled candidates.
 */
export class RelayJingleSession extends Session {
  private readonly callbacks: Pick<RelayJingleSessionOptions, 'onAnswer' | 'onDescription' | 'onEnded' | 'onDecoding'>;

  /** The receiver accepted it (terminationOutcome's `unanswered`). */
  answered = false;

  constructor(options: RelayJingleSessionOptions) {
    super({ parent: options.parent, sid: options.sid, peerID: options.peerID, initiator: true });
    this.callbacks = options;
  }

  /** Sends the session-initiate carrying the relay's offer. */
  offer(jingle: RelayOfferJingle): Promise<void> {
    this.state = 'pending';
    return this.processLocal('session-initiate', async () => {
      this.send('session-initiate', { contents: jingle.contents, groups: jingle.groups });
    });
  }

  sendDescriptionInfo(contents: Stanzas.JingleContent[]): Promise<void> {
    return this.processLocal('description-info', async () => {
      this.send('description-info', { contents });
    });
  }

  /** Jingle mute / unmute of a kind we send (session-info, as MediaSession.mute does). */
  setMuted(kind: MediaKind, muted: boolean): Promise<void> {
    return this.processLocal(muted ? 'mute' : 'unmute', async () => {
      this.send('session-info', { info: { infoType: muted ? JINGLE_INFO_MUTE : JINGLE_INFO_UNMUTE, creator: 'initiator', name: kind } });
    });
  }

  /** The relay's view of the receiver's ICE, as this session's connection state. */
  setRelayIceState(state: ConsumerIceState): void {
    this.connectionState = connectionStateOf(state);
  }

  override end(reason: JingleReasonCondition | Stanzas.JingleReason = 'success', silent = false): void {
    if (this.state === 'ended') return;
    super.end(reason, silent);
    this.callbacks.onEnded(this, typeof reason === 'string' ? { condition: reason } : reason);
  }

  protected override onSessionAccept(changes: Stanzas.Jingle, cb: ActionCallback): void {
    this.state = 'active';
    this.answered = true;
    let sdp: string;
    try {
      sdp = relayAnswerSdp(changes);
    } catch {
      cb({ condition: 'bad-request' });
      this.end('failed-application');
      return;
    }
    cb();
    this.callbacks.onAnswer(this, sdp);
  }

  /** The relay is ice-lite: it learns the receiver's address from its checks, not from candidates. */
  protected override onTransportInfo(_changes: Stanzas.Jingle, cb: ActionCallback): void {
    cb();
  }

  protected override onDescriptionInfo(changes: Stanzas.Jingle, cb: ActionCallback): void {
    this.callbacks.onDescription(this, readDescriptionInfo(changes));
    cb();
  }

  /** Of what receivers send (ringing, hold, active) only `active` — it decodes — is acted on; all is acknowledged like MediaSession does. */
  protected override onSessionInfo(changes: Stanzas.Jingle, cb: ActionCallback): void {
    if (changes.info?.infoType === JINGLE_INFO_ACTIVE) this.callbacks.onDecoding(this);
    cb();
  }
}
