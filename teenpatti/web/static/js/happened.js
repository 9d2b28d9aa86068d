// What just happened at the table, in words every player sees (not only screen readers): each
// seat's last move as a caption short enough for a 360-px phone, why a seat packed (the timer, a
// lost side show), a side show's outcome without its cards, and the news line under the turn line.
// Pure: it reads the server's state (docs/protocol.md: `hand.actions` carry `loser` and `timeout`).

import { num, t } from "./i18n.js";
import { moveText, seatName } from "./moves.js";

/** A move as a seat's caption: a short form with its amount ("Raise 40", "Side show 20"). */
export function caption(action) {
  const what = t(`cap.${action.do}`);
  return action.paid ? `${what} ${num(action.paid)}` : what;
}

/** The seat that asked for the side show an `accept`/`decline` at `index` answers. */
function asker(actions, index) {
  for (let i = index - 1; i >= 0; i--) if (actions[i].do === "sideshow") return actions[i].seat;
  return null;
}

/** An accepted side show's outcome for everyone: "Bikash's hand was better: Asha packs". */
export function sideShowText(st, actions, index) {
  const action = actions[index];
  const loser = action.loser;
  const other = asker(actions, index);
  const winner = loser === action.seat ? other : action.seat;
  if (winner === st.you) return t("side.youBetter", { loser: seatName(st, loser) });
  if (loser === st.you) return t("side.betterThanYou", { winner: seatName(st, winner) });
  return t("side.better", { winner: seatName(st, winner), loser: seatName(st, loser) });
}

/** A move the turn timer made: "Time ran out: you packed" / "Asha ran out of time". */
export function timeoutText(st, action) {
  const mine = action.seat === st.you;
  if (action.do === "decline") return mine ? t("turn.timeoutDecline") : t("turn.timeoutOtherDecline", { name: seatName(st, action.seat) });
  return mine ? t("turn.timeout") : t("turn.timeoutOther", { name: seatName(st, action.seat) });
}

/** A side show declined, told to everyone: "Chandra declined Bina's side show". */
export function declineText(st, actions, index) {
  const action = actions[index];
  const other = asker(actions, index);
  if (action.seat === st.you) return t("side.youDeclined", { asker: seatName(st, other) });
  if (other === st.you) return t("side.declinedYours", { name: seatName(st, action.seat) });
  return t("side.declined", { name: seatName(st, action.seat), asker: seatName(st, other) });
}

/** The news a move makes beyond the move itself (a side show's outcome, a timeout), or null. */
export function newsOf(st, actions, index) {
  const action = actions[index];
  if (typeof action.loser === "number") return sideShowText(st, actions, index);
  if (action.timeout) return timeoutText(st, action);
  if (action.do === "decline") return declineText(st, actions, index);
  return null;
}

/** The news line under the turn line: the news of the latest move only (the next move clears it). */
export function latestNews(st) {
  const hand = st.hand;
  if (!hand || hand.finished || !hand.actions.length) return null;
  return newsOf(st, hand.actions, hand.actions.length - 1);
}

/** Every piece of news of this hand, oldest first, with the index of the move that made it. */
export function handNews(st) {
  const hand = st.hand;
  if (!hand) return [];
  const out = [];
  hand.actions.forEach((_, i) => {
    const text = newsOf(st, hand.actions, i);
    if (text) out.push({ index: i, text });
  });
  return out;
}

/** Why a seat packed this hand: "timeout" (the timer packed it), "sideshow" (it lost one) or null. */
export function packedHow(hand, seat) {
  for (const action of hand.actions) {
    if (action.do === "pack" && action.seat === seat && action.timeout) return "timeout";
    if (action.loser === seat) return "sideshow";
  }
  return null;
}

/**
 * A move of a past hand in words, with whom a side show asked, what became of it, and whether the
 * turn timer made it: "Asked Bina for a side show 20", "Side show accepted: Asha packed",
 * "Declined Bina's side show", "Packed (time ran out)". `name(seat)` names a seat as it was held
 * in that hand. Pure.
 */
export function pastMoveText(actions, index, name) {
  const action = actions[index];
  // this player inside a sentence is "you", not the "You" that starts a line
  const you = (seat) => name(seat) === t("you");
  let what;
  if (action.do === "sideshow" && typeof action.with === "number") {
    what = you(action.with) ? t("past.sideshowYou") : t("past.sideshow", { name: name(action.with) });
    if (action.paid) what = t("did.cost", { what, n: action.paid });
  } else if (action.do === "accept" && typeof action.loser === "number") {
    what = you(action.loser) ? t("past.acceptYou") : t("past.accept", { loser: name(action.loser) });
  } else if (action.do === "decline" && asker(actions, index) !== null) {
    const by = asker(actions, index);
    what = you(by) ? t("past.declineYou") : t("past.decline", { asker: name(by) });
  } else {
    what = moveText(action, action.paid);
  }
  return action.timeout ? t("past.timeout", { what }) : what;
}
