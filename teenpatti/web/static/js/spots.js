// Where a seat sits around the felt: the CSS variables its box and its chat bubble are placed by.

/**
 * The style of the spot at `angle` (radians; 90 degrees is the bottom middle): `--x` and `--y` on
 * the oval, and `--ys`, the side the seat is on (-1 top, 0 middle, 1 bottom). A phone held upright
 * puts five or six seats at the corners by `--ys` (app.css), so two seats stacked at one side
 * never meet however tall they grow.
 * @param {number} angle
 * @returns {string}
 */
export function spotStyle(angle) {
  const x = Math.cos(angle);
  const y = Math.sin(angle);
  const side = Math.abs(y) < 0.01 ? 0 : Math.sign(y);
  return `--x:${x.toFixed(3)};--y:${y.toFixed(3)};--ys:${side}`;
}
