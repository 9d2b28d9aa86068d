import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, state } from "./page.js";

const { caption, handNews, packedHow, sideShowText } = await import(new URL("happened.js", JS));
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
