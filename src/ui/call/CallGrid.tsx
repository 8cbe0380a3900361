import { useAtomValue } from 'jotai';
import type { CSSProperties } from 'react';
import { peerGridLayout, spotlightGridLayout } from '../../main-thread/media';
import { useCallRuntime } from './callRuntimeContext';
import { CallTileView } from './CallTileView';

/**
 * SPEC §9 peer grid: columns = ceil(√n); 1 and 2 tiles side by side; 3 as 2×2 with the first tile
 * two rows high. An enlarged tile fills the stage above a strip of the others. The grid is as large
 * as the stage allows at its tiles' shape.
 */
export function CallGrid() {
  const runtime = useCallRuntime();
  const tiles = useAtomValue(runtime.atoms.tiles);
  const enlarged = useAtomValue(runtime.atoms.enlargedTile);
  const enlargedIndex = tiles.findIndex((tile) => tile.key === enlarged);
  const layout = enlargedIndex >= 0 ? spotlightGridLayout(tiles.length, enlargedIndex) : peerGridLayout(tiles.length);
  const style = {
    gridTemplateAreas: layout.templateAreas,
    gridTemplateColumns: layout.templateColumns,
    gridTemplateRows: layout.templateRows,
    '--grid-aspect': String(layout.aspect),
  } as CSSProperties;
  return (
    <div className="call-grid-area">
      <div className="call-grid" style={style}>
        {tiles.map((tile, index) => (
          <CallTileView key={tile.key} tile={tile} area={layout.tiles[index]?.area} enlarged={tile.key === enlarged} canEnlarge={tiles.length > 1} />
        ))}
      </div>
    </div>
  );
}
