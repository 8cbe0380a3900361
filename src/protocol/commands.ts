import type { ProxyMarked } from 'comlink';
import type { Stanzas } from 'stanza';
import type { BannedPerson, ChatState, OwnCallMedia, Peer, Preferences, RequestingMedia } from './entities';
import type { StateMessage } from './session-state';

/**
 * The commands a tab may call on the shared session (through Comlink). Results show up in the
 * mirrored state; a rejected promise carries the spec's error (e.g. 'Room name not provided.').
 */

export interface JoinRoomOptions {
  password?: string;
  /** SPEC §4: joining auto-joins the call unless this is false. */
  autoJoinCall?: boolean;
}

export interface RoomsCommands {
  /** Joins (or returns the existing join of) a room by the name a person gave; resolves with the room id. */
  joinRoom(name: string, options?: JoinRoomOptions): Promise<string>;
  /** Retries a join that needs a password (room state password-required) with one. */
  submitRoomPassword(roomId: string, password: string): Promise<void>;
  leaveRoom(roomId: string): Promise<void>;
  /** SPEC §4 lock: only an owner who has joined; others are silently ignored. */
  lockRoom(roomAddress: string, password: string): Promise<void>;
  unlockRoom(roomAddress: string): Promise<void>;
  /** SPEC §6: sets the peer's affiliation to outcast (a ban until lifted), then rereads the ban list. */
  kickPeer(peerAddress: string): Promise<void>;
  /**
   * SPEC §6: reads the room's ban list into Room.bans and resolves with it. Only an owner may: the
   * room refuses anyone else (ModerationRefusedError); 'Room not joined' unless joined.
   */
  listBans(roomAddress: string): Promise<BannedPerson[]>;
  /** Lifts a person's ban (by their bare real address) and resolves with the ban list that remains; owners only, as listBans. */
  liftBan(roomAddress: string, userAddress: string): Promise<BannedPerson[]>;
  destroyRoom(roomAddress: string, alternate?: { roomAddress?: string; password?: string; reason?: string }): Promise<void>;
  /** SPEC §5: 'Room not joined' when not joined. */
  getRoomPassword(roomAddress: string): Promise<string | undefined>;
  joinCall(roomAddress: string, media?: RequestingMedia): Promise<void>;
  leaveCall(roomAddress: string): Promise<void>;
  setRequestingMedia(roomAddress: string, media: RequestingMedia): Promise<void>;
}

export interface ChatCommands {
  /**
   * Sends a groupchat message; with `replace`, a correction of our own earlier message (stanza id),
   * which goes where that message went; with `privateTo` (an occupant of the room), a private
   * message to them alone. Resolves with the message id.
   */
  sendChat(roomAddress: string, body: string, replace?: string, privateTo?: string): Promise<string>;
  /** Sends again one of our messages that could not be sent (it has a sendError); 'Room not joined' when its room is gone. */
  retryChat(messageId: string): Promise<void>;
  setChatState(roomAddress: string, state: ChatState): Promise<void>;
  /** The whole current draft; the session sends real-time text edits on the spec's schedule. */
  updateRealTimeText(roomAddress: string, draft: string): Promise<void>;
  /** A chat input that goes away takes back the draft it last gave, unless another input has given one since. */
  withdrawDraft(roomAddress: string, draft: string): Promise<void>;
  requestAttention(peerAddress: string): Promise<void>;
  /** A JSON command (type + data) to a room (groupchat) or a peer (occupant address). */
  sendCommand(to: string, type: string, data: unknown): Promise<void>;
  markRead(roomAddress: string): Promise<void>;
  /**
   * Your whole set of reactions to a message (its id in the store; XEP-0444), in place of what you had
   * (none: take yours back). It goes where the message went: to the room, or to the one person of a
   * private message. Best effort, like chat states: not sent again after a lost connection.
   */
  react(messageId: string, reactions: readonly string[]): Promise<void>;
  /**
   * Takes back a message of yours the room has (XEP-0424): its text goes for everyone whose app reads
   * retractions, and for you; others read that you deleted a message. Where it went: the room, or its one person.
   */
  retractChat(messageId: string): Promise<void>;
}

/** Peer fields only the tab running the call knows (from the media it receives). */
export type PeerMediaFacts = Pick<Peer, 'muted' | 'hasActiveCamera' | 'hasActiveMicrophone' | 'hasActiveScreenCapture' | 'sessionFailed'>;
export type PeerMediaChange = Partial<PeerMediaFacts>;

export interface CallsCommands {
  /** The call's tab reports what it learns of a peer's media; every tab then sees it on the Peer. */
  reportPeerMedia(peerAddress: string, change: PeerMediaChange): Promise<void>;
  /** Local voice activity: tells the room (PROTOCOL.md `<state speaking>`) and marks our own Peer. */
  setSpeaking(roomAddress: string, speaking: boolean): Promise<void>;
  /** SPEC §3 Peer volumeLimit (default 0.8): how loud this person hears that peer, 0 to 1. */
  setPeerVolumeLimit(peerAddress: string, volumeLimit: number): Promise<void>;
  /** The call's tab keeps your own media choices on the room's call record (ignored while there is none). */
  setOwnMedia(roomAddress: string, change: Partial<OwnCallMedia>): Promise<void>;
  /** The call's tab says whom its call keeps although the room says they left (CallRecord heldPeers; ignored out of the call). */
  setHeldPeers(roomAddress: string, peerAddresses: readonly string[]): Promise<void>;
  /**
   * Another tab of yours (the pop-out chat) asks the tab that runs the call to mute or unmute you,
   * or to stop or start your camera, as its own buttons would; CallNotRunningError when no tab runs it.
   */
  requestOwnMedia(roomAddress: string, change: OwnMediaRequest): Promise<void>;
}

/** What another tab may ask of the call's tab: your microphone's mute and your camera, each set to a value (not toggled, so that two asks in flight agree). */
export type OwnMediaRequest = Partial<Pick<OwnCallMedia, 'microphoneMuted' | 'cameraOff'>>;

export interface PreferencesCommands {
  setPreferences(change: Partial<Preferences>): Promise<void>;
  /** Puts a room you were in first in `recentRooms` (one entry per room address, LIMITS.recentRooms at most). */
  rememberRoom(roomName: string): Promise<void>;
  /** Takes a room off `recentRooms`. */
  forgetRoom(roomName: string): Promise<void>;
}

/** JSON commands received, delivered to every tab as events (never shown as chat). */
export interface ReceivedCommand {
  from: string;
  roomAddress: string;
  type: string;
  data: unknown;
}

export type SessionEvent =
  | { type: 'command'; command: ReceivedCommand }
  /** To the tab that runs the room's call only: another tab asked for this (CallsCommands.requestOwnMedia). */
  | { type: 'own-media-request'; roomAddress: string; change: OwnMediaRequest };

/** A Jingle IQ as StanzaJS parses it: plain JSON, passed between the worker and the call's tab. */
export type JingleIq = Stanzas.IQ & { jingle: Stanzas.Jingle };

export interface TabListener {
  state(message: StateMessage): void;
  event(event: SessionEvent): void;
  /**
   * A Jingle request for a call this tab owns, with the room it comes from as the session routed it
   * (the tab's call finds its room without preparing the address again); the tab's session manager
   * processes it.
   */
  jingle(roomAddress: string, iq: JingleIq): void;
}

/** Call ownership and the Jingle path between a tab's sessions and the one XMPP socket. */
export interface JingleCommands {
  /** This tab runs the room's call (it holds the call's Web Lock). */
  claimCall(tabId: string, roomAddress: string): Promise<void>;
  releaseCall(tabId: string, roomAddress: string): Promise<void>;
  /**
   * Sends what a tab's session produced: a Jingle request (type set) resolves with the peer's answer
   * or rejects with its error IQ; an answer (result / error, no jingle element) to a routed request
   * is just sent.
   */
  send(iq: Stanzas.IQ): Promise<Stanzas.IQ | undefined>;
  /**
   * A request the session routed to this tab for a call the tab had let go (its release still on
   * the way, as when you hang up and a peer's session-terminate crosses it): the session routes it
   * again as one no tab runs — held for the tab that claims the call next, or answered — so that no
   * request is left unanswered.
   */
  returnRequest(tabId: string, roomAddress: string, iq: JingleIq): Promise<void>;
}

export interface SessionApi {
  /** Registers a tab: state snapshot then patches, and events, until the tab goes away. */
  attach(tabId: string, listener: TabListener): void;
  connect(): void;
  disconnect(): void;
  /** Browser network events, forwarded by tabs (SPEC §7). */
  online(): void;
  offline(): void;
  /** Opens a room for this tab; the room is left when its last tab closes it or goes away. */
  openRoom(tabId: string, name: string, options?: JoinRoomOptions): Promise<string>;
  closeRoom(tabId: string, roomId: string): Promise<void>;
  /** "Leave" in `tabId`, whose view has gone: the session leaves the room for every tab that holds it, whose views then say you left. */
  leaveRoom(tabId: string, roomId: string): Promise<void>;
  /**
   * The command groups stay in the shared worker (marked for Comlink as proxied, never copied):
   * a tab's `rooms.joinRoom(…)` runs there as `session.rooms.joinRoom(…)`.
   */
  readonly rooms: RoomsCommands & ProxyMarked;
  readonly chat: ChatCommands & ProxyMarked;
  readonly preferences: PreferencesCommands & ProxyMarked;
  readonly jingle: JingleCommands & ProxyMarked;
  readonly calls: CallsCommands & ProxyMarked;
}
