// What changed between two states, in words for screen readers: a player sitting down, a new hand,
// the moves since the last state (and what the turn timer did), this player's cards once seen, a
// side show's outcome, a hand's result, the game's winner and this player's place, and "your turn"
// with the time left and the moves on offer (saying who asks, for a side show). Pure: the table
// view says the lines (docs/design.md, "The browser code"; docs/accessibility.md).

import { cardsName } from "./cards.js";
import { category, joinNames, sentences, t } from "./i18n.js";
import { newsOf } from "./happened.js";
import { isMyTurn, moveLabel, moveText, orderedLegal, seatName } from "./moves.js";
import { summary } from "./results.js";

function sameHand(prev, st) {
  return Boolean(prev && prev.hand && st.hand && prev.hand.number === st.hand.number);
}

/** Whether `st` deals a new hand after `prev` (not on the first state this page sees). */
export function startsHand(prev, st) {
  return Boolean(prev && st.hand && !sameHand(prev, st));
}

/** Whether `st` is the first state in which its hand is over. */
export function endsHand(prev, st) {
  return Boolean(st.hand && st.hand.finished && !(sameHand(prev, st) && prev.hand.finished));
}

/**
 * The moves made between `prev` and `st` in the same hand, one clause each ("Asha: Chaal 20"),
 * this player's own too but See ("You: Chaal 20": the echo that the move was made, as a keyboard
 * or screen-reader player cannot see the chips fly); a timeout and a side show's outcome are said as
 * the news they are (happened.js).
 */
function moveLines(prev, st) {
  const lines = [];
  const actions = st.hand.actions;
  for (let i = prev.hand.actions.length; i < actions.length; i++) {
    const action = actions[i];
    const news = newsOf(st, actions, i);
    if (action.timeout) lines.push(news);
    else {
      // my own See is said as the cards it turned over (below)
      if (action.seat !== st.you || action.do !== "see") lines.push(t("did.line", { name: seatName(st, action.seat), what: moveText(action, action.paid) }));
      if (news) lines.push(news);
    }
  }
  return lines;
}

/**
 * The announcements a new state `st` makes after `prev` (null for the first state):
 * `polite`, lines said in turn without interrupting, and `turn`, the alert that it is now this
 * player's turn (null if it is not newly so). `chosen` is the chaal amount picked on the stepper,
 * `left` the whole seconds left on a timed turn.
 */
export function announcements(prev, st, chosen = null, left = null) {
  const polite = [];
  const hand = st.hand;
  if (prev && st.status === "waiting" && prev.status === "waiting") {
    // who sits down in the waiting room
    for (const seat of st.seats) {
      if (seat && seat.seat !== st.you && !prev.seats.some((p) => p && p.seat === seat.seat)) {
        polite.push(t("wait.joined", { name: seat.name }));
      }
    }
  }
  if (!hand) return { polite, turn: null };
  const same = sameHand(prev, st);
  if (startsHand(prev, st)) polite.push(t("table.hand", { n: hand.number, of: hand.of }));
  if (same) {
    const lines = moveLines(prev, st);
    if (lines.length) polite.push(sentences(lines));
    // this player's cards, once they are turned over
    const seat = st.you === null ? null : st.seats[st.you];
    const was = st.you === null ? null : prev.seats[st.you];
    if (seat && seat.cards && !(was && was.cards)) {
      polite.push(t("mine.cards", { cards: cardsName(seat.cards), hand: seat.category ? category(seat.category) : "" }));
    }
  }
  if (prev && endsHand(prev, st)) {
    const done = summary(st);
    polite.push(sentences([done.title, done.how, ...done.hands]));
  }
  if (prev && st.status === "finished" && prev.status !== "finished" && st.standings) {
    const top = st.standings.filter((row) => row.place === 1);
    polite.push(
      top.some((row) => row.seat === st.you)
        ? t("end.youWin")
        : t("end.winner", { name: joinNames(top.map((row) => seatName(st, row.seat))) }),
    );
    const mine = st.standings.find((row) => row.seat === st.you);
    if (mine) polite.push(t("end.yourPlace", { place: mine.place, n: st.standings.length, chips: mine.chips }));
  }
  let turn = null;
  if (isMyTurn(st) && !(same && isMyTurn(prev))) {
    const labels = orderedLegal(st).map((a) => moveLabel(a, st, chosen).text);
    const actions = labels.join(", ");
    if (hand.side_show && hand.side_show[1] === st.you) {
      turn = t("side.cue", { name: seatName(st, hand.side_show[0]), actions });
    } else if (left !== null) {
      turn = t("turn.cueTimed", { n: left, actions });
    } else {
      turn = t("turn.cue", { actions });
    }
  }
  return { polite, turn };
}
