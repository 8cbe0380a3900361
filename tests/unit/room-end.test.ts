import { describe, expect, it } from 'vitest';
import { notInRoom } from '../../src/ui/roomEnd';
import { room } from './callTab-fakes';

describe('The room page holds no call for a room whose join or rejoin failed, whether or not we were in it before (SPEC §4 failed)', () => {
  it('a rejoin that failed (joinedAt kept from before) has no call: the camera and microphone go with it', () => {
    expect(notInRoom(room({ roomState: 'failed', joined: false, joinedAt: 1_000 }))).toBe(true);
    expect(notInRoom(room({ roomState: 'failed', joined: false, joinedAt: 1_000, roomFull: true }))).toBe(true);
  });

  it('a first join that failed, or that asks for a password: no call', () => {
    expect(notInRoom(room({ roomState: 'failed', joined: false, joinedAt: undefined }))).toBe(true);
    expect(notInRoom(room({ roomState: 'password-required', joined: false, joinedAt: undefined, passwordRequired: true }))).toBe(true);
  });

  it('joined, joining, or awaiting a rejoin after a lost connection: the call stays', () => {
    expect(notInRoom(room())).toBe(false);
    expect(notInRoom(room({ roomState: 'joining', joined: false, joinedAt: undefined }))).toBe(false);
    expect(notInRoom(room({ roomState: 'interrupted', joined: false, joinedAt: 1_000 }))).toBe(false);
  });
});
