import { expect } from '@playwright/test';

/** What a tile showed at one moment: which video (a track or an element), and how many frames it had shown. */
export interface ShownSample {
  readonly at: number;
  /** Undefined while the tile showed no video. */
  readonly shown: string | number | undefined;
  readonly frames: number;
}

/**
 * The video a tile showed never stopped: it never went missing, and between consecutive samples
 * (every 200 ms) its frames kept rising — allowing a stall of at most `maxStallMs` — and a new video
 * was shown only once it had frames of its own.
 */
export function expectNeverStopped(samples: readonly ShownSample[], maxStallMs = 1_000): void {
  expect(samples.length).toBeGreaterThan(10);
  expect(samples.filter((sample) => sample.shown === undefined)).toEqual([]);
  let stalledSince: number | undefined;
  for (let index = 1; index < samples.length; index += 1) {
    const previous = samples[index - 1]!;
    const sample = samples[index]!;
    if (sample.shown !== previous.shown) {
      expect(sample.frames, `the new video ${sample.shown} had frames when shown`).toBeGreaterThan(0);
      stalledSince = undefined;
    } else if (sample.frames > previous.frames) {
      stalledSince = undefined;
    } else {
      stalledSince ??= previous.at;
      expect(sample.at - stalledSince, `frames of ${sample.shown} stalled`).toBeLessThanOrEqual(maxStallMs);
    }
  }
}
