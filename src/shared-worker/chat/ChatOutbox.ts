import type { ChatMessage, Room } from '../../protocol/entities';
import { awaitingRejoin } from '../../protocol/awaitingRejoin';
import { rejoinRetried } from '../../protocol/roomEnded';
import { roomByAddress } from '../../protocol/roomLookup';
import type { SessionContext } from '../SessionContext';

/** Shown on a message of ours that can no longer be sent. */
export const NOT_IN_ROOM = 'you are no longer in the room';
export const NOT_CONNECTED = 'not connected';

/**
 * No chat lost (issue 13). Our messages the room has not confirmed (no echo of their stanza id),
 * and our corrections of them, are kept: written while the connection is down, or put on a socket
 * that died, they are sent again — with their first stanza id — once we are back in the room and
 * its history has said what it already has (the history's echo acknowledges those, so nothing is
 * sent twice). A record corrected while it waits goes as its latest correction (`transmit`). The
 * subject ends a join's history (XEP-0045 §7.2.15–16). A message that can no longer go (the room
 * was left or put us out; a deliberate disconnect), or that the room sent back, is marked with a
 * sendError and waits for a retry. A rejoin that failed (unanswered, the room full) is asked again by
 * the session itself (`rejoinRetried`): what waits for it keeps waiting.
 */
export class ChatOutbox {
  /** Our messages not yet confirmed and not failed, by id. */
  private readonly waiting = new Set<string>();
  /** Ids the current connection has put on the wire. */
  private readonly transmitted = new Set<string>();
  /** Rooms whose join history has ended on the current connection. */
  private readonly historyEnded = new Set<string>();

  constructor(
    private readonly context: SessionContext,
    /** Puts a message on the wire: the current client is connected and in its room. */
    private readonly transmit: (message: ChatMessage) => void,
    /** Whether we are in the room now. */
    private readonly isJoined: (roomAddress: string) => boolean,
  ) {
    context.store.subscribe((message) => {
      if (message.type !== 'patches') return;
      const rooms = message.patches.flatMap((patch) => (patch.kind === 'upsert' && patch.collection === 'rooms' ? [patch.value] : []));
      for (const room of rooms) if (room.roomState === 'interrupted' && room.address) this.roomWireLost(room.address);
      if (rooms.length > 0 || message.patches.some((patch) => patch.kind === 'remove' && patch.collection === 'rooms')) this.failUnreachable();
    });
  }

  /** A new message may be written to this room: we are in it, or on our way back in. */
  accepts(roomAddress: string): boolean {
    if (this.isJoined(roomAddress)) return true;
    const room = this.room(roomAddress);
    return this.context.wantsConnection && room !== undefined && comingBack(room);
  }

  /** Takes one of our messages just stored (unacked): sent now when the room is ready for it, otherwise once it is. */
  add(message: ChatMessage): void {
    this.waiting.add(message.id);
    if (this.isJoined(message.roomAddress) && this.historyEnded.has(message.roomAddress)) this.send(message);
  }

  /** Sends a failed message again, or queues it for the rejoin; false when its room is not there to take it. */
  retry(id: string): boolean {
    const message = this.context.store.get('messages', id);
    if (!message || message.direction !== 'outgoing' || message.acked) return true;
    if (!this.accepts(message.roomAddress)) return false;
    this.context.store.update('messages', id, { sendError: undefined });
    this.transmitted.delete(id);
    this.add({ ...message, sendError: undefined });
    return true;
  }

  /** The room sent back one of ours (we have no voice there; a private message to someone gone): it waits for a retry, with the reason. */
  refused(message: ChatMessage, reason: string): void {
    if (this.waiting.has(message.id)) this.fail(message, reason);
  }

  /** Whether the room's join history is still coming on this connection (no subject yet). */
  inHistory(roomAddress: string): boolean {
    return !this.historyEnded.has(roomAddress);
  }

  /** The room's subject arrived: its history is over, so what it did not echo goes now. */
  historyDone(roomAddress: string): void {
    if (this.historyEnded.has(roomAddress)) return;
    this.historyEnded.add(roomAddress);
    for (const message of this.unsent(roomAddress)) this.send(message);
  }

  /**
   * We are out of the room (left, put out, refused, or rejoining it) while the connection stays:
   * the next join's history is history again, placed at its <delay> stamps.
   */
  leftRoom(roomAddress: string): void {
    this.historyEnded.delete(roomAddress);
  }

  /** The connection is gone: nothing is on a live wire any more. */
  disconnected(): void {
    this.transmitted.clear();
    this.historyEnded.clear();
  }

  /**
   * One room stopped taking our stanzas while the connection stayed (its server went away: a
   * cluster node that died, issue 16): what went on the wire for it is not known to have arrived,
   * and goes again after the rejoin's history, as after a lost connection.
   */
  private roomWireLost(roomAddress: string): void {
    this.leftRoom(roomAddress);
    for (const message of this.pending()) if (message.roomAddress === roomAddress) this.transmitted.delete(message.id);
  }

  /** A deliberate disconnect: nothing will take the waiting messages. */
  stopped(): void {
    for (const message of this.pending()) this.fail(message, NOT_CONNECTED);
  }

  private send(message: ChatMessage): void {
    this.transmitted.add(message.id);
    this.transmit(message);
  }

  /** Waiting messages of a room not on the current wire, oldest first. */
  private unsent(roomAddress: string): ChatMessage[] {
    return this.pending()
      .filter((message) => message.roomAddress === roomAddress && !this.transmitted.has(message.id))
      .sort((a, b) => a.time - b.time);
  }

  /** The waiting messages still unconfirmed (confirmed ones leave the set). */
  private pending(): ChatMessage[] {
    const messages: ChatMessage[] = [];
    for (const id of this.waiting) {
      const message = this.context.store.get('messages', id);
      if (!message || message.acked || message.sendError !== undefined) this.waiting.delete(id);
      else messages.push(message);
    }
    return messages;
  }

  /** Messages to rooms we are no longer in, nor coming back to, fail. */
  private failUnreachable(): void {
    for (const message of this.pending()) {
      const room = this.room(message.roomAddress);
      if (!room || (room.roomState !== 'joined' && !comingBack(room))) this.fail(message, NOT_IN_ROOM);
    }
  }

  private fail(message: ChatMessage, reason: string): void {
    this.waiting.delete(message.id);
    this.context.store.update('messages', message.id, { sendError: reason });
  }

  private room(roomAddress: string): Room | undefined {
    return roomByAddress(this.context.store.state.rooms, roomAddress);
  }
}

/** We are on our way back into the room: rejoining it, or asking again after a rejoin failed. */
function comingBack(room: Room): boolean {
  return awaitingRejoin(room) || rejoinRetried(room);
}
