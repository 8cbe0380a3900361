import type { Remote } from 'comlink';
import { createContext, useContext } from 'react';
import type { SessionBridge } from '../main-thread/SessionBridge';
import type { ChatCommands, PreferencesCommands, RoomsCommands } from '../protocol/commands';
import type { AnalysisWorkerApi } from '../protocol/analysisWorker';

/** The tab's bridge to the shared session: React calls its actions, and reads state only from atoms. */
export interface TabSession {
  bridge: SessionBridge;
  /** Settles once the tab is attached to the session (it holds its tab lock and gets the state). */
  attached: Promise<void>;
  /** The tab's voice-analysis worker, started on first use (a pop-out chat never uses it). */
  analysisWorker: () => Remote<AnalysisWorkerApi>;
}

export const BridgeContext = createContext<TabSession | undefined>(undefined);

function useTabSession(): TabSession {
  const tab = useContext(BridgeContext);
  if (!tab) throw new Error('a BridgeContext provider is missing');
  return tab;
}

export function useBridge(): SessionBridge {
  return useTabSession().bridge;
}

/** Settles once this tab is attached: the session ties the rooms a tab opens to it from then on. */
export function useAttached(): Promise<void> {
  return useTabSession().attached;
}

export function useAnalysisWorker(): () => Remote<AnalysisWorkerApi> {
  return useTabSession().analysisWorker;
}

/** The session's command groups, as a tab calls them. */
export interface SessionActions {
  rooms: Remote<RoomsCommands>;
  chat: Remote<ChatCommands>;
  preferences: Remote<PreferencesCommands>;
}

const actionsByBridge = new WeakMap<SessionBridge, SessionActions>();

/**
 * The session's commands. Comlink types a plain nested object of a Remote as a value to be copied,
 * but at run time a property path calls the method where it lives, on its own object: so
 * `chat.sendChat(…)` runs in the shared worker as `session.chat.sendChat(…)`.
 */
export function useActions(): SessionActions {
  const bridge = useBridge();
  let actions = actionsByBridge.get(bridge);
  if (!actions) {
    const nested = bridge.session as unknown as SessionActions;
    actions = { rooms: nested.rooms, chat: nested.chat, preferences: nested.preferences };
    actionsByBridge.set(bridge, actions);
  }
  return actions;
}
