import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

import { JS } from "./page.js";

const fair = await import(new URL("fair.js", JS));
const ZERO = new Uint8Array(32);

// Known answers computed by the engine (teenpatti/engine/deck.py): the page must agree byte for byte.
test("the deck's seed, the draw and the commitment tree are the engine's", async () => {
  const seed = await fair.deckSeed(ZERO, [null, ZERO]);
  assert.equal(fair.bytesToHex(seed).slice(0, 16), "aa040410bbc33259");
  assert.deepEqual(await fair.draw(ZERO, 7), [0, 46, 23, 3, 8, 12, 45]);
  assert.deepEqual(await fair.draw(ZERO, 5, true), [46, 37, 35, 53, 10]);
  const cards = await fair.draw(ZERO, 7);
  assert.equal(await fair.cardsRoot(ZERO, cards), "63d4be6deb33398a7ac9fd464cce2300553abbd66a7d5238ae98c61c156075c7");
});

test("a draw is a prefix of the whole shuffled pack, every card once", async () => {
  const whole = await fair.draw(ZERO, 52);
  assert.deepEqual([...whole].sort((a, b) => a - b), Array.from({ length: 52 }, (_, i) => i));
  assert.deepEqual(await fair.draw(ZERO, 12), whole.slice(0, 12));
});

test("card texts read as the engine numbers them, and back", () => {
  assert.deepEqual(fair.cardNumbers("2c"), [0]);
  assert.deepEqual(fair.cardNumbers("As"), [51]);
  assert.deepEqual(fair.cardNumbers("10d"), [33]);
  assert.deepEqual(fair.cardNumbers("Jk"), [52, 53]);
  assert.deepEqual(fair.cardNumbers("Xx"), []);
  assert.equal(fair.cardText(51), "As");
  assert.equal(fair.cardText(53), "Jk");
});

test("hex is read strictly", () => {
  assert.equal(fair.hexToBytes("zz"), null);
  assert.equal(fair.hexToBytes("abc"), null);
  assert.equal(fair.bytesToHex(fair.hexToBytes("00ff10")), "00ff10");
});

test("a malformed proof is no proof", async () => {
  assert.equal(await fair.checkCard("00".repeat(32), 1, null), false);
  assert.equal(await fair.checkCard("00".repeat(32), 1, { position: 0, salt: "zz", path: [] }), false);
  assert.equal(await fair.checkCard("00".repeat(32), 1, { position: 0, salt: "00".repeat(32), path: [["X", "00"]] }), false);
});

test("the deal order starts after the dealer, in the direction of play, skipping seats without chips", () => {
  const history = { dealer: 1, seats: [{ chips: 5 }, { chips: 5 }, { chips: 0 }, { chips: 5 }] };
  assert.deepEqual(fair.dealOrder(history, "clockwise"), [3, 0, 1]);
  assert.deepEqual(fair.dealOrder(history, "anticlockwise"), [0, 3, 1]);
});

const hands = await import(new URL("hands.js", JS));
const i18n = await import(new URL("i18n.js", JS));
const { state } = await import("./page.js");

test("a part of the next deal is due between hands, once per commitment, from a seat only", () => {
  const between = state({ next_commitment: "c1", next_parts: [] }, { finished: true });
  assert.equal(hands.partDue(between, {}), "c1");
  assert.equal(hands.partDue(between, { c1: "ab" }), null, "sent already");
  assert.equal(hands.partDue({ ...between, next_parts: [0] }, {}), null, "the server has it");
  assert.equal(hands.partDue({ ...between, you: null }, {}), null, "a spectator sends none");
  assert.equal(hands.partDue(state({ next_commitment: "c1" }), {}), null, "a hand is in play");
  assert.equal(hands.partDue(state({ next_commitment: "c1", hand: null }), {}), "c1", "before the first deal");
  assert.equal(hands.partDue({ ...between, status: "finished" }, {}), null);
});

test("a check's outcome reads as what was checked", () => {
  assert.equal(hands.checkWords(null), "");
  assert.match(hands.checkWords({ verified: true, complete: true }), /^✓/);
  const dealt = { verified: false, code: "dealt", seat: 1, reason: "seat 1 was dealt 2c" };
  assert.match(hands.checkWords(dealt, (seat) => ["Asha", "Bina"][seat]), /^✗ .*Bina was dealt other cards/);
  assert.doesNotMatch(hands.checkWords(dealt), /2c/, "the technical reason is for the details only");
  const thrown = { verified: false, code: "error", seat: null, reason: "TypeError: x", raw: "TypeError: x" };
  assert.doesNotMatch(hands.checkWords(thrown), /TypeError/, "an exception reads as a sentence");
  const all = { verified: true, complete: true };
  assert.match(hands.checkWords(all, undefined, { contributions: ["ab", null] }), /players' phones/);
  assert.match(hands.checkWords(all, undefined, { contributions: [null, null] }), /No phone sent a part/);
});

test("every way a check can fail has a sentence in both languages", async () => {
  const source = await readFile(new URL("fair.js", JS), "utf8");
  const codes = [...source.matchAll(/refuse\(\s*"([a-z_]+)"/g)].map((m) => m[1]);
  assert.ok(codes.length >= 12, codes.join(" "));
  for (const code of [...codes, "error"]) {
    for (const which of ["en", "ne"]) {
      assert.ok(i18n.STRINGS[which][`hands.why.${code}`], `hands.why.${code} in ${which}`);
    }
  }
});
