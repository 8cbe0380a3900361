/** A Jingle session's ICE state as StanzaJS reports it. */
export type SessionConnectionState = 'starting' | 'connecting' | 'connected' | 'interrupted' | 'disconnected' | 'failed';
/** A Jingle session's own state as StanzaJS reports it. */
export type SessionState = 'starting' | 'pending' | 'active' | 'ended';

/**
 * SPEC §3 Connection: one per Jingle session of this tab's call. Tab-local (it names live media by
 * id); the UI reads it from `connectionsAtom`.
 */
export interface Connection {
  /** The Jingle sid. */
  readonly id: string;
  readonly peerAddress: string;
  readonly roomAddress: string;
  readonly connectionState: SessionConnectionState;
  readonly sessionState: SessionState;
  readonly sendingAudioMediaId: string | undefined;
  readonly sendingVideoMediaId: string | undefined;
  readonly receivingAudioMediaId: string | undefined;
  readonly receivingVideoMediaId: string | undefined;
  /** The initiator is restarting ICE. */
  readonly restarting: boolean;
}
