// The turn clock: how far this phone's clock is from the server's, the warnings as the time runs
// out, and the timer bars and countdown, drawn once a turn and run by the compositor.

import { h } from "./dom.js";
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

let drawn = { deadline: null, total: 0, left: 0 };

/**
 * The turn clock drawn as it should start: the seconds the turn has left at its first drawing
 * (`left`, kept for the rest of the turn so what is built from a state is the same each time)
 * and its length (`total`), or null when no turn is timed.
 */
export function clockOf(st, nowMs = Date.now()) {
  if (!st || !st.deadline || !st.hand || st.hand.finished) return null;
  const total = st.settings.turn_seconds || 30;
  if (drawn.deadline !== st.deadline) drawn = { deadline: st.deadline, total, left: secondsLeft(st, nowMs) };
  return drawn;
}

/**
 * The lines of the countdown, one a second from the whole turn down to nothing ("30 s left"
 * ... "0 s left"), as one text of lines: the clock shows one line at a time and moves the text
 * up a line a second (`startClocks`), so the words are written once a turn, never each second.
 */
export function countdownText(total) {
  const lines = [];
  for (let n = total; n >= 0; n--) lines.push(t("turn.left", { n }));
  return lines.join("\n");
}

/** A timer bar, full; `startClocks` runs it down. */
export function timerBar() {
  return h("span", { class: "bar", "data-timer-bar": "" }, h("span", { class: "bar-low" }));
}

/**
 * The countdown of a turn's `clock` (`clockOf`): a window one line high on every line of the
 * turn ("30 s left" ... "0 s left", `countdownText`). Hidden from screen readers, which hear the
 * warnings instead (`hurry`).
 */
export function countdown(clock) {
  return h(
    "span",
    { class: "timer-text", "aria-hidden": "true" },
    h("span", { class: "timer-lines", "data-timer-text": "" }, countdownText(clock.total)),
  );
}

const LOW_AT = 5; // seconds left from which the bars turn red

/**
 * Start the clocks under `root` on the turn of `st`: each timer bar shrinks to nothing and turns
 * red for its last seconds, each countdown steps down a line a second, by animations of
 * transform and opacity alone, which the compositor runs without the page laying anything out
 * or running any script while the turn waits. Each element is started once per turn (a clock
 * kept on screen across a redraw runs on; a new one starts where the turn is); under reduced
 * motion the bars move a step a second rather than smoothly. `now` (ms, the document timeline's
 * clock) is for tests.
 */
export function startClocks(root, st, nowMs = Date.now()) {
  const clock = clockOf(st, nowMs);
  if (!clock) return;
  const total = clock.total * 1000;
  const delay = -(clock.total - secondsLeft(st, nowMs)) * 1000; // already run, in ms
  const steps = typeof window !== "undefined" && typeof window.matchMedia === "function"
    && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const run = (el, keyframes, options) => {
    if (el.__clock === st.deadline) return;
    if (el.__clockAnimation) el.__clockAnimation.cancel();
    el.__clock = st.deadline;
    el.__clockAnimation = el.animate(keyframes, { fill: "forwards", ...options });
  };
  for (const bar of root.querySelectorAll("[data-timer-bar]")) {
    const easing = steps ? `steps(${clock.total}, end)` : "linear";
    run(bar, [{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }], { duration: total, delay, easing });
    const low = bar.firstElementChild;
    if (low) run(low, [{ opacity: 0 }, { opacity: 1 }], { duration: 1, delay: delay + total - LOW_AT * 1000 });
  }
  for (const strip of root.querySelectorAll("[data-timer-text]")) {
    const lines = clock.total + 1;
    run(strip, [{ transform: "translateY(0)" }, { transform: `translateY(${(-100 * clock.total) / lines}%)` }], {
      duration: total,
      delay,
      easing: `steps(${clock.total}, end)`,
    });
  }
}
