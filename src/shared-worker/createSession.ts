import { ChatDomain } from './chat/ChatDomain';
import type { Clock } from './clock';
import { createParleyXmppClient } from './createParleyXmppClient';
import type { Fetch } from './ConfigClient';
import type { Logger } from './logger';
import { JingleRouter } from './jingle/JingleRouter';
import { PreferencesDomain } from './preferences/PreferencesDomain';
import type { PreferencesStorage } from './preferences/PreferencesStorage';
import { RoomsDomain } from './rooms/RoomsDomain';
import { SignalingSession } from './SignalingSession';
import { TabsApi, type TabGone } from './TabsApi';

export interface SessionOptions {
  clock: Clock;
  fetch: Fetch;
  log: Logger;
  configUrl: string;
  preferencesStorage: PreferencesStorage;
  tabGone: TabGone;
}

/** The whole shared session: signalling plus its domains, as tabs see it. Same in the SharedWorker and in Node. */
export function createSession(options: SessionOptions): {
  session: SignalingSession;
  tabs: TabsApi;
  rooms: RoomsDomain;
  chat: ChatDomain;
  preferences: PreferencesDomain;
  jingle: JingleRouter;
} {
  const session = new SignalingSession({ ...options, createXmppClient: createParleyXmppClient });
  const preferences = session.addDomain(new PreferencesDomain(session, options.preferencesStorage));
  const rooms = session.addDomain(new RoomsDomain(session));
  const chat = session.addDomain(new ChatDomain(session, (event) => tabs.broadcast(event)));
  const jingle = session.addDomain(new JingleRouter(session, (tabId, iq) => tabs.deliverJingle(tabId, iq)));
  const tabs: TabsApi = new TabsApi(session, { rooms, chat, preferences, jingle }, options.tabGone);
  return { session, tabs, rooms, chat, preferences, jingle };
}
