import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, state } from "./page.js";

const moves = await import(new URL("moves.js", JS));
const i18n = await import(new URL("i18n.js", JS));

const legal = [
  { do: "pack", cost: 0, max: 0, label: "Pack", targets: [] },
  { do: "sideshow", cost: 20, max: 20, label: "Side show 20", targets: [1] },
  { do: "chaal", cost: 20, max: 40, label: "Chaal 20-40", targets: [] },
  { do: "see", cost: 0, max: 0, label: "See", targets: [] },
];

test("legal moves come in button order, whatever order the server lists them in", () => {
  const st = state({ legal });
  assert.deepEqual(moves.orderedLegal(st).map((a) => a.do), ["see", "chaal", "sideshow", "pack"]);
  assert.deepEqual(st.legal.map((a) => a.do), ["pack", "sideshow", "chaal", "see"], "the state is left as it was");
});

test("it is my turn only when the hand waits for my seat and offers me a move", () => {
  assert.equal(moves.isMyTurn(state({ legal })), true);
  assert.equal(moves.isMyTurn(state({ legal: [] })), false);
  assert.equal(moves.isMyTurn(state({ legal }, { actor: 1 })), false);
  assert.equal(moves.isMyTurn(state({ legal }, { finished: true })), false);
  assert.equal(moves.isMyTurn(state({ legal, you: null })), false);
  assert.equal(moves.isMyTurn(null), false);
});

test("a seat is named by its player, this phone's own seat as You, an unknown one as ?", () => {
  const st = state();
  i18n.setLang("en");
  assert.equal(moves.seatName(st, 1), "Bikash");
  assert.equal(moves.seatName(st, 0), i18n.t("you"));
  assert.equal(moves.seatName(st, 5), "?");
});

test("a move's label shows what it costs, the amount chosen on the stepper and whom it asks", () => {
  i18n.setLang("en");
  const st = state({ legal });
  const chaal = legal[2];
  assert.deepEqual(moves.moveLabel(chaal, st), { text: `${i18n.t("act.chaal")} 20`, amount: 20 });
  assert.deepEqual(moves.moveLabel(chaal, st, 35), { text: `${i18n.t("act.chaal")} 35`, amount: 35 });
  assert.deepEqual(moves.moveLabel(legal[0], st, 35), { text: i18n.t("act.pack"), amount: 0 });
  const asked = moves.moveLabel(legal[1], st, null, 1).text;
  assert.equal(asked, "Side show with Bikash 20"); // the partner before the price
  // a side show with one partner on offer names it too
  assert.equal(moves.moveLabel({ ...legal[1], targets: [1] }, st).text, "Side show with Bikash 20");
  i18n.setLang("ne");
  assert.equal(moves.moveLabel(legal[1], st, null, 1).text, "Bikash सँग साइड सो २०");
  i18n.setLang("en");
});

test("a move in words says the chips it paid, and nothing when it paid none", () => {
  i18n.setLang("en");
  assert.equal(moves.moveText({ do: "pack" }, 0), i18n.t("did.pack"));
  assert.equal(moves.moveText({ do: "chaal" }, 40), i18n.t("did.cost", { what: i18n.t("did.chaal"), n: 40 }));
  assert.match(moves.moveText({ do: "chaal" }, 40), /40/);
});

test("each seat's last move is its latest, a See aside, with what it paid", () => {
  const hand = state({}, {
    actions: [
      { seat: 0, do: "chaal", paid: 10, stake: 10 },
      { seat: 1, do: "chaal", paid: 10, stake: 10 },
      { seat: 0, do: "see", paid: 0, stake: 10 },
      { seat: 0, do: "raise", paid: 40, stake: 20 },
    ],
  }).hand;
  const last = moves.lastMoves(hand);
  assert.deepEqual([...last.keys()].sort(), [0, 1]);
  assert.equal(last.get(0).action.do, "raise");
  assert.equal(last.get(0).cost, 40);
  assert.equal(last.get(1).cost, 10);
  assert.equal(moves.lastMoves(null).size, 0);
});

test("under range bets the chaal stepper stops a step below a Raise of the same price", () => {
  const top = [
    { do: "chaal", cost: 10, max: 20, targets: [], label: "Chaal 10-20" },
    { do: "raise", cost: 20, max: 20, targets: [], label: "Raise 20" },
  ];
  assert.deepEqual(moves.chaalRange(state({ legal: top })), { min: 10, max: 15, step: 5 });
  // a wider range goes on past the raise: only the top of the range would say the same thing twice
  const wide = [
    { do: "chaal", cost: 10, max: 40, targets: [], label: "Chaal 10-40" },
    { do: "raise", cost: 20, max: 20, targets: [], label: "Raise 20" },
  ];
  assert.deepEqual(moves.chaalRange(state({ legal: wide })), { min: 10, max: 40, step: 5 });
  // no raise (the stake is at its cap): the whole range
  assert.deepEqual(moves.chaalRange(state({ legal: top.slice(0, 1) })), { min: 10, max: 20, step: 5 });
  // one price: no stepper
  assert.equal(moves.chaalRange(state({ legal: [{ do: "chaal", cost: 10, max: 10, targets: [], label: "Chaal 10" }] })), null);
  // a range of one step, all of it the raise's: no stepper either
  const narrow = [
    { do: "chaal", cost: 10, max: 15, targets: [], label: "Chaal 10-15" },
    { do: "raise", cost: 15, max: 15, targets: [], label: "Raise 15" },
  ];
  assert.equal(moves.chaalRange(state({ legal: narrow })), null);
});
