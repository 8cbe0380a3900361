import { useEffect, useId, useState, type Ref } from 'react';
import type { Room } from '../protocol/entities';
import { useActions } from './tabContext';

interface BannedListProps {
  room: Room;
  roomAddress: string;
  /** The section's heading, where focus goes after a kick or a lifted ban. */
  headingRef: Ref<HTMLHeadingElement>;
  onLifted: () => void;
}

/** SPEC §6 for the room's owner: who is banned (kicked), and lifting a ban. The list lives in the session's state. */
export function BannedList({ room, roomAddress, headingRef, onLifted }: BannedListProps) {
  const actions = useActions();
  const headingId = useId();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const bans = room.bans;

  useEffect(() => {
    actions.rooms.listBans(roomAddress).then(
      () => setProblem(undefined),
      () => setProblem('The room did not show its ban list.'),
    );
  }, [actions, roomAddress]);

  function lift(userAddress: string) {
    actions.rooms.liftBan(roomAddress, userAddress).then(
      () => {
        setProblem(undefined);
        onLifted();
      },
      () => setProblem('The room did not lift that ban.'),
    );
  }

  return (
    <section className="banned" aria-labelledby={headingId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="section-title">
        Banned {bans && <span className="count">{bans.length}</span>}
      </h3>
      {bans && bans.length > 0 && (
        <ul role="list" aria-label="Banned" className="participant-list">
          {bans.map((ban) => (
            <li key={ban.userAddress} className="participant">
              <span className="participant-text">
                <span className="participant-name">{ban.displayName}</span>
              </span>
              <span className="participant-actions">
                <button type="button" className="button small" aria-label={`Lift the ban on ${ban.displayName}`} onClick={() => lift(ban.userAddress)}>
                  Lift ban
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {bans?.length === 0 && <p className="muted">Nobody is banned. People you kick are listed here until you lift their ban.</p>}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
