import { isOthersScreen, type CallTile } from './callTiles';

/**
 * The tile the speaker view shows large: another person's shared screen first (it is what people
 * look at; your own you know, as ScreenStage has it), unless the person sent it back to the grid
 * (`screensPutBack`, whose screens); else, of the other people, the one speaking now (the latest to
 * start, if several); else the one who spoke last (SPEC §3 lastSpokeAt); else the first to arrive.
 * Yourself only when alone. Undefined for no tiles.
 */
export function speakerTileKey(tiles: readonly CallTile[], screensPutBack: ReadonlySet<string>): string | undefined {
  const screen = tiles.find((tile) => isOthersScreen(tile) && !screensPutBack.has(tile.peerAddress));
  if (screen) return screen.key;
  const byLastSpoke = (candidates: readonly CallTile[]) =>
    candidates.reduce<CallTile | undefined>((best, tile) => (best === undefined || (tile.lastSpokeAt ?? -Infinity) > (best.lastSpokeAt ?? -Infinity) ? tile : best), undefined);
  // A screen not picked above is out of the running: the rest is about the other people.
  const people = tiles.filter((tile) => !tile.isSelf && tile.kind === 'camera');
  const speaking = people.filter((tile) => tile.speaking);
  return (byLastSpoke(speaking) ?? byLastSpoke(people.filter((tile) => tile.lastSpokeAt !== undefined)) ?? people[0] ?? tiles[0])?.key;
}
