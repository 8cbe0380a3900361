import { describe, expect, it } from 'vitest';
import { ElementPlayback } from '../../src/main-thread/callTab/ElementPlayback';
import { RemoteTileNeeds } from '../../src/main-thread/callTab/RemoteTileNeeds';
import { profileForTile, type TileNeed } from '../../src/main-thread/call/receive/tileProfile';
import { TILE_SHRINK_REPORT_DELAY_MS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';
import { FakeTileObservers, settle } from './callTab-fakes';

/** An element whose play() the autoplay policy refuses until `allowed`. */
function mediaElement() {
  const element = {
    allowed: false,
    plays: 0,
    play(): Promise<void> {
      element.plays += 1;
      return element.allowed ? Promise.resolve() : Promise.reject(new DOMException('no gesture yet', 'NotAllowedError'));
    },
  };
  return element;
}

describe('Media the browser’s autoplay held back plays on the person’s next click (SPEC §3 autoplay; ElementPlayback)', () => {
  it('remembers what autoplay held back and plays it again on request', async () => {
    const changes: boolean[] = [];
    const playback = new ElementPlayback((blocked) => changes.push(blocked));
    const audio = mediaElement();
    const video = mediaElement();
    playback.play(audio as unknown as HTMLMediaElement);
    playback.play(video as unknown as HTMLMediaElement);
    await settle();
    expect(changes).toEqual([true]);
    audio.allowed = true;
    video.allowed = true;
    playback.resume();
    await settle();
    expect(changes).toEqual([true, false]);
    expect([audio.plays, video.plays]).toEqual([2, 2]);
  });

  it('forgets an element that goes away', async () => {
    const changes: boolean[] = [];
    const playback = new ElementPlayback((blocked) => changes.push(blocked));
    const audio = mediaElement();
    playback.play(audio as unknown as HTMLMediaElement);
    await settle();
    playback.forget(audio as unknown as HTMLMediaElement);
    expect(changes).toEqual([true, false]);
  });

  it('an element gone before autoplay refused it is not held back: nothing waits for a click that would play it', async () => {
    const changes: boolean[] = [];
    const playback = new ElementPlayback((blocked) => changes.push(blocked));
    const audio = mediaElement();
    playback.play(audio as unknown as HTMLMediaElement);
    playback.forget(audio as unknown as HTMLMediaElement);
    await settle();
    expect(changes).toEqual([]);
  });
});

describe('what each remote tile needs (PROTOCOL.md simulcast profile: the receiver asks by what the tile needs)', () => {
  function tracking() {
    const observers = new FakeTileObservers();
    const clock = new ManualClock();
    const needs: Array<[string, TileNeed]> = [];
    const tileNeeds = new RemoteTileNeeds((itemId, need) => needs.push([itemId, need]), observers, clock);
    return { observers, needs, tileNeeds, clock };
  }

  it('reports the tile in sight with its size, and out of sight, or on a hidden page, as not visible', () => {
    const { observers, needs, tileNeeds } = tracking();
    const element = {} as Element;
    const unobserve = tileNeeds.observe('bob-camera', element);
    observers.ratio = 2;
    observers.show(element, 320, 240);
    observers.show(element, 320, 240, false);
    observers.show(element, 320, 240);
    observers.setPageVisible(false);
    unobserve();
    expect(observers.observed.size).toBe(0);
    observers.show(element, 1280, 720);
    // 320 × 240 at 2 device pixels per CSS pixel needs 853 px of width: the medium layer of a 1280 px camera.
    const sized = { width: 320, height: 240, fullScreen: false, pixelRatio: 2 };
    expect(needs).toEqual([
      // Reported once both its size and its intersection are known.
      ['bob-camera', { visible: true, ...sized }],
      ['bob-camera', { visible: false, ...sized }],
      ['bob-camera', { visible: true, ...sized }],
      ['bob-camera', { visible: false, ...sized }],
    ]);
    expect(needs.map(([, need]) => profileForTile(need))).toEqual(['medium', 'off', 'medium', 'off']);
  });

  it('the enlarged tile asks for the best layer, and only it', async () => {
    const { observers, needs, tileNeeds, clock } = tracking();
    const bob = {} as Element;
    const carol = {} as Element;
    tileNeeds.observe('bob-camera', bob);
    tileNeeds.observe('carol-camera', carol);
    observers.show(bob, 300, 225);
    observers.show(carol, 300, 225);
    needs.length = 0;
    tileNeeds.setEnlarged('carol-camera');
    expect(needs.map(([itemId, need]) => [itemId, profileForTile(need)])).toEqual([['carol-camera', 'high']]);
    tileNeeds.setEnlarged(undefined);
    // Back in the grid it needs less: said once it has for TILE_SHRINK_REPORT_DELAY_MS.
    await clock.advance(TILE_SHRINK_REPORT_DELAY_MS);
    expect(needs.map(([itemId, need]) => [itemId, profileForTile(need)])).toEqual([
      ['carol-camera', 'high'],
      ['carol-camera', 'low'],
    ]);
  });

  it('a tile that needs less says so once it has for TILE_SHRINK_REPORT_DELAY_MS, as it then is; one that needs more, or goes out of sight, at once (issue 14: a grid making room for a newcomer makes no sender encode keyframes during their join)', async () => {
    const { observers, needs, tileNeeds, clock } = tracking();
    const bob = {} as Element;
    tileNeeds.observe('bob-camera', bob);
    observers.show(bob, 960, 540);
    // Someone joins: the tile shrinks, twice as the grid settles, and nothing is said yet.
    observers.show(bob, 640, 360);
    await clock.advance(TILE_SHRINK_REPORT_DELAY_MS - 100);
    observers.show(bob, 480, 270);
    expect(needs.map(([, need]) => need.width)).toEqual([960]);
    // Counted from the first shrink, what the tile then needs is said once.
    await clock.advance(100);
    expect(needs.map(([, need]) => need.width)).toEqual([960, 480]);
    await clock.advance(TILE_SHRINK_REPORT_DELAY_MS);
    expect(needs.map(([, need]) => need.width)).toEqual([960, 480]);

    // Shrunk and grown back before the delay: nothing to say.
    observers.show(bob, 320, 180);
    observers.show(bob, 480, 270);
    await clock.advance(TILE_SHRINK_REPORT_DELAY_MS);
    expect(needs.map(([, need]) => need.width)).toEqual([960, 480]);

    // Larger, enlarged or out of sight: at once, and a shrink waiting then is dropped.
    observers.show(bob, 320, 180);
    observers.show(bob, 640, 360);
    tileNeeds.setEnlarged('bob-camera');
    observers.show(bob, 640, 360, false);
    expect(needs.map(([, need]) => [need.width, need.visible, need.fullScreen])).toEqual([
      [960, true, false],
      [480, true, false],
      [640, true, false],
      [640, true, true],
      [640, false, true],
    ]);
    await clock.advance(TILE_SHRINK_REPORT_DELAY_MS);
    expect(needs).toHaveLength(5);

    // A tile no longer shown says nothing more.
    observers.show(bob, 640, 360);
    tileNeeds.setEnlarged(undefined);
    tileNeeds.dispose();
    await clock.advance(TILE_SHRINK_REPORT_DELAY_MS);
    expect(needs.map(([, need]) => [need.visible, need.fullScreen])).toEqual([
      [true, false],
      [true, false],
      [true, false],
      [true, true],
      [false, true],
      [true, true],
    ]);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('without observers, shows every video at its best', () => {
    const needs: Array<[string, TileNeed]> = [];
    new RemoteTileNeeds((itemId, need) => needs.push([itemId, need]), undefined, new ManualClock()).observe('bob-camera', {} as Element);
    expect(needs.map(([itemId, need]) => [itemId, profileForTile(need)])).toEqual([['bob-camera', 'high']]);
  });
});
