// "My tables": every table this phone holds a seat at (store.js), each with its game and whose turn
// it is there, read from GET /api/tables/CODE. A play-anytime table shows "Your turn" here when the
// others have played and it waits for you.

import { alertsControl } from "./alerts.js";
import { h, morphChildren } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { isComputer } from "./moves.js";
import { api } from "./net.js";
import * as store from "./store.js";

function statusOf(table, seat) {
  if (table.status === "waiting") return ["waiting", t("mine.waiting")];
  if (table.status === "finished") return ["finished", t("mine.finished")];
  if (table.turn === null || table.turn === undefined) return ["between", t("mine.between")];
  if (table.turn === seat) return ["yours", t("mine.yours")];
  const who = table.seats[table.turn];
  return ["theirs", t("mine.theirs", { name: !who ? "" : isComputer(who) ? t("bot.name", { name: who.name }) : who.name })];
}

function row(code, seat, token) {
  const line = h("span", { class: "menu-sub", "data-testid": `mine-${code}-status` }, t("mine.loading"));
  const game = h("span", { class: "menu-sub" });
  const item = h(
    "a",
    { class: "menu-item mine", href: `/t/${code}`, "data-link": "", "data-testid": `mine-${code}`, "data-turn": "" },
    h("span", { class: "menu-title" }, t("table.code", { code })),
    game,
    line,
  );
  const slot = h("div", { class: "mine-alerts" });
  api(`/api/tables/${encodeURIComponent(code)}`)
    .then((table) => {
      const [kind, text] = statusOf(table, seat);
      if (token && table.settings && table.settings.play === "anytime" && table.status !== "finished") {
        const busy = { now: false, error: null };
        const draw = () => morphChildren(slot, [alertsControl(code, token, draw, busy)]);
        draw();
      }
      item.dataset.turn = kind;
      line.textContent = text;
      const settings = table.settings || {};
      const preset = (settings.rules && settings.rules.preset) || "nepal";
      game.textContent = `${t(`preset.${preset}`)} · ${t(`play.${settings.play || "live"}`)}`;
    })
    .catch((err) => {
      item.dataset.turn = "gone";
      line.textContent = errorText(err.code, err.reason);
    });
  return h("li", {}, item, slot);
}

export function myTablesPage() {
  const tables = store.savedTables();
  return h(
    "div",
    { class: "page" },
    h(
      "section",
      { class: "panel", "data-testid": "my-tables" },
      h("h1", {}, t("mine.title")),
      h("p", { class: "muted" }, t("mine.intro")),
      h("ul", { class: "menu mine-list" }, tables.map(({ code, seat, token }) => row(code, seat, token))),
    ),
  );
}
