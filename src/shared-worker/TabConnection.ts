import * as Comlink from 'comlink';
import type {
  CallsCommands,
  ChatCommands,
  JingleCommands,
  JoinRoomOptions,
  PreferencesCommands,
  RoomsCommands,
  SessionApi,
  TabListener,
} from '../protocol/commands';
import type { TabsApi } from './TabsApi';

/**
 * The session as one tab's port offers it (the SharedWorker exposes one on each port): the tabs'
 * session, except that the chat commands that come in on it once its tab has attached are that
 * tab's. Comlink names no caller, and without this the session could not tell which tab wrote a
 * draft, to withdraw it when that tab goes (ChatDomain.tabGone). One port keeps the order, and a tab
 * attaches before its chat input can write.
 */
export class TabConnection implements SessionApi {
  private tabChat: (ChatCommands & Comlink.ProxyMarked) | undefined;

  constructor(private readonly tabs: TabsApi) {}

  get rooms(): RoomsCommands & Comlink.ProxyMarked {
    return this.tabs.rooms;
  }

  get chat(): ChatCommands & Comlink.ProxyMarked {
    return this.tabChat ?? this.tabs.chat;
  }

  get preferences(): PreferencesCommands & Comlink.ProxyMarked {
    return this.tabs.preferences;
  }

  get jingle(): JingleCommands & Comlink.ProxyMarked {
    return this.tabs.jingle;
  }

  get calls(): CallsCommands & Comlink.ProxyMarked {
    return this.tabs.calls;
  }

  attach(tabId: string, listener: TabListener): void {
    this.tabChat = Comlink.proxy(this.tabs.chat.ofTab(tabId));
    this.tabs.attach(tabId, listener);
  }

  connect(): void {
    this.tabs.connect();
  }

  disconnect(): void {
    this.tabs.disconnect();
  }

  online(): void {
    this.tabs.online();
  }

  offline(): void {
    this.tabs.offline();
  }

  openRoom(tabId: string, name: string, options?: JoinRoomOptions): Promise<string> {
    return this.tabs.openRoom(tabId, name, options);
  }

  closeRoom(tabId: string, roomId: string): Promise<void> {
    return this.tabs.closeRoom(tabId, roomId);
  }

  leaveRoom(tabId: string, roomId: string): Promise<void> {
    return this.tabs.leaveRoom(tabId, roomId);
  }
}
