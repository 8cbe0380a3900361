import type { MediaItems } from '../../src/main-thread/media';

/** Node has no MediaStreamTrack or MediaStream: these stand in for them in unit tests of media code. */

let nextId = 0;
const uniqueId = (prefix: string): string => `${prefix}-${(nextId += 1)}`;

export class FakeTrack extends EventTarget {
  readonly id = uniqueId('track');
  enabled = true;
  /** Muted by its source (the system, the browser): no frames come (`muteFromSource`). */
  muted = false;
  readyState: MediaStreamTrackState = 'live';
  contentHint = '';
  constructor(
    readonly kind: 'audio' | 'video',
    readonly deviceId = `${kind}-device`,
  ) {
    super();
  }
  /** As in browsers, stop() ends the track without an 'ended' event. */
  stop(): void {
    this.readyState = 'ended';
  }
  /** What an unplugged device or revoked access does: the track ends, with the event. */
  endFromSource(): void {
    this.readyState = 'ended';
    this.dispatchEvent(new Event('ended'));
  }
  /** What the system muting a microphone does (another app took it, a hardware switch): the track is muted, with the event; `false` gives it back. */
  muteFromSource(muted = true): void {
    this.muted = muted;
    this.dispatchEvent(new Event(muted ? 'mute' : 'unmute'));
  }
  clone(): FakeTrack {
    const clone = new FakeTrack(this.kind, this.deviceId);
    clone.enabled = this.enabled;
    clone.muted = this.muted;
    return clone;
  }
  getSettings(): MediaTrackSettings {
    return { deviceId: this.deviceId };
  }
  getConstraints(): MediaTrackConstraints {
    return {};
  }
  /** What applyConstraints was asked, in order. */
  readonly applied: MediaTrackConstraints[] = [];
  async applyConstraints(constraints: MediaTrackConstraints = {}): Promise<void> {
    this.applied.push(constraints);
  }
}

export class FakeStream {
  readonly id = uniqueId('stream');
  constructor(private readonly tracks: FakeTrack[]) {}
  getTracks(): FakeTrack[] {
    return this.tracks;
  }
  addTrack(track: FakeTrack): void {
    if (!this.tracks.includes(track)) this.tracks.push(track);
  }
  removeTrack(track: FakeTrack): void {
    const index = this.tracks.indexOf(track);
    if (index >= 0) this.tracks.splice(index, 1);
  }
  getAudioTracks(): FakeTrack[] {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks(): FakeTrack[] {
    return this.tracks.filter((track) => track.kind === 'video');
  }
}

/** A camera or voice (or with `screenCapture`, a shared screen) of `owner` as one of the tab's sessions receives it, added under `id`. */
export function receivedTrack(
  media: Pick<MediaItems, 'addRemoteMedia'>,
  id: string,
  kind: 'audio' | 'video',
  owner: string,
  roomAddress: string,
  { screenCapture = false }: { screenCapture?: boolean } = {},
): { id: string; track: FakeTrack } {
  const track = new FakeTrack(kind);
  const item = media.addRemoteMedia({
    id,
    track: track as unknown as MediaStreamTrack,
    stream: new FakeStream([track]) as unknown as MediaStream,
    owner,
    roomAddress,
    screenCapture,
    ownerMuted: false,
  });
  return { id: item.id, track };
}

/** What stands in for a camera turned off (standInCameraStream in a tab): a live video track of no device. */
export function fakeStandInCamera(): MediaStream {
  return new FakeStream([new FakeTrack('video', 'stand-in')]) as unknown as MediaStream;
}
