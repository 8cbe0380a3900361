import { isOthersScreen, type CallTile } from '../../main-thread/callTab/callTiles';

/** Who shares a screen with you, by occupant address, with the name their tile shows. */
export type ScreenSharers = ReadonlyMap<string, string>;

/** The others sharing a screen in these tiles (your own share is yours to know). */
export function screenSharers(tiles: readonly CallTile[]): ScreenSharers {
  const sharers = new Map<string, string>();
  for (const tile of tiles.filter(isOthersScreen)) sharers.set(tile.peerAddress, tile.displayName);
  return sharers;
}

/**
 * What a screen reader is told of the shared screens, which take the stage without a word: who
 * started and who stopped sharing since `before`; on entering the call (`before` undefined), who is
 * sharing already. Undefined when there is nothing new.
 */
export function screenShareNews(before: ScreenSharers | undefined, now: ScreenSharers): string | undefined {
  const lines: string[] = [];
  for (const [address, name] of now) {
    if (before === undefined) lines.push(`${name} is sharing a screen.`);
    else if (!before.has(address)) lines.push(`${name} started sharing a screen.`);
  }
  for (const [address, name] of before ?? []) if (!now.has(address)) lines.push(`${name} stopped sharing a screen.`);
  return lines.length > 0 ? lines.join(' ') : undefined;
}
