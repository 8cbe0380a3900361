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
  /** CSS `grid-template-columns` / `grid-template-rows`: equal tracks. */
  readonly templateColumns: string;
  readonly templateRows: string;
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
  if (count <= 0) return { columns: 0, rows: 0, templateAreas: '', templateColumns: 'none', templateRows: 'none', tiles: [] };
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
    tiles,
  };
}
