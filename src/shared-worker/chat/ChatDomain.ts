import { JID, Utils, type Agent, type Stanzas } from 'stanza';
import { expectRoomAddress, parseOccupantAddress, parseRoomAddress } from '../../protocol/addresses';
import type { ChatCommands, SessionEvent } from '../../protocol/commands';
import { LIMITS } from '../../protocol/constants';
import { optionalCustomerData } from '../../protocol/customerData';
import type { ChatState } from '../../protocol/entities';
import { NotConnectedError, RoomNotJoinedError, ValidationError } from '../../protocol/errors';
import type { SessionContext, SessionDomain } from '../SessionContext';
import { AttentionFlags } from './AttentionFlags';
import { privateRefusal, roomRefusal } from './bounceReasons';
import { displayNameOrDefault, occupantName } from '../../protocol/displayName';
import { boundedBody, messageTime, reactionSet, stanzaIdFrom } from './bounded';
import { ChatMessages, type OutgoingStanza } from './ChatMessages';
import { ChatOutbox } from './ChatOutbox';
import { ChatRooms } from './ChatRooms';
import { ChatStateMachine } from './ChatStateMachine';
import {
  expectBody,
  expectChatState,
  expectDraft,
  expectOccupantAddress,
  expectReactions,
  expectRoomOrOccupant,
  optionalStanzaId,
} from './commandInput';
import { incomingCommands, outgoingCommand } from './JsonCommands';
import type { Reactions } from '../../protocol/stanzas/reactions';
import { retractedId, retractionOf } from '../../protocol/stanzas/retraction';
import { RealTimeTextReceiver } from './RealTimeTextReceiver';
import { RealTimeTextSender } from './RealTimeTextSender';
import type { RoomEventLog } from '../roomEvents/RoomEventLog';

/** XEP-0085 states Parley shows; a peer's `inactive` or `gone` means not typing. */
function shownChatState(state: Stanzas.Message['chatState']): ChatState | undefined {
  switch (state) {
    case undefined:
      return undefined;
    case 'composing':
    case 'paused':
    case 'active':
      return state;
    default:
      return 'active';
  }
}

/**
 * The room's draft as the session last gave it out, and the tab whose chat input wrote it: the draft
 * goes with that tab, however the tab goes (ChatDomain.tabGone). No writer: a caller that named no
 * tab (the session's own API, as Node tests use it), whose draft only an erasing update or
 * `withdrawDraft` takes back.
 */
interface Draft {
  readonly text: string;
  readonly writer: string | undefined;
}

/** What the tabs' side of the session (TabsApi) asks of the chat: the commands as one tab gives them, and that a tab is gone. */
export interface TabsChat extends ChatCommands {
  /** The chat commands of one tab: the drafts it gives are that tab's. */
  ofTab(tabId: string): ChatCommands;
  /** The tab is gone — closed, reloaded, crashed or killed — as its liveness lock says: every draft it wrote is withdrawn. */
  tabGone(tabId: string): void;
  /** Every tab let the room go: its messages go too, but those still to be sent. */
  forgetRoomMessages(roomAddress: string): void;
}

/**
 * Text chat in rooms (SPEC §3 chat message; §4 chat state and attention request; §5 message
 * editing; PROTOCOL.md namespaces): groupchat messages with `<nick>` and corrections, chat
 * states, real-time text, attention requests and JSON commands; and beyond the spec, as XMPP apps
 * send them, private messages, reactions and retractions, both ways. Every
 * stanza from the wire is validated and bounded here; every timer runs on the session's clock.
 */
export class ChatDomain implements SessionDomain, TabsChat {
  private readonly rooms: ChatRooms;
  private readonly messages: ChatMessages;
  private readonly outbox: ChatOutbox;
  private readonly chatStates: ChatStateMachine;
  private readonly rttSender: RealTimeTextSender;
  private readonly rttReceiver = new RealTimeTextReceiver();
  private readonly attention: AttentionFlags;
  /**
   * The last draft each room's input held (updateRealTimeText), and which tab's input that was: one
   * draft per room, as the room has one occupant of ours whatever the tabs that show it.
   */
  private readonly drafts = new Map<string, Draft>();
  /** The addresses of the rooms we were in at the last change of the rooms. */
  private roomsIn = new Set<string>();
  private attachedClient: Agent | undefined;

  constructor(
    private readonly context: SessionContext,
    private readonly emit: (event: SessionEvent) => void,
    private readonly events: RoomEventLog,
  ) {
    this.rooms = new ChatRooms(context);
    this.messages = new ChatMessages(context.store);
    this.outbox = new ChatOutbox(context, (message) => this.transmit(this.messages.stanzaToSend(message)), (roomAddress) => this.rooms.isJoined(roomAddress));
    this.chatStates = new ChatStateMachine(context.clock, (roomAddress, chatState) =>
      this.sendToRoom(roomAddress, { chatState }),
    );
    this.rttSender = new RealTimeTextSender(context.clock, (roomAddress, rtt) => this.sendToRoom(roomAddress, { rtt }));
    this.attention = new AttentionFlags(context.clock, (peerAddress, requestingAttention) =>
      this.rooms.updatePeer(peerAddress, { requestingAttention }),
    );
    context.store.subscribe((message) => {
      if (message.type !== 'patches') return;
      // Real-time text turned off: what the rooms were shown of our drafts is taken back, and no more goes.
      if (message.patches.some((patch) => patch.kind === 'preferences') && !this.realTimeTextOn) this.rttSender.cancelAll();
      if (message.patches.some((patch) => 'collection' in patch && patch.collection === 'rooms')) this.forgetRoomsLeft();
      // Someone gone takes their real-time text with them (a nick taken again starts afresh).
      for (const patch of message.patches) if (patch.kind === 'remove' && patch.collection === 'peers') this.rttReceiver.endStream(patch.id);
    });
  }

  // ---- SessionDomain ----

  attachClient(client: Agent): void {
    this.attachedClient = client;
    client.on('message', (message) => {
      if (this.attachedClient === client) this.onMessage(message);
    });
  }

  /** Timers stop and real-time text starts again with the next connection. */
  disconnected(): void {
    this.chatStates.reset();
    this.rttSender.resetAll();
    this.rttReceiver.reset();
    this.attention.reset();
    this.drafts.clear();
    this.outbox.disconnected();
  }

  stopped(): void {
    this.outbox.stopped();
  }

  // ---- ChatCommands ----

  /**
   * SPEC §5 applies to what we send too (see `correctionTarget`): with `replace` naming one of our
   * own messages in this room, that record is corrected in place and its id returned; with any other
   * `replace` the message is stored as a new one that names it. The wire carries the `<replace>` as
   * asked either way; receivers apply their own rule.
   */
  async sendChat(roomAddress: string, body: string, replace?: string, privateTo?: string): Promise<string> {
    const room = expectRoomAddress(roomAddress);
    const text = expectBody(body);
    const replaceId = optionalStanzaId(replace, 'replace');
    const corrected = replaceId === undefined ? undefined : this.messages.get(replaceId);
    // Its text is gone for everyone: a correction would bring it back for apps that ignore the deletion.
    if (corrected?.direction === 'outgoing' && corrected.retracted) throw new ValidationError('replace names a message you deleted');
    const recipient = this.privateRecipient(room, privateTo);
    // A message or a correction may wait for the rejoin (ChatOutbox).
    if (!this.outbox.accepts(room)) this.joinedClient(room);
    // StanzaJS's own id (a v4 uuid), chosen here so the message keeps it through resends.
    const stanzaId = Utils.uuid();
    const displayName = this.ownName;
    const id = this.messages.addOutgoing({
      stanzaId,
      roomAddress: room,
      body: text,
      replace: replaceId,
      displayName,
      senderAddress: this.rooms.selfOccupant(room) ?? room,
      customerData: this.context.config?.customerData,
      time: this.context.clock.now(),
      acked: false,
      ...(recipient ? { recipient } : {}),
    });
    const record = this.messages.get(id);
    // One refused before (a sendError) waits for its Retry, with the text just written.
    if (record && record.sendError === undefined) this.outbox.add(record);
    // The room was never shown what a private message's writer typed (ChatPanel): its draft stays.
    if (recipient) return id;
    this.drafts.delete(room);
    this.chatStates.messageSent(room);
    this.rttSender.reset(room);
    return id;
  }

  /** Sends one of our messages that could not be sent (its sendError) again, or queues it for the rejoin. */
  async retryChat(messageId: string): Promise<void> {
    const id = optionalStanzaId(messageId, 'messageId');
    if (id === undefined) throw new ValidationError('messageId is required');
    if (!this.outbox.retry(id)) throw new RoomNotJoinedError();
  }

  /** Best effort, like typing itself: outside a joined room it does nothing. */
  async setChatState(roomAddress: string, state: ChatState): Promise<void> {
    const room = expectRoomAddress(roomAddress);
    const chatState = expectChatState(state);
    if (!this.rooms.isJoined(room)) return;
    this.chatStates.set(room, chatState);
  }

  /**
   * Best effort, like typing itself: outside a joined room it does nothing. `writer`: the tab whose
   * input gives the draft (`ofTab`), which the draft then goes with.
   */
  async updateRealTimeText(roomAddress: string, draft: string, writer?: string): Promise<void> {
    this.showDraft(expectRoomAddress(roomAddress), expectDraft(draft), writer);
  }

  /**
   * The input that wrote the room's draft goes (its chat view or its tab closes) while the room
   * stays open in another tab: the draft is emptied as if erased, so that nobody is left seeing it
   * typed for ever. A draft another input gave since is that input's, and stays: one of another tab
   * stays even when its text is the same.
   */
  async withdrawDraft(roomAddress: string, draft: string, writer?: string): Promise<void> {
    const room = expectRoomAddress(roomAddress);
    const text = expectDraft(draft);
    const shown = this.drafts.get(room);
    if (!shown || shown.text !== text) return;
    if (writer !== undefined && shown.writer !== undefined && shown.writer !== writer) return;
    this.showDraft(room, '', shown.writer);
  }

  /** The commands as the tab `tabId` gives them (TabsApi, one per tab's connection): its drafts are its own. */
  ofTab(tabId: string): ChatCommands {
    return {
      sendChat: (roomAddress, body, replace, privateTo) => this.sendChat(roomAddress, body, replace, privateTo),
      retryChat: (messageId) => this.retryChat(messageId),
      setChatState: (roomAddress, state) => this.setChatState(roomAddress, state),
      updateRealTimeText: (roomAddress, draft) => this.updateRealTimeText(roomAddress, draft, tabId),
      withdrawDraft: (roomAddress, draft) => this.withdrawDraft(roomAddress, draft, tabId),
      requestAttention: (peerAddress) => this.requestAttention(peerAddress),
      sendCommand: (to, type, data) => this.sendCommand(to, type, data),
      markRead: (roomAddress) => this.markRead(roomAddress),
      react: (messageId, reactions) => this.react(messageId, reactions),
      retractChat: (messageId) => this.retractChat(messageId),
    };
  }

  /**
   * A tab is gone (TabsApi learns it from the tab's liveness lock): what its input wrote is
   * withdrawn as if erased — the real-time text cancelled, the chat state back to active — even
   * when the tab could say nothing as it went (its renderer crashed or was killed: no pagehide, no
   * unmount). A draft another tab wrote since is that tab's, and stays.
   */
  forgetRoomMessages(roomAddress: string): void {
    this.messages.forgetRoom(roomAddress);
  }

  tabGone(tabId: string): void {
    const written = [...this.drafts].filter(([, draft]) => draft.writer === tabId);
    for (const [room, draft] of written) {
      if (draft.text !== '') this.showDraft(room, '', tabId);
      if (this.drafts.get(room)?.writer === tabId) this.drafts.delete(room);
    }
  }

  /** The room's draft is now `text`, given by `writer`'s input: chat states and real-time text follow it. */
  private showDraft(room: string, text: string, writer: string | undefined): void {
    if (!this.context.client || !this.rooms.isJoined(room)) return;
    const shown = this.drafts.get(room);
    // An unchanged draft sends nothing; it is the writer's now (two tabs of the room showing the same text).
    this.drafts.set(room, { text, writer });
    if ((shown?.text ?? '') === text) return;
    const emptied = text.trim() === '';
    this.chatStates.draftChanged(room, emptied);
    // Issue 15: the person may keep their draft to themselves; chat states still say they are typing.
    if (!this.realTimeTextOn) return;
    // Back to active, the draft is off the others' screens (onMessage): its stream ends with it, or
    // the same text typed again before the next send would never be shown.
    if (emptied) this.rttSender.cancel(room);
    else this.rttSender.update(room, text);
  }

  /** XEP-0224 to one occupant (a headline message, as StanzaJS's getAttention sends it). */
  async requestAttention(peerAddress: string): Promise<void> {
    const occupant = expectOccupantAddress(peerAddress);
    this.joinedClient(occupant.room).getAttention(occupant.full);
  }

  /** PROTOCOL.md: groupchat to a room for room commands, type normal to an occupant for peer commands. */
  async sendCommand(to: string, type: string, data: unknown): Promise<void> {
    const target = expectRoomOrOccupant(to);
    const command = outgoingCommand(type, data);
    this.joinedClient(target.room).sendMessage({
      to: target.occupant ?? target.room,
      type: target.occupant ? 'normal' : 'groupchat',
      jsonPayloads: [command],
    });
  }

  async markRead(roomAddress: string): Promise<void> {
    this.rooms.markRead(expectRoomAddress(roomAddress));
  }

  async retractChat(messageId: string): Promise<void> {
    const id = optionalStanzaId(messageId, 'messageId');
    const message = id === undefined ? undefined : this.messages.get(id);
    if (!message || message.direction !== 'outgoing' || !message.acked || message.retracted) {
      throw new ValidationError('messageId must name a message of yours the room has');
    }
    this.sendThrough(message.roomAddress, message.recipientAddress, retractionOf(message.stanzaId));
    this.messages.retractOwn(message);
  }

  async react(messageId: string, reactions: readonly string[]): Promise<void> {
    const id = optionalStanzaId(messageId, 'messageId');
    const emojis = expectReactions(reactions);
    const message = id === undefined ? undefined : this.messages.get(id);
    if (!message || message.retracted) throw new ValidationError('messageId must name a message of the room');
    // A reaction to a private message stays between its two people.
    const privateTo = message.privately ? (message.direction === 'incoming' ? message.senderAddress : message.recipientAddress) : undefined;
    this.sendThrough(message.roomAddress, privateTo, { reactions: { id: message.stanzaId, reactions: emojis } });
    const self = this.rooms.selfOccupant(message.roomAddress);
    if (self) this.messages.react(message, { address: self, name: this.ownName }, emojis);
  }

  // ---- rooms we are out of ----

  /** Every room we are no longer in (left, removed, put out, or rejoining it) is forgotten. */
  private forgetRoomsLeft(): void {
    const roomsIn = this.rooms.joinedAddresses();
    for (const roomAddress of this.roomsIn) if (!roomsIn.has(roomAddress)) this.forgetRoom(roomAddress);
    this.roomsIn = roomsIn;
  }

  /**
   * What we were writing in a room we are out of goes: a next join starts with no draft, a chat
   * state the room is told again, and a new real-time message. Nothing is sent: the room's people
   * dropped our text with our occupant as we left. The next join's history is history again.
   */
  private forgetRoom(roomAddress: string): void {
    this.drafts.delete(roomAddress);
    this.chatStates.forget(roomAddress);
    this.rttSender.reset(roomAddress);
    this.outbox.leftRoom(roomAddress);
  }

  // ---- sending ----

  private joinedClient(roomAddress: string): Agent {
    const client = this.context.client;
    if (!client) throw new NotConnectedError();
    if (!this.rooms.isJoined(roomAddress)) throw new RoomNotJoinedError();
    return client;
  }

  /** `privateTo`, when given: someone else in the room, and their name as the room knows it. */
  private privateRecipient(room: string, privateTo: unknown): { address: string; name: string } | undefined {
    if (privateTo === undefined) return undefined;
    const occupant = parseOccupantAddress(privateTo);
    if (!occupant || occupant.room !== room || occupant.full === this.rooms.selfOccupant(room)) {
      throw new ValidationError('privateTo must be the address of someone else in the room (room@service/nick)');
    }
    return { address: occupant.full, name: occupantName([this.rooms.peer(occupant.full)?.displayName], JID.getResource(occupant.full)) };
  }

  /**
   * One of our chat messages on the wire, with its own stanza id (a resend carries the first one):
   * to the room, or a private one through it to its recipient alone (XEP-0045 §7.5).
   */
  private transmit(message: OutgoingStanza): void {
    const { recipientAddress } = message;
    const client = this.sendThrough(message.roomAddress, recipientAddress, {
      id: message.stanzaId,
      body: message.body,
      nick: this.ownName,
      chatState: 'active',
      ...(message.replace !== undefined ? { replace: message.replace } : {}),
    });
    if (recipientAddress) void this.confirmPassedOn(client, message);
  }

  /**
   * A message to a room we are in: to everyone, or through the room to one occupant alone (type chat
   * with the MUC user element, XEP-0045 §7.5). Returns the client that sent it.
   */
  private sendThrough(roomAddress: string, privateTo: string | undefined, content: Omit<Stanzas.Message, 'to' | 'type'>): Agent {
    const client = this.joinedClient(roomAddress);
    client.sendMessage({ ...content, to: privateTo ?? roomAddress, type: privateTo ? 'chat' : 'groupchat', ...(privateTo ? { muc: { type: 'info' } } : {}) });
    return client;
  }

  /**
   * A private message has no echo. The room handles our stanzas in order, so its answer to a ping
   * sent after it (XEP-0410, to our own occupant) says it passed the message on — or had sent it back
   * first (onBounce). No answer (the connection went) leaves it to be sent again after the rejoin.
   */
  private async confirmPassedOn(client: Agent, message: OutgoingStanza): Promise<void> {
    const self = this.rooms.selfOccupant(message.roomAddress);
    if (!self) return;
    // An error the room answers with is an answer too; StanzaJS's own timeout error comes from nobody.
    const answered = await client.ping(self).then(
      () => true,
      (reply: Partial<Stanzas.IQ> | undefined) => reply?.type === 'error' && reply.from !== undefined,
    );
    if (answered && this.attachedClient === client) this.messages.acknowledge(message.roomAddress, message.stanzaId, message.replace);
  }

  /** A bodiless groupchat message (chat state, real-time text) to a room we are in. */
  private sendToRoom(roomAddress: string, content: Pick<Stanzas.Message, 'chatState' | 'rtt'>): boolean {
    const client = this.context.client;
    if (!client || !this.rooms.isJoined(roomAddress)) return false;
    client.sendMessage({ to: roomAddress, type: 'groupchat', ...content });
    return true;
  }

  // ---- receiving ----

  private onMessage(message: Stanzas.ReceivedMessage): void {
    if (message.type === 'error') {
      this.onBounce(message);
      return;
    }
    if (message.type === 'groupchat' && message.hasSubject && !message.body) {
      const room = JID.toBare(message.from);
      if (this.rooms.isJoined(room)) this.outbox.historyDone(room);
    }
    const occupant = parseOccupantAddress(message.from);
    // Chat comes from occupants of rooms we are in; anything else is not ours to handle.
    if (!occupant || !this.rooms.isJoined(occupant.room)) return;
    const roomAddress = occupant.room;
    const isSelf = occupant.full === this.rooms.selfOccupant(roomAddress);

    if (message.jsonPayloads && message.jsonPayloads.length > 0) {
      if (!isSelf) this.onCommands(occupant.full, roomAddress, message.jsonPayloads);
      return; // a message with a payload is not chat
    }
    if (message.requestingAttention && !isSelf) this.attentionRequested(roomAddress, occupant.full);
    // A reaction or a retraction may carry a body for apps that cannot read it (XEP-0428): not a message.
    if (message.reactions) {
      this.onReactions(message.reactions, occupant.full, roomAddress, isSelf ? this.ownName : occupantName([message.nick, this.rooms.peer(occupant.full)?.displayName], occupant.nick));
      return;
    }
    const retracted = retractedId(message);
    if (retracted !== undefined) {
      if (!isSelf) this.onRetraction(occupant.full, retracted);
      return;
    }
    // Chat, chat states and real-time text are groupchat (PROTOCOL.md). A private message (XEP-0045)
    // comes from an XMPP app or from Parley (never from SimpleWebRTC 1.30.3): it is shown to you as such.
    if (message.type === 'chat' && typeof message.body === 'string' && !isSelf) this.onBody(message, occupant.full, roomAddress, { isSelf, privately: true });
    if (message.type !== 'groupchat') return;

    const hasBody = typeof message.body === 'string' && message.subject === undefined;
    if (hasBody) this.onBody(message, occupant.full, roomAddress, { isSelf, privately: false });
    if (isSelf) return;
    if (message.rtt && !hasBody) this.onRealTimeText(occupant.full, message.rtt);
    const chatState = shownChatState(message.chatState) ?? (hasBody ? 'active' : undefined);
    if (chatState) this.rooms.updatePeer(occupant.full, { chatState });
    // A writer back to active without a message cleared their draft: it goes from the screen. The
    // real-time text stream stays, so edits still in flight apply to the text they were made on.
    if (chatState === 'active' && !hasBody && !message.rtt) this.rooms.updatePeer(occupant.full, { realTimeText: '' });
  }

  /**
   * The room sent back a message of ours, from where it went (its id names it, or the correction it
   * went as): a message to everyone from the room itself (a visitor without voice, a stanza a server
   * module refused, an occupant the room does not know), a private one from its recipient's address.
   * No echo will come: it waits for a retry, with the reason.
   */
  private onBounce(message: Stanzas.ReceivedMessage): void {
    const stanzaId = stanzaIdFrom(message.id, LIMITS.stanzaIdLength);
    const record = stanzaId === undefined ? undefined : this.messages.sentAs(stanzaId);
    if (!record) return;
    if (record.recipientAddress === undefined) {
      if (parseRoomAddress(message.from) === record.roomAddress) this.outbox.refused(record, roomRefusal(message.error));
    } else if (parseOccupantAddress(message.from)?.full === record.recipientAddress) {
      this.outbox.refused(record, privateRefusal(message.error, record.recipientName));
    }
  }

  /** XEP-0444: the sender's whole set of reactions to a message of the room (ours echoed too: the same set again). */
  private onReactions(reactions: Reactions, sender: string, roomAddress: string, name: string): void {
    const id = stanzaIdFrom(reactions.id, LIMITS.stanzaIdLength);
    const set = reactionSet(reactions.reactions ?? []);
    const target = id === undefined ? undefined : this.messages.byStanzaId(roomAddress, id);
    if ('problem' in set || !target || !this.messages.react(target, { address: sender, name }, set.reactions)) {
      this.context.log.info(`reactions from ${sender} ignored: ${'problem' in set ? set.problem : target ? 'too many people reacted' : 'no such message'}`);
    }
  }

  /** The name we go by, as our messages and reactions carry it. */
  private get ownName(): string {
    return displayNameOrDefault(this.context.store.state.preferences.displayName);
  }

  /** XEP-0424: the sender takes back one of their messages; an id we cannot keep names none of them. */
  private onRetraction(sender: string, id: string): void {
    const stanzaId = stanzaIdFrom(id, LIMITS.stanzaIdLength);
    if (stanzaId === undefined || !this.messages.retract(sender, stanzaId)) this.context.log.info(`retraction from ${sender} ignored: no message of theirs with that id`);
  }

  /** SPEC §4 attention request; one line in the chat when it starts, not for each repeat while it holds. */
  private attentionRequested(roomAddress: string, sender: string): void {
    const peer = this.rooms.peer(sender);
    if (peer && !peer.requestingAttention) this.events.add(roomAddress, 'attention', peer);
    this.attention.requested(sender);
  }

  private get realTimeTextOn(): boolean {
    return this.context.store.state.preferences.realTimeText;
  }

  private onBody(message: Stanzas.ReceivedMessage, sender: string, roomAddress: string, { isSelf, privately }: { isSelf: boolean; privately: boolean }): void {
    const received = message.body as string;
    if (received.trim() === '') {
      this.context.log.info(`chat message from ${sender} ignored: empty body`);
      return;
    }
    // XMPP apps send longer messages than Parley does, and the room passes them on: shown cut, and said to be.
    const { body, charactersCut } = boundedBody(received);
    if (charactersCut !== undefined) this.context.log.info(`chat message from ${sender} cut: ${charactersCut} characters past ${LIMITS.chatBodyLength}`);
    const wireId = stanzaIdFrom(message.id, LIMITS.stanzaIdLength);
    const replace = stanzaIdFrom(message.replace, LIMITS.stanzaIdLength);
    const now = this.context.clock.now();
    // The room's history, stamped by the room: a live message's own <delay> is its sender's word,
    // which would put it among what was read long ago.
    const delay = this.outbox.inHistory(roomAddress) ? message.delay : undefined;
    if (wireId !== undefined && (isSelf || delay) && this.messages.acknowledge(roomAddress, wireId, replace)) return;
    const peer = this.rooms.peer(sender);
    const displayName = occupantName([message.nick, peer?.displayName], JID.getResource(sender));
    // The room's word (its <user> on their presence) while they are here: a <user> on the message is
    // the sender's own, taken only for someone gone (room history).
    const customerData = peer ? peer.customerData : optionalCustomerData(message.talkyUser?.customerData);
    const stanzaId = wireId ?? Utils.uuid();
    const time = messageTime(delay?.timestamp, now);
    if (isSelf) {
      if (this.messages.outdone(roomAddress, stanzaId, replace)) return;
      // Ours, but not sent by this connection (e.g. room history): kept as an acknowledged outgoing message.
      this.messages.addOutgoing({ stanzaId, roomAddress, body, replace, displayName, senderAddress: sender, customerData, time, acked: true, charactersCut });
      return;
    }
    // A room message ends the draft its writer showed the room; a private one is not that draft.
    if (!privately) {
      this.rttReceiver.endStream(sender);
      this.rooms.updatePeer(sender, { realTimeText: '' });
    }
    const incoming = { stanzaId, roomAddress, body, replace, displayName, senderAddress: sender, customerData, time, privately, charactersCut };
    // A correction of a message held reads as its edit, not as one more message: read or not, that one is counted already.
    const news = !this.messages.correctsHeld(incoming);
    if (this.messages.addIncoming(incoming) && news) this.rooms.incrementUnread(roomAddress);
  }

  private onRealTimeText(sender: string, rtt: Stanzas.RTT): void {
    // Shown on the sender's Peer only: without one (not in the room as far as we know) nothing is kept.
    if (!this.rooms.peer(sender)) {
      this.rttReceiver.endStream(sender);
      return;
    }
    const result = this.rttReceiver.receive(sender, rtt);
    if (result.kind === 'ignored') {
      this.context.log.info(`real-time text from ${sender} ignored: ${result.reason}`);
      return;
    }
    this.rooms.updatePeer(sender, { realTimeText: result.text });
  }

  private onCommands(from: string, roomAddress: string, payloads: readonly Stanzas.JSONTransfer[]): void {
    const result = incomingCommands(payloads);
    if ('problem' in result) {
      this.context.log.info(`JSON command from ${from} ignored: ${result.problem}`);
      return;
    }
    for (const { type, data } of result.commands) this.emit({ type: 'command', command: { from, roomAddress, type, data } });
  }
}
