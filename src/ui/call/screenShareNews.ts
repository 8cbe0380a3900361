import { isOthersScreen, type CallTile } from '../../main-thread/callTab/callTiles';

/** One person sharing a screen with you: the name their tile shows, and whether its sound comes with it. */
export interface ScreenSharer {
  readonly name: string;
  readonly withSound: boolean;
}

/** Who shares a screen with you, by occupant address. */
export type ScreenSharers = ReadonlyMap<string, ScreenSharer>;

/** The others sharing a screen in these tiles (your own share is yours to know). */
export function screenSharers(tiles: readonly CallTile[]): ScreenSharers {
  const sharers = new Map<string, ScreenSharer>();
  for (const tile of tiles.filter(isOthersScreen)) sharers.set(tile.peerAddress, { name: tile.displayName, withSound: tile.withSound });
  return sharers;
}

/**
 * What a screen reader is told of the shared screens, which take the stage without a word: who
 * started (with its sound or not) and who stopped sharing since `before`, and whose screen's sound
 * came or went while they share; on entering the call (`before` undefined), who is sharing already.
 * Undefined when there is nothing new.
 */
export function screenShareNews(before: ScreenSharers | undefined, now: ScreenSharers): string | undefined {
  const lines: string[] = [];
  for (const [address, { name, withSound }] of now) {
    const screen = withSound ? 'a screen with sound' : 'a screen';
    const earlier = before?.get(address);
    if (before === undefined) lines.push(`${name} is sharing ${screen}.`);
    else if (!earlier) lines.push(`${name} started sharing ${screen}.`);
    else if (earlier.withSound !== withSound) lines.push(withSound ? `${name}'s screen now comes with sound.` : `${name}'s screen no longer comes with sound.`);
  }
  for (const [address, { name }] of before ?? []) if (!now.has(address)) lines.push(`${name} stopped sharing a screen.`);
  return lines.length > 0 ? lines.join(' ') : undefined;
}
