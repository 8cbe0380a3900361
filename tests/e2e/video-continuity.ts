import { expect, type Page } from '@playwright/test';

/** What a tile showed at one moment: which video (a track or an element), and how many frames it had shown. */
export interface ShownSample {
  readonly at: number;
  /** Undefined while the tile showed no video. */
  readonly shown: string | number | undefined;
  readonly frames: number;
}

/**
 * The video a tile showed never stopped, as far as can be told without a clock: no sample without a
 * video, a new video shown only once it had frames of its own, and every video shown for more than
 * one sample presented new frames while it was shown (its count rose from its first sample to its
 * last). How long a gap lasted depends on the machine's load: reportContinuity prints it, for
 * information only (speed is the bench's, `npm run bench`).
 */
export function expectNeverStopped(samples: readonly ShownSample[]): void {
  expect(samples.length).toBeGreaterThan(10);
  expect(samples.filter((sample) => sample.shown === undefined), 'samples without a video').toEqual([]);
  for (const run of shownRuns(samples)) {
    const [first, last] = [run[0]!, run.at(-1)!];
    if (first !== samples[0]) expect(first.frames, `the new video ${first.shown} had frames when shown`).toBeGreaterThan(0);
    if (run.length > 1) expect(last.frames, `video ${first.shown} presented new frames while shown`).toBeGreaterThan(first.frames);
  }
}

/** The samples split where the tile changed its video: each run one video, shown without a break. */
function shownRuns(samples: readonly ShownSample[]): ShownSample[][] {
  const runs: ShownSample[][] = [];
  for (const sample of samples) {
    const run = runs.at(-1);
    if (run && run[0]!.shown === sample.shown) run.push(sample);
    else runs.push([sample]);
  }
  return runs;
}

/**
 * Each watched tile kept presenting new frames from `from` to `to` (while signalling was down):
 * counted on the video it showed last in that time, from its second sample there to its last (the
 * first may still be taking frames that were on their way as that time began).
 */
export function expectFramesRoseWithin(watched: ReadonlyArray<{ pair: string; samples: readonly ShownSample[] }>, from: number, to: number, during: string): void {
  for (const { pair, samples } of watched) {
    const within = samples.filter((sample) => sample.at >= from && sample.at <= to);
    const [, ...video] = within.filter((sample) => sample.shown !== undefined && sample.shown === within.at(-1)?.shown);
    expect(video.length, `${pair}: samples of one video ${during}`).toBeGreaterThan(1);
    expect(video.at(-1)!.frames, `${pair}: new frames ${during}`).toBeGreaterThan(video[0]!.frames);
  }
}

/** A tile's samples as the page recorded them: the <video> element told apart by an id of its own. */
interface TileSample {
  readonly at: number;
  readonly element: number | undefined;
  readonly frames: number;
}

/**
 * Samples, every 200 ms, the frames the tile's <video> has shown, the element told apart by an id
 * of its own (a tile gets a new element when its video item changes). Times are the wall clock
 * (Date.now), comparable with the test's own.
 */
export async function watchTile(page: Page, tileName: string): Promise<void> {
  await page.evaluate((name) => {
    const ids = new WeakMap<HTMLVideoElement, number>();
    const samples: Array<{ at: number; element: number | undefined; frames: number }> = [];
    const watched = (Reflect.get(window, '__tileSamples') as Record<string, typeof samples> | undefined) ?? {};
    watched[name] = samples;
    Reflect.set(window, '__tileSamples', watched);
    let next = 1;
    setInterval(() => {
      const video = [...document.querySelectorAll('figure')].find((figure) => figure.getAttribute('aria-label') === name)?.querySelector('video');
      if (video && !ids.has(video)) ids.set(video, next++);
      samples.push({ at: Date.now(), element: video ? ids.get(video) : undefined, frames: video?.getVideoPlaybackQuality().totalVideoFrames ?? 0 });
    }, 200);
  }, tileName);
}

/** What `watchTile` recorded of the tile so far. */
export async function tileSamples(page: Page, tileName: string): Promise<ShownSample[]> {
  const samples = await page.evaluate((name) => (Reflect.get(window, '__tileSamples') as Record<string, TileSample[]>)[name] ?? [], tileName);
  return samples.map(({ at, element, frames }) => ({ at, shown: element, frames }));
}

/** A time the tile showed no new frame: from the last sample with one to the next sample with one (or the last sample). */
export interface FrameGap {
  readonly from: number;
  readonly to: number;
}

/**
 * The times the tile showed no new frame: no video, or the same video with no frame added (a new
 * video with frames counts as a new frame), to the 200 ms of the samples.
 */
export function frameGaps(samples: readonly ShownSample[]): FrameGap[] {
  const gaps: FrameGap[] = [];
  let since: number | undefined;
  for (let index = 1; index < samples.length; index += 1) {
    const previous = samples[index - 1]!;
    const sample = samples[index]!;
    const newFrame = sample.shown !== undefined && (sample.shown !== previous.shown ? sample.frames > 0 : sample.frames > previous.frames);
    if (!newFrame) since ??= previous.at;
    else if (since !== undefined) {
      gaps.push({ from: since, to: sample.at });
      since = undefined;
    }
  }
  if (since !== undefined) gaps.push({ from: since, to: samples.at(-1)!.at });
  return gaps;
}

/** The longest time without a new frame in the samples, in ms (0 when every sample had one). */
export function largestFrameGap(samples: readonly ShownSample[]): number {
  return Math.max(0, ...frameGaps(samples).map((gap) => gap.to - gap.from));
}

/**
 * Prints the figure of one change of media path, one line: `[continuity] <change>: <viewer> → <shown>
 * largest gap <ms> ms; …`, for information only: how long a gap lasts depends on the machine's load, and
 * expectNeverStopped asserts none.
 */
export function reportContinuity(change: string, watched: ReadonlyArray<{ pair: string; samples: readonly ShownSample[] }>): void {
  console.log(`[continuity] ${change}: ${watched.map(({ pair, samples }) => `${pair} largest gap ${Math.round(largestFrameGap(samples))} ms`).join('; ')}`);
}

/**
 * The figure: the largest gap in new frames over the watched tiles, and when after `since` (the
 * fault, unless `sinceWhat` names another moment) it ended.
 */
export function videoGapFigure(watched: ReadonlyArray<{ pair: string; samples: ShownSample[] }>, since: number, sinceWhat = 'the fault'): string {
  const gaps = watched.flatMap(({ pair, samples }) => frameGaps(samples).map((gap) => ({ pair, ...gap })));
  const largest = gaps.reduce((most, gap) => (gap.to - gap.from > most.to - most.from ? gap : most), { pair: 'none', from: since, to: since });
  return `largest remote video gap ${Math.round(largest.to - largest.from)} ms (${largest.pair}), ended ${Math.round(largest.to - since)} ms after ${sinceWhat}`;
}
