// "My tables": every table this phone holds a seat at (store.js), each with its players, its game,
// whose turn it is there and how long it has waited, read from GET /api/tables/CODE. Tables where
// it is your turn come first, in gold (a play-anytime table waits for you there); a finished
// table, one the server no longer has, or one left for a week can be taken off the list. A
// play-anytime table offers its turn alerts (alerts.js) under its entry.

import { alertsControl } from "./alerts.js";
import { h, morphChildren } from "./dom.js";
import { errorText, joinNames, t } from "./i18n.js";
import { isComputer } from "./moves.js";
import { api } from "./net.js";
import * as store from "./store.js";

/** The order of the list: your turn first, then games in play, waiting rooms, then the rest. */
const RANK = { yours: 0, theirs: 1, between: 1, waiting: 2, "": 3, finished: 4, gone: 5 };
/** A table left this long (seconds) may be taken off the list even while it is in play. */
export const OLD = 7 * 24 * 3600;

/** Where a table is for the seat `seat`: [kind, words]. Pure. */
export function statusOf(table, seat) {
  if (table.status === "waiting") return ["waiting", t("mine.waiting")];
  if (table.status === "finished") return ["finished", t("mine.finished")];
  if (table.turn === null || table.turn === undefined) return ["between", t("mine.between")];
  if (table.turn === seat) return ["yours", t("mine.yours")];
  const who = table.seats[table.turn];
  return ["theirs", t("mine.theirs", { name: !who ? "" : isComputer(who) ? t("bot.name", { name: who.name }) : who.name })];
}

/** How long a table has waited, in the largest unit that fits: "5 min", "3 h", "2 days". Pure. */
export function waitedText(seconds) {
  if (seconds < 60) return t("mine.waitedS", { n: seconds });
  if (seconds < 3600) return t("mine.waitedM", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("mine.waitedH", { n: Math.floor(seconds / 3600) });
  return t("mine.waitedD", { n: Math.floor(seconds / 86400) });
}

/** The other players of a table, by name ("Bina and Chandra (computer)"). Pure. */
export function playersText(table, seat) {
  const names = table.seats.filter((row) => row.seat !== seat).map((row) => (isComputer(row) ? t("bot.name", { name: row.name }) : row.name));
  return names.length ? joinNames(names) : t("mine.alone");
}

function row(code, seat, token, at, place) {
  const title = h("span", { class: "menu-title", "data-testid": `mine-${code}-players` }, t("table.code", { code }));
  const line = h("span", { class: "menu-sub mine-status", "data-testid": `mine-${code}-status` }, t("mine.loading"));
  const game = h("span", { class: "menu-sub" });
  const item = h(
    "a",
    { class: "menu-item mine-table", href: `/t/${code}`, "data-link": "", "data-testid": `mine-${code}`, "data-turn": "" },
    title,
    game,
    line,
  );
  const slot = h("div", { class: "mine-alerts" });
  const li = h("li", { class: "mine-row", "data-testid": "mine-row", "data-code": code }, item, slot);
  li.rank = RANK[""];
  li.at = at;
  const removable = () => {
    if (li.querySelector("[data-testid=mine-remove]")) return;
    item.after(
      h(
        "button",
        {
          type: "button",
          class: "btn small mine-remove",
          "data-testid": "mine-remove",
          "aria-label": t("mine.removeLabel", { code }),
          onclick: () => {
            store.forgetSeat(code);
            const list = li.parentElement;
            li.remove();
            if (list && !list.children.length) list.replaceWith(h("p", { class: "muted", "data-testid": "mine-empty" }, t("mine.empty")));
          },
        },
        t("mine.remove"),
      ),
    );
  };
  api(`/api/tables/${encodeURIComponent(code)}`)
    .then((table) => {
      const [kind, text] = statusOf(table, seat);
      if (token && table.settings && table.settings.play === "anytime" && table.status !== "finished") {
        const busy = { now: false, error: null };
        const draw = () => morphChildren(slot, [alertsControl(code, token, draw, busy)]);
        draw();
      }
      item.dataset.turn = kind;
      const waited = typeof table.waited === "number" && kind !== "finished" ? table.waited : null;
      line.textContent = waited === null ? text : `${text} · ${waitedText(waited)}`;
      title.textContent = playersText(table, seat);
      const settings = table.settings || {};
      const preset = (settings.rules && settings.rules.preset) || "nepal";
      game.textContent = `${t("table.code", { code })} · ${t(`preset.${preset}`)} · ${t(`play.${settings.play || "live"}`)}`;
      li.rank = RANK[kind];
      if (kind === "finished" || (waited !== null && waited >= OLD)) removable();
      place(li);
    })
    .catch((err) => {
      item.dataset.turn = "gone";
      line.textContent = errorText(err.code, err.reason);
      li.rank = RANK.gone;
      removable();
      place(li);
    });
  return li;
}

export function myTablesPage() {
  const tables = store.savedTables();
  const list = h("ul", { class: "menu mine-list", "data-testid": "mine-list" });
  // each row finds its place once its table has answered: your turn first, then the most recent
  const place = () => {
    const rows = [...list.children].sort((a, b) => a.rank - b.rank || b.at - a.at);
    if (rows.some((li, i) => list.children[i] !== li)) {
      const had = list.contains(document.activeElement) ? document.activeElement : null;
      list.append(...rows);
      if (had) had.focus({ preventScroll: true });
    }
  };
  for (const { code, seat, token, at } of tables) list.appendChild(row(code, seat, token, at, place));
  return h(
    "div",
    { class: "page" },
    h(
      "section",
      { class: "panel", "data-testid": "my-tables" },
      h("h1", {}, t("mine.title")),
      h("p", { class: "muted" }, t("mine.intro")),
      tables.length ? list : h("p", { class: "muted", "data-testid": "mine-empty" }, t("mine.empty")),
    ),
  );
}
