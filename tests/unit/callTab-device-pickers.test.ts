import { Provider } from 'jotai';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { DevicePickers } from '../../src/ui/call/DevicePickers';
import { CallRuntimeContext } from '../../src/ui/call/callRuntimeContext';
import { harness, joinAndLeave, settle } from './callTab-fakes';

let current: ReturnType<typeof harness> | undefined;
afterEach(() => {
  current?.runtime.dispose();
  current = undefined;
});

/** A preview whose browser lists a headset microphone and a USB camera beside the default ones. */
async function previewWithSecondDevices(): Promise<ReturnType<typeof harness>> {
  const h = harness();
  current = h;
  h.mediaDevices.alsoListed.push({ kind: 'audioinput', deviceId: 'headset-microphone', label: 'Headset microphone' }, { kind: 'videoinput', deviceId: 'usb-camera', label: 'USB camera' });
  h.runtime.start();
  await settle();
  return h;
}

/** The option each picker's select shows as chosen, by the picker's label. */
function shownPicks(h: ReturnType<typeof harness>): Record<string, string | undefined> {
  const markup = renderToStaticMarkup(createElement(Provider, { store: h.store }, createElement(CallRuntimeContext, { value: h.runtime }, createElement(DevicePickers))));
  return Object.fromEntries(
    [...markup.matchAll(/<label[^>]*><span>([^<]+)<\/span><select[^>]*>(.*?)<\/select><\/label>/g)].map(([, label, options]) => [label!, /<option[^>]* selected[^>]*>([^<]*)<\/option>/.exec(options!)?.[1]]),
  );
}

describe('The device pickers show the device picked while none runs (after leaving the call, or with it left off), not "Default": the next capture asks for it', () => {
  it('a microphone and camera picked, then the call left: both pickers still show them, where the running tracks are gone', async () => {
    const h = await previewWithSecondDevices();
    await h.runtime.selectMicrophone('headset-microphone');
    await h.runtime.selectCamera('usb-camera');
    await h.runtime.joinCall();
    h.deliverCallRecord();
    await settle();
    expect(shownPicks(h)).toMatchObject({ Camera: 'USB camera', Microphone: 'Headset microphone' });
    await h.runtime.hangUp();
    h.deliverCallRecord();
    await settle();
    expect(h.runtime.media.local()).toEqual([]);
    expect(shownPicks(h)).toMatchObject({ Camera: 'USB camera', Microphone: 'Headset microphone' });
  });

  it('a microphone picked after leaving, with none running, is shown as picked and captured by the next join', async () => {
    const h = await previewWithSecondDevices();
    await joinAndLeave(h);
    await h.runtime.selectMicrophone('headset-microphone');
    expect(shownPicks(h)).toMatchObject({ Camera: 'Default camera', Microphone: 'Headset microphone' });
    await h.runtime.joinCall();
    await settle();
    expect(h.mediaDevices.requests.at(-1)?.audio).toEqual({ deviceId: { exact: 'headset-microphone' } });
  });
});

/** The text of each picker's first entry (the one standing for no choice), by the picker's label. */
function firstEntries(h: ReturnType<typeof harness>): Record<string, string | undefined> {
  const markup = renderToStaticMarkup(createElement(Provider, { store: h.store }, createElement(CallRuntimeContext, { value: h.runtime }, createElement(DevicePickers))));
  return Object.fromEntries([...markup.matchAll(/<label[^>]*><span>([^<]+)<\/span><select[^>]*><option[^>]*>([^<]*)<\/option>/g)].map(([, label, first]) => [label!, first]));
}

describe('A picker with nothing to choose says why: none of its kind found once the browser names devices, access to allow before that', () => {
  it('no camera plugged in, access granted: the camera picker says "No camera found", the microphone picker offers the default', async () => {
    const h = harness();
    current = h;
    h.mediaDevices.plug('videoinput', false);
    h.runtime.start();
    await settle();
    expect(firstEntries(h)).toMatchObject({ Camera: 'No camera found', Microphone: 'Default microphone' });
  });

  it('access not granted yet (the browser names no device): every picker asks for access', async () => {
    const h = harness();
    current = h;
    h.mediaDevices.labelled = false;
    h.mediaDevices.failNextWith = 'NotAllowedError';
    h.runtime.start();
    await settle();
    expect(firstEntries(h)).toMatchObject({ Camera: 'Allow access to choose', Microphone: 'Allow access to choose' });
  });
});
