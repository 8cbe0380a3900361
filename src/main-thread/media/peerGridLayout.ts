/** Where one tile sits in the grid (1-based lines, as CSS grid counts them). */
export interface GridTilePlacement {
  /** The tile's grid-area name, as used in `templateAreas`. */
  readonly area: string;
  readonly row: number;
  readonly column: number;
  readonly rowSpan: number;
  readonly columnSpan: number;
}

export interface PeerGridLayout {
  readonly columns: number;
  readonly rows: number;
  /** CSS `grid-template-areas`. */
  readonly templateAreas: string;
  /** CSS `grid-template-columns` / `grid-template-rows`. */
  readonly templateColumns: string;
  readonly templateRows: string;
  /** Width over height of the whole grid when every cell keeps a tile's 4:3 shape. */
  readonly aspect: number;
  /** The grid fills the stage whatever its shape (the featured tile's video is then fitted inside its tile). */
  readonly fill: boolean;
  /** One placement per tile, in tile order. */
  readonly tiles: readonly GridTilePlacement[];
}

const areaName = (index: number): string => `tile${index}`;

/**
 * SPEC §9 peer grid. Columns = ceil(√n), rows = ceil(n / columns), tiles filled row by row. Three
 * counts are special: 1 is one cell; 2 is two columns side by side; 3 is 2×2 with the first tile
 * spanning both rows of the first column.
 */
export function peerGridLayout(count: number): PeerGridLayout {
  if (count <= 0) return { columns: 0, rows: 0, templateAreas: '', templateColumns: 'none', templateRows: 'none', aspect: TILE_ASPECT, fill: false, tiles: [] };
  if (count === 3) {
    return layout(2, 2, [
      { area: areaName(0), row: 1, column: 1, rowSpan: 2, columnSpan: 1 },
      { area: areaName(1), row: 1, column: 2, rowSpan: 1, columnSpan: 1 },
      { area: areaName(2), row: 2, column: 2, rowSpan: 1, columnSpan: 1 },
    ]);
  }
  // 1 → 1×1 and 2 → 1 row of 2 follow from the general rule.
  const columns = Math.ceil(Math.sqrt(count));
  const rows = Math.ceil(count / columns);
  const tiles = Array.from({ length: count }, (_, index) => ({
    area: areaName(index),
    row: Math.floor(index / columns) + 1,
    column: (index % columns) + 1,
    rowSpan: 1,
    columnSpan: 1,
  }));
  return layout(columns, rows, tiles);
}

/** Tiles keep a camera's 4:3 shape. */
const TILE_ASPECT = 4 / 3;

/**
 * One tile featured (index `featured`: the tile the person enlarged, or in the speaker view the
 * person speaking): it fills the stage; the others sit in a strip below it, centred, in their order,
 * each at most `--strip-tile-width` wide (parley.css), narrower when the strip would not fit. The
 * strip's edge columns take what is left, so the strip has `others + 2` columns.
 */
export function spotlightGridLayout(count: number, featured: number): PeerGridLayout {
  if (count <= 1 || featured < 0 || featured >= count) return peerGridLayout(count);
  const others = Array.from({ length: count }, (_, index) => index).filter((index) => index !== featured);
  const columns = others.length + 2;
  const tiles: GridTilePlacement[] = Array.from({ length: count }, (_, index) =>
    index === featured
      ? { area: areaName(index), row: 1, column: 1, rowSpan: 1, columnSpan: columns }
      : { area: areaName(index), row: 2, column: others.indexOf(index) + 2, rowSpan: 1, columnSpan: 1 },
  );
  return {
    ...layout(columns, 2, tiles),
    templateColumns: `minmax(0, 1fr) repeat(${others.length}, minmax(0, var(--strip-tile-width))) minmax(0, 1fr)`,
    templateRows: 'minmax(0, 1fr) var(--strip-height)',
    fill: true,
  };
}

function layout(columns: number, rows: number, tiles: GridTilePlacement[]): PeerGridLayout {
  // Cells no tile covers (the end of an incomplete last row) are '.', CSS's empty cell.
  const cells = Array.from({ length: rows }, () => Array.from({ length: columns }, () => '.'));
  for (const tile of tiles) {
    for (let row = tile.row; row < tile.row + tile.rowSpan; row += 1) {
      for (let column = tile.column; column < tile.column + tile.columnSpan; column += 1) {
        const cellRow = cells[row - 1];
        if (cellRow) cellRow[column - 1] = tile.area;
      }
    }
  }
  return {
    columns,
    rows,
    templateAreas: cells.map((row) => `"${row.join(' ')}"`).join(' '),
    templateColumns: `repeat(${columns}, 1fr)`,
    templateRows: `repeat(${rows}, 1fr)`,
    aspect: (columns * TILE_ASPECT) / Math.max(1, rows),
    fill: false,
    tiles,
  };
}
