import { useAtomValue } from 'jotai';
import { useRef } from 'react';
import { attentionPeersAtomFamily } from '../main-thread/sessionAtoms';
import { attentionSpeakers, type AttentionSpeaker } from './attentionSpeakers';
import { BellIcon } from './Icon';

/**
 * SPEC §4 attention request: shown while a peer's request holds (5 s), and said once. A request that
 * came while the chat was open is said there, by its event line, in the order of the chat and where
 * it stays to be read again; its banner is shown but not said (hidden from the accessibility tree).
 */
export function AttentionAlerts({ roomAddress, chatShown }: { roomAddress: string; chatShown: boolean }) {
  const peers = useAtomValue(attentionPeersAtomFamily(roomAddress));
  // Derived from the last render's (the same inputs give the same map, so a render run twice agrees).
  const speakers = useRef<ReadonlyMap<string, AttentionSpeaker>>(new Map());
  speakers.current = attentionSpeakers(speakers.current, peers.map((peer) => peer.address), chatShown);
  return (
    <div className="attention-alerts" role="alert">
      {peers.map((peer) => (
        <p key={peer.address} className="banner banner-attention" aria-hidden={speakers.current.get(peer.address) === 'chat' || undefined}>
          <BellIcon /> {peer.displayName} is asking for your attention.
        </p>
      ))}
    </div>
  );
}
