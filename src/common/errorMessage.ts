/** What went wrong, in one line for a log or a person: an Error's message, or whatever was thrown as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
