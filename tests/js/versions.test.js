import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const { placeOf } = await import(new URL("versions.js", JS));

test("the first state, or the first after a reconnect, is applied whatever its version", () => {
  assert.equal(placeOf(null, 42), "apply");
  assert.equal(placeOf(undefined, 0), "apply");
});

test("the next version is applied, and the same version again (who is online changed)", () => {
  assert.equal(placeOf(7, 8), "apply");
  assert.equal(placeOf(7, 7), "apply");
});

test("an older state is stale and a skipped version is a gap", () => {
  assert.equal(placeOf(7, 6), "stale");
  assert.equal(placeOf(7, 0), "stale");
  assert.equal(placeOf(7, 9), "gap");
  assert.equal(placeOf(0, 100), "gap");
});

const { applyPatch, PatchError } = await import(new URL("versions.js", JS));

const held = {
  type: "state",
  version: 7,
  now: 1.5,
  seats: [
    { seat: 0, chips: 100, cards: null, late: true },
    { seat: 1, chips: 90, cards: ["Kh", "Kd", "5s"], proof: [1, 2, 3] },
  ],
  hand: { pot: 20, actions: [{ seat: 0, do: "see" }] },
  legal: [],
};

test("a patch sets, deletes and appends, and gives the whole next state", () => {
  const before = structuredClone(held);
  const next = applyPatch(held, {
    type: "patch",
    version: 8,
    from: 7,
    ops: [
      ["s", ["version"], 8],
      ["s", ["seats", 0, "chips"], 80],
      ["d", ["seats", 0, "late"]],
      ["s", ["hand", "pot"], 40],
      ["a", ["hand", "actions"], [{ seat: 0, do: "chaal", paid: 20 }]],
      ["s", ["legal"], [{ do: "pack" }]],
    ],
  });
  assert.deepEqual(next, {
    ...before,
    version: 8,
    seats: [{ seat: 0, chips: 80, cards: null }, before.seats[1]],
    hand: { pot: 40, actions: [{ seat: 0, do: "see" }, { seat: 0, do: "chaal", paid: 20 }] },
    legal: [{ do: "pack" }],
  });
  assert.deepEqual(held, before, "the state held is not changed");
  assert.equal(next.seats[1], held.seats[1], "what no operation touches is shared");
});

test("a patch at the same version (who is online changed) applies", () => {
  const next = applyPatch(held, { type: "patch", version: 7, from: 7, ops: [["s", ["now"], 2]] });
  assert.equal(next.now, 2);
  assert.equal(next.version, 7);
});

test("a patch from another version, or one that does not fit, is refused", () => {
  const bad = [
    { type: "patch", version: 9, from: 8, ops: [["s", ["version"], 9]] }, // a version missed
    { type: "patch", version: 8, from: 7, ops: [] }, // does not reach its version
    { type: "patch", version: 8, from: 7, ops: [["s", ["version"], 8], ["d", ["nothing"]]] },
    { type: "patch", version: 8, from: 7, ops: [["s", ["version"], 8], ["a", ["now"], [1]]] },
    { type: "patch", version: 8, from: 7, ops: [["s", ["version"], 8], ["s", ["seats", 5, "x"], 1]] },
    { type: "patch", version: 8, from: 7, ops: [["s", ["version"], 8], ["x", ["now"], 1]] },
    { type: "patch", version: 8, from: 7, ops: [["s", [], 8]] },
    { type: "patch", version: 8, from: 7, ops: "no" },
  ];
  for (const msg of bad) assert.throws(() => applyPatch(held, msg), PatchError, JSON.stringify(msg));
  assert.throws(() => applyPatch(null, bad[0]), PatchError);
});
