import type { RoomEvent } from '../protocol/entities';

/** Whom the chat's composer writes to alone (a private reply, XEP-0045 §7.5). */
export interface PrivateRecipient {
  /** Their occupant address, and their name there. */
  readonly address: string;
  readonly name: string;
  /** When they wrote what is answered: only nickname changes after it can be theirs. */
  readonly since: number;
}

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
