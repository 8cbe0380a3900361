import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { sessionStateAtom } from '../../src/main-thread/sessionAtoms';
import type { Preferences } from '../../src/protocol/entities';
import { saveDisplayName } from '../../src/ui/saveDisplayName';

/** A session whose preferences save never settles (IndexedDB hung) or settles as `answer` says; `show` makes the session show a change. */
function session(answer?: Promise<void>) {
  const store = createStore();
  const asked: Partial<Preferences>[] = [];
  const preferences = {
    setPreferences: (change: Partial<Preferences>): Promise<void> => {
      asked.push(change);
      return answer ?? new Promise<void>(() => {});
    },
  };
  const show = (change: Partial<Preferences>): void => store.set(sessionStateAtom, (state) => ({ ...state, preferences: { ...state.preferences, ...change } }));
  return { store, preferences, asked, show };
}

async function outcome(saving: Promise<void>): Promise<string> {
  return Promise.race([saving.then(() => 'done', () => 'refused'), new Promise<string>((resolve) => setTimeout(() => resolve('waiting'), 10))]);
}

describe('A display name chosen (the home page’s Join, the call’s “Save name”) is taken once the session shows it, not once its storage is done: a storage that hangs holds nothing', () => {
  it('is done once the session shows the name though the save never ends', async () => {
    const { store, preferences, asked, show } = session();
    const saving = saveDisplayName(store, preferences, 'Ada');
    expect(asked).toEqual([{ displayName: 'Ada' }]);
    expect(await outcome(saving)).toBe('waiting');
    show({ displayName: 'Ada' });
    expect(await outcome(saving)).toBe('done');
  });

  it('waits while the session shows another name', async () => {
    const { store, preferences, show } = session();
    const saving = saveDisplayName(store, preferences, 'Ada');
    show({ displayName: 'Bob' });
    expect(await outcome(saving)).toBe('waiting');
  });

  it('is done once the save is, before the session shows the name', async () => {
    const { store, preferences } = session(Promise.resolve());
    expect(await outcome(saveDisplayName(store, preferences, 'Ada'))).toBe('done');
  });

  it('fails when the save is refused and the session does not show the name', async () => {
    const { store, preferences } = session(Promise.reject(new Error('refused')));
    expect(await outcome(saveDisplayName(store, preferences, 'Ada'))).toBe('refused');
  });
});
