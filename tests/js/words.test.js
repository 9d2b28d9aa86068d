import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const i18n = await import(new URL("i18n.js", JS));
const cards = await import(new URL("cards.js", JS));

test("a string is looked up in the language asked for, falls back to English, else is its key", () => {
  i18n.setLang("en");
  assert.equal(i18n.t("no.such.key"), "no.such.key");
  const en = i18n.t("act.pack", {}, "en");
  const ne = i18n.t("act.pack", {}, "ne");
  assert.ok(en && ne && en !== ne);
  i18n.STRINGS.en["test.only.en"] = "English {n}";
  try {
    assert.equal(i18n.t("test.only.en", { n: 2 }, "ne"), "English २");
  } finally {
    delete i18n.STRINGS.en["test.only.en"];
  }
});

test("parameters fill their places; numbers in the language's digits; missing ones stay empty", () => {
  assert.equal(i18n.t("table.hand", { n: 3, of: 20 }, "en").includes("3"), true);
  assert.equal(i18n.t("table.hand", { n: 3, of: 20 }, "ne").includes("३"), true);
  assert.equal(i18n.num(12345, "en"), "12,345");
  assert.equal(i18n.num(12345, "ne"), "१२,३४५");
  assert.equal(i18n.digits("K7W3", "ne"), "K७W३");
  assert.ok(!i18n.t("table.hand", {}, "en").includes("{"));
});

test("names are joined with commas and a last 'and'", () => {
  i18n.setLang("en");
  assert.equal(i18n.joinNames([]), "");
  assert.equal(i18n.joinNames(["Asha"]), "Asha");
  const three = i18n.joinNames(["Asha", "Bikash", "Hari"]);
  assert.equal(three, i18n.t("result.and", { a: "Asha, Bikash", b: "Hari" }));
});

test("cards are read as their rank and suit, ten and the joker included", () => {
  i18n.setLang("en");
  assert.deepEqual(cards.parseCard("10h"), { rank: "T", suit: "h" });
  assert.deepEqual(cards.parseCard("Jk"), { rank: "Jk", suit: null });
  assert.equal(cards.cardName("Kh"), i18n.t("card.of", { rank: i18n.t("rank.K"), suit: i18n.t("suit.h") }));
  assert.equal(cards.cardName("Jk"), i18n.t("joker"));
  assert.equal(cards.cardsName(["As", "Jk"]), `${cards.cardName("As")}, ${i18n.t("joker")}`);
  const names = new Set();
  for (const rank of "23456789TJQKA") for (const suit of "shdc") names.add(cards.cardName(`${rank}${suit}`));
  assert.equal(names.size, 52, "every card has a name of its own");
});

test("cards are shown in the order a hand reads, not the order dealt", () => {
  assert.deepEqual(cards.sortCards(["Jh", "Qh", "10h"]), ["Qh", "Jh", "10h"]); // a run reads as one
  assert.deepEqual(cards.sortCards(["2c", "As", "3d"]), ["3d", "2c", "As"]); // the low run: ace as one
  assert.deepEqual(cards.sortCards(["Ah", "Kc", "Qs"]), ["Ah", "Kc", "Qs"]);
  assert.deepEqual(cards.sortCards(["5h", "Kd", "5s"]), ["Kd", "5s", "5h"]); // the pair side by side
  assert.deepEqual(cards.sortCards(["Jk", "9c", "Ad"]), ["Ad", "9c", "Jk"]); // a joker last
  const dealt = ["4c", "Ks", "4h"];
  cards.sortCards(dealt);
  assert.deepEqual(dealt, ["4c", "Ks", "4h"], "the cards given are left as they were");
  assert.equal(cards.cardsName(["2c", "As", "3d"]), ["3d", "2c", "As"].map(cards.cardName).join(", "));
});

test("तपाईं standing in for a name takes its postposition as one word; a name keeps its space", () => {
  const you = i18n.t("you", {}, "ne");
  assert.equal(i18n.t("end.winner", { name: you }, "ne"), "तपाईंले खेल जित्नुभयो");
  const both = `Bina र ${you}`;
  assert.equal(i18n.t("result.share", { names: both, n: 40 }, "ne"), "Bina र तपाईंले ४० बाँडेर लिनुभयो");
  assert.equal(i18n.t("result.wins", { name: "Bina", n: 40 }, "ne"), "Bina ले ४० जित्नुभयो");
});

test("a kind of hand in text with no language mark speaks the page's language only", () => {
  i18n.setLang("ne");
  try {
    assert.equal(i18n.category("pure_sequence"), "डबल रन");
  } finally {
    i18n.setLang("en");
  }
  assert.equal(i18n.category("pure_sequence"), "Pure sequence");
});

test("a proxy's status and a code with no sentence read as sentences, the Nepali naming no code", () => {
  i18n.setLang("ne");
  try {
    assert.equal(i18n.errorText("http/502", "Bad Gateway"), i18n.STRINGS.ne["err.http"]);
    assert.equal(i18n.errorText("server/busy", "too many"), i18n.STRINGS.ne["err.server/busy"]);
    assert.doesNotMatch(i18n.errorText("no/such", "English reason"), /[A-Za-z0-9]/);
  } finally {
    i18n.setLang("en");
  }
  assert.match(i18n.errorText("no/such", "English reason"), /English reason/);
});
