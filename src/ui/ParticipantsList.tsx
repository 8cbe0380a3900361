import { useAtomValue } from 'jotai';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { participantsAtomFamily, peopleThroughOutage, roomPeersAtomFamily } from '../main-thread/sessionAtoms';
import type { Peer, Room } from '../protocol/entities';
import { BannedList } from './BannedList';
import { ParticipantEntry } from './ParticipantEntry';

/** Everyone in the room, yourself first (DESIGN "Run contract": list "Participants"); for the owner, who is banned. */
export const ParticipantsList = memo(function ParticipantsList({ id, room, roomAddress }: { id: string; room: Room; roomAddress: string }) {
  const peers = useAtomValue(participantsAtomFamily(roomAddress));
  const inRoom = useAtomValue(roomPeersAtomFamily(roomAddress));
  const bannedHeading = useRef<HTMLHeadingElement>(null);
  /** Whom the owner has just kicked: once their entry has gone, focus goes to the Banned list. */
  const kicked = useRef<string | undefined>(undefined);
  /** The name of the person whose kick the room refused: they stay, and the owner is told. */
  const [kickRefused, setKickRefused] = useState<string | undefined>(undefined);
  const isOwner = room.joined && room.selfAffiliation === 'owner';
  const focusBanned = () => bannedHeading.current?.focus();
  const kickConfirmed = (peer: Peer, kicking: Promise<unknown>) => {
    kicked.current = peer.address;
    setKickRefused(undefined);
    // A refused kick leaves the person here: their leaving later is no reason to move focus.
    kicking.catch(() => {
      if (kicked.current === peer.address) kicked.current = undefined;
      setKickRefused(peer.displayName);
    });
  };
  // After the commit that removed the entry (and the kick's dialog, were it still open), before paint.
  useLayoutEffect(() => {
    if (kicked.current === undefined || peers.some((peer) => peer.address === kicked.current)) return;
    kicked.current = undefined;
    focusBanned();
  });
  return (
    // Focusable: on a phone the list scrolls, and a keyboard must be able to scroll it too (WCAG 2.1.1).
    <section id={id} className="card participants" aria-labelledby="participants-heading" tabIndex={0}>
      <h2 id="participants-heading" className="section-title">
        People <span className="count">{peers.length}</span>
      </h2>
      <ul role="list" aria-label="Participants" className="participant-list">
        {peers.map((peer) => (
          <ParticipantEntry key={peer.address} peer={peer} reconnecting={room.joined && !inRoom.includes(peer)} onKicked={isOwner ? kickConfirmed : undefined} canNudge={room.joined} />
        ))}
      </ul>
      {peopleThroughOutage(room) !== undefined && <p className="muted">Reconnecting: this is who was here when the connection dropped.</p>}
      {peers.length === 0 && <p className="muted">{room.joined ? 'Nobody is here.' : 'You will see who is here once you are in the room.'}</p>}
      {kickRefused && (
        <p className="form-error" role="alert">
          Could not remove {kickRefused}.
        </p>
      )}
      {isOwner && <BannedList room={room} roomAddress={roomAddress} headingRef={bannedHeading} onLifted={focusBanned} />}
    </section>
  );
});
