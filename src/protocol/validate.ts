import { ValidationError } from './errors';

/** Small, dependency-free readers for untrusted JSON: each returns the typed value or throws ValidationError. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectRecord(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new ValidationError(`${what} must be an object`);
  return value;
}

export function expectString(value: unknown, what: string, maxLength: number): string {
  if (typeof value !== 'string') throw new ValidationError(`${what} must be a string`);
  if (value.length > maxLength) throw new ValidationError(`${what} is longer than ${maxLength} characters`);
  return value;
}

export function optionalString(value: unknown, what: string, maxLength: number): string | undefined {
  return value === undefined || value === null ? undefined : expectString(value, what, maxLength);
}

export function optionalNumber(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ValidationError(`${what} must be a number`);
  return value;
}

export function optionalRecord(value: unknown, what: string): Record<string, unknown> | undefined {
  return value === undefined || value === null ? undefined : expectRecord(value, what);
}

/** Parses JSON text of bounded size into a value, with a clear error. */
export function parseJson(text: string, what: string, maxBytes: number): unknown {
  if (text.length > maxBytes) throw new ValidationError(`${what} is larger than ${maxBytes} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ValidationError(`${what} is not valid JSON`);
  }
}
