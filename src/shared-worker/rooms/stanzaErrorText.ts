import { LIMITS } from '../../protocol/constants';
import { isRecord } from '../../protocol/validate';

/** Log text for what StanzaJS rejects with: an error stanza (its condition and text), an Error, or anything else. */
export function stanzaErrorText(error: unknown): string {
  if (isRecord(error) && isRecord(error.error)) {
    const condition = typeof error.error.condition === 'string' ? error.error.condition : 'unknown error';
    const text = typeof error.error.text === 'string' ? ` (${error.error.text})` : '';
    return `${condition}${text}`.slice(0, LIMITS.reasonLength);
  }
  if (error instanceof Error) return error.message.slice(0, LIMITS.reasonLength);
  return String(error).slice(0, LIMITS.reasonLength);
}
