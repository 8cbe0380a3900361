import { LIMITS } from './constants';
import { isRecord } from './validate';

export interface ParsedCustomerData {
  value: Record<string, unknown>;
  /** Why the text was not used, for the log. */
  problem: string | undefined;
}

/**
 * Whether customerData's JSON text is above LIMITS.customerDataBytes in UTF-8, as it goes on the
 * wire (a string's length counts UTF-16 units: a third of the bytes for most non-Latin text).
 */
export function customerDataTooLarge(json: string): boolean {
  // A UTF-8 text never has fewer bytes than UTF-16 units: a longer one is too large uncounted.
  return json.length > LIMITS.customerDataBytes || new TextEncoder().encode(json).length > LIMITS.customerDataBytes;
}

/**
 * The `<user>` element's text (PROTOCOL.md): the peer's customerData as JSON. Untrusted: bounded in
 * size, and anything but a JSON object becomes {}.
 */
export function parseCustomerData(text: string | undefined): ParsedCustomerData {
  if (text === undefined || text.trim() === '') return { value: {}, problem: undefined };
  if (customerDataTooLarge(text)) {
    return { value: {}, problem: `customerData is larger than ${LIMITS.customerDataBytes} bytes` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { value: {}, problem: 'customerData is not valid JSON' };
  }
  if (!isRecord(parsed)) return { value: {}, problem: 'customerData is not a JSON object' };
  return { value: parsed, problem: undefined };
}

/**
 * The same text where it is optional (a message's `<user>`): the object when there is a usable one,
 * else undefined, so that the caller can fall back to what it knows (the sender Peer's).
 */
export function optionalCustomerData(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const parsed = parseCustomerData(text);
  return parsed.problem === undefined ? parsed.value : undefined;
}
