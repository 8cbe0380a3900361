import { AppLink } from './AppLink';
import { roomPath } from './route';
import { useActions } from './tabContext';

/** The rooms you were in, the latest first: each opens again, or goes from the list ("Forget"). Kept on this device only. */
export function RecentRooms({ rooms }: { rooms: readonly string[] }) {
  const actions = useActions();
  if (rooms.length === 0) return null;
  return (
    <section className="card home-recent" aria-labelledby="recent-rooms-heading">
      <h2 id="recent-rooms-heading">Recent rooms</h2>
      <ul aria-labelledby="recent-rooms-heading">
        {rooms.map((name) => (
          <li key={name}>
            {/* A long name is cut short to fit the card: the whole of it shows on hover. */}
            <AppLink href={roomPath(name)} title={name}>
              {name}
            </AppLink>
            <button type="button" className="button small" aria-label={`Forget ${name}`} onClick={() => void actions.preferences.forgetRoom(name).catch(() => {})}>
              Forget
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
