import { parseOccupantAddress, parseRoomAddress } from '../../protocol/addresses';
import { LIMITS } from '../../protocol/constants';
import type { ChatState } from '../../protocol/entities';
import { ValidationError } from '../../protocol/errors';
import { reactionSet, stanzaIdFrom } from './bounded';

/** Validation of what tabs pass to the chat commands (they arrive over Comlink: untrusted shapes). */

const CHAT_STATES: ReadonlySet<string> = new Set<ChatState>(['active', 'composing', 'paused']);

export function expectOccupantAddress(value: unknown): { room: string; full: string } {
  const occupant = parseOccupantAddress(value);
  if (!occupant) throw new ValidationError('peerAddress must be an occupant address (room@service/nick)');
  return occupant;
}

/** A room or an occupant of one. */
export function expectRoomOrOccupant(value: unknown): { room: string; occupant: string | undefined } {
  const room = parseRoomAddress(value);
  if (room) return { room, occupant: undefined };
  const occupant = parseOccupantAddress(value);
  if (occupant) return { room: occupant.room, occupant: occupant.full };
  throw new ValidationError('to must be a room address (room@service) or an occupant address (room@service/nick)');
}

/** SPEC §5: empty messages are not sent; bodies are bounded. */
export function expectBody(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError('message body must be a string');
  if (value.trim() === '') throw new ValidationError('Empty messages are not sent.');
  if (value.length > LIMITS.chatBodyLength) throw new ValidationError(`message body is longer than ${LIMITS.chatBodyLength} characters`);
  return value;
}

export function expectDraft(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError('draft must be a string');
  if (value.length > LIMITS.chatBodyLength) throw new ValidationError(`draft is longer than ${LIMITS.chatBodyLength} characters`);
  return value;
}

export function optionalStanzaId(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const id = stanzaIdFrom(value, LIMITS.stanzaIdLength);
  if (id === undefined) throw new ValidationError(`${what} must be a non-empty string of at most ${LIMITS.stanzaIdLength} characters`);
  return id;
}

export function expectChatState(value: unknown): ChatState {
  if (typeof value !== 'string' || !CHAT_STATES.has(value)) throw new ValidationError('chat state must be active, composing or paused');
  return value as ChatState;
}

/** A person's whole set of reactions to a message (XEP-0444), as `reactionSet` takes it. */
export function expectReactions(value: unknown): string[] {
  const set = reactionSet(value);
  if ('problem' in set) throw new ValidationError(set.problem);
  return set.reactions;
}
