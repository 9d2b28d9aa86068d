import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const { spotStyle } = await import(new URL("spots.js", JS));

function parse(style) {
  return Object.fromEntries(style.split(";").map((part) => part.split(":")));
}

test("a seat at the bottom middle is on the bottom side", () => {
  assert.deepEqual(parse(spotStyle(Math.PI / 2)), { "--x": "0.000", "--y": "1.000", "--ys": "1" });
});

test("a seat at the top is on the top side", () => {
  assert.equal(parse(spotStyle(-Math.PI / 2))["--ys"], "-1");
});

test("seats level with the middle are on neither side", () => {
  assert.equal(parse(spotStyle(0))["--ys"], "0");
  assert.equal(parse(spotStyle(Math.PI))["--ys"], "0");
});

test("six seats split three and three, with one at each end of the middle line missing", () => {
  const sides = [0, 1, 2, 3, 4, 5].map((j) => parse(spotStyle(((90 + j * 60) * Math.PI) / 180))["--ys"]);
  assert.deepEqual(sides, ["1", "1", "-1", "-1", "-1", "1"]);
});
