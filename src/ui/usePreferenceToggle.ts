import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { preferencesAtom } from '../main-thread/sessionAtoms';
import type { Preferences } from '../protocol/entities';
import { useActions } from './tabContext';

type OnOffPreference = { [K in keyof Preferences]: Preferences[K] extends boolean ? K : never }[keyof Preferences];

/**
 * An on/off preference as a checkbox reads it: the box follows a click at once, and the preference
 * (in the shared worker, for every tab) catches up; a refused change puts the box back.
 */
export function usePreferenceToggle(name: OnOffPreference): [boolean, (value: boolean) => void] {
  const actions = useActions();
  const stored = useAtomValue(preferencesAtom)[name];
  const [choice, setChoice] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (choice === stored) setChoice(undefined);
  }, [choice, stored]);
  const set = (value: boolean) => {
    setChoice(value);
    actions.preferences.setPreferences({ [name]: value }).catch(() => setChoice(undefined));
  };
  return [choice ?? stored, set];
}
