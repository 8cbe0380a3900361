/** Whether two lists hold the same items in the same order (each compared with `same`, by default ===). */
export function sameItems<Item>(a: readonly Item[], b: readonly Item[], same: (one: Item, other: Item) => boolean = (one, other) => one === other): boolean {
  return a.length === b.length && a.every((item, index) => same(item, b[index]!));
}
