/**
 * The client's tuning numbers: not the spec's (those are in constants.ts with their SPEC section),
 * but choices of ours, kept in one place so that they are tuned together and read where they apply.
 */

/**
 * A change of media path (mesh ↔ relay) without frozen video, counted from the moment the new path
 * connects. The receiver shows the new path once it decodes steadily — frames for `steadyMs`, never
 * `frameGapMs` without one (checked every `decodeCheckIntervalMs`) — and then says so to the sender
 * (a session-info `active`); the sender keeps the old path running until the new one has been
 * connected for `graceMs` and its receiver has said so. Without that — a new path that does not
 * decode, a receiver that never says so (SimpleWebRTC 1.30.3) — both give up after `decodeWaitMs`:
 * the receiver shows the new path anyway and the sender stops the old one.
 */
export const PATH_CHANGE = { graceMs: 1_500, decodeCheckIntervalMs: 100, steadyMs: 1_000, frameGapMs: 400, decodeWaitMs: 4_000 } as const;

/**
 * While signalling cannot reach its sender, a remote camera is shown off once its frames have not
 * moved for `stoppedAfterMs`, and one shown off is shown on when its frames move again after such a
 * stillness; while it can, such a stillness is a stall. Read every `checkIntervalMs`
 * (call/receive/CamerasByFrames: each received camera's statistics, a read a steady call pays for
 * in every tab): a Parley sender sends no video for a camera it turns off, which its receivers see
 * though its mute or unmute cannot reach them. SPEC §9's tiers capture at 10 frames a second or
 * more; 2 s outlasts a relay's layer switch and a decoder's wait for a keyframe after a loss.
 */
export const CAMERA_STOP = { checkIntervalMs: 1_000, stoppedAfterMs: 2_000 } as const;

/**
 * What we send as video is losing on the way (call/SendLossWatch), read every `checkIntervalMs`: the
 * share of the packets sent since the last read that the receivers' reports (RTCP) say were lost,
 * and the congestion control's target for each video stream sent. A read at `noticeAtFraction` lost
 * or more, or with every stream's target down at `starvedAtBps` (its floor is 30 kbps: nothing gets
 * through — a receiver that gets none of a stream's packets reports none lost), is a bad one;
 * `checks` in a row tell the person, as many good ones (below `clearBelowFraction`, a target above
 * the floor) take it back. A read of fewer than `minPacketsSent` new packets says nothing (a paused
 * video, a layer not sent). A tenth of the video lost for seconds already freezes it for its
 * receivers, while the congestion control's own probing loses a percent or two. A read is
 * asynchronous (every sender's statistics): profiled in a steady 3-person call, less than a
 * millisecond of a tab's main thread in 10 s (docs/performance.md, "What a steady call reads").
 */
export const SEND_LOSS = { checkIntervalMs: 4_000, noticeAtFraction: 0.1, clearBelowFraction: 0.02, starvedAtBps: 50_000, checks: 2, minPacketsSent: 10 } as const;

/**
 * Reconnecting after the relay went away or refused us: 1 s, doubling to at most 8 s, plus up to
 * 0.5 s of jitter. The same backoff paces what is tried again on a connection that works: a failed
 * ingest, a consumer's step the relay did not do (rate limited, timed out), and the relay for a
 * receiver it failed (RELAY_RECEIVER_FALLBACK).
 */
export const RELAY_RECONNECT = { firstDelayMs: 1_000, maxDelayMs: 8_000, jitterMs: 500 } as const;

/**
 * A receiver the relay fails — its consumer refused for a bound (limitExceeded: at most so many
 * consumers a connection), or failing `failures` times in a row (its ICE to the relay failing
 * each time, ~15 s a try) — gets the delivery over the mesh; the relay is tried for it again after
 * RELAY_RECONNECT's backoff, and takes it back once its consumer connects (call/relay/ReceiverFallback.ts).
 */
export const RELAY_RECEIVER_FALLBACK = { failures: 2 } as const;

/**
 * The relay connection's own watch (RelayRpcClient): a PING every `heartbeatMs`, and a socket whose
 * PING is not answered as any request must be (RELAY_REQUEST_TIMEOUT_MS) taken for dropped: a
 * browser cannot ping, and a socket the network silently dropped says nothing. A dropped socket's
 * session is resumed on a new one, tried every `retryDelayMs` for as long as the relay keeps it
 * (RELAY_LIMITS.resumeGraceMs), each try with `attemptTimeoutMs` to open and be answered.
 */
export const RELAY_RESUME = { heartbeatMs: 10_000, retryDelayMs: 1_000, attemptTimeoutMs: 5_000 } as const;

/** A relay request not answered by then fails (RelayRpcClient). */
export const RELAY_REQUEST_TIMEOUT_MS = 15_000;

/**
 * A remote video's tile that needs less than it last asked for (smaller, or no longer enlarged) asks
 * for it once it has needed less this long; one that needs more, or is hidden or shown, asks at once.
 * When someone joins a relay call every tile of the grid shrinks, and each receiver's lower layer
 * costs its sender a keyframe of every layer: asked at once, those keyframes came in the middle of
 * the newcomer's join, on the same cores (issue 14: four-person relay joins took 1.37 s against
 * 1.24 s with this delay, alternated). Meanwhile the tile shows the sharper layer it has, scaled down.
 */
export const TILE_SHRINK_REPORT_DELAY_MS = 1_500;

/**
 * A layer serves a tile up to this much upscaling: beyond 1.5× the picture visibly softens, so the
 * next layer up is asked for.
 */
export const LAYER_UPSCALE_LIMIT = 1.5;

/**
 * Issue 13: how long after our rejoin a person of the room's call who has not reappeared yet is
 * still counted as in the call (their media kept, their media facts kept for their return). They
 * lost the same server and come back on their own reconnect schedule (within seconds of the server,
 * RECONNECT_POLICY; longer when their own network is down too); one who really went away ends
 * sooner through their sessions (ICE interrupted 5 s, SPEC §4).
 */
export const REJOIN_GRACE_MS = 30_000;

/**
 * Someone of the call whose room says they left, while their media still reaches us, has likely
 * lost only their connection to the chat server (call/DepartureHold): the call keeps them for
 * `graceMs` — the XMPP servers' stream-resumption window, and more than a reconnect's first
 * attempts take (RECONNECT_POLICY) — as long as a packet of theirs keeps arriving at least every
 * `stalledAfterMs`, read every `checkIntervalMs`. Their voice sends a packet every 20 ms, muted or
 * not; a closed tab's media stops at once.
 */
export const DEPARTURE_HOLD = { graceMs: 10_000, stalledAfterMs: 1_000, checkIntervalMs: 250 } as const;

/**
 * Issue 13, "back within 5 s of the server being reachable again, whatever the outage's length"
 * (src/shared-worker/ReconnectPolicy.ts). The spec's schedule ((attempts + 1) s plus up to 2 s) is
 * kept for its first `specAttempts`, whose waits (at most 3 s and 4 s) are within that target; from
 * then on the session waits for the gateway to say the XMPP server is up (GET /api/xmpp-ready),
 * and tries `spreadAfterUpMs` (random) after it says so. A gateway that cannot say (unreachable,
 * or without that route) leaves the session on the spec's schedule capped at `maxDelayMs`, jitter
 * included. A chat server that refused the sign-in `refusedLoginsBeforeBackoff` times in a row is up
 * but will not let the account in (a broken auth setup, a rotated secret): retried every few seconds,
 * each client would cost it a config and a login at each; instead the next attempt waits
 * `afterRefusedLoginsMs` plus up to `refusedLoginsJitterMs` (the clients refused together spread out),
 * and the person is told, with "Retry now".
 */
export const RECONNECT_POLICY = {
  specAttempts: 2,
  spreadAfterUpMs: 1_000,
  maxDelayMs: 4_000,
  refusedLoginsBeforeBackoff: 3,
  afterRefusedLoginsMs: 60_000,
  refusedLoginsJitterMs: 30_000,
  /** A readiness question unanswered this long counts as "cannot say" (the gateway holds one 20 s). */
  readinessTimeoutMs: 30_000,
  /** Asked again at most this often after a "still down" (a gateway that answers at once is not asked in a loop). */
  readinessMinIntervalMs: 1_000,
} as const;

/**
 * Issue 13: a connection that goes dead without closing (a broken Wi-Fi: no offline event, no
 * close) is noticed by the session itself. After `quietMs` without a byte from the server it asks
 * (XEP-0199 ping); no answer within `answerWithinMs` and the connection is given up and reconnected.
 * A dead connection is noticed within quietMs + answerWithinMs. A login that has not become a
 * session within `startWithinMs` (its path died on the way) is given up the same way.
 */
export const LIVENESS = { quietMs: 15_000, answerWithinMs: 5_000, startWithinMs: 15_000 } as const;

/**
 * The bandwidth estimate a video sender starts from, in kbps (issue 14), as `x-google-start-bitrate`
 * on the answer it applies (Chromium reads it; other browsers ignore it; nothing changes on the
 * wire): a direct (mesh) sender writes it into its receiver's answer (`call/mesh/startBitrate.ts`),
 * the relay ingest asks mediasoup-client for it (`videoGoogleStartBitrate`). From Chromium's own
 * start, 300 kbps shared with the audio, the encoder drops the first four camera frames (133 ms at
 * 30 fps) and scales any capture larger than 320×240 down before its first frame; from 1 Mbps the
 * first frame of a mesh tier (800×600 at most) goes out at the capture's size, or one step below it
 * on a loaded machine. Bandwidth estimation still settles on what the path carries.
 */
export const VIDEO_START_BITRATE_KBPS = 1_000;

/**
 * A shared screen's sound (a tab's or the system's: mostly a video or music being shown) is sent
 * in stereo where its receiver takes it (`call/opusStereo.ts`), at this average bitrate in bps
 * (Opus `maxaveragebitrate`), where a voice is mono at Chromium's 32 kbps. On the mesh its sender
 * writes it into the answer it applies; the relay ingest asks mediasoup-client for both.
 */
export const SCREEN_SOUND_BITRATE_BPS = 96_000;

/**
 * A direct (mesh) camera video is sent at the size its receiver's tile asks for (PROTOCOL.md
 * simulcast profile; `call/mesh/meshVideoSize.ts`), as the relay sends a layer. Until the receiver
 * asks, `initialProfile`: the two-person grid's tile, whose smaller first keyframe the newcomer
 * decodes sooner than a whole 1280×720 one (issue 14, docs/performance.md). A receiver that has not
 * asked `unaskedAfterMs` after accepting (a SimpleWebRTC 1.30.3 app whose videos ask no quality)
 * gets the whole capture, as before.
 */
export const MESH_VIDEO_SIZE = { initialProfile: 'medium', unaskedAfterMs: 2_000 } as const;

/**
 * Issue 14: the camera moves to a new capture tier (SPEC §9) once what we send has kept that tier
 * this long. A change of capture size reconfigures the camera's encoders (a keyframe at the new size
 * for every receiver): made as someone joins, it lands on that join's first frames (a two-person
 * join took about 11% longer with it, docs/performance.md), and people arriving one after another
 * would change it once each.
 */
export const CAPTURE_TIER_SETTLE_MS = 2_000;

/**
 * Issue 14: a voice that arrives while you are in the call or joining it — another person's, or your
 * microphone captured as you join — is analysed (speaking, input detected) from this long after it
 * arrives, so that starting its analysis does not share the cores with that join's first frames.
 * Your microphone captured for the preview is analysed at once: the preview's meter shows its level.
 */
export const VOICE_ANALYSIS_DELAY_MS = 1_000;

/**
 * How many times the tab's analysis worker is started afresh after it failed (its module did not
 * load, it crashed), and so how many times a voice's analysis that ended with it starts again: a
 * crash now and then is survived, a worker that cannot run stops being tried.
 */
export const ANALYSIS_WORKER_RESTARTS = 2;

/**
 * Your microphone whose voice analysis has heard no sound at all this long after it started (only
 * digital silence, which no live microphone delivers: worker/VoiceActivityDetector.ts) delivers
 * none — muted on the device itself, an input with nothing plugged in — and has lost its input
 * (`inputLost`, callTab/VoiceMonitors.ts), as one that goes silent after some sound does within a
 * second. The person is told: the others hear nothing of them (CallNotices).
 */
export const MICROPHONE_SILENT_AFTER_MS = 3_000;

/**
 * Issue 14: a mesh sender keeps one offer made ahead for the next person to join
 * (`call/mesh/PreparedOffer.ts`). It is made `delayMs` after what it would send last changed (or
 * after the last one was taken), so a join under way is not slowed by making the next, and made
 * again once `maxAgeMs` old, so its candidates stay those of the network as it is.
 */
export const PREPARED_OFFER = { delayMs: 500, maxAgeMs: 30_000 } as const;

/**
 * An offer of ours refused `wait` (`resource-constraint`: its receiver's session worker holds
 * LIMITS.jingleSessionsPerSender sessions of ours, JingleRouter) ends as `busy` and is made again
 * after this long, not SPEC §4's 2 s: a place frees only as one of those sessions ends — one that
 * is failing ends within SPEC §4's 5 s interrupted limit — and every offer costs a connection with
 * its candidates gathered (TURN allocations included), which a retry every 2 s would repeat for nothing.
 */
export const BUSY_RECOMPUTE_AFTER_MS = 10_000;

/**
 * Beyond SPEC §4: a session not connected this long after it was made is ended as failed-transport,
 * so that it starts anew. Its ICE may never begin: when the candidates it needs come in transport-info
 * IQs that are lost (timed out on a machine too busy to answer, or refused as unknown-session by a
 * peer that had not registered the session yet), the connection stays `new`, which no other limit
 * ends. As long as an ICE agent's own wait for failure (about 30 s in Chromium), so that a slow one
 * is not cut short.
 */
export const SESSION_CONNECT_LIMIT_MS = 30_000;

/**
 * Issue 14: someone who joins a call connects the sessions of those already in it before offering
 * its own to them (`call/ReceiveFirst.ts`), waiting at most `maxWaitMs` after entering the call for
 * a session that does not come (a person in the call who sends nothing). On this machine such a
 * session is connected 150–300 ms after the call presence goes out.
 */
export const RECEIVE_FIRST = { maxWaitMs: 500 } as const;

/**
 * Issue 14, the join path: the XMPP websocket the shared worker opens as it starts, before its config
 * has come back, is closed if no login has taken it by then (the config request kept failing). The
 * config service's answer, on its spec's schedule, takes seconds at worst; the XMPP server would
 * close an idle unauthenticated connection itself only much later.
 */
export const XMPP_SOCKET_AHEAD_UNCLAIMED_MS = 30_000;

/**
 * A tab whose attach the shared session has not answered by then says the session could not start
 * (SessionBridge): normally it answers within a second, once the worker's code has run. Answered
 * later after all, the tab takes that back.
 */
export const SESSION_ATTACH_WITHIN_MS = 10_000;

/**
 * A read of the stored guest identity (IndexedDB) not answered by then counts as failed: the config
 * request goes without it, and the service issues a new identity. Every connect and config refresh
 * waits for that read, and an IndexedDB that hangs never answers; a working one answers within
 * 20–60 ms even in a fresh profile on a busy join (issue 14).
 */
export const IDENTITY_READ_WITHIN_MS = 3_000;

/**
 * A sender on the relay makes the next receiver's consumer of each of its streams ahead (CLAIM_CONSUMER,
 * `call/relay/ConsumerAhead.ts`) once its call's plan has not changed for this long, so that making it
 * never shares the cores with someone's join.
 */
export const CONSUMER_AHEAD_AFTER_MS = 1_000;

/**
 * A wait's spinner shows once the wait has lasted this long (`src/ui/Spinner.tsx`): joining a room
 * takes about half a second, and a spinner that flashes by tells nothing. Until then nothing
 * animates: a running animation has the browser draw a frame every 16 ms, which a join shares its
 * cores with (issue 14; two-person joins 753 against 807 ms, alternated).
 */
export const SPINNER_DELAY_MS = 1_000;

/**
 * A message's desktop notification waits this long, and is dropped if the room's unread count is
 * back to 0 by then (`alerts/NoticeHold.ts`): only the tab holding the room's alert lock
 * notifies, usually the room's tab hidden behind its pop-out chat, and the pop-out, visible, marks
 * the message read within a round trip to the session (a few ms). Short enough that a notice for
 * a message nobody sees is still prompt.
 */
export const MESSAGE_NOTICE_HOLD_MS = 400;

/**
 * A tone asked for while its audio context is not running (`alerts/tones.ts`) plays if the context
 * runs within this long: one just made starts a moment later in some browsers. Later, the tone is
 * stale (a context the browser suspended runs again only after a click, maybe much later) and is dropped.
 */
export const TONE_START_WAIT_MS = 300;

/**
 * A plain leave's tone and its words to a screen reader wait this long, and happen only if its event
 * line is still there (`alerts/LeaveHold.ts`): someone whose connection the server replaced is
 * announced as leaving and back at once (a bind and a room join later), and their line gives way to
 * "reconnected" (RoomEventLog). It is DEPARTURE_HOLD.stalledAfterMs, so a closed tab's tone sounds as
 * its tile goes.
 */
export const LEAVE_HOLD_MS = DEPARTURE_HOLD.stalledAfterMs;

/**
 * XEP-0045 §7.6: a nickname change is an unavailable presence (status 303, naming the new nickname)
 * and the available one at the new address right after it. That presence, within this long, is the
 * same person renamed (RoomEventLog), not an arrival; later, the rename was lost on the way.
 */
export const NICKNAME_CHANGE_WITHIN_MS = 10_000;

/**
 * The config's credential and relay token expire (PARLEY_CREDENTIAL_TTL_SECONDS, 12 h by default),
 * and a connection may outlive them: the room-config service, the relay's AUTH and a reconnect's
 * `resume` would then refuse them. So while connected the session asks for the config again (with
 * `resume`, keeping its id) once `lifetimeFraction` of the shortest token lifetime has passed
 * (configLifetimeMs), leaving the other half for retries: a refresh that fails is tried again
 * after `retryDelayMs`, or a quarter of the lifetime when that is shorter, never sooner than `minDelayMs`.
 */
export const CONFIG_REFRESH = { lifetimeFraction: 0.5, retryDelayMs: 60_000, minDelayMs: 1_000 } as const;

/**
 * A microphone or camera toggled from another tab of yours (the pop-out chat,
 * `src/ui/call/OwnMediaElsewhere.tsx`) shows as on its way until the call's tab has done it, a
 * round trip through the session (a few ms); should that tab not do it (its device was still
 * starting), the toggle shows the state as it is again after this long.
 */
export const OWN_MEDIA_REQUEST_SETTLE_MS = 2_000;

/** A room you are in goes on the home page's recent rooms this long after the join (its first frames come first), or as you leave it if sooner. */
export const RECENT_ROOM_DELAY_MS = 3_000;

/**
 * A tab reloaded while it ran a call comes back into it by itself (callTab/callAfterReload.ts) when
 * its page is back within this long; later, it shows the preview as any new page does.
 */
export const CALL_AFTER_RELOAD_WITHIN_MS = 30_000;

/**
 * A read of the stored preferences (IndexedDB) not answered by then counts as none: the session
 * goes on with the defaults, and a record that arrives later is taken under what the person chose
 * meanwhile. The home page's Join waits for that read (its name goes into the preferences first);
 * a working IndexedDB answers within 20–60 ms (IDENTITY_READ_WITHIN_MS).
 */
export const PREFERENCES_READ_WITHIN_MS = 3_000;

/**
 * The stored preferences this build does not know (another build's, kept through a rollback) are
 * saved again with the record up to this many characters of them as JSON, so the record stays
 * bounded: the fields this build knows take about 1,700 at most.
 */
export const STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS = 4_096;
