import frameTapModuleUrl from './AudioFrameTapProcessor.worklet.ts?worker&url';
import { AUDIO_FRAME_TAP_PROCESSOR, type AudioFrameTapCommand } from './audioFrameTap';

/** addModule once per context: the processor name can be registered only once in a worklet scope. */
const moduleLoads = new WeakMap<BaseAudioContext, Promise<void>>();

function loadFrameTapModule(context: BaseAudioContext): Promise<void> {
  let load = moduleLoads.get(context);
  if (!load) {
    load = context.audioWorklet.addModule(frameTapModuleUrl);
    moduleLoads.set(context, load);
  }
  return load;
}

/**
 * The fallback frame path where MediaStreamTrackProcessor is missing: the track feeds an
 * AudioWorkletNode whose processor posts mono frames on a port that goes to the analysis worker.
 * The node has no outputs, which makes the graph pull it without reaching the speakers.
 */
export class AudioWorkletFrameTap {
  private constructor(
    private readonly source: MediaStreamAudioSourceNode,
    private readonly node: AudioWorkletNode,
    /** The end of the frame channel to transfer to the worker. */
    readonly workerPort: MessagePort,
  ) {}

  static async open(context: AudioContext, track: MediaStreamTrack): Promise<AudioWorkletFrameTap> {
    await loadFrameTapModule(context);
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const node = new AudioWorkletNode(context, AUDIO_FRAME_TAP_PROCESSOR, {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      // Let the graph down-mix to mono ("speakers" rules), as an AnalyserNode's input would be.
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
    });
    const frames = new MessageChannel();
    const connect: AudioFrameTapCommand = { type: 'connect', port: frames.port1 };
    node.port.postMessage(connect, [frames.port1]);
    source.connect(node);
    return new AudioWorkletFrameTap(source, node, frames.port2);
  }

  close(): void {
    const stop: AudioFrameTapCommand = { type: 'stop' };
    this.node.port.postMessage(stop);
    this.source.disconnect();
    this.node.disconnect();
  }
}
