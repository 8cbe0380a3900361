/** Whether two lists hold the same items in the same order (each compared with ===). */
export function sameItems<Item>(a: readonly Item[], b: readonly Item[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
