// Where a seat sits round the table: a cell of the table's grid of three columns (app.css), with
// the felt in the cells the seats leave. A grid row is as tall as its tallest seat, so however
// much a seat holds (a long name on three lines, every badge, the last move) it pushes its
// neighbours away instead of covering them or the pot. A chat bubble is the one thing laid over a
// seat instead (social.css): it comes and goes in four seconds, and a row that grew with it
// moved everything under the seats while a finger was on its way to a move.

// Each seat count's cells, [row, column] for the seat `j` places round from this phone's own seat
// (0, at the bottom in the middle), going the way the seats go round: up the left, across the
// top, down the right. The last entry is the felt: [first row, last row, first column, last column].
const LAYOUTS = {
  1: [[3, 2], [2, 2, 1, 3]],
  2: [[3, 2], [1, 2], [2, 2, 1, 3]],
  3: [[3, 2], [1, 1], [1, 3], [2, 2, 1, 3]],
  4: [[3, 2], [1, 1], [1, 2], [1, 3], [2, 2, 1, 3]],
  5: [[3, 2], [3, 1], [1, 1], [1, 3], [3, 3], [2, 2, 1, 3]],
  6: [[3, 2], [3, 1], [1, 1], [1, 2], [1, 3], [3, 3], [2, 2, 1, 3]],
  7: [[3, 2], [3, 1], [2, 1], [1, 1], [1, 3], [2, 3], [3, 3], [1, 2, 2, 2]],
  8: [[3, 2], [3, 1], [2, 1], [1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [2, 2, 2, 2]],
  9: [[4, 2], [4, 1], [3, 1], [2, 1], [1, 1], [1, 3], [2, 3], [3, 3], [4, 3], [1, 3, 2, 2]],
  10: [[4, 2], [4, 1], [3, 1], [2, 1], [1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [4, 3], [2, 3, 2, 2]],
};

function layout(n) {
  return LAYOUTS[Math.min(Math.max(n, 1), 10)];
}

/**
 * The cell of seat `j` (counted round from this phone's own seat) of `n`: its grid row and column,
 * and its side, "top" (its box lines up with the felt below it), "bottom" or "middle".
 * @param {number} j
 * @param {number} n
 * @returns {{row: number, col: number, side: string}}
 */
export function seatSpot(j, n) {
  const cells = layout(n);
  const [row, col] = cells[j % (cells.length - 1)];
  const last = Math.max(...cells.slice(0, -1).map(([r]) => r));
  return { row, col, side: row === 1 ? "top" : row === last ? "bottom" : "middle" };
}

/**
 * The style that puts seat `j` of `n` in its cell.
 * @param {number} j
 * @param {number} n
 * @returns {string}
 */
export function spotStyle(j, n) {
  const { row, col } = seatSpot(j, n);
  return `--row:${row};--col:${col}`;
}

/**
 * The style that puts the felt in the cells the seats of `n` leave.
 * @param {number} n
 * @returns {string}
 */
export function feltStyle(n) {
  const cells = layout(n);
  const [top, bottom, left, right] = cells[cells.length - 1];
  return `--felt-rows:${top} / ${bottom + 1};--felt-cols:${left} / ${right + 1}`;
}
