import type { PeerMediaFacts } from '../../protocol/commands';
import type { Peer } from '../../protocol/entities';
import { DEPARTURE_HOLD, REJOIN_GRACE_MS } from '../../protocol/clientDefaults';
import type { Clock } from '../../common/clock';

interface Kept {
  readonly peer: Peer;
  /** After this the person is not coming back with what we knew: set once our rejoin of the room completed, or as they left; the entry then goes. */
  until: number | undefined;
}

/**
 * The others of a room as they stood when a connection was lost: ours, or theirs. SPEC §4 clears every peer then,
 * though they never left; the record made from a person's presence when they are back starts from
 * what we knew: when they arrived, joined the call and last spoke (so the tiles, the Participants
 * list and the speaker view keep their order), how loud you chose to hear them (SPEC §3 volumeLimit,
 * which only this session knows) and, for the people of the call, what they showed of
 * their media (muted above all: their media keeps flowing meanwhile, the call tab's RejoinHold) —
 * so a muted person is never shown live while the call tab catches up. The same holds for someone of
 * the call whose room says they left, plainly: likely their connection was replaced, and they are
 * back at the same address in a moment (the call tab's DepartureHold keeps their media meanwhile).
 */
export class PeersBeforeOutage {
  private readonly kept = new Map<string, Kept>();
  /** Per person whose grace runs, the timer that lets them go when it has run out: someone who does not come back is not kept until our next reconnect. */
  private readonly expiries = new Map<string, unknown>();

  constructor(private readonly timers: Pick<Clock, 'setTimeout' | 'clearTimeout'>) {}

  /** The connection was lost: the others are remembered (added to any not back from an earlier loss) until our rejoin starts their grace. */
  keep(peers: Iterable<Peer>): void {
    for (const peer of peers) if (!peer.isSelf) this.remember({ peer, until: undefined });
  }

  /** Someone of the call left the room, plainly: what we knew of them waits DEPARTURE_HOLD.graceMs for their return. */
  departed(peer: Peer, now: number): void {
    this.startGrace(this.remember({ peer, until: undefined }), now, DEPARTURE_HOLD.graceMs);
  }

  /** Our rejoin of the room completed at `now`: its people not back yet have REJOIN_GRACE_MS to be (those of an earlier loss keep the grace they have). */
  rejoined(roomAddress: string, now: number): void {
    for (const kept of this.kept.values()) if (kept.peer.roomAddress === roomAddress && kept.until === undefined) this.startGrace(kept, now, REJOIN_GRACE_MS);
  }

  /** A new record from a presence: the same person, back within the grace, takes back what we knew of them (once). */
  restore(peer: Peer, now: number): Peer {
    const kept = this.kept.get(peer.address);
    if (!kept) return peer;
    this.forget(peer.address);
    if (kept.peer.id !== peer.id || (kept.until !== undefined && now > kept.until)) return peer;
    const { joinedRoomAt, lastSpokeAt, volumeLimit } = kept.peer;
    if (!peer.joinedCall || !kept.peer.joinedCall) return { ...peer, joinedRoomAt, lastSpokeAt, volumeLimit };
    const { joinedCallAt, muted, hasActiveCamera, hasActiveMicrophone, hasActiveScreenCapture, sessionFailed } = kept.peer;
    const facts: PeerMediaFacts = { muted, hasActiveCamera, hasActiveMicrophone, hasActiveScreenCapture, sessionFailed };
    return { ...peer, joinedRoomAt, lastSpokeAt, volumeLimit, joinedCallAt, ...facts };
  }

  /** How loud you chose to hear someone remembered here, while the room does not list them: the record they come back with carries it. */
  setVolumeLimit(address: string, volumeLimit: number): void {
    const kept = this.kept.get(address);
    if (kept) this.kept.set(address, { ...kept, peer: { ...kept.peer, volumeLimit } });
  }

  /** What we last knew of someone remembered here (gone with our connection, or left while in the call), until they are back or forgotten. */
  lastRecordOf(address: string): Peer | undefined {
    return this.kept.get(address)?.peer;
  }

  /** The room was left or closed: nobody of it is coming back. */
  forgetRoom(roomAddress: string): void {
    for (const [address, kept] of this.kept) if (kept.peer.roomAddress === roomAddress) this.forget(address);
  }

  private remember(kept: Kept): Kept {
    this.forget(kept.peer.address);
    this.kept.set(kept.peer.address, kept);
    return kept;
  }

  private startGrace(kept: Kept, now: number, graceMs: number): void {
    const { address } = kept.peer;
    kept.until = now + graceMs;
    this.expiries.set(address, this.timers.setTimeout(() => this.forget(address), graceMs));
  }

  private forget(address: string): void {
    const expiry = this.expiries.get(address);
    if (expiry !== undefined) this.timers.clearTimeout(expiry);
    this.expiries.delete(address);
    this.kept.delete(address);
  }
}
