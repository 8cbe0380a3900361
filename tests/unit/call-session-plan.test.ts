import { describe, expect, it } from 'vitest';
import type { RequestingMedia } from '../../src/protocol/entities';
import { TOTAL_VIDEO_BITRATE_BPS } from '../../src/protocol/constants';
import { maxBitratePerVideo } from '../../src/main-thread/media';
import {
  compareSessionMedia,
  groupIntoStreams,
  planOutgoingSessions,
  sessionKey,
  USER_STREAM_KEY,
  videoSendCounts,
  type CallPeer,
  type ShareableMedia,
} from '../../src/main-thread/call/sessionPlan';

const mic: ShareableMedia = { id: 'mic', kind: 'audio', streamId: 'cam-stream', screenCapture: false };
const camera: ShareableMedia = { id: 'camera', kind: 'video', streamId: 'cam-stream', screenCapture: false };
const screen: ShareableMedia = { id: 'screen', kind: 'video', streamId: 'screen-stream', screenCapture: true };

function peer(address: string, requestingMedia: RequestingMedia = 'video', joinedCall = true): CallPeer {
  return { address, joinedCall, requestingMedia };
}

describe('who gets a session for which stream (PROTOCOL.md one-way sessions)', () => {
  it('camera and microphone share one session per peer; a screen share has its own', () => {
    const plan = planOutgoingSessions({ inCall: true, peers: [peer('r/b'), peer('r/c')], shared: [mic, camera, screen] });
    expect(plan.map((session) => [session.peerAddress, session.streamKey, session.media.map((item) => item.id)])).toEqual([
      ['r/b', USER_STREAM_KEY, ['mic', 'camera']],
      ['r/b', 'screen:screen-stream', ['screen']],
      ['r/c', USER_STREAM_KEY, ['mic', 'camera']],
      ['r/c', 'screen:screen-stream', ['screen']],
    ]);
    expect(plan[0]?.key).toBe(sessionKey('r/b', USER_STREAM_KEY));
  });

  it('camera and microphone captured separately still travel together', () => {
    const separateMic = { ...mic, streamId: 'mic-stream' };
    expect([...groupIntoStreams([separateMic, camera]).entries()]).toEqual([[USER_STREAM_KEY, [separateMic, camera]]]);
  });

  it('audio captured with the screen travels in the screen session', () => {
    const screenAudio: ShareableMedia = { id: 'screen-audio', kind: 'audio', streamId: 'screen-stream', screenCapture: false };
    const groups = groupIntoStreams([mic, camera, screen, screenAudio]);
    expect(groups.get('screen:screen-stream')?.map((item) => item.id)).toEqual(['screen', 'screen-audio']);
    expect(groups.get(USER_STREAM_KEY)?.map((item) => item.id)).toEqual(['mic', 'camera']);
  });

  it('one item per kind: a newer camera (a replacement being shared) wins', () => {
    const newCamera = { ...camera, id: 'camera-2', streamId: 'other' };
    expect(groupIntoStreams([mic, camera, newCamera]).get(USER_STREAM_KEY)?.map((item) => item.id)).toEqual(['mic', 'camera-2']);
  });

  it('an audio-only peer gets audio tracks only, and no screen session', () => {
    const plan = planOutgoingSessions({ inCall: true, peers: [peer('r/b', 'audio')], shared: [mic, camera, screen] });
    expect(plan.map((session) => session.media.map((item) => item.id))).toEqual([['mic']]);
  });

  it('peers not in the call, or requesting no media, get nothing', () => {
    const plan = planOutgoingSessions({
      inCall: true,
      peers: [peer('r/b', 'none'), peer('r/c', 'video', false)],
      shared: [mic, camera],
    });
    expect(plan).toEqual([]);
  });

  it('nothing is sent while this tab is out of the call', () => {
    expect(planOutgoingSessions({ inCall: false, peers: [peer('r/b')], shared: [mic, camera] })).toEqual([]);
  });

  it('nothing is sent without shared media (a receive-only participant)', () => {
    expect(planOutgoingSessions({ inCall: true, peers: [peer('r/b')], shared: [] })).toEqual([]);
  });

});

describe('how a running session follows a changed plan', () => {
  it('keeps a session whose media did not change', () => {
    expect(compareSessionMedia([mic, camera], [mic, camera])).toEqual({ type: 'keep' });
  });

  it('swaps tracks when a kind is carried by another item (a new camera)', () => {
    const newCamera = { ...camera, id: 'camera-2' };
    expect(compareSessionMedia([mic, camera], [mic, newCamera])).toEqual({ type: 'replace', media: [newCamera] });
  });

  it('starts anew when a kind is added or dropped (StanzaJS rejects content-add)', () => {
    expect(compareSessionMedia([mic], [mic, camera])).toEqual({ type: 'restart' });
    expect(compareSessionMedia([mic, camera], [mic])).toEqual({ type: 'restart' });
  });
});

describe('video bitrate budget (SPEC §9)', () => {
  it('divides the budget by video-receiving peers × shared video streams', () => {
    const plan = planOutgoingSessions({ inCall: true, peers: [peer('r/b'), peer('r/c'), peer('r/d', 'audio')], shared: [mic, camera, screen] });
    const counts = videoSendCounts(plan, [mic, camera, screen]);
    expect(counts).toEqual({ videoReceivingPeers: 2, sharedVideoStreams: 2 });
    expect(maxBitratePerVideo({ ...counts, relayInUse: false, relayPending: false })).toBe(Math.floor(TOTAL_VIDEO_BITRATE_BPS / 4));
  });

  it('one receiver with one camera gets the whole budget', () => {
    const plan = planOutgoingSessions({ inCall: true, peers: [peer('r/b')], shared: [mic, camera] });
    expect(maxBitratePerVideo({ ...videoSendCounts(plan, [mic, camera]), relayInUse: false, relayPending: false })).toBe(TOTAL_VIDEO_BITRATE_BPS);
  });
});
