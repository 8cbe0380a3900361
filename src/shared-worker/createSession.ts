import type { Agent, AgentConfig } from 'stanza';
import { ChatDomain } from './chat/ChatDomain';
import type { Clock } from '../common/clock';
import { createParleyXmppClient } from './createParleyXmppClient';
import type { Fetch } from './ConfigClient';
import type { IdentityStorage } from './identity/IdentityStorage';
import type { Logger } from '../common/logger';
import type { ErrorCode } from '../protocol/errors';
import { CallsDomain } from './calls/CallsDomain';
import { JingleRouter } from './jingle/JingleRouter';
import { PreferencesDomain } from './preferences/PreferencesDomain';
import type { PreferencesStorage } from './preferences/PreferencesStorage';
import { RoomsDomain } from './rooms/RoomsDomain';
import { RoomEventLog } from './roomEvents/RoomEventLog';
import type { LivenessSettings } from './ConnectionLiveness';
import { SignalingSession } from './SignalingSession';
import { TabsApi, type TabGone } from './TabsApi';

export interface SessionOptions {
  clock: Clock;
  fetch: Fetch;
  log: Logger<ErrorCode>;
  configUrl: string;
  /** The gateway's `GET /api/xmpp-ready`: a reconnect waits there for the XMPP server (issue 13). */
  serverReadyUrl?: string;
  /** When a silent connection is given up (default LIVENESS). */
  liveness?: LivenessSettings;
  userToken?: string;
  preferencesStorage: PreferencesStorage;
  identityStorage: IdentityStorage;
  tabGone: TabGone;
  /** Makes each connection's XMPP client (default `createParleyXmppClient`). */
  createXmppClient?: (config: AgentConfig) => Agent;
}

/** The whole shared session: signalling plus its domains, as tabs see it. Same in the SharedWorker and in Node. */
export interface ParleySession {
  session: SignalingSession;
  tabs: TabsApi;
  rooms: RoomsDomain;
  chat: ChatDomain;
  preferences: PreferencesDomain;
  jingle: JingleRouter;
  calls: CallsDomain;
}

export function createSession(options: SessionOptions): ParleySession {
  const session = new SignalingSession({ ...options, createXmppClient: options.createXmppClient ?? createParleyXmppClient });
  const preferences = session.addDomain(new PreferencesDomain(session, options.preferencesStorage));
  const events = new RoomEventLog(session.store, options.clock);
  const rooms = session.addDomain(new RoomsDomain(session, events));
  const chat = session.addDomain(new ChatDomain(session, (event) => tabs.broadcast(event), events));
  const jingle = session.addDomain(new JingleRouter(session, (tabId, roomAddress, iq) => tabs.deliverJingle(tabId, roomAddress, iq)));
  const calls = session.addDomain(
    new CallsDomain(
      session,
      (peerAddress) => rooms.lastRecordOf(peerAddress),
      (roomAddress, change) => tabs.deliverToCallTab(jingle.ownerOf(roomAddress), { type: 'own-media-request', roomAddress, change }),
      (peerAddress, volumeLimit) => rooms.rememberVolumeLimit(peerAddress, volumeLimit),
    ),
  );
  const tabs: TabsApi = new TabsApi(session, { rooms, chat, preferences, jingle, calls }, options.tabGone);
  return { session, tabs, rooms, chat, preferences, jingle, calls };
}
