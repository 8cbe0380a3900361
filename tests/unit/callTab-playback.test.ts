import { describe, expect, it } from 'vitest';
import { ElementPlayback } from '../../src/main-thread/callTab/ElementPlayback';
import { RemoteVideoQuality, type VisibilityObserverFactory } from '../../src/main-thread/callTab/RemoteVideoQuality';
import { settle } from './callTab-fakes';

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

describe('element playback', () => {
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
});

describe('remote video quality', () => {
  it('asks for the video while its element is in sight and not while it is out of sight', () => {
    let report: Parameters<VisibilityObserverFactory>[0] = () => undefined;
    const observed = new Set<Element>();
    const factory: VisibilityObserverFactory = (onChange) => {
      report = onChange;
      return { observe: (target) => observed.add(target), unobserve: (target) => observed.delete(target), disconnect: () => observed.clear() };
    };
    const seen: Array<[string, boolean]> = [];
    const quality = new RemoteVideoQuality((itemId, visible) => seen.push([itemId, visible]), factory);
    const element = {} as Element;
    const unobserve = quality.observe('bob-camera', element);
    report([{ target: element, isIntersecting: true }]);
    report([{ target: element, isIntersecting: false }]);
    unobserve();
    expect(observed.size).toBe(0);
    report([{ target: element, isIntersecting: true }]);
    expect(seen).toEqual([
      ['bob-camera', true],
      ['bob-camera', false],
    ]);
  });

  it('without an observer, shows every video at its best', () => {
    const seen: Array<[string, boolean]> = [];
    new RemoteVideoQuality((itemId, visible) => seen.push([itemId, visible]), undefined).observe('bob-camera', {} as Element);
    expect(seen).toEqual([['bob-camera', true]]);
  });
});
