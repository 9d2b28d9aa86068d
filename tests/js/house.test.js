import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const house = await import(new URL("houserules.js", JS));
const words = await import(new URL("rulewords.js", JS));
const i18n = await import(new URL("i18n.js", JS));

// A catalogue as GET /api/rules serves it, cut down (tests/web/test_house_form.py checks the
// checks against the server's over the whole of it).
const CAT = {
  default: "nepal",
  presets: {
    nepal: {
      seats: { min: 2, max: 6 },
      options: { boot: 10, hands: 20, starting_chips: 1000, bets: "double", range_max_stakes: 2, pot_limit_boots: 100, all_in: "showdown", novel: 1 },
      only: { boot: [5, 10, 20, 50], hands: [10, 20, 30] },
    },
  },
  options: {
    boot: { kind: "int", min: 1, null: false },
    hands: { kind: "int", min: 1, null: false, max: 100 },
    starting_chips: { kind: "int", min: 1, null: false },
    bets: { kind: "choice", values: ["double", "range"] },
    range_max_stakes: { kind: "int", min: 2, null: false },
    pot_limit_boots: { kind: "int", min: 1, null: true },
    all_in: { kind: "choice", values: ["showdown", "two_left"] },
    novel: { kind: "int", min: 1, null: false },
  },
};

test("every option of the catalogue has a place on the form, a new one under More rules", () => {
  const groups = house.groups(CAT);
  assert.deepEqual(groups.map(([group]) => group), ["game", "bets", "allin", "other"]);
  assert.deepEqual(groups.at(-1), ["other", ["novel"]]);
  assert.deepEqual(house.offered("boot", "nepal", CAT), [5, 10, 20, 50]);
  assert.equal(house.offered("starting_chips", "nepal", CAT), null, "a number to type");
});

test("numbers are read in either language's digits", () => {
  assert.equal(house.parseWhole("१,०००"), 1000);
  assert.equal(house.parseWhole(" 50 "), 50);
  assert.equal(house.parseWhole(""), null);
  assert.ok(Number.isNaN(house.parseWhole("5.5")));
  assert.ok(Number.isNaN(house.parseWhole("-3")));
});

test("the checks name each option at fault, alone and together", () => {
  const base = CAT.presets.nepal.options;
  assert.deepEqual(house.problems(base, "nepal", CAT), {});
  assert.deepEqual(house.problems({ ...base, boot: 7 }, "nepal", CAT), { boot: ["only", { values: [5, 10, 20, 50] }] });
  assert.deepEqual(house.problems({ ...base, starting_chips: 5 }, "nepal", CAT), { starting_chips: ["below_boot", { boot: 10 }] });
  assert.deepEqual(house.problems({ ...base, all_in: "two_left" }, "nepal", CAT), { pot_limit_boots: ["pot_limit", {}] });
  assert.deepEqual(house.problems({ ...base, range_max_stakes: 3 }, "nepal", CAT), { range_max_stakes: ["range", {}] });
  assert.deepEqual(house.problems({ ...base, pot_limit_boots: Number.NaN }, "nepal", CAT), { pot_limit_boots: ["whole", {}] });
  assert.deepEqual(house.problems({ ...base, starting_chips: null }, "nepal", CAT), { starting_chips: ["whole", {}] });
});

test("only what differs from the preset, and matters, is sent", () => {
  const options = { ...CAT.presets.nepal.options, range_max_stakes: 3, pot_limit_boots: null };
  assert.deepEqual(house.changes(options, "nepal", CAT), { pot_limit_boots: null });
  assert.deepEqual(house.changes({ ...options, bets: "range" }, "nepal", CAT), { bets: "range", range_max_stakes: 3, pot_limit_boots: null });
});

test("a rule's value in words, with the language's digits", () => {
  i18n.setLang("en");
  assert.equal(words.ruleLine("range_max_stakes", 3), "Bigger bets: Blind up to 3 stakes, seen up to 6");
  assert.equal(words.ruleText("pot_limit_boots", null), "No pot limit");
  assert.equal(words.ruleText("starting_chips", 12800), "12,800 chips each");
  assert.equal(words.ruleText("see_anytime", true), "At any time");
  i18n.setLang("ne");
  assert.equal(words.ruleText("stake_cap_boots", 16), "दाउ १६ बुटमा रोकिन्छ");
  assert.equal(words.ruleLine("fixed_rank", "10"), "जोकर अङ्क: १०");
  assert.equal(words.ruleText("fixed_rank", "K"), "K");
  i18n.setLang("en");
});
