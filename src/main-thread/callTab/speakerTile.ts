import { isOthersScreen, type CallTile } from './callTiles';

/**
 * The tile the speaker view shows large: another person's shared screen first (it is what people
 * look at; your own you know, as ScreenStage has it), unless the person sent it back to the grid
 * (`screensPutBack`, whose screens); else, of the other people, the one shown until now
 * (`featuredBefore`) while they are still speaking — another's "yeah" while they talk does not
 * take the stage from them, nor back a second later; else the one speaking now (the latest to
 * start, if several); else the one shown until now, or the one who spoke last (SPEC §3
 * lastSpokeAt); else the first to arrive. Yourself only when alone. Undefined for no tiles.
 */
export function speakerTileKey(tiles: readonly CallTile[], screensPutBack: ReadonlySet<string>, featuredBefore?: string): string | undefined {
  const screen = tiles.find((tile) => isOthersScreen(tile) && !screensPutBack.has(tile.peerAddress));
  if (screen) return screen.key;
  const byLastSpoke = (candidates: readonly CallTile[]) =>
    candidates.reduce<CallTile | undefined>((best, tile) => (best === undefined || (tile.lastSpokeAt ?? -Infinity) > (best.lastSpokeAt ?? -Infinity) ? tile : best), undefined);
  // A screen not picked above is out of the running: the rest is about the other people.
  const people = tiles.filter((tile) => !tile.isSelf && tile.kind === 'camera');
  const shown = people.find((tile) => tile.key === featuredBefore);
  if (shown?.speaking) return shown.key;
  const speaking = people.filter((tile) => tile.speaking);
  return (byLastSpoke(speaking) ?? shown ?? byLastSpoke(people.filter((tile) => tile.lastSpokeAt !== undefined)) ?? people[0] ?? tiles[0])?.key;
}
