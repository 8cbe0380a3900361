import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AudioOutputs, type AudioOutputSettings } from '../../src/main-thread/callTab/AudioOutputs';
import { playbackVolume } from '../../src/main-thread/callTab/playbackVolume';
import { VOLUME } from '../../src/protocol/constants';
import { BOB, peer, settle } from './callTab-fakes';

describe('playback volume (SPEC §3 / §9)', () => {
  it('is the peer limit times the global limit, within 0 and 1', () => {
    expect(playbackVolume(VOLUME.peerLimitDefault, VOLUME.globalLimitDefault)).toBeCloseTo(0.8);
    expect(playbackVolume(0.5, 0.5)).toBeCloseTo(0.25);
    expect(playbackVolume(0.8, VOLUME.deafenedGlobalLimit)).toBe(0);
    expect(playbackVolume(2, 1)).toBe(1);
    expect(playbackVolume(Number.NaN, 1)).toBe(0);
  });
});

describe('Each person is heard at their volume limit times the global one, and follows changes of either (SPEC §3 / §9 volume; AudioOutputs)', () => {
  it('play each person at their limit times the global one, and follow changes of either', () => {
    let settings: AudioOutputSettings = { peers: { [BOB]: peer(BOB) }, preferences: { globalVolumeLimit: 1, audioOutputDeviceId: '' } };
    const outputs = new AudioOutputs(() => settings, { info: () => undefined, error: () => undefined });
    // Node has no HTMLMediaElement: setSinkId is then unsupported and the element keeps the default output.
    const element = { volume: 1 } as HTMLAudioElement;
    const remove = outputs.add(element, BOB);
    expect(element.volume).toBeCloseTo(0.8);
    settings = { peers: { [BOB]: peer(BOB, { volumeLimit: 0.4 }) }, preferences: { globalVolumeLimit: 0, audioOutputDeviceId: '' } };
    outputs.refresh();
    expect(element.volume).toBe(0);
    remove();
    settings = { ...settings, preferences: { globalVolumeLimit: 1, audioOutputDeviceId: '' } };
    outputs.refresh();
    expect(element.volume).toBe(0);
  });
});

describe('a person is heard at the volume you set for them while the connection to the chat server is down (SPEC §3 Peer volumeLimit, issue 13)', () => {
  it('Bob at 0.4 stays at 0.4 when SPEC §4 clears the peers, on an element attached meanwhile too, and deafening still applies', () => {
    let settings: AudioOutputSettings = { peers: { [BOB]: peer(BOB, { volumeLimit: 0.4 }) }, preferences: { globalVolumeLimit: 1, audioOutputDeviceId: '' } };
    const outputs = new AudioOutputs(() => settings, { info: () => undefined, error: () => undefined });
    const element = { volume: 1 } as HTMLAudioElement;
    outputs.add(element, BOB);
    expect(element.volume).toBeCloseTo(0.4);

    settings = { ...settings, peers: {} };
    outputs.refresh();
    expect(element.volume).toBeCloseTo(0.4);
    const attachedMeanwhile = { volume: 1 } as HTMLAudioElement;
    outputs.add(attachedMeanwhile, BOB);
    expect(attachedMeanwhile.volume).toBeCloseTo(0.4);
    settings = { ...settings, preferences: { globalVolumeLimit: 0, audioOutputDeviceId: '' } };
    outputs.refresh();
    expect(element.volume).toBe(0);
  });

  it('Bob set to 0.2 while the room does not list him (his tile kept by the call) is heard at 0.2 at once, on an element attached meanwhile too', () => {
    let settings: AudioOutputSettings = { peers: { [BOB]: peer(BOB, { volumeLimit: 0.4 }) }, preferences: { globalVolumeLimit: 1, audioOutputDeviceId: '' } };
    const outputs = new AudioOutputs(() => settings, { info: () => undefined, error: () => undefined });
    const element = { volume: 1 } as HTMLAudioElement;
    outputs.add(element, BOB);
    settings = { ...settings, peers: {} };
    outputs.refresh();

    outputs.setLimit(BOB, 0.2);
    expect(element.volume).toBeCloseTo(0.2);
    const attachedMeanwhile = { volume: 1 } as HTMLAudioElement;
    outputs.add(attachedMeanwhile, BOB);
    expect(attachedMeanwhile.volume).toBeCloseTo(0.2);
  });
});

describe('a speaker you chose plays the call once it is plugged in: the preference stands while it is away, and the device list changing asks for it again (SPEC §3 preference audioOutputDeviceId)', () => {
  /**
   * A fake, named as such: Node has no media elements, and Chromium's fake devices cannot be
   * unplugged. An element whose setSinkId knows the outputs plugged in now; a browser that can choose
   * outputs (setSinkId on HTMLMediaElement's prototype) while the test runs.
   */
  function fakeOutputs() {
    const pluggedIn = new Set<string>(['']);
    const asked: string[] = [];
    const element = {
      volume: 1,
      sinkId: '',
      async setSinkId(deviceId: string): Promise<void> {
        asked.push(deviceId);
        if (!pluggedIn.has(deviceId)) throw new DOMException('Requested device not found', 'NotFoundError');
        element.sinkId = deviceId;
      },
    };
    return { pluggedIn, asked, element: element as typeof element & HTMLAudioElement };
  }

  /** The headset plugged in, as the device list then names it. */
  async function plugInHeadset(pluggedIn: Set<string>, outputs: AudioOutputs): Promise<void> {
    pluggedIn.add('headset');
    outputs.retryUnavailable(['', 'headset']);
    await settle();
  }

  let restore: () => void = () => undefined;
  beforeEach(() => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'HTMLMediaElement');
    Object.defineProperty(globalThis, 'HTMLMediaElement', { configurable: true, writable: true, value: class { setSinkId(): void {} } });
    restore = () => (had ? Object.defineProperty(globalThis, 'HTMLMediaElement', had) : Reflect.deleteProperty(globalThis, 'HTMLMediaElement'));
  });
  afterEach(() => restore());

  it('the headset chosen yesterday is not plugged in: the call plays on the default; plugged in, the call moves to it, once', async () => {
    const settings: AudioOutputSettings = { peers: { [BOB]: peer(BOB) }, preferences: { globalVolumeLimit: 1, audioOutputDeviceId: 'headset' } };
    const errors: string[] = [];
    const outputs = new AudioOutputs(() => settings, { info: () => undefined, error: (message) => errors.push(message) });
    const { pluggedIn, asked, element } = fakeOutputs();
    outputs.add(element, BOB);
    await settle();
    expect(asked).toEqual(['headset']);
    expect(element.sinkId).toBe('');
    expect(errors).toEqual(['Could not play audio on output headset: Requested device not found']);
    // Volumes change often: they do not ask for the missing device again each time.
    outputs.refresh();
    expect(asked).toEqual(['headset']);

    await plugInHeadset(pluggedIn, outputs);
    expect(asked).toEqual(['headset', 'headset']);
    expect(element.sinkId).toBe('headset');
    // In use now: another change of the list asks nothing.
    outputs.retryUnavailable(['', 'headset', 'usb-speaker']);
    expect(asked).toEqual(['headset', 'headset']);
  });

  it('the headset unplugged while it plays (the browser moves the sound to the default, no error) and plugged back in: the call moves back to it', async () => {
    const settings: AudioOutputSettings = { peers: { [BOB]: peer(BOB) }, preferences: { globalVolumeLimit: 1, audioOutputDeviceId: 'headset' } };
    const outputs = new AudioOutputs(() => settings, { info: () => undefined, error: () => undefined });
    const { pluggedIn, asked, element } = fakeOutputs();
    pluggedIn.add('headset');
    outputs.add(element, BOB);
    await settle();
    expect(asked).toEqual(['headset']);

    // Unplugged: as Chromium does, the element plays on the default without an error.
    pluggedIn.delete('headset');
    element.sinkId = '';
    outputs.retryUnavailable(['']);
    await settle();
    expect(asked).toEqual(['headset']);

    await plugInHeadset(pluggedIn, outputs);
    expect(asked).toEqual(['headset', 'headset']);
    expect(element.sinkId).toBe('headset');
  });
});
