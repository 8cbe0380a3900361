import type { AudioFramePortMessage } from '../../protocol/analysisWorker';
import { AUDIO_FRAME_TAP_PROCESSOR, type AudioFrameTapCommand } from './audioFrameTap';

// AudioWorkletGlobalScope's globals, which the DOM typings do not describe.
declare const sampleRate: number;
declare abstract class AudioWorkletProcessor {
  readonly port: MessagePort;
  abstract process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;

/**
 * Runs on the audio rendering thread: forwards the node's mono input straight to the analysis
 * worker in 10 ms frames (the size MediaStreamTrackProcessor delivers), transferring each buffer,
 * so the samples never pass through the main thread.
 */
class AudioFrameTapProcessor extends AudioWorkletProcessor {
  private readonly frameLength = Math.round(sampleRate / 100);
  private pending = new Float32Array(this.frameLength);
  private filled = 0;
  private framePort: MessagePort | undefined;
  private running = true;

  constructor() {
    super();
    this.port.onmessage = (event: MessageEvent<AudioFrameTapCommand>) => {
      const command = event.data;
      if (command.type === 'connect') {
        this.framePort = command.port;
      } else {
        this.running = false;
        this.framePort?.close();
        this.framePort = undefined;
      }
    };
  }

  process(inputs: Float32Array[][]): boolean {
    // The node down-mixes to one channel; there is none while nothing is connected.
    const mono = inputs[0]?.[0];
    if (mono && this.framePort) this.collect(mono, this.framePort);
    return this.running;
  }

  private collect(mono: Float32Array, port: MessagePort): void {
    let offset = 0;
    while (offset < mono.length) {
      const count = Math.min(mono.length - offset, this.frameLength - this.filled);
      this.pending.set(mono.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === this.frameLength) {
        const message: AudioFramePortMessage = { sampleRate, samples: this.pending };
        port.postMessage(message, [this.pending.buffer]);
        this.pending = new Float32Array(this.frameLength);
        this.filled = 0;
      }
    }
  }
}

registerProcessor(AUDIO_FRAME_TAP_PROCESSOR, AudioFrameTapProcessor);
