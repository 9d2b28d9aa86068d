// "Learn by playing": one scripted hand against three computer players, stopping at each decision
// to explain it. The page decides nothing: the deal, every price, the chips, the cards the learner
// may see and the outcome are the engine's, read from static/lesson.json (teenpatti/web/lesson.py
// writes it by playing the script through the engine; tests/web/test_lesson.py replays it). It
// never opens a table: nothing is stored or counted. Where the learner is stays on this phone
// while the page is open, so the hand-ranking chart can be opened and closed mid-hand.

import { hand as cards, handName } from "./cards.js";
import { h } from "./dom.js";
import { lang, num, t } from "./i18n.js";

let lesson = null;
let loading = null;
/** The step shown: -1 the deal, 0..n-1 the script's moves, n the result. */
let at = -1;

function load() {
  if (lesson) return Promise.resolve(lesson);
  if (!loading) {
    loading = fetch("/static/lesson.json")
      .then((reply) => (reply.ok ? reply.json() : Promise.reject(new Error(String(reply.status)))))
      .then((data) => {
        lesson = data;
        return data;
      })
      .finally(() => {
        loading = null;
      });
  }
  return loading;
}

function seatName(seat) {
  return seat === 0 ? t("you") : lesson.names[seat];
}

/** A kind of hand as a word inside a sentence ("a pair"). */
function handWord(category) {
  const word = t(`cat.${category}`);
  return lang() === "en" ? word.toLowerCase() : word;
}

/** The hand as the learner sees it before step `i` is played (its state after, for the computer's
 *  moves, which are shown done). */
function shownState(i) {
  const steps = lesson.steps;
  if (i >= steps.length) return steps[steps.length - 1].after;
  if (i >= 0 && !steps[i].learner) return steps[i].after;
  return i > 0 ? steps[i - 1].after : lesson.start;
}

/** The numbers and names a step's words need, all from the lesson. */
function params(i) {
  const step = lesson.steps[i];
  const before = i > 0 ? lesson.steps[i - 1].after : lesson.start;
  const chosen = step.legal.find((option) => option.do === step.do);
  const mine = step.after.seats[0].category || before.seats[0].category;
  const target = step.target ?? (step.do === "accept" ? step.seat : null);
  const theirs = target !== null ? step.after.seats[target].category : null;
  return {
    name: seatName(step.seat),
    target: step.target !== null ? seatName(step.target) : "",
    cost: chosen ? chosen.cost : 0,
    paid: step.paid,
    stake: before.stake,
    next: step.after.stake,
    hand: mine ? handWord(mine) : "",
    their: theirs ? handWord(theirs) : "",
  };
}

function seatRow(state, seat) {
  const row = state.seats[seat];
  const status = row.packed ? t("seat.packed") : row.seen ? t("seat.seen") : t("seat.blind");
  return h(
    "li",
    { class: `learn-seat${row.packed ? " packed" : ""}`, "data-testid": `learn-seat-${seat}` },
    h("span", { class: "seat-name" }, seatName(seat)),
    h("span", { class: "tag" }, status),
    h("span", { class: "chips" }, t("learn.chips", { n: row.chips })),
    h("span", { class: "learn-cards" }, cards(row.cards, "sm")),
    row.category ? h("span", { class: "small" }, handName(row.category)) : null,
  );
}

function moveLabel(option) {
  const label = t(`act.${option.do}`);
  return option.cost ? `${label} ${num(option.cost)}` : label;
}

export function learnPage(app) {
  if (!lesson) {
    const holder = h("div", { class: "page" }, h("p", { class: "panel muted", "data-testid": "learn-loading" }, t("conn.connecting")));
    load()
      .then(() => holder.isConnected && holder.replaceWith(learnPage(app)))
      .catch(() => {
        if (holder.isConnected) holder.firstChild.textContent = t("err.network");
      });
    return holder;
  }
  const steps = lesson.steps;
  const state = shownState(at);
  const redraw = (next) => {
    at = next;
    const page = document.querySelector("[data-testid=learn]");
    if (!page) return;
    const fresh = learnPage(app);
    page.replaceWith(fresh);
    const focus = fresh.querySelector(".learn-coach .btn.primary");
    if (focus) focus.focus({ preventScroll: true });
  };
  let words;
  let moves;
  if (at < 0) {
    words = t("learn.intro", { boot: lesson.boot });
    moves = [h("button", { type: "button", class: "btn primary big", "data-testid": "learn-start", onclick: () => redraw(0) }, t("learn.start"))];
  } else if (at >= steps.length) {
    const end = lesson.end;
    const winner = end.winners[0];
    const other = steps[steps.length - 1].target ?? [...state.seats.keys()].find((s) => s !== 0 && state.seats[s].cards && !state.seats[s].packed);
    words = [
      winner === 0
        ? t("learn.won", { pot: end.pot, hand: handWord(state.seats[0].category), name: seatName(other), their: handWord(state.seats[other].category) })
        : t("learn.lost", { pot: end.pot, name: seatName(winner) }),
      " ",
      t("learn.done"),
    ].join("");
    moves = [
      h("button", { type: "button", class: "btn primary big", "data-testid": "learn-again", onclick: () => redraw(-1) }, t("learn.again")),
      h("a", { class: "btn", href: "/", "data-link": "", "data-testid": "learn-home", onclick: () => (at = -1) }, t("learn.home")),
    ];
  } else {
    const step = steps[at];
    words = t(step.say, params(at));
    if (step.learner) {
      moves = [
        h(
          "div",
          { class: "learn-moves", role: "group", "aria-label": t("turn.you") },
          step.legal.map((option) =>
            h(
              "button",
              {
                type: "button",
                class: option.do === step.do ? "btn primary" : "btn",
                disabled: option.do !== step.do,
                "data-testid": `learn-do-${option.do}`,
                "data-cost": option.cost,
                onclick: () => redraw(at + 1),
              },
              moveLabel(option),
            ),
          ),
        ),
        h("p", { class: "help" }, t("learn.tap")),
      ];
    } else {
      moves = [h("button", { type: "button", class: "btn primary big", "data-testid": "learn-next", onclick: () => redraw(at + 1) }, t("learn.next"))];
    }
  }
  const done = at >= steps.length;
  return h(
    "div",
    { class: "page learn", "data-testid": "learn", "data-step": done ? "end" : String(at) },
    h("h1", {}, t("learn.title")),
    h("p", { class: "muted" }, t("learn.lead")),
    h("a", { class: "btn", href: "#ranking", "data-testid": "learn-ranking" }, t("learn.ranking")),
    h(
      "section",
      { class: "panel learn-table", "aria-label": t("table.pot") },
      h("p", { class: "learn-pot", "data-testid": "learn-pot" }, t("learn.pot", { pot: state.pot, stake: state.stake })),
      h("ol", { class: "learn-seats" }, lesson.order.map((seat) => seatRow(state, seat))),
    ),
    h(
      "section",
      { class: "panel learn-coach", "data-testid": "learn-coach" },
      at >= 0 && !done ? h("p", { class: "muted small" }, t("learn.step", { n: at + 1, total: steps.length })) : null,
      h("p", { class: "learn-words", "data-testid": "learn-words", role: "status", "aria-live": "polite" }, words),
      moves,
    ),
  );
}
