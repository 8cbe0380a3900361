import { describe, expect, it } from 'vitest';
import { PushToTalk } from '../../src/main-thread/callTab/PushToTalk';
import { PushToTalkMicrophone } from '../../src/main-thread/callTab/PushToTalkMicrophone';
import { isVoice, MediaItems } from '../../src/main-thread/media';
import { ManualClock } from '../support/ManualClock';
import { keyEvent } from './callTab-fakes';
import { FakeStream, FakeTrack } from './track-fakes';

function setUp(typing = false) {
  const target = new EventTarget();
  const held: boolean[] = [];
  const pushToTalk = new PushToTalk({ target, onHeldChange: (value) => held.push(value), isTyping: () => typing });
  return { target, held, pushToTalk };
}

describe('push-to-talk', () => {
  it('holds while Space is down, once however long it repeats, and takes the key from the page', () => {
    const { target, held, pushToTalk } = setUp();
    pushToTalk.setEnabled(true);
    const down = keyEvent('keydown', 'Space');
    target.dispatchEvent(down);
    target.dispatchEvent(keyEvent('keydown', 'Space'));
    expect(down.defaultPrevented).toBe(true);
    const up = keyEvent('keyup', 'Space');
    target.dispatchEvent(up);
    expect(up.defaultPrevented).toBe(true);
    expect(held).toEqual([true, false]);
  });

  it('ignores other keys, and Space typed into a text field', () => {
    const { target, held, pushToTalk } = setUp(true);
    pushToTalk.setEnabled(true);
    const typed = keyEvent('keydown', 'Space');
    target.dispatchEvent(typed);
    target.dispatchEvent(keyEvent('keydown', 'KeyT'));
    expect(typed.defaultPrevented).toBe(false);
    expect(held).toEqual([]);
  });

  it('lets go when the window loses focus or push-to-talk is turned off, and hears nothing while off', () => {
    const { target, held, pushToTalk } = setUp();
    pushToTalk.setEnabled(true);
    target.dispatchEvent(keyEvent('keydown', 'Space'));
    target.dispatchEvent(new Event('blur'));
    target.dispatchEvent(keyEvent('keydown', 'Space'));
    pushToTalk.setEnabled(false);
    expect(held).toEqual([true, false, true, false]);
    target.dispatchEvent(keyEvent('keydown', 'Space'));
    expect(pushToTalk.isHeld).toBe(false);
    expect(held).toHaveLength(4);
  });

  it('holds while the on-screen "Hold to talk" is pressed, as the key does; talking lasts while either still holds', () => {
    const { target, held, pushToTalk } = setUp();
    pushToTalk.holdOnScreen(true);
    expect(held).toEqual([]);
    pushToTalk.setEnabled(true);
    pushToTalk.holdOnScreen(true);
    target.dispatchEvent(keyEvent('keydown', 'Space'));
    pushToTalk.holdOnScreen(false);
    expect(pushToTalk.isHeld).toBe(true);
    target.dispatchEvent(keyEvent('keyup', 'Space'));
    expect(held).toEqual([true, false]);
    pushToTalk.holdOnScreen(true);
    target.dispatchEvent(new Event('blur'));
    expect(held).toEqual([true, false, true, false]);
  });
});

describe('push-to-talk on your microphone: muted but while talking, whenever the microphone arrives', () => {
  function withMicrophone() {
    const clock = new ManualClock();
    const media = new MediaItems({ clock });
    const keyTarget = new EventTarget();
    const microphone = () => {
      const item = media.local().find(isVoice);
      return item && { itemId: item.id, muted: item.localDisabled };
    };
    const pushToTalk = new PushToTalkMicrophone({ media, keyTarget, microphone, onHeldChange: () => {} });
    const capture = () => {
      const track = new FakeTrack('audio');
      media.addLocalAudio(track as unknown as MediaStreamTrack, new FakeStream([track]) as unknown as MediaStream);
      return media.get(track.id);
    };
    return { media, pushToTalk, capture };
  }

  it('a microphone that arrives while talking is on; one that arrives after the talk ended (its release came while it started) is muted', () => {
    const { pushToTalk, capture } = withMicrophone();
    pushToTalk.setEnabled(true);
    pushToTalk.holdOnScreen(true);
    expect(capture()?.localDisabled).toBe(false);
    pushToTalk.holdOnScreen(false);
    pushToTalk.holdOnScreen(true);
    pushToTalk.holdOnScreen(false);
    expect(capture()?.localDisabled).toBe(true);
  });

  it('with push-to-talk off, or once its view is gone, a new microphone is left as it comes', () => {
    const { pushToTalk, capture } = withMicrophone();
    expect(capture()?.localDisabled).toBe(false);
    pushToTalk.setEnabled(true);
    pushToTalk.dispose();
    expect(capture()?.localDisabled).toBe(false);
  });
});
