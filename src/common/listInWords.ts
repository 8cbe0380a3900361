/** Items said as a list in a sentence: "a", "a and b", "a, b and c". */
export function listInWords(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');
}
