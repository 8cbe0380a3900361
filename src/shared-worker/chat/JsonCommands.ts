import type { Stanzas } from 'stanza';
import { LIMITS } from '../../protocol/constants';
import { ValidationError } from '../../protocol/errors';
import { MALFORMED_JSON } from '../../protocol/stanzas/tolerantJson';
import { errorMessage } from '../../common/errorMessage';

/**
 * JSON commands (PROTOCOL.md): `<payload datatype=TYPE><json xmlns='urn:xmpp:json:0'>{…}</json></payload>`
 * in `urn:xmpp:json-msg:0` — StanzaJS's `jsonPayloads: [{ type, data }]`. A message with a payload
 * is a command, never chat. Types are bounded to LIMITS.jsonCommandTypeLength characters and data
 * to LIMITS.jsonCommandBytes of JSON (UTF-8).
 */

export interface JsonCommand {
  type: string;
  data: unknown;
}

const encoder = new TextEncoder();

function expectType(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw new ValidationError('command type must be a non-empty string');
  if (value.length > LIMITS.jsonCommandTypeLength) throw new ValidationError(`command type is longer than ${LIMITS.jsonCommandTypeLength} characters`);
  return value;
}

/** The JSON text of command data, or the reason it cannot be sent or accepted. */
function jsonOf(data: unknown): { json: string } | { problem: string } {
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch (error) {
    return { problem: `command data is not serialisable as JSON: ${errorMessage(error)}` };
  }
  if (json === undefined) return { problem: 'command data is not serialisable as JSON' };
  if (json.length > LIMITS.jsonCommandBytes || encoder.encode(json).length > LIMITS.jsonCommandBytes) {
    return { problem: `command data is larger than ${LIMITS.jsonCommandBytes} bytes` };
  }
  return { json };
}

/** A command a tab asked to send: validated, with its data as JSON-safe values. */
export function outgoingCommand(type: unknown, data: unknown): JsonCommand {
  const checkedType = expectType(type);
  const encoded = jsonOf(data);
  if ('problem' in encoded) throw new ValidationError(encoded.problem);
  return { type: checkedType, data: JSON.parse(encoded.json) as unknown };
}

/** The commands a message carries, validated; a message with any malformed payload is refused as a whole. */
export function incomingCommands(payloads: readonly Stanzas.JSONTransfer[]): { commands: JsonCommand[] } | { problem: string } {
  if (payloads.length > LIMITS.jsonPayloadsPerMessage) return { problem: `more than ${LIMITS.jsonPayloadsPerMessage} payloads` };
  const commands: JsonCommand[] = [];
  for (const payload of payloads) {
    let type: string;
    try {
      type = expectType(payload.type);
    } catch (error) {
      return { problem: (error as Error).message };
    }
    if (payload.data === MALFORMED_JSON) return { problem: `payload ${type} holds malformed JSON` };
    // No data: the payload had no `<json>`, or it held null (StanzaJS drops null fields).
    const data: unknown = payload.data ?? null;
    const encoded = jsonOf(data);
    if ('problem' in encoded) return { problem: encoded.problem };
    commands.push({ type, data });
  }
  return { commands };
}
