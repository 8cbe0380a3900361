import * as Comlink from 'comlink';
import type {
  CallsCommands,
  JingleIq,
  JoinRoomOptions,
  PreferencesCommands,
  RoomsCommands,
  SessionApi,
  SessionEvent,
  TabListener,
} from '../protocol/commands';
import { sleep } from '../common/clock';
import { errorMessage } from '../common/errorMessage';
import { UNCLAIMED_CALL_HOLD } from '../protocol/constants';
import type { TabsChat } from './chat/ChatDomain';
import type { JingleRouter } from './jingle/JingleRouter';
import type { RoomsDomain } from './rooms/RoomsDomain';
import type { SignalingSession } from './SignalingSession';

/** Resolves when the tab is gone: the SharedWorker waits on the tab's Web Lock, Node tests on a promise. */
export type TabGone = (tabId: string) => Promise<void>;

export interface SessionDomains {
  rooms: RoomsCommands & Pick<RoomsDomain, 'forgetRoomEvents'>;
  chat: TabsChat;
  preferences: PreferencesCommands;
  jingle: JingleRouter;
  calls: CallsCommands;
}

interface AttachedTab {
  listener: TabListener;
  unsubscribe: () => void;
  rooms: Set<string>;
  /** Rooms it had open when they were left ("Leave"), by id, with their address: it still shows what was said there until it closes them. */
  leftRooms: Map<string, string>;
}

/**
 * The session as tabs see it: every tab gets the state and events; a room stays joined while at
 * least one tab has it open, and is left when the last one closes it or goes away.
 */
export class TabsApi implements SessionApi {
  private readonly tabs = new Map<string, AttachedTab>();
  /** Calls no tab runs, each with the latest wait for a claim begun for it: only that one may leave the call. */
  private readonly awaitingClaim = new Map<string, object>();
  readonly rooms: RoomsCommands & Comlink.ProxyMarked;
  /** What no tab asks for: forgetting the event lines of a room none shows. */
  private readonly unshownRooms: Pick<RoomsDomain, 'forgetRoomEvents'>;
  readonly chat: TabsChat & Comlink.ProxyMarked;
  readonly preferences: PreferencesCommands & Comlink.ProxyMarked;
  readonly jingle: JingleRouter & Comlink.ProxyMarked;
  readonly calls: CallsCommands & Comlink.ProxyMarked;

  constructor(
    private readonly session: SignalingSession,
    domains: SessionDomains,
    private readonly tabGone: TabGone,
  ) {
    this.rooms = Comlink.proxy(domains.rooms);
    this.unshownRooms = domains.rooms;
    this.chat = Comlink.proxy(domains.chat);
    this.preferences = Comlink.proxy(domains.preferences);
    this.jingle = Comlink.proxy(domains.jingle);
    this.calls = Comlink.proxy(domains.calls);
    domains.jingle.onCallLetGo = (roomAddress) => this.leaveCallUnlessClaimed(roomAddress);
  }

  get tabCount(): number {
    return this.tabs.size;
  }

  attach(tabId: string, listener: TabListener): void {
    const previous = this.tabs.get(tabId);
    previous?.unsubscribe();
    // Connecting first (its state is set at once), so the tab's snapshot never says "Not connected" for a session on its way.
    void this.session.connect();
    const unsubscribe = this.session.store.subscribe((message) => listener.state(message));
    this.tabs.set(tabId, { listener, unsubscribe, rooms: previous?.rooms ?? new Set(), leftRooms: previous?.leftRooms ?? new Map() });
    if (!previous) void this.tabGone(tabId).then(() => this.detach(tabId));
  }

  /** Delivers a Jingle request to one tab (see `toTab`). */
  deliverJingle(tabId: string, roomAddress: string, iq: JingleIq): boolean {
    return this.toTab(tabId, (listener) => listener.jingle(roomAddress, iq));
  }

  /** Delivers an event to the tab that runs a call (`tabId`, JingleRouter's owner; see `toTab`). */
  deliverToCallTab(tabId: string | undefined, event: SessionEvent): boolean {
    return this.toTab(tabId, (listener) => listener.event(event));
  }

  /** Hands something to one tab, after the state changes that came before it; false when it is not attached. */
  private toTab(tabId: string | undefined, deliver: (listener: TabListener) => void): boolean {
    const tab = tabId === undefined ? undefined : this.tabs.get(tabId);
    this.session.store.flush();
    if (tab) deliver(tab.listener);
    return tab !== undefined;
  }

  /** Delivers an event to every attached tab. */
  broadcast(event: SessionEvent): void {
    for (const tab of this.tabs.values()) tab.listener.event(event);
  }

  connect(): void {
    void this.session.connect();
  }

  disconnect(): void {
    this.session.disconnect();
  }

  online(): void {
    this.session.online();
  }

  offline(): void {
    this.session.offline();
  }

  async openRoom(tabId: string, name: string, options?: JoinRoomOptions): Promise<string> {
    const tab = this.tabs.get(tabId);
    // A room is kept only while a tab holds it: a tab we cannot track could never let it go.
    if (!tab) throw new Error('attach the tab before it opens a room');
    const roomId = await this.rooms.joinRoom(name, options);
    tab.rooms.add(roomId);
    return roomId;
  }

  async closeRoom(tabId: string, roomId: string): Promise<void> {
    const tab = this.tabs.get(tabId);
    tab?.rooms.delete(roomId);
    const leftAddress = tab?.leftRooms.get(roomId);
    if (leftAddress !== undefined) {
      tab?.leftRooms.delete(roomId);
      this.forgetIfUnshown(leftAddress);
    }
    this.leaveUnclaimedCallOf(roomId);
    await this.leaveIfUnused(roomId);
  }

  /** The tabs that still hold the room show what was said there until they close it; `tabId`'s view, which left, has gone. */
  async leaveRoom(tabId: string, roomId: string): Promise<void> {
    const address = this.session.store.get('rooms', roomId)?.address;
    for (const [id, tab] of this.tabs) {
      if (tab.rooms.delete(roomId) && address !== undefined && id !== tabId) tab.leftRooms.set(roomId, address);
    }
    await this.rooms.leaveRoom(roomId);
    if (address !== undefined) this.forgetIfUnshown(address);
  }

  private async detach(tabId: string): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    tab.unsubscribe();
    this.tabs.delete(tabId);
    // What its chat input was writing goes with it, however it went: closed, or killed with no pagehide.
    this.chat.tabGone(tabId);
    const callsItRan = this.jingle.releaseTab(tabId);
    for (const roomAddress of callsItRan) {
      // Whom its call kept, nobody keeps now: a tab that takes the call over reports its own.
      void this.calls.setHeldPeers(roomAddress, []);
      this.leaveCallUnlessClaimed(roomAddress);
    }
    for (const roomId of tab.rooms) this.leaveUnclaimedCallOf(roomId);
    for (const roomId of tab.rooms) await this.leaveIfUnused(roomId);
    for (const address of tab.leftRooms.values()) this.forgetIfUnshown(address);
  }

  /** A tab let the room go (closed it, or went): it may have joined its call and gone before claiming it. */
  private leaveUnclaimedCallOf(roomId: string): void {
    const roomAddress = this.session.store.get('rooms', roomId)?.address;
    if (roomAddress === undefined || this.jingle.ownerOf(roomAddress) !== undefined || this.session.store.get('calls', roomAddress)?.joined !== true) return;
    this.leaveCallUnlessClaimed(roomAddress);
  }

  /**
   * No tab runs the room's call now (its tab let it go, went, or closed the room, maybe before it
   * claimed it): another tab of the room may take the call over (its Web Lock came free), as soon as
   * an offer waiting for a claim would be declined (UNCLAIMED_CALL_HOLD). Otherwise nobody runs it,
   * and it is left: the room would go on saying you are in it (a pop-out chat keeping the room), and
   * its people would offer you calls forever. A hang-up has left it already.
   */
  private leaveCallUnlessClaimed(roomAddress: string): void {
    const wait = {};
    this.awaitingClaim.set(roomAddress, wait);
    void sleep(this.session.clock, UNCLAIMED_CALL_HOLD.timeoutMs).then(async () => {
      if (this.awaitingClaim.get(roomAddress) !== wait) return;
      this.awaitingClaim.delete(roomAddress);
      if (this.jingle.ownerOf(roomAddress) !== undefined || this.session.store.get('calls', roomAddress)?.joined !== true) return;
      await this.rooms.leaveCall(roomAddress).catch((error: unknown) => this.session.log.error(`leaving a call no tab runs failed: ${errorMessage(error)}`));
    });
  }

  /** A room no tab holds is left, with what no tab can show any more (`forgetIfUnshown`). */
  private async leaveIfUnused(roomId: string): Promise<void> {
    for (const tab of this.tabs.values()) if (tab.rooms.has(roomId)) return;
    const roomAddress = this.session.store.get('rooms', roomId)?.address;
    await this.rooms.leaveRoom(roomId);
    if (roomAddress !== undefined) this.forgetIfUnshown(roomAddress);
  }

  /**
   * What was said in a room and its event lines go once no tab can show them: no room of that
   * address is open, and no tab still shows one left there ("You left this room"). Messages still
   * to be sent stay, for its next join.
   */
  private forgetIfUnshown(roomAddress: string): void {
    if (Object.values(this.session.store.state.rooms).some((room) => room.address === roomAddress)) return;
    for (const tab of this.tabs.values()) for (const address of tab.leftRooms.values()) if (address === roomAddress) return;
    this.unshownRooms.forgetRoomEvents(roomAddress);
    this.chat.forgetRoomMessages(roomAddress);
  }
}
