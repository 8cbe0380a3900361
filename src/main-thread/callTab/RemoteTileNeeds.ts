import type { Clock } from '../../common/clock';
import { TILE_SHRINK_REPORT_DELAY_MS } from '../../protocol/clientDefaults';
import type { TileNeed } from '../call/receive/tileProfile';

interface ElementObserver {
  observe(target: Element): void;
  unobserve(target: Element): void;
  disconnect(): void;
}

/** What the page tells of a remote video's element: IntersectionObserver, ResizeObserver, the page's visibility. */
export interface TileObservers {
  /** Reports whether each element intersects the viewport. */
  readonly intersection: (onChange: (entries: ReadonlyArray<{ target: Element; isIntersecting: boolean }>) => void) => ElementObserver;
  /** Reports each element's rendered size in CSS pixels. */
  readonly resize: (onChange: (entries: ReadonlyArray<{ target: Element; width: number; height: number }>) => void) => ElementObserver;
  /** The page is shown (document.visibilityState); `onChange` returns its unsubscribe. */
  readonly page: { isVisible(): boolean; onChange(listener: () => void): () => void };
  /** window.devicePixelRatio. */
  readonly pixelRatio: () => number;
}

/** The browser's observers, for a tab. */
export function browserTileObservers(): TileObservers | undefined {
  if (typeof IntersectionObserver !== 'function' || typeof ResizeObserver !== 'function') return undefined;
  return {
    intersection: (onChange) => new IntersectionObserver((entries) => onChange(entries)),
    resize: (onChange) =>
      new ResizeObserver((entries) => onChange(entries.map((entry) => ({ target: entry.target, width: entry.contentRect.width, height: entry.contentRect.height })))),
    page: {
      isVisible: () => document.visibilityState === 'visible',
      onChange: (listener) => {
        document.addEventListener('visibilitychange', listener);
        return () => document.removeEventListener('visibilitychange', listener);
      },
    },
    pixelRatio: () => window.devicePixelRatio || 1,
  };
}

interface Tracked {
  readonly itemId: string;
  /** Undefined until the first intersection is seen, likewise the size: a half-measured tile is not reported. */
  intersecting: boolean | undefined;
  width: number | undefined;
  height: number | undefined;
  /** The last need reported, so that an unchanged one is not reported again. */
  reported: TileNeed | undefined;
  /** Waiting to report a need that is less than the one reported (TILE_SHRINK_REPORT_DELAY_MS). */
  shrinkTimer: unknown;
}

/** Whether `next` asks for less than `previous`: both in sight, and smaller or no longer enlarged. */
function needsLess(previous: TileNeed, next: TileNeed): boolean {
  if (!previous.visible || !next.visible || next.fullScreen) return false;
  if (previous.fullScreen) return true;
  return next.width <= previous.width && next.height <= previous.height && (next.pixelRatio ?? 1) <= (previous.pixelRatio ?? 1);
}

/** Needs made by `needOf` (the same fields in the same order) compare as their JSON: every field counts, one added later too. */
function sameNeed(a: TileNeed | undefined, b: TileNeed): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What each remote video's tile needs (relay/tileProfile TileNeed), measured where it is shown: in
 * sight or not (the element against the viewport, and the page shown at all), its rendered size,
 * and whether it is the enlarged tile. Every change is reported, and the Call turns it into
 * the quality asked of the sender: hidden → off, small → low, large or enlarged → high. A tile that
 * needs less is reported once it has needed less for TILE_SHRINK_REPORT_DELAY_MS (a grid that makes
 * room for a newcomer does not make every sender encode keyframes during their join); a tile that
 * needs more, or goes out of sight or back, is reported at once.
 */
export class RemoteTileNeeds {
  private readonly tracked = new Map<Element, Tracked>();
  private enlargedItemId: string | undefined;
  private visibility: ElementObserver | undefined;
  private sizes: ElementObserver | undefined;
  private stopFollowingPage: (() => void) | undefined;

  constructor(
    private readonly onNeed: (itemId: string, need: TileNeed) => void,
    private readonly observers: TileObservers | undefined,
    private readonly clock: Clock,
  ) {}

  observe(itemId: string, element: Element): () => void {
    const { observers } = this;
    if (!observers) {
      // No way to measure: show it at its best.
      this.onNeed(itemId, { visible: true, width: 0, height: 0, fullScreen: true });
      return () => undefined;
    }
    this.visibility ??= observers.intersection((entries) => {
      for (const entry of entries) this.update(entry.target, (tracked) => (tracked.intersecting = entry.isIntersecting));
    });
    this.sizes ??= observers.resize((entries) => {
      for (const entry of entries) {
        this.update(entry.target, (tracked) => {
          tracked.width = entry.width;
          tracked.height = entry.height;
        });
      }
    });
    this.stopFollowingPage ??= observers.page.onChange(() => this.reportAll());
    const tracked: Tracked = { itemId, intersecting: undefined, width: undefined, height: undefined, reported: undefined, shrinkTimer: undefined };
    this.tracked.set(element, tracked);
    this.visibility.observe(element);
    this.sizes.observe(element);
    return () => {
      this.cancelShrink(tracked);
      this.tracked.delete(element);
      this.visibility?.unobserve(element);
      this.sizes?.unobserve(element);
    };
  }

  /** The tile shown large in the stage (its video item), or none. */
  setEnlarged(itemId: string | undefined): void {
    if (itemId === this.enlargedItemId) return;
    this.enlargedItemId = itemId;
    this.reportAll();
  }

  dispose(): void {
    this.visibility?.disconnect();
    this.sizes?.disconnect();
    this.stopFollowingPage?.();
    this.visibility = undefined;
    this.sizes = undefined;
    this.stopFollowingPage = undefined;
    for (const tracked of this.tracked.values()) this.cancelShrink(tracked);
    this.tracked.clear();
  }

  private update(element: Element, change: (tracked: Tracked) => void): void {
    const tracked = this.tracked.get(element);
    if (!tracked) return;
    change(tracked);
    this.report(tracked);
  }

  private reportAll(): void {
    for (const tracked of this.tracked.values()) this.report(tracked);
  }

  private report(tracked: Tracked): void {
    const need = this.needOf(tracked);
    if (!need) return;
    if (sameNeed(tracked.reported, need)) {
      this.cancelShrink(tracked);
      return;
    }
    if (tracked.reported && needsLess(tracked.reported, need)) {
      // Reported as it then is: it may have changed again meanwhile (grown back: reported at once, and this timer gone).
      tracked.shrinkTimer ??= this.clock.setTimeout(() => {
        tracked.shrinkTimer = undefined;
        const latest = this.needOf(tracked);
        if (latest && !sameNeed(tracked.reported, latest)) this.send(tracked, latest);
      }, TILE_SHRINK_REPORT_DELAY_MS);
      return;
    }
    this.cancelShrink(tracked);
    this.send(tracked, need);
  }

  /** What the tile needs now; undefined until both its size and its intersection are known. */
  private needOf(tracked: Tracked): TileNeed | undefined {
    if (!this.observers || tracked.intersecting === undefined || tracked.width === undefined || tracked.height === undefined) return undefined;
    return {
      visible: tracked.intersecting && this.observers.page.isVisible(),
      width: Math.round(tracked.width),
      height: Math.round(tracked.height),
      fullScreen: tracked.itemId === this.enlargedItemId,
      pixelRatio: this.observers.pixelRatio(),
    };
  }

  private send(tracked: Tracked, need: TileNeed): void {
    tracked.reported = need;
    this.onNeed(tracked.itemId, need);
  }

  private cancelShrink(tracked: Tracked): void {
    if (tracked.shrinkTimer === undefined) return;
    this.clock.clearTimeout(tracked.shrinkTimer);
    tracked.shrinkTimer = undefined;
  }
}
