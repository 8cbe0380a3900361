/**
 * Checks that do not depend on each other, side by side: each look at a video or listen to a track
 * waits out a second or more of the page's own time, so in turn they add up (twelve of them, 19 s, for
 * three people). Fails with the first failure once every check has settled, so that none is left
 * polling a page after the case.
 */
export async function expectAll(checks: ReadonlyArray<Promise<void>>): Promise<void> {
  const failed = (await Promise.allSettled(checks)).find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** `checks(person, other)` for every person and each of the others, all side by side (expectAll). */
export function expectOfEveryPair<P>(people: readonly P[], checks: (person: P, other: P) => ReadonlyArray<Promise<void>>): Promise<void> {
  return expectAll(people.flatMap((person) => people.filter((other) => other !== person).flatMap((other) => checks(person, other))));
}
