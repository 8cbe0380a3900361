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

/**
 * The recipient where they are now: a plain XMPP client that changed its nickname since (its
 * 'renamed' lines, in the order they came) is at another occupant address, under another name.
 */
export function followRenames(recipient: PrivateRecipient, events: readonly RoomEvent[]): PrivateRecipient {
  let current = recipient;
  for (const event of events) {
    if (event.kind !== 'renamed' || event.time < recipient.since || event.formerAddress !== current.address || event.peerAddress === undefined) continue;
    current = { ...current, address: event.peerAddress, name: event.displayName ?? current.name };
  }
  return current;
}
