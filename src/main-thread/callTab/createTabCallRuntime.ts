import type { Remote } from 'comlink';
import type { createStore } from 'jotai';
import { consoleLogger } from '../../common/logger';
import { systemClock } from '../../common/clock';
import type { AnalysisWorkerApi } from '../../protocol/analysisWorker';
import type { BridgeCallSignaling } from '../call/BridgeCallSignaling';
import { Call } from '../call/Call';
import type { CallLocks } from '../call/CallOwnership';
import { keepSdpLines } from '../call/sdpLines';
import { probeMediaLoaded, readCapturePermissions, standInCameraStream, type PreviewCapture } from '../media';
import type { SessionBridge } from '../SessionBridge';
import { VoiceActivityMonitor } from '../voice/VoiceActivityMonitor';
import { CallRuntime } from './CallRuntime';
import { browserTileObservers } from './RemoteTileNeeds';
import type { CallTabCommands } from './sessionCommands';

export interface TabCallRuntimeOptions {
  readonly roomAddress: string;
  readonly bridge: SessionBridge;
  readonly store: ReturnType<typeof createStore>;
  /** The tab's analysis worker (startAnalysisWorker). */
  readonly analysis: Remote<AnalysisWorkerApi>;
  /** The camera and microphone the page asked for as it loaded (TabCalls.startPreviewCapture), if it did. */
  readonly previewCapture: PreviewCapture | undefined;
  /** The tab's Jingle path to the session (one for every room's Call). */
  readonly signaling: BridgeCallSignaling;
  /** The browser's Web Locks, with any call lock taken ahead of the Call (TabCalls.claimCallAhead). */
  readonly locks: CallLocks;
}

/** Where MediaStreamTrackProcessor is missing, voice analysis taps audio with an AudioWorklet: one context for the tab. */
let sharedAudioContext: AudioContext | undefined;
function workletAudioContext(): AudioContext | undefined {
  if (typeof Reflect.get(globalThis, 'MediaStreamTrackProcessor') === 'function') return undefined;
  sharedAudioContext ??= new AudioContext();
  return sharedAudioContext;
}

/** The call runtime of a room in this tab, wired to the browser and to the tab's shared session. */
export function createTabCallRuntime({ roomAddress, bridge, store, analysis, previewCapture, signaling, locks }: TabCallRuntimeOptions): CallRuntime {
  keepSdpLines();
  const logger = consoleLogger('[parley call]');
  const commands: CallTabCommands = bridge.actions;
  // Undefined on a page that may not capture (not a secure context), whatever the typings say.
  const mediaDevices = navigator.mediaDevices as MediaDevices | undefined;
  return new CallRuntime({
    roomAddress,
    store,
    commands,
    mediaDevices,
    capturePermissions: () => readCapturePermissions(navigator.permissions as Permissions | undefined),
    previewCapture,
    clock: systemClock,
    logger,
    createCall: (media, iceServers) =>
      new Call({
        roomAddress,
        store,
        signaling,
        media,
        iceServers,
        clock: systemClock,
        logger,
        locks,
        reportPeerMedia: (peerAddress, change) => commands.calls.reportPeerMedia(peerAddress, change),
      }),
    startVoiceMonitor: async (itemId, track, analysisOptions) => {
      await analysis.ready();
      const audioContext = workletAudioContext();
      return VoiceActivityMonitor.start({ analysis, itemId, track, analysisOptions, ...(audioContext ? { audioContext } : {}) });
    },
    // A failed analysis worker rejects every call; its failure is logged once (startAnalysisWorker).
    setVoiceThreshold: (thresholdDb) => void analysis.setThreshold(thresholdDb).catch(() => undefined),
    pageWindow: window,
    probeLoaded: (item, stream) => probeMediaLoaded(item.kind, stream, systemClock),
    tileObservers: browserTileObservers(),
    standInCamera: standInCameraStream,
    ownMediaRequests: (apply) =>
      bridge.onEvent((event) => {
        if (event.type === 'own-media-request' && event.roomAddress === roomAddress) apply(event.change);
      }),
  });
}
