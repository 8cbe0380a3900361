import type { CallRecord, OwnCallMedia } from '../../protocol/entities';

/** Nothing muted, off or shared: a call starts so (and starts so again after it was left). */
export const OWN_MEDIA_DEFAULTS: OwnCallMedia = { microphoneMuted: false, cameraOff: false, sharingScreen: false, cameraStopped: false, microphoneStopped: false, cameraTrouble: '', microphoneTrouble: '' };

/** SPEC §3 call record with its defaults: video allowed to moderators and participants, recording offline. */
export function newCallRecord(roomAddress: string): CallRecord {
  return {
    roomAddress,
    joined: false,
    joinedAt: undefined,
    requestingMedia: 'none',
    allowedMedia: 'video',
    allowedAudioRoles: ['moderator', 'participant'],
    allowedVideoRoles: ['moderator', 'participant'],
    recordable: false,
    recordingState: 'offline',
    state: 'active',
    ownMedia: OWN_MEDIA_DEFAULTS,
    heldPeers: [],
  };
}
