import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { types } from 'mediasoup';

/**
 * How soon a simulcast layer the sender stopped is noticed: its packet count is read every
 * `pollIntervalMs`, and a layer whose count has not risen for `stoppedAfterMs` no longer arrives.
 * A sender's browser stops its top layers whenever its bandwidth estimate drops; mediasoup itself
 * notices only on its inactivity check (1.5 s, on a 1.5 s timer), and until then a consumer on
 * that layer gets nothing. SPEC §9's tiers capture at 10 frames a second or more, so half a second
 * of nothing is a stop, not a gap between frames.
 */
export const LAYER_WATCH = { pollIntervalMs: 200, stoppedAfterMs: 500 } as const;

export interface LayerWatchEvents {
  /** The highest spatial layer arriving changed (undefined: the low layer does not arrive). */
  change: [highestArriving: number | undefined];
}

/** Which spatial layers of one simulcast video producer arrive at the relay, from its own stats, read while a consumer follows it. */
export class LayerWatch extends EventEmitter<LayerWatchEvents> {
  private readonly packetCounts = new Map<number, number>();
  private readonly lastRiseAt = new Map<number, number>();
  private highest: number | undefined;
  private reading = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly producer: types.Producer,
    private readonly settings: typeof LAYER_WATCH = LAYER_WATCH,
  ) {
    super();
    // One 'change' listener per consumer of the video: a room's receivers, not a leak.
    this.setMaxListeners(0);
    this.timer = setInterval(() => void this.read(), settings.pollIntervalMs);
    this.timer.unref();
    producer.observer.once('close', () => clearInterval(this.timer));
  }

  /** The highest spatial layer that arrives, or undefined while the low layer does not. */
  get highestArriving(): number | undefined {
    return this.highest;
  }

  private async read(): Promise<void> {
    if (this.reading || this.producer.closed) return;
    if (this.listenerCount('change') === 0) {
      // No consumer follows it: nothing is read, and what was read is out of date.
      this.packetCounts.clear();
      this.lastRiseAt.clear();
      this.highest = undefined;
      return;
    }
    this.reading = true;
    try {
      const streams = await this.producer.getStats();
      const now = performance.now();
      for (const stream of streams) {
        const layer = this.layerOf(stream);
        if (layer < 0) continue;
        // A count read for the first time is only where the next read starts from.
        const previous = this.packetCounts.get(layer);
        if (previous !== undefined && stream.packetCount > previous) this.lastRiseAt.set(layer, now);
        this.packetCounts.set(layer, stream.packetCount);
      }
      const arriving = (layer: number): boolean => now - (this.lastRiseAt.get(layer) ?? -Infinity) <= this.settings.stoppedAfterMs;
      // Without the low layer the whole video stopped or comes sparsely (a disabled camera's black
      // frames): there is no layer to move to, and no cap.
      let highest: number | undefined;
      if (arriving(0)) for (const layer of this.lastRiseAt.keys()) if (arriving(layer) && (highest === undefined || layer > highest)) highest = layer;
      if (highest !== this.highest) {
        this.highest = highest;
        this.emit('change', highest);
      }
    } catch {
      // The producer closed while its stats were asked for: there is nothing left to watch.
    } finally {
      this.reading = false;
    }
  }

  /** A stream's spatial layer: its encoding's index, by rid or else by SSRC. */
  private layerOf(stream: types.ProducerStat): number {
    return this.producer.rtpParameters.encodings?.findIndex((encoding) => (stream.rid !== undefined ? encoding.rid === stream.rid : encoding.ssrc === stream.ssrc)) ?? -1;
  }
}
