import { createStore } from 'jotai';
import { afterEach } from 'vitest';
import type { CallEvents } from '../../src/main-thread/call/Call';
import { CallUnsupportedError, type SessionFailedError } from '../../src/main-thread/call/errors';
import { CallRuntime } from '../../src/main-thread/callTab/CallRuntime';
import type { CallLike } from '../../src/main-thread/callTab/CallSeat';
import type { TileObservers } from '../../src/main-thread/callTab/RemoteTileNeeds';
import type { CallTabCommands } from '../../src/main-thread/callTab/sessionCommands';
import type { ItemVoiceMonitor } from '../../src/main-thread/callTab/VoiceMonitors';
import { TypedEmitter } from '../../src/common/TypedEmitter';
import type { MediaDevicesApi, PreviewCapture, VideoSendLoad } from '../../src/main-thread/media';
import type { TileNeed, VideoSize } from '../../src/main-thread/call/receive/tileProfile';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { OwnMediaRequest } from '../../src/protocol/commands';
import type { CallRecord, OwnCallMedia, Peer, Preferences, Room } from '../../src/protocol/entities';
import { initialSessionState } from '../../src/protocol/session-state';
import type { VoiceActivityReport, VoiceAnalysisOptions } from '../../src/protocol/analysisWorker';
import { ManualClock } from '../support/ManualClock';
import { fakeStandInCamera, FakeStream, FakeTrack } from './track-fakes';
import { PEER_DEFAULTS } from '../support/peers';
import { OWN_MEDIA_DEFAULTS } from '../../src/shared-worker/rooms/callRecord';

/**
 * Node has no capture, no WebRTC and no shared worker: these stand in for them so that the call
 * tab's own logic (when it captures, joins, shares, announces, reports) runs here. The browser
 * side is proven in Chromium by tests/e2e/call-ui.spec.ts.
 */

export const ROOM = 'room@muc.parley.test';
export const SELF = `${ROOM}/alice`;
export const BOB = `${ROOM}/bob`;

/** The id the fake lists its one device of a kind under, and gives its tracks unless another is asked for. */
function defaultDeviceOf(kind: MediaDeviceKind): string {
  return `${kind}-device`;
}

/** A camera, a microphone and a speaker; labelled (access granted) or not. */
export class FakeMediaDevices extends EventTarget {
  labelled = true;
  /** getUserMedia requests, in order. */
  readonly requests: MediaStreamConstraints[] = [];
  /** The tracks of each capture that succeeded, in order. */
  readonly captured: FakeTrack[][] = [];
  /** The error name the next getUserMedia fails with. */
  failNextWith: string | undefined;
  /** While set, every getUserMedia that asks for a camera fails with this error name (a camera another app holds). */
  cameraFailsWith: string | undefined;

  getSupportedConstraints(): MediaTrackSupportedConstraints {
    return { deviceId: true, width: true, height: true, frameRate: true };
  }

  /** The kinds of device unplugged now (`plug`): not listed. */
  private readonly unplugged = new Set<MediaDeviceKind>();

  /** Devices listed after the default ones (a second microphone to pick, say), by id and label. */
  readonly alsoListed: Array<{ readonly kind: MediaDeviceKind; readonly deviceId: string; readonly label: string }> = [];

  async enumerateDevices(): Promise<MediaDeviceInfo[]> {
    const device = (kind: MediaDeviceKind, label: string, deviceId = defaultDeviceOf(kind)) =>
      ({ deviceId: this.labelled ? deviceId : '', groupId: '', kind, label: this.labelled ? label : '', toJSON: () => ({}) }) as MediaDeviceInfo;
    return [
      device('audioinput', 'Microphone'),
      device('videoinput', 'Camera'),
      device('audiooutput', 'Speaker'),
      ...this.alsoListed.map(({ kind, label, deviceId }) => device(kind, label, deviceId)),
    ].filter((info) => !this.unplugged.has(info.kind));
  }

  /** The fake's default camera or microphone unplugged (false) or plugged back in (true), as the browser says it: `devicechange`. */
  plug(kind: 'audioinput' | 'videoinput', present: boolean): void {
    if (present) this.unplugged.delete(kind);
    else this.unplugged.add(kind);
    this.dispatchEvent(new Event('devicechange'));
  }

  /** While set, getUserMedia answers once it resolves: a capture still starting. */
  starting: Promise<void> | undefined;

  /** While set, the browser's screen picker answers once it resolves: the person still choosing. */
  picking: Promise<void> | undefined;

  /** The browser's picker: a window, without sound. */
  async getDisplayMedia(): Promise<MediaStream> {
    await this.picking;
    const tracks = [new FakeTrack('video', 'screen')];
    this.captured.push(tracks);
    return new FakeStream(tracks) as unknown as MediaStream;
  }

  async getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream> {
    this.requests.push(constraints);
    await this.starting;
    const unplugged = (constraints.audio && this.unplugged.has('audioinput')) || (constraints.video && this.unplugged.has('videoinput'));
    const error = this.failNextWith ?? (constraints.video ? this.cameraFailsWith : undefined) ?? (unplugged ? 'NotFoundError' : undefined);
    this.failNextWith = undefined;
    if (error) throw new DOMException(`${error} from the fake`, error);
    // A track on the device asked for by `deviceId: { exact }`, else on the fake's default one.
    const picked = (constraint: boolean | MediaTrackConstraints | undefined): string | undefined => {
      const deviceId = typeof constraint === 'object' ? constraint.deviceId : undefined;
      return typeof deviceId === 'object' && !Array.isArray(deviceId) && typeof deviceId.exact === 'string' ? deviceId.exact : undefined;
    };
    const tracks = [
      ...(constraints.audio ? [new FakeTrack('audio', picked(constraints.audio) ?? defaultDeviceOf('audioinput'))] : []),
      ...(constraints.video ? [new FakeTrack('video', picked(constraints.video) ?? defaultDeviceOf('videoinput'))] : []),
    ];
    this.captured.push(tracks);
    return new FakeStream(tracks) as unknown as MediaStream;
  }
}

/** A call engine whose lock is granted when the test says so. */
export class FakeEngine extends TypedEmitter<CallEvents> implements CallLike {
  started = false;
  closed = false;
  readonly tileNeeds: Array<{ mediaId: string; need: TileNeed }> = [];
  readonly frameSizes: Array<{ mediaId: string; size: VideoSize }> = [];
  private grant: (() => void) | undefined;
  private readonly granted: Promise<void>;

  constructor(
    private readonly log: string[],
    grantAtOnce: boolean,
    /** Another tab of yours runs the call: the engine says so as it starts, before waiting for the lock. */
    private readonly heldElsewhere: boolean,
    private readonly unsupported = false,
  ) {
    super();
    this.granted = grantAtOnce ? Promise.resolve() : new Promise((resolve) => (this.grant = resolve));
  }

  /** The call's Web Lock comes free. */
  grantLock(): void {
    this.grant?.();
  }

  async start(whileHeldElsewhere?: () => void): Promise<void> {
    this.log.push('engine start');
    if (this.unsupported) throw new CallUnsupportedError('RTCPeerConnection');
    if (this.heldElsewhere) whileHeldElsewhere?.();
    await this.granted;
    if (!this.closed) this.started = true;
  }

  /** Another tab of yours took the lock ("Move call here" there). */
  takenElsewhere(): void {
    this.emit('takenElsewhere');
  }

  /** A session with someone ended with an error (Call's `sessionFailed`). */
  sessionFailed(error: SessionFailedError): void {
    this.emit('sessionFailed', error);
  }

  /** What the call sends changed (Call's `sendLoad`). */
  sendLoad(load: VideoSendLoad): void {
    this.emit('sendLoad', load);
  }

  /** "Move call here": the lock is taken from the other tab at once. */
  takeOver(): void {
    this.log.push('engine take over');
    this.grant?.();
  }

  async close(): Promise<void> {
    this.log.push('engine close');
    this.closed = true;
    this.grant?.();
  }

  async setTileNeed(mediaId: string, need: TileNeed): Promise<void> {
    this.tileNeeds.push({ mediaId, need });
  }

  setFrameSize(mediaId: string, size: VideoSize): void {
    this.frameSizes.push({ mediaId, size });
  }
}

/**
 * A fake of the browser's IntersectionObserver, ResizeObserver and page visibility (Node has none):
 * the test says what is in sight and how large.
 */
export class FakeTileObservers implements TileObservers {
  readonly observed = new Set<Element>();
  pageVisible = true;
  ratio = 1;
  private onIntersection: Parameters<TileObservers['intersection']>[0] = () => undefined;
  private onResize: Parameters<TileObservers['resize']>[0] = () => undefined;
  private readonly pageListeners = new Set<() => void>();

  readonly intersection: TileObservers['intersection'] = (onChange) => {
    this.onIntersection = onChange;
    return this.observer();
  };
  readonly resize: TileObservers['resize'] = (onChange) => {
    this.onResize = onChange;
    return this.observer();
  };
  readonly page: TileObservers['page'] = {
    isVisible: () => this.pageVisible,
    onChange: (listener) => {
      this.pageListeners.add(listener);
      return () => this.pageListeners.delete(listener);
    },
  };
  readonly pixelRatio = (): number => this.ratio;

  /** The element is laid out at this size and in sight (or not). */
  show(target: Element, width: number, height: number, inSight = true): void {
    this.onResize([{ target, width, height }]);
    this.onIntersection([{ target, isIntersecting: inSight }]);
  }

  setPageVisible(visible: boolean): void {
    this.pageVisible = visible;
    for (const listener of this.pageListeners) listener();
  }

  private observer() {
    return {
      observe: (target: Element) => void this.observed.add(target),
      unobserve: (target: Element) => void this.observed.delete(target),
      disconnect: () => this.observed.clear(),
    };
  }
}

export class FakeVoiceMonitor implements ItemVoiceMonitor {
  stopped = false;
  private readonly listeners = new Set<(report: VoiceActivityReport) => void>();
  private readonly endListeners = new Set<(end: { readonly itemId: string; readonly error?: unknown }) => void>();
  constructor(
    readonly itemId: string,
    readonly track: FakeTrack,
    readonly analysisOptions: VoiceAnalysisOptions,
  ) {}
  on(type: 'change', listener: (report: VoiceActivityReport) => void): () => void;
  on(type: 'ended', listener: (end: { readonly itemId: string; readonly error?: unknown }) => void): () => void;
  on(type: 'change' | 'ended', listener: ((report: VoiceActivityReport) => void) | ((end: { readonly itemId: string; readonly error?: unknown }) => void)): () => void {
    const listeners = (type === 'change' ? this.listeners : this.endListeners) as Set<typeof listener>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }
  /** The analysis ends by itself, as a VoiceActivityMonitor's does when its worker fails (`error`). */
  end(error?: unknown): void {
    for (const listener of this.endListeners) listener({ itemId: this.itemId, ...(error === undefined ? {} : { error }) });
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
  report(speaking: boolean, at = 1_000, volume = speaking ? -40 : -90): void {
    for (const listener of this.listeners) listener({ itemId: this.itemId, speaking, inputDetected: true, inputLost: false, volume, at });
  }
  /** What its detector says of digital silence: nothing heard yet, or (`afterSound`) input lost after some. */
  reportSilence(at = 1_000, { afterSound = false } = {}): void {
    for (const listener of this.listeners) listener({ itemId: this.itemId, speaking: false, inputDetected: afterSound, inputLost: afterSound, volume: -Infinity, at });
  }
}

export function room(overrides: Partial<Room> = {}): Room {
  return {
    id: 'room-1',
    address: ROOM,
    providedName: 'room',
    providedPassword: undefined,
    password: undefined,
    passwordRequired: false,
    banned: false,
    roomFull: false,
    roomNotStarted: false,
    roomState: 'joined',
    joined: true,
    joinedAt: 1,
    peopleBeforeOutage: undefined,
    selfAddress: SELF,
    selfAffiliation: 'owner',
    selfRole: 'moderator',
    rid: 'room-rid',
    autoJoinCall: false,
    unreadCount: 0,
    error: undefined,
    removal: undefined,
    movedFrom: undefined,
    bans: undefined,
    ...overrides,
  };
}

export function peer(address: string, overrides: Partial<Peer> = {}): Peer {
  return {
    address,
    userAddress: undefined,
    id: address.split('/')[1] ?? address,
    displayName: address.split('/')[1] ?? address,
    customerData: {},
    role: 'participant',
    affiliation: 'none',
    roomAddress: ROOM,
    joinedCall: false,
    joinedCallAt: undefined,
    joinedRoomAt: 1,
    requestingMedia: 'video',
    ...PEER_DEFAULTS,
    isSelf: address === SELF,
    readsPrivateMessages: true,
    ...overrides,
  };
}

function callRecord(joined: boolean, ownMedia: OwnCallMedia = OWN_MEDIA_DEFAULTS): CallRecord {
  return {
    roomAddress: ROOM,
    joined,
    joinedAt: joined ? 1 : undefined,
    requestingMedia: joined ? 'video' : 'none',
    allowedMedia: 'video',
    allowedAudioRoles: ['moderator', 'participant'],
    allowedVideoRoles: ['moderator', 'participant'],
    recordable: false,
    recordingState: 'offline',
    state: 'active',
    ownMedia,
    heldPeers: [],
  };
}

export interface HarnessOptions {
  /** The call record says joined from the start (another tab of yours joined). */
  readonly joined?: boolean;
  /** Another tab holds the call's lock. */
  readonly lockHeldElsewhere?: boolean;
  /** Engines get the lock at once (else the test grants it). */
  readonly grantAtOnce?: boolean;
  /** A browser without RTCPeerConnection: engines refuse to start (named fake: a real Chromium always has one). */
  readonly unsupported?: boolean;
  /** Devices' labels are exposed (the browser has granted access) — default — or not yet. */
  readonly labelled?: boolean;
  /** The browser says camera and microphone were refused (the Permissions API's 'denied'). */
  readonly refused?: boolean;
  /** While set, the Permissions API answers once it resolves: the preview has not decided what to capture yet. */
  readonly permissionsAnswered?: Promise<void>;
  /** The camera and microphone the page asked for as it loaded. */
  readonly previewCapture?: PreviewCapture;
  readonly tileObservers?: TileObservers;
  /** Your own media as the call record keeps it (the tab that ran the call wrote it). */
  readonly ownMedia?: OwnCallMedia;
  /** A page that may not capture (not a secure context: http on a LAN address): no navigator.mediaDevices. */
  readonly noMediaDevices?: boolean;
}

/**
 * A CallRuntime over fakes: the shared session is the store plus commands that change it the way
 * the worker would — a call join or leave shows in the record only when the test delivers it
 * (`deliverCallRecord`), as a patch arriving after the command's answer.
 */
export function harness(options: HarnessOptions = {}) {
  const log: string[] = [];
  const store = createStore();
  const state = initialSessionState();
  store.set(sessionStateAtom, {
    ...state,
    rooms: { 'room-1': room() },
    peers: { [SELF]: peer(SELF, { displayName: 'Alice', affiliation: 'owner' }), [BOB]: peer(BOB, { displayName: 'Bob', joinedCall: true }) },
    calls: { [ROOM]: callRecord(options.joined ?? false, options.ownMedia) },
  });
  const pendingRecord: boolean[] = [];
  const spoken: boolean[] = [];
  const reports: Array<{ peerAddress: string; change: Partial<Peer> }> = [];
  const ownMediaWrites: Array<Partial<OwnCallMedia>> = [];
  const heldPeerWrites: string[][] = [];
  const update = (change: (current: ReturnType<typeof initialSessionState>) => Partial<ReturnType<typeof initialSessionState>>) =>
    store.set(sessionStateAtom, (current) => ({ ...current, ...change(current) }));
  const commands: CallTabCommands = {
    rooms: {
      joinCall: async () => {
        log.push('joinCall');
        pendingRecord.push(true);
      },
      leaveCall: async () => {
        log.push('leaveCall');
        pendingRecord.push(false);
      },
    },
    calls: {
      reportPeerMedia: async (peerAddress, change) => {
        reports.push({ peerAddress, change });
        update((current) => ({ peers: { ...current.peers, [peerAddress]: { ...current.peers[peerAddress]!, ...change } } }));
      },
      // As the worker: sent, and marked on your own record, only while the room is joined.
      setSpeaking: async (_roomAddress, speaking) => {
        const current = store.get(sessionStateAtom);
        const selfAddress = current.rooms['room-1']?.joined ? current.rooms['room-1'].selfAddress : undefined;
        if (selfAddress === undefined || !current.peers[selfAddress]) return;
        spoken.push(speaking);
        update((now) => ({ peers: { ...now.peers, [selfAddress]: { ...now.peers[selfAddress]!, speaking } } }));
      },
      setPeerVolumeLimit: async (peerAddress, volumeLimit) => {
        update((current) => ({ peers: { ...current.peers, [peerAddress]: { ...current.peers[peerAddress]!, volumeLimit } } }));
      },
      // As the worker: kept on the record while the call is joined.
      setOwnMedia: async (_roomAddress, change) => {
        ownMediaWrites.push(change);
        update((current) => {
          const call = current.calls[ROOM]!;
          return call.joined ? { calls: { ...current.calls, [ROOM]: { ...call, ownMedia: { ...call.ownMedia, ...change } } } } : {};
        });
      },
      // As the worker: kept on the record while the call is joined (the records here are the fakes' own, not what the session last knew).
      setHeldPeers: async (_roomAddress, peerAddresses) => {
        heldPeerWrites.push([...peerAddresses]);
        update((current) => {
          const call = current.calls[ROOM]!;
          return call.joined ? { calls: { ...current.calls, [ROOM]: { ...call, heldPeers: peerAddresses.map((address) => peer(address)) } } } : {};
        });
      },
    },
    preferences: {
      setPreferences: async (change: Partial<Preferences>) => {
        update((current) => ({ preferences: { ...current.preferences, ...change } }));
      },
    },
  };
  const mediaDevices = new FakeMediaDevices();
  mediaDevices.labelled = options.labelled ?? true;
  const engines: FakeEngine[] = [];
  /** How the engines made from now on find the call's lock (another tab of yours may take it meanwhile). */
  const nextEngines = { grantAtOnce: options.grantAtOnce ?? true, lockHeldElsewhere: options.lockHeldElsewhere ?? false };
  const monitors: FakeVoiceMonitor[] = [];
  const pageWindow = new EventTarget();
  const clock = new ManualClock();
  const errors: string[] = [];
  /** Who follows what other tabs of yours ask of the call (the runtime, while it is started). */
  const ownMediaRequestFollowers = new Set<(change: OwnMediaRequest) => void>();
  const runtime = new CallRuntime({
    roomAddress: ROOM,
    store,
    commands,
    mediaDevices: options.noMediaDevices ? undefined : (mediaDevices as unknown as MediaDevicesApi),
    capturePermissions: async () => {
      await options.permissionsAnswered;
      const state = options.refused ? 'denied' : (options.labelled ?? true) ? 'granted' : 'prompt';
      return { camera: state, microphone: state };
    },
    previewCapture: options.previewCapture,
    clock,
    logger: { info: () => undefined, error: (message) => errors.push(message) },
    createCall: () => {
      const engine = new FakeEngine(log, nextEngines.grantAtOnce, nextEngines.lockHeldElsewhere, options.unsupported);
      engines.push(engine);
      return engine;
    },
    startVoiceMonitor: async (itemId, track, analysisOptions) => {
      const monitor = new FakeVoiceMonitor(itemId, track as unknown as FakeTrack, analysisOptions);
      monitors.push(monitor);
      return monitor;
    },
    setVoiceThreshold: (thresholdDb) => log.push(`threshold ${thresholdDb}`),
    pageWindow,
    ...(options.tileObservers ? { tileObservers: options.tileObservers } : {}),
    ownMediaRequests: (apply) => {
      ownMediaRequestFollowers.add(apply);
      return () => ownMediaRequestFollowers.delete(apply);
    },
    standInCamera: fakeStandInCamera,
  });
  return {
    runtime,
    store,
    clock,
    log,
    spoken,
    reports,
    ownMediaWrites,
    heldPeerWrites,
    errors,
    engines,
    nextEngines,
    monitors,
    mediaDevices,
    pageWindow,
    /** Another tab of yours asks for your mute or camera, as the session hands it to the call's tab (calls.requestOwnMedia). */
    askOwnMedia: (change: OwnMediaRequest) => ownMediaRequestFollowers.forEach((apply) => apply(change)),
    ownMediaRequestFollowers,
    /** The worker's patch for the last call join or leave arrives. */
    deliverCallRecord(): void {
      const joined = pendingRecord.shift();
      if (joined === undefined) throw new Error('no call command to deliver');
      // Joining keeps what the record carries; leaving resets it.
      update((current) => ({ calls: { ...current.calls, [ROOM]: joined ? callRecord(true, current.calls[ROOM]?.ownMedia) : callRecord(false) } }));
    },
    /** The record changes without a command of this tab's (another tab of yours joined or left). */
    setCallJoined: (joined: boolean) => update((current) => ({ calls: { ...current.calls, [ROOM]: callRecord(joined) } })),
    setPreferences: (change: Partial<Preferences>) => update((current) => ({ preferences: { ...current.preferences, ...change } })),
    self: () => store.get(sessionStateAtom).peers[SELF]!,
  };
}

/** Opens started harnesses for a test file's tests; each is disposed after its test. */
export function startedHarnesses(): (options?: HarnessOptions) => ReturnType<typeof harness> {
  const opened: Array<ReturnType<typeof harness>> = [];
  afterEach(() => {
    for (const h of opened.splice(0)) h.runtime.dispose();
  });
  return (options = {}) => {
    const h = harness(options);
    h.runtime.start();
    opened.push(h);
    return h;
  };
}

/** Lets every pending promise chain run (the runtime's steps are chained on microtasks). */
export async function settle(): Promise<void> {
  for (let round = 0; round < 20; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The started harness `h` has joined the call and left it, the session's record following each. */
export async function joinAndLeave(h: ReturnType<typeof harness>): Promise<void> {
  await h.runtime.joinCall();
  h.deliverCallRecord();
  await settle();
  await h.runtime.hangUp();
  h.deliverCallRecord();
  await settle();
}

/**
 * The started harness `h` in the call with nothing of yours running: joined, hung up, camera and
 * microphone switched off in the preview, joined again — someone who only listens.
 */
export async function joinListeningOnly(h: ReturnType<typeof harness>): Promise<void> {
  await settle();
  await joinAndLeave(h);
  await h.runtime.toggleCamera();
  await h.runtime.toggleMicrophone();
  await h.runtime.joinCall();
  h.deliverCallRecord();
  await settle();
}

/** The monitor of a media item, once it has started. */
export function monitorOf(monitors: readonly FakeVoiceMonitor[], itemId: string): FakeVoiceMonitor {
  const monitor = monitors.findLast((candidate) => candidate.itemId === itemId);
  if (!monitor) throw new Error(`no voice monitor for ${itemId}`);
  return monitor;
}

export function keyEvent(type: 'keydown' | 'keyup', code: string): Event {
  return Object.assign(new Event(type, { cancelable: true }), { code });
}
