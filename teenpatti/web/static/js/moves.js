// The moves of a hand, in words: whose turn it is, the legal moves in the order the buttons show
// them, and how a move reads ("Chaal 20"). Pure: it reads the server's state and changes nothing.

import { num, t } from "./i18n.js";

/** The order of the action buttons, left to right. */
export const ORDER = ["see", "chaal", "raise", "show", "sideshow", "allin", "pack"];

/** Whether the state asks this phone's player to move now. */
export function isMyTurn(st) {
  return Boolean(
    st && st.hand && !st.hand.finished && st.you !== null && st.hand.actor === st.you && st.legal.length > 0,
  );
}

/** A seat as the page names it: "You" for this phone's own seat, "Chandra (computer)" for a seat
 *  no person ever held, so a computer player is never taken for a person. */
export function seatName(st, seat) {
  if (st.you === seat) return t("you");
  const row = st.seats[seat];
  if (!row) return "?";
  return isComputer(row) ? t("bot.name", { name: row.name }) : row.name;
}

/** Whether a seat is the computer's own (no person sat there). Rows of old states lack `person`. */
export function isComputer(row) {
  return Boolean(row && row.bot && row.person === false);
}

/** What a computer seat's badge says: "Computer · Hard" (every computer seat plays at the table's level). */
export function botBadge(st) {
  return t("bot.badge", { level: t(`bots.${st.settings.bots}`) });
}

/** A move in words, with the chips it put in when it put any in. */
export function moveText(action, cost) {
  const what = t(`did.${action.do}`);
  return cost ? t("did.cost", { what, n: cost }) : what;
}

/** The legal moves in button order. */
export function orderedLegal(st) {
  return [...st.legal].sort((a, b) => ORDER.indexOf(a.do) - ORDER.indexOf(b.do));
}

/**
 * A move in words and the chips it would put in: a chaal the player may size shows the `chosen`
 * amount (null for the least), a side show names whom it asks (its `target`, or its only one)
 * before its price: "Side show with Bina 40", unless `named` is false (its button, under a line
 * that names the partner).
 */
export function moveLabel(action, st, chosen = null, target = null, named = true) {
  const name = t(`act.${action.do}`);
  const amount = action.do === "chaal" && chosen !== null && action.max > action.cost ? chosen : action.cost;
  const only = target === null && action.targets && action.targets.length === 1 ? action.targets[0] : target;
  const partner = named ? only : null;
  // a side show names its partner before its price: "Side show with Bina 40"
  const what = action.do === "sideshow" && partner !== null ? t("act.with", { action: name, name: seatName(st, partner) }) : name;
  const text = action.cost || action.max ? `${what} ${num(amount)}` : what;
  return { text, amount };
}

/**
 * The amounts the chaal stepper offers under range bets: {min, max, step}, or null when a chaal
 * has one price. At the top of the range a chaal would cost what the Raise button costs (the same
 * move twice, "Chaal 20" beside "Raise 20"): the stepper then stops a step below it.
 */
export function chaalRange(st) {
  const chaal = st.legal.find((a) => a.do === "chaal");
  if (!chaal || !(chaal.max > chaal.cost)) return null;
  const step = Math.max(1, Math.round(st.hand.boot / 2));
  const raise = st.legal.find((a) => a.do === "raise");
  const max = raise && raise.cost === chaal.max ? Math.max(chaal.cost, chaal.max - step) : chaal.max;
  return max > chaal.cost ? { min: chaal.cost, max, step } : null;
}

/** The last move each seat made this hand (a See shows as a badge instead), by seat. */
export function lastMoves(hand) {
  const moves = new Map();
  if (!hand) return moves;
  for (const action of hand.actions) {
    if (action.do !== "see") moves.set(action.seat, { action, cost: action.paid });
  }
  return moves;
}
