import type { createStore } from 'jotai';
import type { Clock } from '../../common/clock';
import { TypedEmitter } from '../../common/TypedEmitter';
import { connectionsAtom } from './callAtoms';
import type { SessionFailedError } from './errors';
import { recomputeDelayOf } from './termination';

type JotaiStore = ReturnType<typeof createStore>;

export interface SessionFailuresOptions {
  readonly roomAddress: string;
  /** The tab's store: the call's SPEC §3 Connection records (connectionsAtom) say who a session is connected with. */
  readonly store: JotaiStore;
  readonly clock: Clock;
}

/**
 * Peer.sessionFailed for one call, whichever path its sessions take (SPEC §4 session termination):
 * a session with a person that ends with an error condition — a mesh session either way, or a relay
 * consumer's — flags them. The flag lasts through the recompute that failure calls for (500 ms
 * after failed-transport, 2 s after any other error), and goes then, or later, once a session with
 * them is connected on either path (their Connection records): someone served over the mesh after
 * their relay session failed is no longer flagged, nor someone the relay serves after a mesh
 * session failed. A further failure flags them anew.
 */
export class SessionFailures extends TypedEmitter<{ changed: [] }> {
  /** Flagged people, with whether the recompute their last failure called for has come. */
  private readonly flagged = new Map<string, { timer: unknown; recomputed: boolean }>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SessionFailuresOptions) {
    super();
    this.unsubscribe = options.store.sub(connectionsAtom, () => {
      for (const [address, flag] of [...this.flagged]) if (flag.recomputed) this.clearIfConnected(address);
    });
  }

  /** Flagged now. */
  has(peerAddress: string): boolean {
    return this.flagged.has(peerAddress);
  }

  /** A session with this person ended with an error condition: flagged, through its recompute delay at least. */
  failed(error: SessionFailedError): void {
    const { clock } = this.options;
    clock.clearTimeout(this.flagged.get(error.peerAddress)?.timer);
    const flag = {
      recomputed: false,
      timer: clock.setTimeout(() => {
        flag.recomputed = true;
        this.clearIfConnected(error.peerAddress);
      }, recomputeDelayOf(error.condition)),
    };
    this.flagged.set(error.peerAddress, flag);
    this.emit('changed');
  }

  close(): void {
    this.unsubscribe();
    for (const { timer } of this.flagged.values()) this.options.clock.clearTimeout(timer);
    this.flagged.clear();
  }

  private clearIfConnected(peerAddress: string): void {
    const { store, roomAddress } = this.options;
    const records = Object.values(store.get(connectionsAtom));
    if (!records.some((record) => record.roomAddress === roomAddress && record.peerAddress === peerAddress && record.connectionState === 'connected')) return;
    this.flagged.delete(peerAddress);
    this.emit('changed');
  }
}
