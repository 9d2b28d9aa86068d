import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, state } from "./page.js";

// the stand-in a kept region leaves in the tree built to morph the page into (dom.js `kept`)
globalThis.document.createComment = () => ({ nodeType: 8 });

const { Regions, sameInputs } = await import(new URL("regions.js", JS));
const { START, reduce } = await import(new URL("pagestate.js", JS));

test("a region whose inputs are the same objects is not drawn again; one whose input changed is", () => {
  const regions = new Regions();
  const drawn = [];
  const seat = { seat: 2, chips: 990 };
  const draw = (row, active) => {
    drawn.push([row.chips, active]);
    return { nodeType: 1, row };
  };
  const first = regions.region("seat2", [seat, false], draw);
  assert.deepEqual(drawn, [[990, false]]);
  const again = regions.region("seat2", [seat, false], draw);
  assert.deepEqual(drawn, [[990, false]], "the same inputs: not drawn");
  assert.equal(again.__kept, first, "a stand-in for the node drawn the first time");
  // equal but not the same object: a part of the state the server changed
  regions.region("seat2", [{ ...seat }, false], draw);
  assert.equal(drawn.length, 2);
  regions.region("seat2", [seat, true], draw);
  assert.deepEqual(drawn.at(-1), [990, true]);
  assert.deepEqual([regions.drawn, regions.kept], [3, 1]);
});

test("regions are told apart by their key, a region drawn as nothing stays nothing, and a new language draws them all", () => {
  const regions = new Regions();
  let draws = 0;
  const none = () => {
    draws += 1;
    return null;
  };
  assert.equal(regions.region("news", [""], none), null);
  assert.equal(regions.region("news", [""], none), null);
  assert.equal(draws, 1);
  regions.region("other", [""], none);
  assert.equal(draws, 2, "another key is another region");
  regions.clear();
  regions.region("news", [""], none);
  assert.equal(draws, 3);
});

test("a region is drawn again when the page's node was made to show something else meanwhile", () => {
  const regions = new Regions();
  let draws = 0;
  const draw = () => {
    draws += 1;
    return { nodeType: 1 };
  };
  const node = regions.region("turn", ["Your turn"], draw);
  node.__drawn = { nodeType: 1 }; // morphed into another drawing (dom.js)
  const again = regions.region("turn", ["Your turn"], draw);
  assert.equal(draws, 2);
  assert.notEqual(again, node);
});

test("inputs are compared one by one, by identity", () => {
  const row = {};
  assert.ok(sameInputs([row, 1, "a", null, NaN], [row, 1, "a", null, NaN]));
  assert.ok(!sameInputs([row], [{}]));
  assert.ok(!sameInputs([1], [1, 2]));
});

test("a region drawn from Past hands' part of the page is drawn again for its own actions, not for a state", () => {
  const regions = new Regions();
  const drawn = [];
  const panel = (page) => regions.region("hands", [page.hands], (hands) => drawn.push(hands.open) && { nodeType: 1 });
  let page = reduce(reduce(START, { type: "received", st: state(), now: 0 }), { type: "hands/opened" });
  panel(page);
  page = reduce(page, { type: "received", st: state({ version: 11 }), now: 0 });
  page = reduce(page, { type: "sent" });
  panel(page);
  assert.deepEqual(drawn, [true], "a state and a move on its way leave it as it is");
  page = reduce(page, { type: "hands/closed" });
  panel(page);
  assert.deepEqual(drawn, [true, false]);
});
