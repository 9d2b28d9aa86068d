// What just happened at the table, in words every player sees (not only screen readers): each
// seat's last move as a caption short enough for a 360-px phone, why a seat packed (the timer, a
// lost side show), a side show's outcome without its cards, and the news line under the turn line.
// Pure: it reads the server's state (docs/protocol.md: `hand.actions` carry `loser` and `timeout`).

import { num, t } from "./i18n.js";
import { seatName } from "./moves.js";

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

/** The news a move makes beyond the move itself (a side show's outcome, a timeout), or null. */
export function newsOf(st, actions, index) {
  const action = actions[index];
  if (typeof action.loser === "number") return sideShowText(st, actions, index);
  if (action.timeout) return timeoutText(st, action);
  return null;
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
