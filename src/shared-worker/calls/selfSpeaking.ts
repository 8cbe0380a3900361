import { roomByAddress } from '../../protocol/roomLookup';
import type { SessionContext } from '../SessionContext';

/** Marks a peer (you or another) speaking or not; lastSpokeAt is when they started. */
export function markSpeaking(context: SessionContext, peerAddress: string, speaking: boolean): void {
  context.store.update('peers', peerAddress, speaking ? { speaking, lastSpokeAt: context.clock.now() } : { speaking });
}

/**
 * Tells the room whether you speak (PROTOCOL.md: a bodiless groupchat `<state speaking='1|0'/>`)
 * and marks your own Peer record so. Nothing while the room is not joined: its rejoin makes new
 * records, which the call tab corrects (SelfReports compares with your record).
 */
export function announceSpeaking(context: SessionContext, roomAddress: string, speaking: boolean): void {
  const room = roomByAddress(context.store.state.rooms, roomAddress);
  const client = context.client;
  if (!room?.joined || !room.selfAddress || !client) return;
  client.sendMessage({ to: roomAddress, type: 'groupchat', mmucState: { speaking: speaking ? '1' : '0' } });
  markSpeaking(context, room.selfAddress, speaking);
}

/**
 * You leave the call (hung up, or no tab runs it any more: UNCLAIMED_CALL_HOLD): a record that
 * still says you speak — the tab that said so closed or crashed before it could say otherwise —
 * is corrected, in the room and here.
 */
export function stopSelfSpeaking(context: SessionContext, roomAddress: string): void {
  const selfAddress = roomByAddress(context.store.state.rooms, roomAddress)?.selfAddress;
  if (selfAddress === undefined || context.store.get('peers', selfAddress)?.speaking !== true) return;
  announceSpeaking(context, roomAddress, false);
  markSpeaking(context, selfAddress, false);
}
