import { useAtomValue } from 'jotai';
import { useRef, type CSSProperties } from 'react';
import { peerGridLayout, spotlightGridLayout } from '../../main-thread/media';
import { speakerTileKey } from '../../main-thread/callTab/speakerTile';
import { useRoomLayout } from '../roomLayout';
import { useCallRuntime } from './callRuntimeContext';
import { CallTileView } from './CallTileView';

/** A 3:4 cell's shape over a 4:3 cell's. */
const PORTRAIT_OVER_LANDSCAPE = 3 / 4 / (4 / 3);

/**
 * SPEC §9 peer grid: columns = ceil(√n); 1 and 2 tiles side by side; 3 as 2×2 with the first tile
 * two rows high; the grid as large as the stage allows at its tiles' shape. A featured tile fills
 * the stage above a strip of the others: the tile the person enlarged, or in the speaker view the
 * person speaking (`speakerTileKey`).
 */
export function CallGrid() {
  const runtime = useCallRuntime();
  const tiles = useAtomValue(runtime.atoms.tiles);
  const enlarged = useAtomValue(runtime.atoms.enlargedTile);
  const screensPutBack = useAtomValue(runtime.atoms.screensPutBack);
  const { view } = useRoomLayout();
  // The speaker shown until now keeps the stage while still speaking (speakerTileKey).
  const speakerBefore = useRef<string | undefined>(undefined);
  const speaker = view === 'speaker' ? speakerTileKey(tiles, screensPutBack, speakerBefore.current) : undefined;
  speakerBefore.current = speaker;
  const featured = enlarged ?? speaker;
  const featuredIndex = tiles.findIndex((tile) => tile.key === featured);
  const layout = featuredIndex >= 0 ? spotlightGridLayout(tiles.length, featuredIndex) : peerGridLayout(tiles.length);
  const style = {
    gridTemplateAreas: layout.templateAreas,
    gridTemplateColumns: layout.templateColumns,
    gridTemplateRows: layout.templateRows,
    '--grid-aspect': String(layout.aspect),
    // On a portrait stage (a phone) the cells turn 3:4: same columns, taller tiles (parley.css).
    '--grid-aspect-portrait': String(layout.aspect * PORTRAIT_OVER_LANDSCAPE),
  } as CSSProperties;
  return (
    <div className="call-grid-area">
      <div className={`call-grid${layout.fill ? ' is-filled' : ''}`} style={style}>
        {tiles.map((tile, index) => (
          <CallTileView
            key={tile.key}
            tile={tile}
            area={layout.tiles[index]?.area}
            featured={layout.fill && tile.key === featured}
            enlarged={tile.key === enlarged}
            canEnlarge={tiles.length > 1}
          />
        ))}
      </div>
    </div>
  );
}
