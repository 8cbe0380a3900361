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
 * (sent a message, joined the call): never on page load, where the question would come out of nowhere.
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

/** Shows a notification when the person allowed them; clicking it brings this tab forward. */
export function showDesktopNotice(notice: DesktopNotice): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
}
