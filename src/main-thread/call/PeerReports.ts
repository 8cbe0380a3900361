import type { Peer } from '../../protocol/entities';
import type { Logger } from '../../common/logger';
import type { MediaItems } from '../media';
import { peerMediaChange, peerMediaFacts, type PeerMediaChange, type PeerMediaFacts } from './peerMedia';
import { errorMessage } from '../../common/errorMessage';

function factsOf(peer: Peer): PeerMediaFacts {
  const { muted, hasActiveCamera, hasActiveMicrophone, hasActiveScreenCapture, sessionFailed } = peer;
  return { muted, hasActiveCamera, hasActiveMicrophone, hasActiveScreenCapture, sessionFailed };
}

/**
 * What the call knows of each remote peer's media (muted, active media, sessionFailed) and other
 * tabs show, told to the shared session once per change. It runs with the Call's recompute, which
 * already gathers a burst of changes into one pass.
 */
export class PeerReports {
  /** What was last reported per peer, so each change is sent once. */
  private readonly reported = new Map<string, PeerMediaFacts>();

  constructor(
    private readonly media: MediaItems,
    private readonly report: (peerAddress: string, change: PeerMediaChange) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  follow(peers: readonly Peer[], hasFailed: (peerAddress: string) => boolean): void {
    const present = new Set(peers.map((peer) => peer.address));
    for (const address of this.reported.keys()) if (!present.has(address)) this.reported.delete(address);
    for (const peer of peers) {
      const previous = this.reported.get(peer.address) ?? factsOf(peer);
      // Muted stays muted from one session to the next while the person is still in the call.
      const facts = peerMediaFacts(this.media.peerActivity(peer.address), this.media.forPeer(peer.address), hasFailed(peer.address), peer.joinedCall && previous.muted);
      const change = peerMediaChange(previous, facts);
      if (!change) continue;
      this.reported.set(peer.address, facts);
      this.report(peer.address, change).catch((error: unknown) => {
        this.logger.error(`peer media of ${peer.address} not reported: ${errorMessage(error)}`);
      });
    }
  }
}
