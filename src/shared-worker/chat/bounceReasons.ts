import type { Stanzas } from 'stanza';
import { LIMITS } from '../../protocol/constants';

/**
 * Why a room sent back a message of ours to everyone (a message of type error with its id,
 * XEP-0045 §7.4 and §8.4; RFC 6120 §8.3.3), in words that say what to do, shown as
 * "Not sent (…)" beside Retry.
 */
export function roomRefusal(error: Stanzas.StanzaError | undefined): string {
  // A moderated room (a visitor), or voice taken away by a moderator.
  if (error?.condition === 'forbidden') return 'you have no voice in this room: ask a moderator to give you voice, then retry';
  // The room does not count us among its occupants (it lost us, as after its own restart).
  if (error?.condition === 'not-acceptable') return 'the room does not count you in it: leave the room and join it again, then retry';
  // A rate limit: Prosody's mod_muc_limits (policy-violation) and ejabberd (resource-constraint) say wait.
  if (error?.type === 'wait') return 'you are sending messages faster than the room takes them: wait a moment, then retry';
  const text = serverText(error?.text);
  return text ? `the room refused it: ${text}` : 'the room refused it';
}

/** Why the room sent back a private message of ours: its recipient has gone, or the room passes none on. */
export function privateRefusal(error: Stanzas.StanzaError | undefined, recipientName: string | undefined): string {
  const gone = ['item-not-found', 'recipient-unavailable', 'gone'].includes(error?.condition ?? '');
  return gone ? `${recipientName ?? 'they'} left the room` : 'the room does not pass private messages on';
}

/** The server's own explanation (Parley's payload guard writes one, in words), on one line and bounded. */
function serverText(text: string | undefined): string | undefined {
  const line = text?.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line ? Array.from(line).slice(0, LIMITS.reasonLength).join('') : undefined;
}
