import { useAtomValue } from 'jotai';
import type { CSSProperties } from 'react';
import { peerGridLayout } from '../../main-thread/media';
import { useCallRuntime } from './callRuntimeContext';
import { CallTileView } from './CallTileView';

/** Tiles keep a camera's 4:3 shape: the grid is as large as the stage allows at that shape. */
const TILE_ASPECT = 4 / 3;

/** SPEC §9 peer grid: columns = ceil(√n); 1 and 2 tiles side by side; 3 as 2×2 with the first tile two rows high. */
export function CallGrid() {
  const runtime = useCallRuntime();
  const tiles = useAtomValue(runtime.atoms.tiles);
  const layout = peerGridLayout(tiles.length);
  const style = {
    gridTemplateAreas: layout.templateAreas,
    gridTemplateColumns: layout.templateColumns,
    gridTemplateRows: layout.templateRows,
    '--grid-aspect': String((layout.columns * TILE_ASPECT) / Math.max(1, layout.rows)),
  } as CSSProperties;
  return (
    <div className="call-grid-area">
      <div className="call-grid" style={style}>
        {tiles.map((tile, index) => (
          <CallTileView key={tile.key} tile={tile} area={layout.tiles[index]?.area} />
        ))}
      </div>
    </div>
  );
}
