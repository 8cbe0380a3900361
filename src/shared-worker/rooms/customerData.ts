import { LIMITS } from '../../protocol/constants';
import { isRecord } from '../../protocol/validate';

export interface ParsedCustomerData {
  value: Record<string, unknown>;
  /** Why the text was not used, for the log. */
  problem: string | undefined;
}

/**
 * The `<user>` element's text (PROTOCOL.md): the peer's customerData as JSON. Untrusted: bounded in
 * size, and anything but a JSON object becomes {}.
 */
export function parseCustomerData(text: string | undefined): ParsedCustomerData {
  if (text === undefined || text.trim() === '') return { value: {}, problem: undefined };
  if (text.length > LIMITS.customerDataBytes) {
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
