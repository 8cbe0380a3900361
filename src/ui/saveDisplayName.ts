import type { createStore } from 'jotai';
import { preferencesAtom } from '../main-thread/sessionAtoms';
import type { PreferencesCommands } from '../protocol/commands';

/**
 * Saves the display name chosen, done once the session shows it (what a room's join and the room
 * read) or the save is over, whichever comes first: a storage that hangs would otherwise hold the page
 * for ever. Fails only when the save is refused before the session shows the name.
 */
export function saveDisplayName(store: ReturnType<typeof createStore>, preferences: Pick<PreferencesCommands, 'setPreferences'>, displayName: string): Promise<void> {
  const shown = (): boolean => store.get(preferencesAtom).displayName === displayName;
  let unsubscribe = (): void => {};
  const sessionShowsName = new Promise<void>((resolve) => {
    unsubscribe = store.sub(preferencesAtom, () => {
      if (shown()) resolve();
    });
    if (shown()) resolve();
  });
  const saved = preferences.setPreferences({ displayName }).catch((error: unknown) => {
    if (!shown()) throw error;
  });
  return Promise.race([sessionShowsName, saved]).finally(unsubscribe);
}
