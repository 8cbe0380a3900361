import { CALL_AFTER_RELOAD_WITHIN_MS } from '../../protocol/clientDefaults';
import { LIMITS } from '../../protocol/constants';
import type { OwnCallMedia } from '../../protocol/entities';
import { storedRecord } from '../../common/storedRecord';

/** Your own media as a call tab reloads in the call, for the page after the reload to come back as you were. */
export type OwnMediaAtReload = Pick<OwnCallMedia, 'microphoneMuted' | 'cameraOff' | 'sharingScreen'>;

/** What a tab that ran a call keeps across its own reload. */
interface CallAtReload extends OwnMediaAtReload {
  readonly roomName: string;
  /** When the page went (Date.now()). */
  readonly at: number;
}

/** In sessionStorage: this tab's own, kept through its reload and gone with the tab. */
const STORAGE_KEY = 'parley:call-at-reload';

/**
 * The page of a tab that runs a call goes (a reload, or leaving the page): what it was in is kept.
 * Nothing is kept where storage is refused (privacy settings; reading `window.sessionStorage` itself
 * throws then, hence `storage` is asked for here): the page after it shows the preview.
 */
export function keepCallForReload(storage: () => Storage, roomName: string, own: OwnMediaAtReload, now: number): void {
  const kept: CallAtReload = { roomName, at: now, microphoneMuted: own.microphoneMuted, cameraOff: own.cameraOff, sharingScreen: own.sharingScreen };
  try {
    storage().setItem(STORAGE_KEY, JSON.stringify(kept));
  } catch {
    // Refused: a reload shows the preview.
  }
}

/**
 * The call this tab ran before its page was reloaded, if it was in `roomName` and went no longer
 * than CALL_AFTER_RELOAD_WITHIN_MS ago: taken (once), for the page to join the call again as you
 * were. Only when this page is a reload (`navigation`, its PerformanceNavigationTiming type):
 * sessionStorage survives a closed tab reopened and Back too, which must not put you back in the
 * call, microphone on, unasked. Whatever else is stored there — another room, an old one,
 * something that is not ours, one kept for another kind of page — is dropped.
 */
export function takeCallAfterReload(storage: () => Storage, roomName: string, now: number, navigation: NavigationTimingType | undefined): OwnMediaAtReload | undefined {
  let stored: string | null;
  try {
    const tabStorage = storage();
    stored = tabStorage.getItem(STORAGE_KEY);
    tabStorage.removeItem(STORAGE_KEY);
  } catch {
    return undefined;
  }
  const kept = parseKept(stored);
  if (navigation !== 'reload' || !kept || kept.roomName !== roomName || !(now - kept.at >= 0 && now - kept.at <= CALL_AFTER_RELOAD_WITHIN_MS)) return undefined;
  return { microphoneMuted: kept.microphoneMuted, cameraOff: kept.cameraOff, sharingScreen: kept.sharingScreen };
}

function parseKept(stored: string | null): CallAtReload | undefined {
  const record = stored !== null && stored.length <= LIMITS.roomNameLength * 8 ? storedRecord(stored) : undefined;
  if (!record) return undefined;
  const { roomName, at, microphoneMuted, cameraOff, sharingScreen } = record;
  if (typeof roomName !== 'string' || roomName.length > LIMITS.roomNameLength || typeof at !== 'number') return undefined;
  if (typeof microphoneMuted !== 'boolean' || typeof cameraOff !== 'boolean' || typeof sharingScreen !== 'boolean') return undefined;
  return { roomName, at, microphoneMuted, cameraOff, sharingScreen };
}
