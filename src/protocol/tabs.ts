/** The Web Lock each tab holds for its lifetime; the shared worker learns a tab is gone when it is released. */
export function tabLockName(tabId: string): string {
  return `parley:tab:${tabId}`;
}
