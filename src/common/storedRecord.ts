/**
 * What a page stored (localStorage, sessionStorage) read back as a record of fields to check one by
 * one: undefined for nothing stored, text that is not JSON, or JSON that is no object. Storage is not
 * trusted: another version of the app, an extension or a person may have written it.
 */
export function storedRecord(stored: string | null): Readonly<Record<string, unknown>> | undefined {
  if (stored === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
