import { describe, expect, it } from 'vitest';
import { selfFactsChange, selfMediaFacts } from '../../src/main-thread/callTab/selfMediaFacts';
import { peer, SELF } from './callTab-fakes';

const on = { microphone: { itemId: 'mic', muted: false, stopped: false, offForOthers: false, silent: false, speaking: false }, camera: { itemId: 'cam', off: false, stopped: false, offForOthers: false, mirrored: true }, screenIds: ['screen'] };

describe('Your own media facts are what you send while in the call, as the others are told (SPEC §3 Media item)', () => {
  it('are what you send while in the call, and nothing outside it', () => {
    expect(selfMediaFacts(on, true)).toEqual({ muted: false, hasActiveMicrophone: true, hasActiveCamera: true, hasActiveScreenCapture: true });
    expect(selfMediaFacts({ ...on, microphone: { ...on.microphone, muted: true, offForOthers: true } }, true)).toMatchObject({ muted: true, hasActiveMicrophone: false });
    expect(selfMediaFacts({ microphone: undefined, camera: undefined, screenIds: [] }, true)).toMatchObject({ muted: true, hasActiveCamera: false });
    expect(selfMediaFacts(on, false)).toEqual({ muted: false, hasActiveMicrophone: false, hasActiveCamera: false, hasActiveScreenCapture: false });
  });

  it('show a camera or microphone the system stopped as off, as the others are told, though the person left it on', () => {
    const stopped = { ...on, microphone: { ...on.microphone, stopped: true, offForOthers: true }, camera: { ...on.camera, stopped: true, offForOthers: true } };
    expect(selfMediaFacts(stopped, true)).toEqual({ muted: true, hasActiveMicrophone: false, hasActiveCamera: false, hasActiveScreenCapture: true });
  });

  it('are reported only where the record differs', () => {
    const record = peer(SELF, { hasActiveMicrophone: true, hasActiveCamera: true });
    expect(selfFactsChange(record, selfMediaFacts(on, true))).toEqual({ hasActiveScreenCapture: true });
    expect(selfFactsChange({ ...record, hasActiveScreenCapture: true }, selfMediaFacts(on, true))).toBeUndefined();
  });
});
