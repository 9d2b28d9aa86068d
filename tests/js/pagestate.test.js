import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, state } from "./page.js";

const { START, Store, reduce, BUBBLE_MS } = await import(new URL("pagestate.js", JS));

/** The page after each of `actions`, from the start. */
function after(...actions) {
  return actions.reduce(reduce, START);
}

const ranged = [
  { do: "chaal", cost: 20, max: 80, label: "Chaal", targets: [] },
  { do: "raise", cost: 80, max: 0, label: "Raise", targets: [] },
  { do: "pack", cost: 0, max: 0, label: "Pack", targets: [] },
];

test("a received state is shown, answers the move on its way, and is taken whole after the connection was lost", () => {
  const st = state();
  const sent = after({ type: "received", st, now: 0 }, { type: "sent" });
  assert.equal(sent.pending, true);
  const answered = reduce(sent, { type: "received", st: state({ version: 11 }), now: 0 });
  assert.equal(answered.pending, false);
  assert.equal(answered.st.version, 11);
  assert.equal(answered.fresh, false);
  const lost = reduce(sent, { type: "connection", status: "lost" });
  assert.deepEqual([lost.lost, lost.fresh, lost.pending], [true, true, false]);
  assert.equal(reduce(lost, { type: "connection", status: "retrying" }), lost, "retrying changes nothing");
  assert.equal(reduce(lost, { type: "connection", status: "open" }).lost, false);
});

test("an action that changes nothing leaves the page the same object, and the store tells nobody", () => {
  const page = after({ type: "received", st: state(), now: 0 });
  assert.equal(reduce(page, { type: "answered" }), page);
  assert.equal(reduce(page, { type: "connection", status: "open" }), page);
  assert.equal(reduce(page, { type: "tick", now: 5 }), page);
  assert.equal(reduce(page, { type: "step", by: 1 }), page, "no stepper: no amount");
  const told = [];
  const store = new Store(page, (next, prev, action) => told.push(action.type));
  assert.equal(store.dispatch({ type: "answered" }), false);
  assert.equal(store.dispatch({ type: "sent" }), true);
  assert.deepEqual(told, ["sent"]);
  assert.throws(() => reduce(page, { type: "nonsense" }), /no action nonsense/);
});

test("the chaal amount is the stepper's least at a new turn, moves by steps within the range, and is forgotten with the hand", () => {
  const turn = state({ legal: ranged }, { stake: 20, boot: 10 });
  let page = after({ type: "received", st: turn, now: 0 });
  assert.equal(page.amount, 20, "the least, chosen by the page, not by drawing it");
  page = reduce(page, { type: "step", by: 1 });
  assert.equal(page.amount, 25); // a step is half the boot
  for (let i = 0; i < 20; i++) page = reduce(page, { type: "step", by: 1 });
  assert.equal(page.amount, 75, "a step below the raise's price at most");
  page = reduce(page, { type: "step", by: -1 });
  assert.equal(page.amount, 70);
  // another state of the same turn keeps the choice; the turn's end drops it
  page = reduce(page, { type: "received", st: { ...turn, version: 11 }, now: 0 });
  assert.equal(page.amount, 70);
  page = reduce(page, { type: "received", st: state({ version: 12, legal: [] }), now: 0 });
  assert.equal(page.amount, null);
});

test("the side show's partner is the first seat it may ask unless another was chosen, and only among them", () => {
  const side = { do: "sideshow", cost: 20, max: 0, label: "Side show", targets: [1, 2] };
  let page = after({ type: "received", st: state({ legal: [side] }), now: 0 });
  assert.equal(page.partner, 1);
  page = reduce(page, { type: "partner", seat: 2 });
  assert.equal(page.partner, 2);
  assert.equal(reduce(page, { type: "partner", seat: 5 }), page, "a seat it may not ask is not chosen");
  const next = reduce(page, { type: "received", st: state({ version: 11, legal: [side] }, { number: 2 }), now: 0 });
  assert.equal(next.partner, 1, "a new hand starts again from the first");
});

test("a new chat message gets a bubble at its seat until its time is up; a muted person's does not", () => {
  const hello = (n, seat) => ({ n, seat, kind: "phrase", text: "shabash" });
  let page = after({ type: "received", st: state({ chat: [hello(1, 1)] }), now: 0 });
  assert.deepEqual(page.bubbles, {}, "what was said before the page came is not bubbled");
  const st = state({ version: 11, chat: [hello(1, 1), hello(2, 1)] });
  page = reduce(page, { type: "received", st, now: 1000 });
  assert.equal(page.bubbles[1].message.n, 2);
  assert.equal(page.bubbles[1].until, 1000 + BUBBLE_MS);
  const still = reduce(page, { type: "tick", now: 1000 + BUBBLE_MS - 1 });
  assert.equal(still, page);
  assert.deepEqual(reduce(page, { type: "tick", now: 1000 + BUBBLE_MS }).bubbles, {});
  page = reduce(page, { type: "mute", seat: 1 });
  assert.deepEqual(page.muted, ["1:Bikash"]);
  page = reduce(page, { type: "received", st: state({ version: 12, chat: [...st.chat, hello(3, 1)] }), now: 2000 });
  assert.equal(page.bubbles[1].message.n, 2, "no bubble for a muted person");
  assert.deepEqual(reduce(page, { type: "mute", seat: 1 }).muted, []);
});

test("the chat is read while it is open; the menu's question goes when what is open changes", () => {
  const say = (n) => ({ n, seat: 1, kind: "text", text: "chiya?" });
  let page = after({ type: "received", st: state({ chat: [say(1)] }), now: 0 });
  assert.equal(page.readN, 1, "what was there when the page came counts as read");
  page = reduce(page, { type: "received", st: state({ version: 11, chat: [say(1), say(2)] }), now: 0 });
  assert.equal(page.readN, 1);
  page = reduce(page, { type: "open", which: "chat" });
  assert.equal(page.readN, 2);
  page = reduce(page, { type: "open", which: "menu" });
  assert.equal(page.open, "menu");
  page = reduce(page, { type: "confirm", question: { kind: "leave" } });
  assert.deepEqual(page.confirm, { kind: "leave" });
  page = reduce(page, { type: "open", which: "menu" });
  assert.deepEqual([page.open, page.confirm], [null, null]);
});

test("Past hands: opened and closed, a game chosen, its list asked for and answered, an older answer dropped", () => {
  let page = after({ type: "received", st: state(), now: 0 });
  const untouched = page.hands;
  assert.equal(reduce(page, { type: "hands/closed" }), page, "closed already: the same page");
  page = reduce(page, { type: "hands/opened" });
  assert.equal(page.hands.open, true);
  assert.equal(page.call, START.call, "the call's part stays the same object");
  page = reduce(page, { type: "hands/loading", key: "1:playing:0" });
  assert.deepEqual([page.hands.asked, page.hands.loading, page.hands.list], ["1:playing:0", true, null]);
  const list = [{ hand: 1 }];
  page = reduce(page, { type: "hands/loaded", key: "1:playing:0", list });
  assert.deepEqual([page.hands.list, page.hands.loading], [list, false]);
  page = reduce(page, { type: "hands/checked", key: "1:playing:0", index: 0, result: { busy: true } });
  page = reduce(page, { type: "hands/details", index: 0 });
  assert.deepEqual([page.hands.checks, page.hands.details], [{ 0: { busy: true } }, [0]]);
  assert.deepEqual(reduce(page, { type: "hands/details", index: 0 }).hands.details, [], "closed again");
  // the first game chosen: its list comes; the answer for the game in play, late, is dropped
  page = reduce(page, { type: "hands/loading", key: "1:playing:1" });
  page = reduce(page, { type: "hands/game", game: 1 });
  assert.deepEqual([page.hands.game, page.hands.list, page.hands.checks, page.hands.details], [1, null, {}, []]);
  page = reduce(page, { type: "hands/loading", key: "1" });
  const late = reduce(page, { type: "hands/loaded", key: "1:playing:1", list: [] });
  assert.equal(late, page);
  assert.equal(reduce(page, { type: "hands/checked", key: "1:playing:1", index: 0, result: {} }), page, "a check of the older list is dropped");
  const refusal = { code: "token/invalid", reason: "no such seat" };
  page = reduce(page, { type: "hands/failed", key: "1", error: refusal });
  assert.deepEqual([page.hands.failed, page.hands.loading], [refusal, false]);
  page = reduce(page, { type: "hands/loading", key: "1" });
  assert.equal(page.hands.failed, refusal, "said till the next answer");
  page = reduce(page, { type: "hands/loaded", key: "1", list });
  assert.equal(page.hands.failed, null);
  page = reduce(page, { type: "hands/closed" });
  assert.equal(page.hands.open, false);
  assert.equal(untouched, START.hands);
});

test("Past hands asked for another game's list: the one shown goes at once, with its checks; the same game's stays till the answer", () => {
  let page = reduce(after({ type: "received", st: state(), now: 0 }), { type: "hands/opened" });
  page = reduce(page, { type: "hands/loading", key: "1:playing:2" });
  const list = [{ hand: 1 }, { hand: 2 }];
  page = reduce(page, { type: "hands/loaded", key: "1:playing:2", list });
  page = reduce(page, { type: "hands/checked", key: "1:playing:2", index: 0, result: { verified: true } });
  page = reduce(page, { type: "hands/details", index: 0 });
  const shown = page.hands;
  // the game's end: the same game's list, asked again, stays on the page till it comes
  page = reduce(page, { type: "hands/loading", key: "1:finished:3" });
  assert.deepEqual([page.hands.list, page.hands.checks, page.hands.details], [list, shown.checks, shown.details]);
  page = reduce(page, { type: "hands/closed" });
  // Play again, and Past hands opened: the last game's list is not this game's
  page = reduce(page, { type: "hands/opened" });
  page = reduce(page, { type: "hands/loading", key: "2:playing:0" });
  assert.deepEqual([page.hands.asked, page.hands.loading, page.hands.list, page.hands.checks, page.hands.details], ["2:playing:0", true, null, {}, []]);
  // an earlier game chosen and asked for again: its list stays till the answer
  page = reduce(page, { type: "hands/game", game: 1 });
  page = reduce(page, { type: "hands/loading", key: "1" });
  page = reduce(page, { type: "hands/loaded", key: "1", list });
  assert.equal(reduce(page, { type: "hands/loading", key: "1" }).hands.list, list);
});

test("Past hands: a download in progress, and the parts of deals this phone sent", () => {
  let page = reduce(START, { type: "hands/saving" });
  assert.equal(page.hands.saving, true);
  assert.equal(reduce(page, { type: "hands/saving" }), page);
  page = reduce(page, { type: "hands/saved" });
  assert.equal(page.hands.saving, false);
  page = reduce(page, { type: "hands/part", for: "c1", part: "ab" });
  assert.deepEqual(page.hands.sent, { c1: "ab" });
  assert.equal(reduce(page, { type: "hands/part", for: "c1", part: "ab" }), page);
  const st = state();
  const shown = reduce(page, { type: "received", st, now: 0 });
  assert.equal(shown.hands, page.hands, "a state leaves Past hands the same object");
  assert.equal(reduce(shown, { type: "received", st: state({ version: 11 }), now: 0 }).hands, page.hands);
});

test("the call as the page shows it: joining, joined, muted, a seat unheard, the roster, who talks, a problem", () => {
  let page = reduce(START, { type: "call/joining" });
  assert.equal(page.call.joining, true);
  assert.equal(page.hands, START.hands);
  page = reduce(page, { type: "call/problem", problem: { key: "call.noMic", params: {} } });
  assert.deepEqual([page.call.joining, page.call.problem], [false, { key: "call.noMic", params: {} }]);
  page = reduce(page, { type: "call/joining" });
  assert.equal(page.call.problem, null, "asking again clears what went wrong");
  page = reduce(page, { type: "call/joined" });
  assert.deepEqual([page.call.joined, page.call.joining], [true, false]);
  page = reduce(page, { type: "call/mute" });
  assert.equal(page.call.muted, true);
  assert.equal(reduce(page, { type: "call/mute" }).call.muted, false);
  page = reduce(page, { type: "call/hear", seat: 2 });
  assert.deepEqual(page.call.unheard, [2]);
  assert.deepEqual(reduce(page, { type: "call/hear", seat: 2 }).call.unheard, []);
  const seats = [{ seat: 0, n: 1, muted: false }];
  page = reduce(page, { type: "call/roster", seats });
  assert.equal(page.call.roster, seats);
  page = reduce(page, { type: "call/speaking", seats: [0, 2] });
  assert.deepEqual(page.call.speaking, [0, 2]);
  assert.equal(reduce(page, { type: "call/speaking", seats: [2, 0] }), page, "the same seats: nothing to draw");
  page = reduce(page, { type: "call/left" });
  assert.deepEqual([page.call.joined, page.call.speaking], [false, []]);
  assert.equal(reduce(page, { type: "call/left" }), page);
  assert.throws(() => reduce(page, { type: "call/nonsense" }), /no action call\/nonsense/);
});
