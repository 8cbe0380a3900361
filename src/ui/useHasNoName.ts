import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../main-thread/sessionAtoms';
import { DEFAULT_PREFERENCES } from '../protocol/constants';

/** True while the person has not chosen a name and others see the default one ("Anonymous"). */
export function useHasNoName(): boolean {
  return useAtomValue(preferencesAtom).displayName === DEFAULT_PREFERENCES.displayName;
}
