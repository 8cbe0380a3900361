import { useEffect, useRef, useState } from 'react';

/**
 * The call's keyboard shortcuts, as people know them from other video-call apps: Ctrl (⌘ on Apple
 * devices) with D for the microphone and E for the camera (KeyboardEvent.code, so a keyboard layout
 * does not move them). With a modifier they work while typing in the chat too, and no single
 * character key is taken from anyone (WCAG 2.1.4).
 */
export const CALL_SHORTCUTS = { microphone: 'KeyD', camera: 'KeyE' } as const;

export type CallShortcut = (typeof CALL_SHORTCUTS)[keyof typeof CALL_SHORTCUTS];

/** What a key event says of the keys held with it. */
export interface ShortcutKeys {
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/**
 * The shortcut's key with the platform's command key alone: ⌘ on Apple devices, Ctrl elsewhere. Not
 * Ctrl on an Apple device, where Ctrl+E and Ctrl+D move the caret and delete in every text field
 * (turning a camera on while someone types would be the worst surprise a key could give).
 */
export function isCallShortcut(event: ShortcutKeys, shortcut: CallShortcut, apple: boolean): boolean {
  const command = apple ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return event.code === shortcut && command && !event.altKey && !event.shiftKey;
}

function onApplePlatform(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform);
}

/** How a toggle names its shortcut: for `aria-keyshortcuts`, and in its tooltip. */
export function shortcutNames(shortcut: CallShortcut): { aria: string; shown: string } {
  const key = shortcut.slice('Key'.length);
  return onApplePlatform() ? { aria: `Meta+${key}`, shown: `⌘${key}` } : { aria: `Control+${key}`, shown: `Ctrl+${key}` };
}

/**
 * Runs `run` on the shortcut while the component using it is shown and `enabled` (as its button is:
 * not while its device is on its way). While shown the key is the page's even when not enabled, so
 * that Ctrl+D never opens the browser's bookmark dialog instead; a held key's repeats do nothing.
 * Returns whether the shortcut has been used: from then on the toggle says its state in a live
 * region, since focus is elsewhere and a screen reader would not hear the button change.
 */
export function useCallShortcut(shortcut: CallShortcut, enabled: boolean, run: () => void): boolean {
  const current = useRef({ enabled, run });
  current.current = { enabled, run };
  const [used, setUsed] = useState(false);
  useEffect(() => {
    const apple = onApplePlatform();
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isCallShortcut(event, shortcut, apple)) return;
      event.preventDefault();
      if (event.repeat || !current.current.enabled) return;
      setUsed(true);
      current.current.run();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [shortcut]);
  return used;
}
