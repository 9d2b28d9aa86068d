import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, state } from "./page.js";

const { caption, handNews, latestNews, packedHow, pastMoveText, sideShowText } = await import(new URL("happened.js", JS));
const { seatName } = await import(new URL("moves.js", JS));
const { summary } = await import(new URL("results.js", JS));
const i18n = await import(new URL("i18n.js", JS));

const asked = { seat: 1, do: "sideshow", paid: 20, stake: 10 };

test("captions are short forms with their amount, in both languages", () => {
  for (const lang of ["en", "ne"]) {
    i18n.setLang(lang);
    for (const action of [asked, { seat: 0, do: "accept", paid: 0 }, { seat: 0, do: "decline", paid: 0 }, { seat: 0, do: "raise", paid: 40 }]) {
      const text = caption(action);
      assert.ok(text.length <= 16, `${lang} ${action.do}: ${text}`);
      if (action.paid) assert.ok(text.endsWith(i18n.num(action.paid)), text);
    }
  }
  i18n.setLang("en");
});

test("a side show's outcome names who had the better hand and who packs, from each seat", () => {
  i18n.setLang("en");
  const actions = [asked, { seat: 0, do: "accept", paid: 0, stake: 10, loser: 0 }];
  const st = state({ you: 2, seats: [...state().seats, { ...state().seats[1], seat: 2, name: "Chandra", host: false }] }, { actions });
  assert.equal(sideShowText(st, actions, 1), "Bikash's hand was better: Asha packs");
  assert.equal(sideShowText({ ...st, you: 0 }, actions, 1), "Bikash's hand was better: you pack");
  assert.equal(sideShowText({ ...st, you: 1 }, actions, 1), "Your hand was better: Asha packs");
  assert.equal(packedHow(st.hand, 0), "sideshow");
  assert.equal(handNews(st).length, 1);
});

test("a seat no person held is named as the computer; a person's seat keeps its name", () => {
  i18n.setLang("en");
  const st = state();
  st.seats[1] = { ...st.seats[1], bot: true, person: false };
  assert.equal(seatName(st, 1), "Bikash (computer)");
  st.seats[1] = { ...st.seats[1], person: true };
  assert.equal(seatName(st, 1), "Bikash");
});

test("chips of a bet nobody called come back: said as returned, never as a win", () => {
  i18n.setLang("en");
  const st = state({}, {
    finished: true,
    ended_by: "all_in",
    pots: [{ amount: 200, winners: [1], returned: false }, { amount: 400, winners: [0], returned: true }],
  });
  st.seats[1] = { ...st.seats[1], cards: ["Ah", "Ad", "5c"], category: "pair" };
  const done = summary(st);
  assert.deepEqual(done.lines, ["Bikash wins 200 with Pair", "You get 400 back: nobody called it"]);
  assert.deepEqual([...done.winners], [1]);
});

test("a declined side show is told to everyone, from each seat, in both languages", () => {
  i18n.setLang("en");
  const actions = [asked, { seat: 0, do: "decline", paid: 0, stake: 10 }];
  const st = state({ you: 2, seats: [...state().seats, { ...state().seats[1], seat: 2, name: "Chandra", host: false }] }, { actions });
  assert.equal(latestNews(st), "Asha declined Bikash's side show");
  assert.equal(latestNews({ ...st, you: 0 }), "You declined Bikash's side show");
  assert.equal(latestNews({ ...st, you: 1 }), "Asha declined your side show");
  i18n.setLang("ne");
  assert.equal(latestNews(st), "Asha ले Bikash लाई साइड सो हुँदैन भन्नुभयो");
  i18n.setLang("en");
});

test("the news line holds the latest move's news only: the next move clears it", () => {
  i18n.setLang("en");
  const timedOut = { seat: 0, do: "pack", paid: 0, stake: 10, timeout: true };
  const st = state({}, { actions: [timedOut] });
  assert.equal(latestNews({ ...st, you: 1 }), "Asha ran out of time");
  const next = state({ you: 1 }, { actions: [timedOut, { seat: 1, do: "chaal", paid: 10, stake: 10 }] });
  assert.equal(latestNews(next), null);
});

test("past hands say whom a side show asked, what became of it, and a timeout", () => {
  i18n.setLang("en");
  const names = ["Asha", "Bikash", "Chandra"];
  const name = (seat) => names[seat];
  const actions = [
    { seat: 1, do: "sideshow", with: 0, paid: 20, stake: 10 },
    { seat: 0, do: "accept", paid: 0, stake: 10, loser: 0 },
    { seat: 2, do: "sideshow", with: 1, paid: 20, stake: 10 },
    { seat: 1, do: "decline", paid: 0, stake: 10, timeout: true },
    { seat: 2, do: "pack", paid: 0, stake: 10, timeout: true },
  ];
  const lines = actions.map((_, k) => pastMoveText(actions, k, name));
  assert.deepEqual(lines, [
    "Asked Asha for a side show 20",
    "Side show accepted: Asha packed",
    "Asked Bikash for a side show 20",
    "Declined Chandra's side show (time ran out)",
    "Packed (time ran out)",
  ]);
  i18n.setLang("ne");
  assert.equal(pastMoveText(actions, 0, name), "Asha सँग साइड सो २०");
  assert.equal(pastMoveText(actions, 4, name), "प्याक (समय सकियो)");
  i18n.setLang("en");
});

test("in a past hand this player is \"you\" inside a sentence, never \"You\"", () => {
  i18n.setLang("en");
  const name = (seat) => (seat === 0 ? i18n.t("you") : "Asha");
  const actions = [
    { seat: 1, do: "sideshow", with: 0, paid: 20, stake: 10 },
    { seat: 0, do: "decline", paid: 0, stake: 10 },
    { seat: 1, do: "sideshow", with: 0, paid: 20, stake: 10 },
    { seat: 0, do: "accept", paid: 0, stake: 10, loser: 0 },
    { seat: 0, do: "sideshow", with: 1, paid: 20, stake: 10 },
    { seat: 1, do: "decline", paid: 0, stake: 10 },
  ];
  const lines = actions.map((_, k) => pastMoveText(actions, k, name));
  assert.deepEqual(lines, [
    "Asked you for a side show 20",
    "Declined Asha's side show",
    "Asked you for a side show 20",
    "Side show accepted: you packed",
    "Asked Asha for a side show 20",
    "Declined your side show",
  ]);
  i18n.setLang("ne");
  assert.equal(pastMoveText(actions, 0, name), "तपाईंसँग साइड सो २०");
  assert.equal(pastMoveText(actions, 5, name), "तपाईंको साइड सो: हुँदैन");
  i18n.setLang("en");
});

test("a past hand names the seat's holder of that hand, not today's", async () => {
  i18n.setLang("en");
  const { heldBy } = await import(new URL("hands.js", JS));
  const st = state({ you: 1 });
  st.seats[0] = { ...st.seats[0], name: "Dipa" }; // Dipa took the computer Asha's seat since
  const history = { seats: [{ name: "Asha" }, { name: "Bikash" }] };
  assert.equal(heldBy(st, history, 0), "Asha");
  assert.equal(heldBy(st, history, 1), "You");
  assert.equal(heldBy(st, { seats: [{ name: "Dipa" }, { name: "Bikash" }] }, 0), "Dipa");
  // the computer's own seat then: named as a computer, though Dipa holds it now
  const computer = { seats: [{ name: "Asha", computer: true }, { name: "Bikash" }] };
  assert.equal(heldBy(st, computer, 0), "Asha (computer)");
  // Bikash (this phone) left since: the computer holds his seat now, but he played that hand
  st.seats[1] = { ...st.seats[1], bot: true, person: false };
  assert.equal(heldBy({ ...st, you: null }, history, 1), "Bikash");
  assert.equal(heldBy({ ...st, you: null }, { seats: [{}, { name: "Bikash", computer: true }] }, 1), "Bikash (computer)");
  i18n.setLang("ne");
  assert.equal(heldBy(st, computer, 0), "Asha (कम्प्युटर)");
  i18n.setLang("en");
});
