import { useEffect, useRef } from 'react';

/**
 * For a control that goes with what it acted on (a message deleted, one sent again): once pressed,
 * its going gives the focus to the chat's log around it, not to the page.
 */
export function useLogFocusOnceGone() {
  // The log that takes the focus, from the press on.
  const log = useRef<HTMLElement | null>(null);
  useEffect(
    () => () => {
      log.current?.focus({ preventScroll: true });
    },
    [],
  );
  return {
    /** Pressed: the log around `control` takes the focus when the control goes. */
    pressed(control: Element | null): void {
      log.current = control?.closest<HTMLElement>('[role="log"]') ?? null;
    },
    /** The log takes the focus now (the control stays); the press is over. */
    focusNow(): void {
      log.current?.focus({ preventScroll: true });
      log.current = null;
    },
    /** The control stays (its action was refused): its going is not the press's any more. */
    cancel(): void {
      log.current = null;
    },
  };
}
