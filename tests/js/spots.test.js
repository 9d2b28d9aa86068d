import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const { feltStyle, seatSpot, spotStyle } = await import(new URL("spots.js", JS));

test("your own seat is at the bottom in the middle, whatever the seat count", () => {
  for (let n = 2; n <= 10; n++) assert.deepEqual(seatSpot(0, n), { row: n > 8 ? 4 : 3, col: 2, side: "bottom" });
});

test("no two seats, and no seat and the felt, share a cell", () => {
  for (let n = 2; n <= 10; n++) {
    const taken = new Set();
    for (let j = 0; j < n; j++) {
      const { row, col } = seatSpot(j, n);
      const key = `${row},${col}`;
      assert.ok(!taken.has(key), `${n} seats: ${key} twice`);
      taken.add(key);
    }
    const felt = Object.fromEntries(feltStyle(n).split(";").map((part) => part.split(":")));
    const [top, end] = felt["--felt-rows"].split(" / ").map(Number);
    const [left, right] = felt["--felt-cols"].split(" / ").map(Number);
    for (let r = top; r < end; r++) for (let c = left; c < right; c++) assert.ok(!taken.has(`${r},${c}`), `${n} seats: the felt on ${r},${c}`);
  }
});

test("the seats go round the way play passes: up the left, across the top, down the right", () => {
  const cols = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((j) => seatSpot(j, 10).col);
  assert.deepEqual(cols, [2, 1, 1, 1, 1, 2, 3, 3, 3, 3]);
  assert.deepEqual([1, 2, 3, 4].map((j) => seatSpot(j, 10).row), [4, 3, 2, 1]);
});

test("a seat's style names its cell", () => {
  assert.equal(spotStyle(2, 4), "--row:1;--col:2");
  assert.equal(seatSpot(2, 4).side, "top");
});
