import { useStore } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { LIMITS } from '../../protocol/constants';
import { saveDisplayName } from '../saveDisplayName';
import { useActions } from '../tabContext';

/**
 * Asks a person who arrived by a link for the name others will see; saved in the preferences
 * (every tab, every room, next visit too), which renames them in the room at once. "Save name"
 * saves it, done once the session shows it (a storage that hangs does not hold it); so does
 * "Join call" beside it (`onTyped` tells the preview what is typed), since a person who typed
 * their name and joined expects to be seen under it.
 */
export function NamePrompt({ onSaved, onTyped }: { onSaved: () => void; onTyped: (name: string) => void }) {
  const actions = useActions();
  const store = useStore();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const errorId = useId();

  async function save(event: FormEvent) {
    event.preventDefault();
    const chosen = name.trim();
    if (!chosen) return setError('Enter the name others will see.');
    try {
      await saveDisplayName(store, actions.preferences, chosen);
      onSaved();
    } catch {
      setError('Your name could not be saved. Try again.');
    }
  }

  return (
    <form className="name-prompt" onSubmit={(event) => void save(event)} noValidate>
      <label className="field">
        <span>Your name</span>
        <input
          type="text"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            onTyped(event.target.value);
          }}
          maxLength={LIMITS.displayNameLength}
          autoComplete="nickname"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </label>
      {error && (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button">
        Save name
      </button>
    </form>
  );
}
