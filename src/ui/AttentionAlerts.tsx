import { useAtomValue } from 'jotai';
import { attentionPeersAtomFamily } from '../main-thread/sessionAtoms';
import { BellIcon } from './Icon';

/** SPEC §4 attention request: shown while a peer's request holds (5 s). */
export function AttentionAlerts({ roomAddress }: { roomAddress: string }) {
  const peers = useAtomValue(attentionPeersAtomFamily(roomAddress));
  return (
    <div className="attention-alerts" role="alert">
      {peers.map((peer) => (
        <p key={peer.address} className="banner banner-attention">
          <BellIcon /> {peer.displayName} is asking for your attention.
        </p>
      ))}
    </div>
  );
}
