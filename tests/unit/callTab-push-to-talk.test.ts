import { describe, expect, it } from 'vitest';
import { PushToTalk, spaceBelongsToTarget } from '../../src/main-thread/callTab/PushToTalk';
import { PushToTalkMicrophone } from '../../src/main-thread/callTab/PushToTalkMicrophone';
import { isVoice, MediaItems } from '../../src/main-thread/media';
import { ManualClock } from '../support/ManualClock';
import { keyEvent } from './callTab-fakes';
import { FakeStream, FakeTrack } from './track-fakes';

function setUp(typing = false) {
  const target = new EventTarget();
  const held: boolean[] = [];
  const pushToTalk = new PushToTalk({ target, onHeldChange: (value) => held.push(value), spaceBelongsTo: () => typing });
  return { target, held, pushToTalk };
}

describe('Push-to-talk: you talk while Space or “Hold to talk” is held, and Space stays the page’s where it ticks, opens or types (beyond the spec)', () => {
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

  it('leaves Space to a checkbox, radio button or select reached with the keyboard, where it ticks or opens: one who tabbed to “Push to talk” can untick it; and to text', () => {
    // Heard where the key is pressed: the focused checkbox (a stand-in for the DOM's element), tabbed to.
    const checkbox = Object.assign(new EventTarget(), { tagName: 'INPUT', type: 'checkbox' });
    const held: boolean[] = [];
    const pushToTalk = new PushToTalk({ target: checkbox, onHeldChange: (value) => held.push(value) });
    pushToTalk.setEnabled(true);
    const down = keyEvent('keydown', 'Space');
    checkbox.dispatchEvent(down);
    const up = keyEvent('keyup', 'Space');
    checkbox.dispatchEvent(up);
    expect([down.defaultPrevented, up.defaultPrevented]).toEqual([false, false]);
    expect(held).toEqual([]);
    const element = (tagName: string, type?: string) => Object.assign(new EventTarget(), { tagName, type });
    expect(spaceBelongsToTarget(element('INPUT', 'radio'))).toBe(true);
    expect(spaceBelongsToTarget(element('SELECT'))).toBe(true);
    expect(spaceBelongsToTarget(element('INPUT', 'text'))).toBe(true);
    expect(spaceBelongsToTarget(element('TEXTAREA'))).toBe(true);
    expect(spaceBelongsToTarget(Object.assign(element('DIV'), { isContentEditable: true }))).toBe(true);
  });

  it('takes Space on a checkbox the mouse just ticked (“Push to talk” itself, or its label), though push-to-talk was off as it was pressed; once another key moves on, Space is the checkbox’s again', () => {
    const checkbox = Object.assign(new EventTarget(), { tagName: 'INPUT', type: 'checkbox' });
    const label = Object.assign(new EventTarget(), { tagName: 'LABEL', contains: (other: unknown) => other === checkbox });
    const held: boolean[] = [];
    const pushToTalk = new PushToTalk({ target: checkbox, onHeldChange: (value) => held.push(value) });
    checkbox.dispatchEvent(new Event('pointerdown'));
    pushToTalk.setEnabled(true);
    checkbox.dispatchEvent(keyEvent('keydown', 'Space'));
    checkbox.dispatchEvent(keyEvent('keyup', 'Space'));
    expect(held).toEqual([true, false]);
    checkbox.dispatchEvent(keyEvent('keydown', 'Tab'));
    checkbox.dispatchEvent(keyEvent('keydown', 'Space'));
    expect(held).toEqual([true, false]);
    pushToTalk.dispose();
    // Pressed on its label, which holds it or names it.
    expect(spaceBelongsToTarget(checkbox, label)).toBe(false);
    expect(spaceBelongsToTarget(checkbox, Object.assign(new EventTarget(), { control: checkbox }))).toBe(false);
  });

  it('takes Space on a focused button (a clicked call control, “Hold to talk”) and elsewhere on the page: it talks there', () => {
    const element = (tagName: string, type?: string) => Object.assign(new EventTarget(), { tagName, type });
    expect(spaceBelongsToTarget(element('BUTTON', 'button'))).toBe(false);
    expect(spaceBelongsToTarget(element('INPUT', 'range'))).toBe(false);
    expect(spaceBelongsToTarget(element('BODY'))).toBe(false);
    expect(spaceBelongsToTarget(new EventTarget())).toBe(false);
    expect(spaceBelongsToTarget(null)).toBe(false);
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
