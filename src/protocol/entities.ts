/**
 * SPEC §3 entities as plain serialisable records: the shared worker holds them, every tab mirrors
 * them. Field names follow the spec.
 */

/** SPEC §4 room state. */
export type RoomState = 'joining' | 'joined' | 'password-required' | 'waiting' | 'banned' | 'failed' | 'interrupted';
/** What a peer asks for in the call (PROTOCOL.md `<conf media>`). */
export type RequestingMedia = 'none' | 'audio' | 'video';
export type ChatState = 'active' | 'composing' | 'paused';
/** SPEC §6. */
export type RoomRole = 'moderator' | 'participant' | 'visitor' | 'none';
export type RoomAffiliation = 'owner' | 'admin' | 'member' | 'outcast' | 'none';

/** Why the room put us out after we had joined it (SPEC §4 destroyed room, §6 kick): what the room's screen says. */
export type RoomRemoval =
  /** Status 301: the owner kicked (banned) us; `reason`: the one they gave, if any (Parley's kick gives none). */
  | { kind: 'banned'; reason: string | undefined }
  /** Status 307: our role became none, without a ban; `reason` as for a ban. */
  | { kind: 'kicked'; reason: string | undefined }
  /** The owner destroyed the room without naming another; `byYou`: this session did. */
  | { kind: 'destroyed'; reason: string | undefined; byYou: boolean }
  /** Anything else the room did to us (shutdown, membership lost, …). */
  | { kind: 'removed' };

/** A destroyed room we followed to its alternate venue (SPEC §4 destroyed room): where we came from. */
export interface RoomMove {
  fromAddress: string;
  fromName: string;
  reason: string | undefined;
  /** This session destroyed it. */
  byYou: boolean;
}

/** One entry of a room's ban list (MUC outcasts), as the owner sees it. */
export interface BannedPerson {
  /** Their bare real address: what lifting the ban names. */
  userAddress: string;
  /** The display name they had when this session saw them; else their address's localpart. */
  displayName: string;
  reason: string | undefined;
}

export interface Room {
  /** Local id, stable for the life of the join request (the address is known only after room config). */
  id: string;
  address: string | undefined;
  providedName: string;
  providedPassword: string | undefined;
  password: string | undefined;
  passwordRequired: boolean;
  banned: boolean;
  roomFull: boolean;
  roomNotStarted: boolean;
  roomState: RoomState;
  joined: boolean;
  joinedAt: number | undefined;
  /**
   * Who was in the room, you included, when our connection dropped (SPEC §4 clears the peers): the
   * People list shows them as they were while the room waits for its rejoin. Set by the drop of a
   * joined room, cleared by the next join.
   */
  peopleBeforeOutage: readonly Peer[] | undefined;
  selfAddress: string | undefined;
  selfAffiliation: RoomAffiliation | undefined;
  selfRole: RoomRole | undefined;
  /**
   * The server's stable id of the room: the `<user rid>` of our self-presence (PROTOCOL.md), named
   * as roomId in the relay's CREATE_CONSUMER. Undefined until that presence shows it, and out of the room.
   */
  rid: string | undefined;
  autoJoinCall: boolean;
  unreadCount: number;
  /** Log text of the last failure (SPEC §8: user-facing text is the UI's). */
  error: string | undefined;
  /** Set when the room put us out after we had joined; cleared by the next join. */
  removal: RoomRemoval | undefined;
  /** Set when this record followed a destroyed room to its alternate venue. */
  movedFrom: RoomMove | undefined;
  /** The ban list, for an owner once it has been read (undefined until then). */
  bans: BannedPerson[] | undefined;
}

export interface Peer {
  /** Occupant address: room@muc/nick. */
  address: string;
  /** Real JID, when the room shows it (to moderators). */
  userAddress: string | undefined;
  /** The `<user sid>`: equals the nickname. */
  id: string;
  displayName: string;
  customerData: Record<string, unknown>;
  role: RoomRole;
  affiliation: RoomAffiliation;
  roomAddress: string;
  joinedCall: boolean;
  joinedCallAt: number | undefined;
  joinedRoomAt: number;
  requestingMedia: RequestingMedia;
  speaking: boolean;
  lastSpokeAt: number | undefined;
  muted: boolean;
  chatState: ChatState;
  requestingAttention: boolean;
  /** Real-time text the peer is typing (XEP-0301), live. */
  realTimeText: string;
  rtt: number | undefined;
  volume: number;
  volumeLimit: number;
  hasActiveCamera: boolean;
  hasActiveMicrophone: boolean;
  hasActiveScreenCapture: boolean;
  isSelf: boolean;
  sessionFailed: boolean;
  /**
   * Their app says what it can do (XEP-0115 capabilities in its room presence), as XMPP apps and
   * Parley do: a private message reaches them (beyond the spec). SimpleWebRTC 1.30.3 says nothing
   * and drops every message that is not to the whole room.
   */
  readsPrivateMessages: boolean;
}

export interface ChatMessage {
  /** Local key: the stanza id for our own messages, sender + stanza id for others'. */
  id: string;
  /** The stanza id on the wire (what a correction's replace refers to). */
  stanzaId: string;
  body: string;
  direction: 'incoming' | 'outgoing';
  displayName: string;
  senderAddress: string;
  roomAddress: string;
  time: number;
  editedTime: number | undefined;
  replace: string | undefined;
  acked: boolean;
  customerData: Record<string, unknown> | undefined;
  /**
   * Ours only: why it could not be sent (the room was left or refused it). Unset while it waits
   * (unacked) to be sent or confirmed; `retryChat` sends it again.
   */
  sendError?: string | undefined;
  /**
   * Between you and one person of the room (an XMPP MUC private message, type chat to an occupant
   * address; beyond the spec): one a plain XMPP client sent you, or your private reply to one.
   */
  privately?: true;
  /**
   * XEP-0444 reactions, by the occupant address of whoever reacted (you included: Room.selfAddress),
   * with their name then and their whole set, in the order they gave it (beyond the spec).
   */
  reactions?: Record<string, MessageReactions>;
  /** Its sender took it back (XEP-0424: you, or someone on Parley or an XMPP app): its text is gone. */
  retracted?: true;
  /**
   * How many characters of its body (as LIMITS.chatBodyLength counts them) were cut off: an XMPP app
   * sent more than that; `body` is what was kept (beyond the spec).
   */
  charactersCut?: number;
  /** Ours only, when private: the occupant it goes to, and their name as it was sent. */
  recipientAddress?: string;
  recipientName?: string;
}

/** One person's reactions to a message. */
export interface MessageReactions {
  name: string;
  emojis: string[];
}

export interface CallRecord {
  roomAddress: string;
  joined: boolean;
  joinedAt: number | undefined;
  requestingMedia: RequestingMedia;
  allowedMedia: RequestingMedia;
  allowedAudioRoles: RoomRole[];
  allowedVideoRoles: RoomRole[];
  recordable: boolean;
  recordingState: 'offline' | 'recording' | 'paused';
  state: 'active' | 'ended';
  /** Your own media choices in this call, kept by the tab that runs it: a tab taking the call over starts from them. */
  ownMedia: OwnCallMedia;
  /**
   * The people the call still keeps although the room says they left (their media still arrives:
   * the call tab's DepartureHold and RejoinHold), as the tab that runs it reports them and as the
   * room last listed them: every tab of the room, a pop-out chat too and one opened after they left,
   * lists them and reads their leave as a reconnection until the call lets them go.
   */
  heldPeers: Peer[];
}

/** What you chose for your own media in a call (issue 13: it survives the call moving to another tab). */
export interface OwnCallMedia {
  microphoneMuted: boolean;
  cameraOff: boolean;
  /** A screen share runs: a tab taking over cannot restart it (the browser's picker needs a click), so it offers to. */
  sharingScreen: boolean;
  /**
   * The system stopped the camera or microphone you have on (another app took it, a privacy switch):
   * off for the others until it is back, and said in your other tabs. A tab taking over captures anew.
   */
  cameraStopped: boolean;
  microphoneStopped: boolean;
  /**
   * Why your camera or microphone did not start in the call's tab, with what to do ('' when nothing
   * is wrong): your other tabs, which ask that tab to turn them on, say it too.
   */
  cameraTrouble: string;
  microphoneTrouble: string;
}

export interface Preferences {
  displayName: string;
  globalVolumeLimit: number;
  mediaEnabled: boolean;
  pushToTalk: boolean;
  requestingMedia: RequestingMedia;
  voiceActivityThreshold: number;
  audioOutputDeviceId: string;
  /** Chat: Enter sends unless Shift is held (SPEC §5). */
  sendOnEnter: boolean;
  /** Chat: others see the draft as it is typed (real-time text); off, only that you are typing. */
  realTimeText: boolean;
  /** Tones for joins, leaves, messages and attention requests. */
  sounds: boolean;
  /** Rooms you were in, by the names you gave them, the latest first (LIMITS.recentRooms): the home page lists them. */
  recentRooms: readonly string[];
}

/** What happened in a room that its chat shows as a line (issue 15): never sent on the wire. */
export type RoomEventKind = 'joined' | 'left' | 'reconnected' | 'renamed' | 'kicked' | 'banned' | 'locked' | 'unlocked' | 'attention';

export interface RoomEvent {
  id: string;
  roomAddress: string;
  kind: RoomEventKind;
  /** Who it is about, as they were named then; undefined for the room's own changes (lock). */
  displayName: string | undefined;
  /** 'renamed': the name they had before (beyond the spec: a plain XMPP client's nickname change). */
  formerName?: string;
  /** 'renamed': the occupant address they had before (a private reply to them follows them: src/ui/privateRecipient.ts). */
  formerAddress?: string;
  /** 'kicked', 'banned': the reason the moderator gave, if any (an XMPP app's moderator may; Parley's kick gives none). */
  reason?: string;
  /** Their occupant address, for the call (DepartureHold: a plain leave); undefined for the room's own changes. */
  peerAddress: string | undefined;
  time: number;
}

/** Entity collections held as records keyed by id. */
export interface EntityCollections {
  rooms: Record<string, Room>;
  peers: Record<string, Peer>;
  messages: Record<string, ChatMessage>;
  calls: Record<string, CallRecord>;
  /** Event lines of the rooms' chats, by id. */
  roomEvents: Record<string, RoomEvent>;
}
export type CollectionName = keyof EntityCollections;
export type EntityOf<C extends CollectionName> = EntityCollections[C][string];
