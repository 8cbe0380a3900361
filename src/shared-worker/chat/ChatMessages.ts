import { correctionTarget } from '../../protocol/chatCorrections';
import { LIMITS } from '../../protocol/constants';
import type { ChatMessage } from '../../protocol/entities';
import type { StateStore } from '../StateStore';

/** A groupchat message with a body, validated, as the domain hands it to the store. */
interface RoomMessage {
  stanzaId: string;
  roomAddress: string;
  body: string;
  /** The stanza id the message corrects, if any (XEP-0308). */
  replace: string | undefined;
  displayName: string;
  senderAddress: string;
  customerData: Record<string, unknown> | undefined;
  time: number;
  /** Characters cut off a body longer than LIMITS.chatBodyLength (ChatMessage.charactersCut); none when absent. */
  charactersCut?: number;
}

/** What the domain knows of a message we send. */
export interface OutgoingMessage extends RoomMessage {
  /** True for a message of ours first seen as the room's echo (sent by an earlier connection). */
  acked: boolean;
  /** A private message: the occupant it goes to and their name. */
  recipient?: { readonly address: string; readonly name: string };
}

/** What goes on the wire for one of our records: a private one goes to its recipient alone. */
export type OutgoingStanza = Pick<ChatMessage, 'stanzaId' | 'roomAddress' | 'body' | 'replace' | 'recipientAddress'>;

/** A message from someone else; `privately` when sent to you alone. */
export interface IncomingMessage extends RoomMessage {
  privately?: boolean;
}

/** Messages are keyed: ours by stanza id, others' by `${senderAddress}:${stanzaId}` (entities.ts). */
export function incomingKey(senderAddress: string, stanzaId: string): string {
  return `${senderAddress}:${stanzaId}`;
}

/** SPEC §3 chat messages in the store: our own (with their acknowledgement by the room) and others'. */
export class ChatMessages {
  /** Original message id → the stanza id of its latest correction still waiting for the room's echo. */
  private readonly pendingCorrections = new Map<string, string>();
  /**
   * Room, stanza id and body of every message from others held: the same message again under
   * another occupant address (its sender came back under a new nick and sent what the room may
   * already have had) is a duplicate, not a new message.
   */
  private readonly incomingContent = new Set<string>();
  /** Each such message's key there, by record id: a deletion empties its body, not its key. */
  private readonly contentKeys = new Map<string, string>();
  /**
   * Our records whose own stanza has gone on a wire: a correction of one goes as a correction. One
   * that never went (written offline, or refused before it left) has no reader yet, so a correction
   * is simply its text.
   */
  private readonly sentOnce = new Set<string>();

  constructor(private readonly store: StateStore) {}

  get(id: string): ChatMessage | undefined {
    return this.store.get('messages', id);
  }

  /**
   * Stores a message we send, at once and unacknowledged (`acked` false until the room echoes it). A correction of one of our own messages
   * updates that record (body, editedTime) and keeps one record; anything else is a new record.
   * Returns the id of the record that holds the message.
   */
  addOutgoing(message: OutgoingMessage): string {
    const original = correctionTarget(this.store.state.messages, message.replace, { roomAddress: message.roomAddress, direction: 'outgoing' });
    // Nobody has it yet (never sent, or refused and waiting for Retry): it goes, when it goes, with this text.
    if (original && !message.acked && !original.acked && (original.sendError !== undefined || !this.sentOnce.has(original.id))) {
      this.store.update('messages', original.id, { body: message.body });
      return original.id;
    }
    if (original) {
      this.pendingCorrections.set(original.id, message.stanzaId);
      if (message.acked) this.pendingCorrections.delete(original.id);
      this.store.update('messages', original.id, { body: message.body, charactersCut: message.charactersCut, editedTime: message.time, acked: message.acked });
      return original.id;
    }
    const recipient = message.recipient ? { privately: true as const, recipientAddress: message.recipient.address, recipientName: message.recipient.name } : {};
    this.store.upsert('messages', message.stanzaId, { ...newRecord(message.stanzaId, message, 'outgoing', message.acked), ...recipient });
    this.keepWithinLimit(message.roomAddress);
    return message.stanzaId;
  }

  /**
   * What the wire carries for one of our records not yet acknowledged: its latest correction while
   * one is waiting for the room's echo (a stanza of its own naming the original, XEP-0308), else the
   * message itself; either goes where the message went (a correction of a private one, privately).
   * The outbox sends this, and sends it again after a lost connection.
   */
  stanzaToSend(record: ChatMessage): OutgoingStanza {
    this.sentOnce.add(record.id);
    const { roomAddress, body, recipientAddress } = record;
    const correction = this.pendingCorrections.get(record.id);
    if (correction !== undefined) return { stanzaId: correction, roomAddress, body, replace: record.stanzaId, recipientAddress };
    return { stanzaId: record.stanzaId, roomAddress, body, replace: record.replace, recipientAddress };
  }

  /**
   * The room's echo of a message we sent (same stanza id), or for a private one the room's word that
   * it passed it on: marks it acknowledged. A correction's echo acknowledges the corrected record once
   * it is the latest correction sent. One the room refused (a sendError) stays refused. Returns false
   * when the stanza id is not one of ours in that room.
   */
  acknowledge(roomAddress: string, stanzaId: string, replace: string | undefined): boolean {
    const own = this.get(stanzaId);
    if (own && own.direction === 'outgoing' && own.roomAddress === roomAddress) {
      if (!own.acked && own.sendError === undefined && !this.pendingCorrections.has(own.id)) this.store.update('messages', own.id, { acked: true });
      return true;
    }
    if (replace === undefined || this.pendingCorrections.get(replace) !== stanzaId) return false;
    this.pendingCorrections.delete(replace);
    const original = this.get(replace);
    if (original && original.roomAddress === roomAddress && !original.acked && original.sendError === undefined) this.store.update('messages', original.id, { acked: true });
    return true;
  }

  /**
   * Whether our correction `stanzaId` of `replace`, seen from the room (an echo, or its history after
   * a rejoin), is outdone by a later correction still waiting for the room: it must not put the
   * earlier text back, nor count the later one as arrived.
   */
  outdone(roomAddress: string, stanzaId: string, replace: string | undefined): boolean {
    if (replace === undefined) return false;
    const latest = this.pendingCorrections.get(replace);
    return latest !== undefined && latest !== stanzaId && this.get(replace)?.roomAddress === roomAddress;
  }

  /** The record a stanza id we sent stands for: the message, or the one its latest correction corrects. */
  sentAs(stanzaId: string): ChatMessage | undefined {
    const own = this.get(stanzaId);
    if (own?.direction === 'outgoing') return own;
    for (const [originalId, correction] of this.pendingCorrections) if (correction === stanzaId) return this.get(originalId);
    return undefined;
  }

  /**
   * Stores someone else's message. Returns false for a message already held (the same sender and
   * stanza id, e.g. room history replayed after a rejoin; or the same stanza id and body in the
   * room, resent by its sender after a reconnect). Per SPEC §5 (protocol/chatCorrections.ts), a
   * message from someone else is never a correction in place: with a replace id it is stored as a new
   * message that names the one it replaces.
   */
  addIncoming(message: IncomingMessage): boolean {
    const id = incomingKey(message.senderAddress, message.stanzaId);
    const content = contentKey(message);
    if (this.get(id) || this.incomingContent.has(content)) return false;
    this.incomingContent.add(content);
    this.contentKeys.set(id, content);
    this.store.upsert('messages', id, { ...newRecord(id, message, 'incoming', true), ...(message.privately ? { privately: true as const } : {}) });
    this.keepWithinLimit(message.roomAddress);
    return true;
  }

  /**
   * Whether this message from someone else corrects one of theirs held here (XEP-0308: only its
   * sender corrects), which it is read as an edit of (correctionFolder): no new message to read.
   */
  correctsHeld(message: Pick<IncomingMessage, 'senderAddress' | 'replace'>): boolean {
    return message.replace !== undefined && this.get(incomingKey(message.senderAddress, message.replace)) !== undefined;
  }

  /** The room's message (anyone's, not taken back) whose stanza id the wire names: what a reaction is to. */
  byStanzaId(roomAddress: string, stanzaId: string): ChatMessage | undefined {
    return Object.values(this.store.state.messages).find((message) => message.roomAddress === roomAddress && message.stanzaId === stanzaId && !message.retracted);
  }

  /**
   * XEP-0444: `reactor`'s whole set of reactions to `target`, in place of what they had; an empty set
   * takes theirs away. A new reactor past LIMITS.reactorsPerMessage is not kept (false).
   */
  react(target: ChatMessage, reactor: { readonly address: string; readonly name: string }, emojis: readonly string[]): boolean {
    const { [reactor.address]: previous, ...others } = target.reactions ?? {};
    if (emojis.length > 0 && previous === undefined && Object.keys(others).length >= LIMITS.reactorsPerMessage) return false;
    const reactions = emojis.length === 0 ? others : { ...others, [reactor.address]: { name: reactor.name, emojis: [...emojis] } };
    this.store.update('messages', target.id, { reactions: Object.keys(reactions).length > 0 ? reactions : undefined });
    return true;
  }

  /**
   * XEP-0424: someone takes back a message of theirs (by its stanza id). Its text goes from every tab,
   * and with it that of the corrections of it they sent (each stored as a message naming it); what
   * is left says it was deleted. Returns whether there was one.
   */
  retract(senderAddress: string, stanzaId: string): boolean {
    const taken = Object.values(this.store.state.messages).filter(
      (message) => message.direction === 'incoming' && message.senderAddress === senderAddress && !message.retracted && (message.stanzaId === stanzaId || message.replace === stanzaId),
    );
    for (const message of taken) this.takeBack(message);
    return taken.length > 0;
  }

  /** One of ours, taken back: the same as someone else's. */
  retractOwn(message: ChatMessage): void {
    this.pendingCorrections.delete(message.id);
    this.takeBack(message);
  }

  private takeBack(message: ChatMessage): void {
    this.store.update('messages', message.id, { body: '', charactersCut: undefined, retracted: true, reactions: undefined });
  }

  /**
   * A room's chat keeps LIMITS.chatMessagesPerRoom messages in every tab, however long it runs or
   * whoever floods it: the oldest go first, never one of ours still to be sent or confirmed.
   */
  /**
   * Forgets the room's messages but those still to be sent, which go at its next join: every tab
   * let the room go, and none can show them any more (TabsApi).
   */
  forgetRoom(roomAddress: string): void {
    for (const message of this.settledOf(roomAddress)) this.forget(message);
  }

  private keepWithinLimit(roomAddress: string): void {
    const ofRoom = Object.values(this.store.state.messages).filter((message) => message.roomAddress === roomAddress);
    const excess = ofRoom.length - LIMITS.chatMessagesPerRoom;
    if (excess <= 0) return;
    const oldest = this.settledOf(roomAddress).sort((a, b) => a.time - b.time);
    for (const message of oldest.slice(0, excess)) this.forget(message);
  }

  /** The room's messages that wait for nothing: others', and ours the room has acknowledged. */
  private settledOf(roomAddress: string): ChatMessage[] {
    return Object.values(this.store.state.messages).filter((message) => message.roomAddress === roomAddress && (message.direction === 'incoming' || message.acked));
  }

  private forget(message: ChatMessage): void {
    this.store.remove('messages', message.id);
    const content = this.contentKeys.get(message.id);
    if (content !== undefined) this.incomingContent.delete(content);
    this.contentKeys.delete(message.id);
    this.pendingCorrections.delete(message.id);
    this.sentOnce.delete(message.id);
  }
}

/** What makes two messages from others one: the room, the stanza id and the body. */
function contentKey(message: Pick<ChatMessage, 'roomAddress' | 'stanzaId' | 'body'>): string {
  return JSON.stringify([message.roomAddress, message.stanzaId, message.body]);
}

/** The store's record of a message as first stored under `id`: not edited yet. */
function newRecord(id: string, message: RoomMessage, direction: ChatMessage['direction'], acked: boolean): ChatMessage {
  const { stanzaId, body, displayName, senderAddress, roomAddress, time, replace, customerData, charactersCut } = message;
  const cut = charactersCut === undefined ? {} : { charactersCut };
  return { id, stanzaId, body, direction, displayName, senderAddress, roomAddress, time, editedTime: undefined, replace, acked, customerData, ...cut };
}
