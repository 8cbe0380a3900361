/** Remembers that the browser's question was put, so a person who dismissed it is not asked again. */
const ASKED_KEY = 'parley.notifications.asked';

/** A desktop notification Parley shows: one per tag at a time (a newer one with the same tag replaces it). */
export interface DesktopNotice {
  title: string;
  body: string;
  tag: string;
}

/**
 * Asks for permission to notify, once per browser, and only when the person has just taken part
 * (sent a message, clicked "Join call"), in that gesture: never on page load, where the question would
 * come out of nowhere, nor from another tab (the pop-out chat), which the browser may refuse to ask from.
 */
export function askForNotificationsOnce(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  try {
    if (localStorage.getItem(ASKED_KEY) !== null) return;
    localStorage.setItem(ASKED_KEY, new Date().toISOString());
  } catch {
    return; // storage refused (private mode): better not to ask than to ask every time
  }
  void Notification.requestPermission().catch(() => {});
}

/** A notification on the screen, to close once what it says is known (read, seen, over). */
export interface ShownNotice {
  close(): void;
}

/** Shows a notification when the person allowed them; clicking it brings this tab forward. */
export function showDesktopNotice(notice: DesktopNotice): ShownNotice | undefined {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return undefined;
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
  return notification;
}
