import { PARLEY_BUILD } from '../../protocol/tabs';

/** Whether this tab is the one that plays a room's tones and shows its notifications. */
export interface RoomAlertSeat {
  readonly held: boolean;
  release(): void;
}

/**
 * The Web Lock of the tab that alerts for a room. Named with the build, as the call's lock is
 * (call/CallOwnership): a tab of another build has a session of its own, whose room alerts apart.
 */
export function roomAlertsLockName(roomAddress: string, build: string = PARLEY_BUILD): string {
  return `parley-alerts:${build}:${roomAddress}`;
}

/**
 * Several tabs of one browser may show a room (the room, its pop-out chat); each sees every change
 * of the shared state, so each would chime and notify. The first tab to ask holds the room's Web Lock
 * and alerts; when it closes the room, the next one takes over.
 */
export function holdRoomAlerts(roomAddress: string): RoomAlertSeat {
  const abort = new AbortController();
  let held = false;
  let release = () => {};
  navigator.locks
    .request(roomAlertsLockName(roomAddress), { signal: abort.signal }, () => {
      held = true;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    })
    .catch(() => {}); // aborted while waiting
  return {
    get held() {
      return held;
    },
    release() {
      held = false;
      abort.abort();
      release();
    },
  };
}
