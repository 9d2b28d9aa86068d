// The turn clock: how far this phone's clock is from the server's, and the timer bars and text,
// updated four times a second without re-rendering the table.

import { t } from "./i18n.js";

let skew = 0; // local clock minus the server's, in seconds, learnt from each state

/** Learn the skew from a new state, come at local time `nowMs`: its `now`, or else a fresh turn
 *  deadline (a turn that has just begun). */
export function learnSkew(prev, st, nowMs = Date.now()) {
  if (typeof st.now === "number") {
    skew = nowMs / 1000 - st.now; // the server says what time it is
  } else if (st.hand && st.deadline && prev && prev.deadline !== st.deadline && st.settings.turn_seconds) {
    skew = nowMs / 1000 - (st.deadline - st.settings.turn_seconds);
  }
}

/** Seconds left on the turn of `st` at local time `nowMs`, between 0 and the turn's length. */
export function secondsLeft(st, nowMs = Date.now()) {
  const total = st.settings.turn_seconds || 30;
  return Math.max(0, Math.min(total, st.deadline - (nowMs / 1000 - skew)));
}

const WARN_AT = [10, 5]; // seconds left at which a player on turn is told, when the turn is longer
let warned = { deadline: null, at: new Set() };

/**
 * The warning to say now, if any: "Only 5 s left." once per threshold crossed on this turn, for a
 * player whose turn it is (`mine`), and only for turns longer than the threshold.
 */
export function hurry(st, mine, nowMs = Date.now()) {
  if (!st || !st.deadline || !st.hand || st.hand.finished || !mine) return null;
  if (warned.deadline !== st.deadline) warned = { deadline: st.deadline, at: new Set() };
  const total = st.settings.turn_seconds || 30;
  const left = secondsLeft(st, nowMs);
  const due = WARN_AT.filter((n) => total > n && left <= n && left > 0 && !warned.at.has(n));
  if (!due.length) return null;
  for (const n of due) warned.at.add(n);
  return t("turn.hurry", { n: Math.min(...due) });
}

/** Draw the time left into the timer bars and texts under `root`. */
export function tick(root, st) {
  if (!st || !st.deadline || !st.hand || st.hand.finished) return;
  const total = st.settings.turn_seconds || 30;
  const left = secondsLeft(st);
  const share = `scaleX(${(left / total).toFixed(3)})`;
  for (const bar of root.querySelectorAll("[data-timer-bar]")) {
    bar.style.transform = share;
    bar.classList.toggle("low", left <= 5);
  }
  const secs = Math.ceil(left);
  for (const el of root.querySelectorAll("[data-timer-text]")) {
    const text = t("turn.left", { n: secs });
    if (el.textContent !== text) el.textContent = text;
    el.parentElement.dataset.left = String(secs);
  }
}
