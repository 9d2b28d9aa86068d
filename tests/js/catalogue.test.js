import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const cat = await import(new URL("catalogue.js", JS));

// The shape GET /api/rules serves (tests/server checks the server's against the engine's).
const RULES = {
  default: "nepal",
  presets: {
    nepal: {
      seats: { min: 2, max: 6 },
      options: { boot: 10, hands: 20, bets: "double", sideshow: "previous", blind_turns_max: null },
      only: { boot: [5, 10, 20, 50], hands: [10, 20, 30] },
    },
    club: {
      seats: { min: 2, max: 10 },
      options: { boot: 50, hands: 20, bets: "double", sideshow: "previous", blind_turns_max: null },
      only: {},
    },
  },
  options: {
    boot: { kind: "int", min: 1, null: false },
    hands: { kind: "int", min: 1, null: false },
    bets: { kind: "choice", values: ["double", "range"] },
    sideshow: { kind: "choice", values: ["previous", "any_seen", "off"] },
    blind_turns_max: { kind: "int", min: 1, null: true },
  },
};

test("a preset's options, the default preset's when none is named", () => {
  assert.equal(cat.presetOptions("club", RULES).boot, 50);
  assert.equal(cat.presetOptions(undefined, RULES).boot, 10);
  assert.deepEqual(cat.presetOptions("nope", RULES), {});
  assert.deepEqual(cat.presetOptions("nepal", null), {});
});

test("the house rules of a table are the options that differ from its own preset", () => {
  const rules = { preset: "nepal", boot: 20, hands: 20, bets: "range", sideshow: "previous", blind_turns_max: 3 };
  assert.deepEqual(cat.changedOptions(rules, RULES), [["boot", 20], ["bets", "range"], ["blind_turns_max", 3]]);
  assert.deepEqual(cat.changedOptions({ ...rules, preset: "club", boot: 50 }, RULES), [["bets", "range"], ["blind_turns_max", 3]]);
  assert.deepEqual(cat.changedOptions(rules, null), []);
});
