import { useAtomValue } from 'jotai';
import { memo, useRef } from 'react';
import { roomPeersAtomFamily } from '../main-thread/sessionAtoms';
import type { Room } from '../protocol/entities';
import { BannedList } from './BannedList';
import { ParticipantEntry } from './ParticipantEntry';

/** Everyone in the room, yourself first (DESIGN "Run contract": list "Participants"); for the owner, who is banned. */
export const ParticipantsList = memo(function ParticipantsList({ id, room, roomAddress }: { id: string; room: Room; roomAddress: string }) {
  const peers = useAtomValue(roomPeersAtomFamily(roomAddress));
  const bannedHeading = useRef<HTMLHeadingElement>(null);
  const isOwner = room.joined && room.selfAffiliation === 'owner';
  const focusBanned = () => bannedHeading.current?.focus();
  return (
    // Focusable: on a phone the list scrolls, and a keyboard must be able to scroll it too (WCAG 2.1.1).
    <section id={id} className="card participants" aria-labelledby="participants-heading" tabIndex={0}>
      <h2 id="participants-heading" className="section-title">
        People <span className="count">{peers.length}</span>
      </h2>
      <ul role="list" aria-label="Participants" className="participant-list">
        {peers.map((peer) => (
          <ParticipantEntry key={peer.address} peer={peer} onKicked={isOwner ? focusBanned : undefined} canNudge={room.joined} />
        ))}
      </ul>
      {peers.length === 0 && <p className="muted">{room.joined ? 'Nobody is here.' : 'You will see who is here once you are in the room.'}</p>}
      {isOwner && <BannedList room={room} roomAddress={roomAddress} headingRef={bannedHeading} onLifted={focusBanned} />}
    </section>
  );
});
