import type { RoomEvent } from '../protocol/entities';

/** Whom the chat's composer writes to alone (a private message, XEP-0045 §7.5). */
export interface PrivateRecipient {
  /** Their occupant address, and their name there. */
  readonly address: string;
  readonly name: string;
  /** When they wrote what is answered, or when you chose them: only nickname changes after it can be theirs. */
  readonly since: number;
  /** An answer to their private message; false: you chose to write to them alone. */
  readonly reply: boolean;
}

/** Someone in the room a private message reaches (Peer.readsPrivateMessages): their occupant address and name. */
export type PrivateReader = Pick<PrivateRecipient, 'address' | 'name'>;

/** The recipient where they are now (`followRecipient`). */
export interface RecipientNow extends PrivateRecipient {
  /**
   * They have left since ('left', 'kicked' or 'banned' at their address; a return within the
   * departure hold reads 'reconnected' instead): whoever has that nickname now is not known to be them.
   */
  readonly left: boolean;
}

const DEPARTURES: ReadonlySet<RoomEvent['kind']> = new Set(['left', 'kicked', 'banned']);

/**
 * The recipient where they are now: a plain XMPP client that changed its nickname since (its
 * 'renamed' lines, in the order they came) is at another occupant address, under another name; one
 * that left since is followed no further.
 */
export function followRecipient(recipient: PrivateRecipient, events: readonly RoomEvent[]): RecipientNow {
  let current = recipient;
  for (const event of events) {
    if (event.time < recipient.since || event.peerAddress === undefined) continue;
    if (DEPARTURES.has(event.kind) && event.peerAddress === current.address) return { ...current, left: true };
    if (event.kind === 'renamed' && event.formerAddress === current.address) current = { ...current, address: event.peerAddress, name: event.displayName ?? current.name };
  }
  return { ...current, left: false };
}
