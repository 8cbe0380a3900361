import { useEffect, useRef, useState, type RefObject } from 'react';
import { errorMessage } from '../common/errorMessage';
import { AppLink } from './AppLink';
import { focusLost } from './focusLost';
import { roomPath } from './route';
import { useActions } from './tabContext';

interface RecentRoomsProps {
  rooms: readonly string[];
  /** Takes the focus when the last room is forgotten and the list goes (the home page's "Room name"). */
  focusWhenEmptied: RefObject<HTMLElement | null>;
}

/**
 * The rooms you were in, the latest first: each opens again, or goes from the list ("Forget"). Kept
 * on this device only. A Forget goes with its room: the focus moves to the room after it (or before
 * it, or, the list gone, to `focusWhenEmptied`), not to the page.
 */
export function RecentRooms({ rooms, focusWhenEmptied }: RecentRoomsProps) {
  const actions = useActions();
  const items = useRef(new Map<string, HTMLLIElement>());
  // The room forgotten last, and whose link takes the focus once the list no longer has it.
  const forgetting = useRef<{ name: string; next: string | undefined } | undefined>(undefined);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);

  useEffect(() => {
    const forgotten = forgetting.current;
    if (!forgotten || rooms.includes(forgotten.name)) return;
    forgetting.current = undefined;
    if (!focusLost()) return;
    const next = forgotten.next !== undefined && rooms.includes(forgotten.next) ? forgotten.next : rooms[0];
    (next === undefined ? focusWhenEmptied.current : items.current.get(next)?.querySelector('a'))?.focus();
  }, [rooms, focusWhenEmptied]);

  function forget(name: string, index: number) {
    forgetting.current = { name, next: rooms[index + 1] ?? rooms[index - 1] };
    setRefusal(undefined);
    actions.preferences.forgetRoom(name).catch((error: unknown) => {
      forgetting.current = undefined;
      setRefusal(`${name} is still listed: it could not be forgotten (${errorMessage(error)}). Try again.`);
    });
  }

  if (rooms.length === 0) return null;
  return (
    <section className="card home-recent" aria-labelledby="recent-rooms-heading">
      <h2 id="recent-rooms-heading">Recent rooms</h2>
      <ul aria-labelledby="recent-rooms-heading">
        {rooms.map((name, index) => (
          <li
            key={name}
            ref={(item) => {
              if (item) items.current.set(name, item);
              else items.current.delete(name);
            }}
          >
            {/* A long name is cut short to fit the card: the whole of it shows on hover. */}
            <AppLink href={roomPath(name)} title={name}>
              {name}
            </AppLink>
            <button type="button" className="button small" aria-label={`Forget ${name}`} onClick={() => forget(name, index)}>
              Forget
            </button>
          </li>
        ))}
      </ul>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
    </section>
  );
}
