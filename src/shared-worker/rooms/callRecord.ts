import type { CallRecord } from '../../protocol/entities';

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
  };
}
