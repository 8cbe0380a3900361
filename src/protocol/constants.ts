/**
 * Every constant of the behaviour specification, with the section it comes from.
 * Code imports these; tests assert against them.
 */

/** SPEC §9: the client library version whose wire Parley speaks. */
export const CLIENT_VERSION = '1.30.3';

/** SPEC §7: config request retries. */
export const CONFIG_REQUEST = { attempts: 10, retryDelayMs: 1_000, timeoutMs: 10_000 } as const;
/** SPEC §7 / §9: room config request retries. */
export const ROOM_CONFIG_REQUEST = { attempts: 5, retryDelayMs: 1_000, timeoutMs: 10_000 } as const;

/** SPEC §7: XMPP keepalive ping. */
export const KEEPALIVE_INTERVAL_MS = 90_000;
/** SPEC §7: reconnect after (attempts + 1) s plus up to 2 s random. */
export const RECONNECT = { stepMs: 1_000, maxJitterMs: 2_000 } as const;
/**
 * SPEC §4 room state waiting (recipient-unavailable: the room has not started) says nothing of
 * what follows; the page promises "You will join when it starts", and no stanza tells a refused
 * occupant that the room has started. So while connected, a waiting room's join is sent again
 * after each of these delays in turn, the last repeating until the room is joined or left (or the
 * connection goes: a reconnect rejoins it anyway): soon at first (a host on their way in), then
 * at most every `delaysMs`' last, so a guest is in within that of the host and a room that never
 * starts costs the server one refused presence per guest that often. Up to `jitterMs` (random) is
 * added to each, so the guests a restarted server refused do not all come back at once.
 */
export const ROOM_START_RETRY = { delaysMs: [1_000, 2_000, 4_000, 8_000, 15_000], jitterMs: 1_000 } as const;
/** SPEC §7: browser network events. */
export const NETWORK_EVENTS = { onlineMaxDelayMs: 5_000, offlineDisconnectDelayMs: 5_000 } as const;

/** SPEC §4 / §9: chat state and real-time text timing. */
export const CHAT = {
  pausedAfterMs: 10_000,
  groupingWindowMs: 300_000,
  rttFirstSendMs: 100,
  rttIntervalMs: 700,
  scrollStickPx: 30,
} as const;
/** SPEC §4 / §9: attention flag duration. */
export const ATTENTION_MS = 5_000;

/** SPEC §4: session termination timing. */
export const SESSION_TERMINATION = {
  recomputeAfterFailedTransportMs: 500,
  recomputeAfterOtherErrorMs: 2_000,
  interruptedTimeoutMs: 5_000,
} as const;
/**
 * Beyond the spec: how long your connection with a person may go on failing (a session of theirs
 * or ours failed, and none has connected since) before their tile says in words that it cannot
 * connect, rather than "Reconnecting…". Twice SPEC §4's interrupted limit: after a failure SPEC
 * starts a session anew within 500 ms (an initiator first restarts ICE), and a network that only
 * dropped for a moment is back within one such 5 s round, the ICE restart's or the new session's;
 * still failing after two rounds, the connection is blocked (no relay server, UDP refused), not
 * slow. The call keeps trying all the same, and the words go once a session connects.
 */
export const CALL_UNREACHABLE_AFTER_MS = 2 * SESSION_TERMINATION.interruptedTimeoutMs;

/**
 * A Jingle request for a call this session has joined but no tab runs yet (the tab that joined
 * claims it a moment later): it waits for the claim this long, and is then answered as by a session
 * not in the call. A room holds the requests of at most `sessionsPerRoom` sessions (a sender's are
 * bounded by LIMITS.jingleSessionsPerSender already), each at most `requestsPerSession` (its offer
 * and what follows it: SimpleWebRTC 1.30.3 trickles every candidate in a transport-info of its own,
 * 6 to 9 of them); one past either bound is refused with `wait`/`resource-constraint`, never
 * acknowledged and dropped. A call no tab runs any more (its tab went, let it go, or closed its
 * room) waits as long for a tab to claim it before it is left (TabsApi).
 */
export const UNCLAIMED_CALL_HOLD = { timeoutMs: 5_000, sessionsPerRoom: 32, requestsPerSession: 32 } as const;

/** SPEC §4 / §9: media relay switch. */
export const MEDIA_RELAY = { defaultMinimumPeers: 2, shutdownDelayMs: 5_000 } as const;

/** SPEC §9: video resolution tiers keyed by peer-count threshold. */
export interface VideoResolutionTier {
  readonly width: number;
  readonly height: number;
  readonly frameRate: number;
}
export const VIDEO_RESOLUTION_TIERS: Readonly<Record<number, VideoResolutionTier>> = {
  0: { width: 1280, height: 720, frameRate: 30 },
  1: { width: 800, height: 600, frameRate: 30 },
  2: { width: 640, height: 480, frameRate: 30 },
  3: { width: 320, height: 240, frameRate: 15 },
  5: { width: 320, height: 240, frameRate: 10 },
};
/** SPEC §9: total video bitrate budget, divided by receivers × sent video streams. */
export const TOTAL_VIDEO_BITRATE_BPS = 1_800_000;
/** SPEC §9: simulcast layers (scale-down factors). */
export const SIMULCAST_LAYERS = [
  { rid: 'low', scaleResolutionDownBy: 4 },
  { rid: 'medium', scaleResolutionDownBy: 2 },
  { rid: 'high', scaleResolutionDownBy: 1 },
] as const;

/** SPEC §9: voice activity analysis. */
export const VOICE_ACTIVITY = {
  defaultThresholdDb: -65,
  intervalMs: 50,
  historySize: 10,
  speakingOnAtLeast: 5,
  minFrequencyHz: 85,
  maxFrequencyHz: 300,
  fftSize: 512,
  smoothing: 0.1,
  audioContextResumeRetryMs: 1_000,
} as const;

/** SPEC §3 / §9: volume limits. */
export const VOLUME = { peerLimitDefault: 0.8, globalLimitDefault: 1, deafenedGlobalLimit: 0 } as const;

/** SPEC §9: device timing. (Its update queue, 100 ms debounce at priority 1, is not used: see call/Call.ts `schedule`.) */
export const DEVICES_REFRESH_MS = 3_000;
export const VIDEO_LOADED_CHECK_TIMEOUT_MS = 500;

/** SPEC §4: capture retry on AbortError. */
export const CAPTURE_ABORT_RETRIES = 12;

/** SPEC §3: user preference defaults. */
export const DEFAULT_PREFERENCES = {
  sendOnEnter: true,
  displayName: 'Anonymous',
  globalVolumeLimit: 1,
  mediaEnabled: true,
  pushToTalk: false,
  requestingMedia: 'video',
  voiceActivityThreshold: -65,
  audioOutputDeviceId: '',
  /** Beyond the spec (issue 15): others see the draft as it is typed (SPEC §9 real-time text), disclosed and switchable. */
  realTimeText: true,
  /** Beyond the spec (issue 15): tones for joins, leaves, messages and attention requests. */
  sounds: false,
  /** Beyond the spec: the rooms the home page offers again, kept on this device only. */
  recentRooms: [] as readonly string[],
} as const;

/** Bounds on untrusted input (not from the spec: Parley's own limits). */
export const LIMITS = {
  httpBodyBytes: 16 * 1024,
  roomNameLength: 256,
  /** Rooms the home page lists as recent (Preferences.recentRooms). */
  recentRooms: 5,
  displayNameLength: 64,
  chatBodyLength: 16 * 1024,
  jsonCommandBytes: 64 * 1024,
  customerDataBytes: 4 * 1024,
  /** A guest identity credential (server/auth/identity.ts makes them, about 250 characters). */
  identityCredentialLength: 1_024,
  /** StanzaJS's joinRoom has no timeout (DESIGN.md): a join the room never answers fails after this. */
  roomJoinTimeoutMs: 15_000,
  /** Room passwords, from a person or from the wire (destroy, room config form). */
  roomPasswordLength: 1_024,
  /** A `<user sid>` longer than this is ignored in favour of the occupant nick. */
  peerIdLength: 256,
  /** A `<user rid>` longer than this is ignored (it must fit CREATE_CONSUMER's roomId, RELAY_LIMITS.idLength). */
  ridLength: 256,
  /** Addresses from the wire or a tab (RFC 7622: three parts of at most 1023 bytes). */
  addressLength: 3_071,
  /** Server-supplied reason or error text kept for the log. */
  reasonLength: 256,
  /** Stanza ids (ours are UUIDs); a longer id from the wire is refused. */
  stanzaIdLength: 256,
  /** A Jingle session's sid (ours and 1.30.3's are UUIDs); a request with an empty or longer one is refused as bad-request. */
  jingleSidLength: 256,
  /** Real-time text actions in one `<rtt>` element; more is refused as a whole. */
  rttActionsPerEvent: 1_000,
  /** JSON payloads in one message; more is refused as a whole. */
  jsonPayloadsPerMessage: 16,
  /** A JSON command's `datatype`. */
  jsonCommandTypeLength: 256,
  /** People a call keeps although the room says they left (CallRecord heldPeers), as a tab reports them; more is refused. */
  heldPeersPerCall: 256,
  /** Entries of a room's ban list kept from the server's answer; the rest are left out. */
  banListEntries: 500,
  /** Nesting of a JSON payload the server relays; deeper is bounced (JSON.parse recurses). */
  jsonPayloadDepth: 64,
  /** A Jingle request the server relays between occupants (SDP with every candidate fits well within). */
  jingleBytes: 64 * 1024,
  /** Contents in one Jingle request the server relays. */
  jingleContents: 32,
  /**
   * Jingle sessions one sender may have begun with us at once (JingleRouter refuses more with
   * resource-constraint): each can cost the call's tab an RTCPeerConnection. PROTOCOL.md: one per
   * sender's stream, camera and microphone together and a screen share apart (SimpleWebRTC 1.30.3
   * too), so 2; twice that while a path change runs the mesh and relay sessions side by side, and
   * twice again while a session being replaced has not ended yet: 8, doubled for margin.
   */
  jingleSessionsPerSender: 16,
  /** Event lines (joins, leaves, …) a room's chat keeps; the oldest go first. */
  roomEventsPerRoom: 200,
  /** Messages a room's chat keeps in every tab (each up to chatBodyLength); the oldest go first, never one of ours still to be sent. */
  chatMessagesPerRoom: 1_000,
  /** One reaction to a message (XEP-0444: one emoji; a family or a flag is several code points). */
  reactionLength: 32,
  /** Reactions one person keeps on one message; a set of more is refused as a whole. */
  reactionsPerPerson: 8,
  /** People whose reactions one message keeps; a newcomer's past them are not kept. */
  reactorsPerMessage: 256,
  /** Why your camera or microphone did not start, in words, as the call's tab keeps it on the call record (OwnCallMedia). */
  deviceTroubleLength: 512,
} as const;
