// What changed between two states, in words for screen readers: a new hand, the moves since the
// last state, a side show's outcome, a hand's result, the game's winner, and "your turn" with the
// moves on offer. Pure: the table view says the lines (docs/design.md, "The browser code").

import { joinNames, t } from "./i18n.js";
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

/** The moves made between `prev` and `st` in the same hand, one clause each ("Asha: Chaal 20"). */
function moveLines(prev, st) {
  const lines = [];
  for (const action of st.hand.actions.slice(prev.hand.actions.length)) {
    if (action.seat !== st.you) {
      lines.push(t("did.line", { name: seatName(st, action.seat), what: moveText(action, action.paid) }));
    }
    if (typeof action.loser === "number") {
      lines.push(t("side.result", { loser: seatName(st, action.loser) })); // who an accepted side show knocked out
    }
  }
  return lines;
}

/**
 * The announcements a new state `st` makes after `prev` (null for the first state):
 * `polite`, lines said in turn without interrupting, and `turn`, the alert that it is now this
 * player's turn (null if it is not newly so). `chosen` is the chaal amount picked on the stepper.
 */
export function announcements(prev, st, chosen = null) {
  const polite = [];
  const hand = st.hand;
  if (!hand) return { polite, turn: null };
  const same = sameHand(prev, st);
  if (startsHand(prev, st)) polite.push(t("table.hand", { n: hand.number, of: hand.of }));
  if (same) {
    const lines = moveLines(prev, st);
    if (lines.length) polite.push(lines.join(". "));
  }
  if (prev && endsHand(prev, st)) {
    const done = summary(st);
    polite.push([done.title, done.how, ...done.hands].filter(Boolean).join(". "));
  }
  if (prev && st.status === "finished" && prev.status !== "finished" && st.standings) {
    const top = st.standings.filter((row) => row.place === 1);
    polite.push(
      top.some((row) => row.seat === st.you)
        ? t("end.youWin")
        : t("end.winner", { name: joinNames(top.map((row) => row.name)) }),
    );
  }
  let turn = null;
  if (isMyTurn(st) && !(same && isMyTurn(prev))) {
    const labels = orderedLegal(st).map((a) => moveLabel(a, st, chosen).text);
    turn = t("turn.cue", { actions: labels.join(", ") });
  }
  return { polite, turn };
}
