import { isOthersScreen, type CallTile } from './callTiles';

/**
 * A screen someone else starts sharing takes the stage, as in the call apps people know: shown large
 * above the others, it is also asked of its sender at its best (the enlarged tile's rule). Your own
 * screen does not: you know what you share, and a whole screen shown inside itself only repeats.
 *
 * What the person chose stays theirs: a tile they enlarged that is not another's screen keeps the
 * stage, and a screen they sent back to the grid (`release`) stays there, in the speaker view too.
 * The stage follows the share, not its tile: when the share's media comes over a new path (mesh ↔
 * relay) its tile is a new one, and the stage moves to it. Of two shares the newest takes the stage;
 * when the shown share stops the stage goes back to the grid.
 */
export class ScreenStage {
  /** The people whose screen the last tiles showed. */
  private sharing = new Set<string>();
  /** Whose screen the stage shows, to follow it onto a new tile. */
  private followed: string | undefined;
  private putBackSharers: ReadonlySet<string> = new Set();

  /**
   * Whose screens the person sent back to the grid, while they still share: the speaker view does not
   * pick them either. A new set whenever it changes.
   */
  get screensPutBack(): ReadonlySet<string> {
    return this.putBackSharers;
  }

  /** The tile to show large after the tiles changed, given the one shown large before (its key, or none). */
  next(tiles: readonly CallTile[], stage: string | undefined): string | undefined {
    const screens = tiles.filter(isOthersScreen);
    const started = screens.filter((tile) => !this.sharing.has(tile.peerAddress));
    this.sharing = new Set(screens.map((tile) => tile.peerAddress));
    if ([...this.putBackSharers].some((person) => !this.sharing.has(person))) {
      this.putBackSharers = new Set([...this.putBackSharers].filter((person) => this.sharing.has(person)));
    }
    const shown = tiles.find((tile) => tile.key === stage);
    if (shown && !isOthersScreen(shown)) {
      this.followed = undefined;
      return stage;
    }
    const newest = started.at(-1) ?? shown ?? screens.find((tile) => tile.peerAddress === this.followed);
    this.followed = newest?.peerAddress;
    return newest?.key;
  }

  /**
   * The person chose the stage themselves: no share is followed until one starts. `putBack` is the
   * tile they sent back to the grid, if they did.
   */
  release(putBack?: CallTile): void {
    this.followed = undefined;
    if (putBack && isOthersScreen(putBack) && !this.putBackSharers.has(putBack.peerAddress)) {
      this.putBackSharers = new Set([...this.putBackSharers, putBack.peerAddress]);
    }
  }
}
