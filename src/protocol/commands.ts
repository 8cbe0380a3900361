import type { ChatState, Preferences, RequestingMedia } from './entities';
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
  /** SPEC §6: sets the peer's affiliation to outcast. */
  kickPeer(peerAddress: string): Promise<void>;
  destroyRoom(roomAddress: string, alternate?: { roomAddress?: string; password?: string; reason?: string }): Promise<void>;
  /** SPEC §5: 'Room not joined' when not joined. */
  getRoomPassword(roomAddress: string): Promise<string | undefined>;
  joinCall(roomAddress: string, media?: RequestingMedia): Promise<void>;
  leaveCall(roomAddress: string): Promise<void>;
  setRequestingMedia(roomAddress: string, media: RequestingMedia): Promise<void>;
}

export interface ChatCommands {
  /** Sends a groupchat message; with `replace`, a correction of our own earlier message (stanza id). Resolves with the message id. */
  sendChat(roomAddress: string, body: string, replace?: string): Promise<string>;
  setChatState(roomAddress: string, state: ChatState): Promise<void>;
  /** The whole current draft; the session sends real-time text edits on the spec's schedule. */
  updateRealTimeText(roomAddress: string, draft: string): Promise<void>;
  requestAttention(peerAddress: string): Promise<void>;
  /** A JSON command (type + data) to a room (groupchat) or a peer (occupant address). */
  sendCommand(to: string, type: string, data: unknown): Promise<void>;
  markRead(roomAddress: string): Promise<void>;
}

export interface PreferencesCommands {
  setPreferences(change: Partial<Preferences>): Promise<void>;
}

/** JSON commands received, delivered to every tab as events (never shown as chat). */
export interface ReceivedCommand {
  from: string;
  roomAddress: string;
  type: string;
  data: unknown;
}

export type SessionEvent = { type: 'command'; command: ReceivedCommand };

export interface TabListener {
  state(message: StateMessage): void;
  event(event: SessionEvent): void;
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
  readonly rooms: RoomsCommands;
  readonly chat: ChatCommands;
  readonly preferences: PreferencesCommands;
}
