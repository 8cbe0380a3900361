import { describe, expect, it } from 'vitest';
import { peerGridLayout, spotlightGridLayout } from '../../src/main-thread/media/peerGridLayout';

const cells = (count: number) => peerGridLayout(count).tiles.map(({ row, column, rowSpan, columnSpan }) => [row, column, rowSpan, columnSpan]);

describe('peer grid (SPEC §9: columns = ceil(√n); 1, 2 and 3 tiles are special)', () => {
  it('lays out one tile as a single cell', () => {
    expect(peerGridLayout(1)).toMatchObject({ columns: 1, rows: 1, templateAreas: '"tile0"', templateColumns: 'repeat(1, 1fr)' });
    expect(cells(1)).toEqual([[1, 1, 1, 1]]);
  });

  it('lays out two tiles side by side in two columns', () => {
    expect(peerGridLayout(2)).toMatchObject({ columns: 2, rows: 1, templateAreas: '"tile0 tile1"' });
    expect(cells(2)).toEqual([[1, 1, 1, 1], [1, 2, 1, 1]]);
  });

  it('lays out three tiles as 2×2 with the first spanning both rows', () => {
    const layout = peerGridLayout(3);
    expect(layout).toMatchObject({ columns: 2, rows: 2, templateAreas: '"tile0 tile1" "tile0 tile2"', templateRows: 'repeat(2, 1fr)' });
    expect(cells(3)).toEqual([[1, 1, 2, 1], [1, 2, 1, 1], [2, 2, 1, 1]]);
  });

  it.each([
    [4, 2, 2],
    [5, 3, 2],
    [6, 3, 2],
    [7, 3, 3],
    [9, 3, 3],
    [10, 4, 3],
    [17, 5, 4],
  ])('lays out %i tiles in ceil(√n) = %i columns and %i rows, row by row', (count, columns, rows) => {
    const layout = peerGridLayout(count);
    expect([layout.columns, layout.rows]).toEqual([columns, rows]);
    expect(layout.tiles).toHaveLength(count);
    layout.tiles.forEach((tile, index) => {
      expect([tile.row, tile.column]).toEqual([Math.floor(index / columns) + 1, (index % columns) + 1]);
    });
  });

  it('marks the cells after the last tile empty', () => {
    expect(peerGridLayout(5).templateAreas).toBe('"tile0 tile1 tile2" "tile3 tile4 ."');
  });

  it('has no cells for no tiles', () => {
    expect(peerGridLayout(0)).toMatchObject({ columns: 0, rows: 0, tiles: [] });
  });
});

describe('a featured tile, enlarged or speaking (what a tile needs: large → the best layer)', () => {
  it('fills the stage; the others share a centred strip below it in their order', () => {
    const layout = spotlightGridLayout(4, 2);
    expect(layout).toMatchObject({
      columns: 5,
      rows: 2,
      templateAreas: '"tile2 tile2 tile2 tile2 tile2" ". tile0 tile1 tile3 ."',
      templateColumns: 'minmax(0, 1fr) repeat(3, minmax(0, var(--strip-tile-width))) minmax(0, 1fr)',
      templateRows: 'minmax(0, 1fr) var(--strip-height)',
      fill: true,
    });
    expect(layout.tiles.map(({ row, column, columnSpan }) => [row, column, columnSpan])).toEqual([
      [2, 2, 1],
      [2, 3, 1],
      [1, 1, 5],
      [2, 4, 1],
    ]);
  });

  it('is the plain grid for a single tile or a featured tile that is gone', () => {
    expect(spotlightGridLayout(1, 0)).toEqual(peerGridLayout(1));
    expect(spotlightGridLayout(3, 3)).toEqual(peerGridLayout(3));
    expect(peerGridLayout(2).fill).toBe(false);
  });
});
