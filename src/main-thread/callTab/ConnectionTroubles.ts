import type { createStore, PrimitiveAtom } from 'jotai';
import type { Clock } from '../../common/clock';
import { CALL_UNREACHABLE_AFTER_MS } from '../../protocol/constants';
import { connectionsAtom } from '../call/callAtoms';
import type { Connection } from '../call/Connection';
import { bringsTheirMedia, connectedWith } from './connectionHint';

type JotaiStore = ReturnType<typeof createStore>;

/**
 * Your connection with one person after a failure: `failing` from the first failure until you are
 * connected with them again (ConnectionTroubles says when); `unreachable` once that has lasted
 * CALL_UNREACHABLE_AFTER_MS.
 */
export type ConnectionTrouble = 'failing' | 'unreachable';

export interface ConnectionTroublesOptions {
  readonly roomAddress: string;
  readonly store: JotaiStore;
  readonly clock: Clock;
  /** Where each person's trouble is written (by address), for their tile (callTabAtoms `peerConnection`). */
  readonly troubles: PrimitiveAtom<Readonly<Record<string, ConnectionTrouble>>>;
}

/**
 * Which people your connection keeps failing with (SPEC §4 session termination, Peer.sessionFailed),
 * so that their tile can say so: "Reconnecting…" while the call starts their sessions anew, and
 * in plain words that it cannot connect once it has failed for CALL_UNREACHABLE_AFTER_MS. A failure
 * is a session that ended with an error (the Call's `sessionFailed`) or one whose ICE failed (its
 * initiator restarts ICE: its Connection record says `failed`). Being connected with them
 * (connectedWith, as their tile reads it) ends the trouble; once a session bringing their media
 * failed, only one bringing it again does: until theirs is made anew, yours to them may be connected
 * while you hear and see nothing of them. The Call keeps trying meanwhile.
 */
export class ConnectionTroubles {
  /** People in trouble, with the timer that makes them unreachable (fired or not). */
  private readonly timers = new Map<string, unknown>();
  /** People in trouble whose failed session brought their media: only such a session ends it. */
  private readonly awaitingTheirMedia = new Set<string>();

  constructor(private readonly options: ConnectionTroublesOptions) {}

  /**
   * A session with this person failed (`bringingTheirMedia`: one they started): in trouble from now,
   * unless already, or still connected with them another way (a path change, yours to them while
   * theirs runs).
   */
  failed(peerAddress: string, bringingTheirMedia: boolean): void {
    const inTrouble = this.timers.has(peerAddress);
    if (!inTrouble && connectedWith(this.recordsWith(peerAddress), bringingTheirMedia)) return;
    if (bringingTheirMedia) this.awaitingTheirMedia.add(peerAddress);
    if (inTrouble) return;
    this.write(peerAddress, 'failing');
    this.timers.set(
      peerAddress,
      this.options.clock.setTimeout(() => this.write(peerAddress, 'unreachable'), CALL_UNREACHABLE_AFTER_MS),
    );
  }

  /**
   * The Connection records changed: a person is out of trouble once connected as their tile reads
   * it (connectedWith: yours to them, connected, does not count while theirs bring their media, or
   * after theirs failed), and in it when a session's ICE failed otherwise. `present`: the people the
   * call follows; the others' trouble goes.
   */
  follow(present: ReadonlySet<string>): void {
    const connected = (address: string) => connectedWith(this.recordsWith(address), this.awaitingTheirMedia.has(address));
    for (const address of [...this.timers.keys()]) if (connected(address) || !present.has(address)) this.forget(address);
    for (const record of this.recordsWith()) if (record.connectionState === 'failed' && !connected(record.peerAddress)) this.failed(record.peerAddress, bringsTheirMedia(record));
  }

  /** Nobody is in trouble any more (the call ended here). */
  clear(): void {
    for (const address of [...this.timers.keys()]) this.forget(address);
  }

  /** The room's Connection records, with one person or everyone. */
  private recordsWith(peerAddress?: string): Connection[] {
    const { store, roomAddress } = this.options;
    return Object.values(store.get(connectionsAtom)).filter(
      (record) => record.roomAddress === roomAddress && (peerAddress === undefined || record.peerAddress === peerAddress),
    );
  }

  private forget(peerAddress: string): void {
    this.options.clock.clearTimeout(this.timers.get(peerAddress));
    this.timers.delete(peerAddress);
    this.awaitingTheirMedia.delete(peerAddress);
    this.options.store.set(this.options.troubles, (troubles) => {
      const rest = { ...troubles };
      delete rest[peerAddress];
      return rest;
    });
  }

  private write(peerAddress: string, trouble: ConnectionTrouble): void {
    this.options.store.set(this.options.troubles, (troubles) => ({ ...troubles, [peerAddress]: trouble }));
  }
}
