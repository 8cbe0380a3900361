import { useAtomValue } from 'jotai';
import { roomPeersAtomFamily } from '../main-thread/sessionAtoms';
import type { Room } from '../protocol/entities';
import { ParticipantEntry } from './ParticipantEntry';

/** Everyone in the room, yourself first (DESIGN "Run contract": list "Participants"). */
export function ParticipantsList({ id, room, roomAddress }: { id: string; room: Room; roomAddress: string }) {
  const peers = useAtomValue(roomPeersAtomFamily(roomAddress));
  const isOwner = room.joined && room.selfAffiliation === 'owner';
  return (
    <section id={id} className="card participants" aria-labelledby="participants-heading">
      <h2 id="participants-heading" className="section-title">
        People <span className="count">{peers.length}</span>
      </h2>
      <ul role="list" aria-label="Participants" className="participant-list">
        {peers.map((peer) => (
          <ParticipantEntry key={peer.address} peer={peer} canKick={isOwner} canNudge={room.joined} />
        ))}
      </ul>
      {peers.length === 0 && <p className="muted">{room.joined ? 'Nobody is here.' : 'You will see who is here once you are in the room.'}</p>}
    </section>
  );
}
