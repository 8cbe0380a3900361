import { describe, expect, it } from 'vitest';
import type { PeerMediaChange } from '../../src/main-thread/call/peerMedia';
import { PeerReports } from '../../src/main-thread/call/PeerReports';
import { MediaItems } from '../../src/main-thread/media';
import type { Peer } from '../../src/protocol/entities';
import { ManualClock } from '../support/ManualClock';
import { receivedTrack } from './track-fakes';

const ROOM = 'room@rooms.parley.localhost';
const BOB = `${ROOM}/bob`;

function bob(joinedCall: boolean, muted: boolean): Peer {
  return { address: BOB, roomAddress: ROOM, joinedCall, muted, hasActiveCamera: false, hasActiveMicrophone: false, hasActiveScreenCapture: false, sessionFailed: false } as Peer;
}

/** Bob's audio as a session of ours receives it (a new session gives it a new id). */
function receiveAudio(media: MediaItems, sid: string, remoteDisabled: boolean): string {
  const item = receivedTrack(media, `${sid}:audio`, 'audio', BOB, ROOM);
  if (remoteDisabled) media.update(item.id, { remoteDisabled: true });
  return item.id;
}

function reportsOf(): { reports: PeerReports; changes: PeerMediaChange[]; media: MediaItems } {
  const media = new MediaItems({ clock: new ManualClock() });
  const changes: PeerMediaChange[] = [];
  const reports = new PeerReports(media, async (_peer, change) => void changes.push(change), { info: () => {}, error: () => {} });
  return { reports, changes, media };
}

describe('A muted person never shows as live while their session is replaced (issue 13, call handover)', () => {
  it('stays muted while none of their audio arrives, as long as they are in the call', () => {
    const { reports, changes, media } = reportsOf();
    const first = receiveAudio(media, 'first', true);
    reports.follow([bob(true, false)], () => false);
    expect(changes.at(-1)).toMatchObject({ muted: true });

    // Their call moves to another tab: the old session's audio goes before the new one's comes.
    media.remove(first);
    reports.follow([bob(true, true)], () => false);
    receiveAudio(media, 'second', true);
    reports.follow([bob(true, true)], () => false);
    expect(changes.filter((change) => change.muted === false)).toEqual([]);
  });

  it('is not muted once they leave the call, nor when their new audio says unmuted', () => {
    const { reports, changes, media } = reportsOf();
    const first = receiveAudio(media, 'first', true);
    reports.follow([bob(true, false)], () => false);
    media.remove(first);
    reports.follow([bob(false, true)], () => false);
    expect(changes.at(-1)).toMatchObject({ muted: false });

    const { reports: again, changes: later, media: itsMedia } = reportsOf();
    const muted = receiveAudio(itsMedia, 'first', true);
    again.follow([bob(true, false)], () => false);
    itsMedia.remove(muted);
    receiveAudio(itsMedia, 'second', false);
    again.follow([bob(true, true)], () => false);
    expect(later.at(-1)).toMatchObject({ muted: false });
  });
});
