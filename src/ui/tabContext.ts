import { createContext, useContext } from 'react';
import type { ParleyTab } from '../main-thread/ParleyTab';
import type { TabActions } from '../main-thread/SessionBridge';

/** This tab's Parley: React calls its actions, and reads state only from atoms. */
export const TabContext = createContext<ParleyTab | undefined>(undefined);

export function useTab(): ParleyTab {
  const tab = useContext(TabContext);
  if (!tab) throw new Error('a TabContext provider is missing');
  return tab;
}

/** Settles once this tab's attach has gone to the session: the rooms the tab opens from then on are tied to it. */
export function useAttachSent(): Promise<void> {
  return useTab().attachSent;
}

/** The session's commands, as this tab calls them. */
export function useActions(): TabActions {
  return useTab().actions;
}
