import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { roomPeersAtomFamily } from '../main-thread/sessionAtoms';

/**
 * Tells screen readers, politely, who joined or left the room. The people present when the page
 * opens are not announced (that would be noise); new messages are announced by the chat log itself.
 */
export function RoomAnnouncer({ roomAddress }: { roomAddress: string }) {
  const peers = useAtomValue(roomPeersAtomFamily(roomAddress));
  const known = useRef<Map<string, string> | undefined>(undefined);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const current = new Map(peers.filter((peer) => !peer.isSelf).map((peer) => [peer.address, peer.displayName]));
    const previous = known.current;
    known.current = current;
    if (!previous) return;
    const joined = [...current].filter(([address]) => !previous.has(address)).map(([, name]) => `${name} joined.`);
    const left = [...previous].filter(([address]) => !current.has(address)).map(([, name]) => `${name} left.`);
    if (joined.length + left.length > 0) setAnnouncement([...joined, ...left].join(' '));
  }, [peers]);

  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Room events">
      {announcement}
    </div>
  );
}
