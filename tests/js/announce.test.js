import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, state } from "./page.js";

const { announcements, endsHand, startsHand } = await import(new URL("announce.js", JS));
const i18n = await import(new URL("i18n.js", JS));
i18n.setLang("en");

const chaal = { do: "chaal", cost: 20, max: 20, label: "Chaal 20", targets: [] };
const pack = { do: "pack", cost: 0, max: 0, label: "Pack", targets: [] };

test("the first state says nothing but whose turn it is", () => {
  const first = state({ legal: [chaal, pack] });
  const said = announcements(null, first);
  assert.deepEqual(said.polite, []);
  assert.equal(said.turn, i18n.t("turn.cue", { actions: `${i18n.t("act.chaal")} 20, ${i18n.t("act.pack")}` }));
  assert.equal(startsHand(null, first), false);
});

test("the moves since the last state are said with what they paid, my See as its cards only", () => {
  const before = state({}, { actor: 1, actions: [] });
  const after = state({ version: 12, legal: [chaal] }, {
    actor: 0,
    actions: [
      { seat: 1, do: "chaal", paid: 20, stake: 20 },
      { seat: 0, do: "see", paid: 0, stake: 20 },
    ],
  });
  const said = announcements(before, after);
  const moved = i18n.t("did.line", { name: "Bikash", what: i18n.t("did.cost", { what: i18n.t("did.chaal"), n: 20 }) });
  assert.deepEqual(said.polite, [moved]);
  assert.notEqual(said.turn, null, "the turn came to me");
  assert.equal(announcements(after, after).turn, null, "still my turn: no second cue");
});

test("an accepted side show names its loser from the log, not from who packed", () => {
  const before = state({}, { actor: 1, side_show: [0, 1], actions: [{ seat: 0, do: "sideshow", paid: 20, stake: 10 }] });
  const after = state({ version: 11 }, {
    actor: 1,
    actions: [...before.hand.actions, { seat: 1, do: "accept", paid: 0, stake: 10, loser: 0 }],
  });
  const said = announcements(before, after);
  assert.equal(said.polite.length, 1);
  assert.ok(said.polite[0].endsWith(i18n.t("side.betterThanYou", { winner: "Bikash" })), said.polite[0]);
  const declined = state({ version: 11 }, {
    actions: [...before.hand.actions, { seat: 1, do: "decline", paid: 0, stake: 10 }],
  });
  assert.ok(!announcements(before, declined).polite.join().includes(i18n.t("side.betterThanYou", { winner: "Bikash" })));
});

test("a new hand, a hand's result and the game's winner are each said once", () => {
  const one = state({}, { number: 1 });
  const two = state({ version: 11 }, { number: 2 });
  assert.ok(startsHand(one, two));
  assert.deepEqual(announcements(one, two).polite, [i18n.t("table.hand", { n: 2, of: 20 })]);

  const over = state({ version: 12, status: "finished", standings: [
    { place: 1, seat: 1, name: "Bikash", chips: 2000 },
    { place: 2, seat: 0, name: "Asha", chips: 0 },
  ] }, { number: 2, finished: true, ended_by: "last_player", pots: [{ amount: 40, winners: [1], returned: false }] });
  assert.ok(endsHand(two, over));
  const said = announcements(two, over).polite;
  assert.equal(said.length, 3);
  assert.ok(said[0].startsWith(i18n.t("result.wins", { name: "Bikash", n: 40 })), said[0]);
  assert.equal(said[1], i18n.t("end.winner", { name: "Bikash" }));
  // and this player's own place
  assert.equal(said[2], i18n.t("end.yourPlace", { place: 2, n: 2, chips: 0 }));
  assert.equal(endsHand(over, over), false);
  assert.deepEqual(announcements(over, over).polite, []);
});

test("a move the turn timer made is said as a timeout: to me as mine, to others with my name", () => {
  const before = state({}, { actor: 0, actions: [] });
  const after = state({ version: 11 }, { actor: 1, actions: [{ seat: 0, do: "pack", paid: 0, stake: 10, timeout: true }] });
  assert.deepEqual(announcements(before, after).polite, [i18n.t("turn.timeout")]);
  const theirs = { ...after, you: 1 };
  assert.deepEqual(announcements({ ...before, you: 1 }, theirs).polite, [i18n.t("turn.timeoutOther", { name: "Asha" })]);
  // a pack I made myself is said back to me as mine, the echo that it was made
  const mine = state({ version: 11 }, { actor: 1, actions: [{ seat: 0, do: "pack", paid: 0, stake: 10 }] });
  assert.deepEqual(announcements(before, mine).polite, [i18n.t("did.line", { name: i18n.t("you"), what: i18n.t("did.pack") })]);
});

test("no sentence ends twice: a result in Nepali, and a timeout among other moves", () => {
  const two = state({ version: 11 }, { number: 2 });
  const shown = [{ ...two.seats[0], cards: ["Ah", "Kh", "Qh"], category: "pure_sequence" }, { ...two.seats[1], cards: ["2c", "3d", "5s"], category: "high_card" }];
  const over = state({ version: 12, seats: shown }, { number: 2, finished: true, ended_by: "show", pots: [{ amount: 40, winners: [0], returned: false }] });
  i18n.setLang("ne");
  try {
    const said = announcements(two, over).polite.join("\n");
    assert.ok(said.includes(i18n.t("result.by.show")), said);
    assert.ok(!/[।.]\s*[।.]/.test(said), said);
  } finally {
    i18n.setLang("en");
  }
  const before = state({ you: 1 }, { actor: 0, actions: [] });
  const after = state({ version: 11, you: 1 }, {
    actor: 1,
    actions: [
      { seat: 0, do: "pack", paid: 0, stake: 10, timeout: true },
      { seat: 1, do: "chaal", paid: 10, stake: 10 },
    ],
  });
  const polite = announcements(before, after).polite.join("\n");
  assert.ok(polite.includes(i18n.t("turn.timeoutOther", { name: "Asha" })), polite);
  assert.ok(!/\.\s*\./.test(polite), polite);
  assert.equal(i18n.sentences(["Time ran out: you packed.", "Bikash: Chaal 20"], "en"), "Time ran out: you packed. Bikash: Chaal 20");
  assert.equal(i18n.sentences(["सो: दुवैको तास खोलियो।", "राम जित्नुभयो"], "ne"), "सो: दुवैको तास खोलियो। राम जित्नुभयो");
  assert.equal(i18n.sentences(["a", "", "b"], "en"), "a. b");
});
