import { describe, expect, it } from 'vitest';
import type { MediaItem } from '../../src/main-thread/media';
import { peerMediaChange, peerMediaFacts, type PeerMediaFacts } from '../../src/main-thread/call/peerMedia';

function received(kind: 'audio' | 'video', remoteDisabled: boolean): MediaItem {
  return { kind, remoteDisabled } as MediaItem;
}

const idle: PeerMediaFacts = { muted: false, hasActiveCamera: false, hasActiveMicrophone: false, hasActiveScreenCapture: false, sessionFailed: false };

describe('peer media facts reported to the shared session', () => {
  it('a peer that muted all the audio it sends us is muted', () => {
    const activity = { hasActiveCamera: true, hasActiveMicrophone: false, hasActiveScreenCapture: false };
    expect(peerMediaFacts(activity, [received('audio', true), received('video', false)], false)).toEqual({ ...activity, muted: true, sessionFailed: false });
  });

  it('a peer that sends no audio is not muted', () => {
    expect(peerMediaFacts({ hasActiveCamera: true, hasActiveMicrophone: false, hasActiveScreenCapture: false }, [received('video', false)], false).muted).toBe(false);
  });

  it('reports only the fields that changed, and nothing when none did', () => {
    expect(peerMediaChange(idle, { ...idle, hasActiveCamera: true, sessionFailed: true })).toEqual({ hasActiveCamera: true, sessionFailed: true });
    expect(peerMediaChange(idle, { ...idle })).toBeUndefined();
  });
});
