// The waiting room: the seats taken so far, the table's settings and house rules and the host's
// Start button (first, so the host never scrolls to start), then the table's code, link and QR
// code to share (share.js: the table menu offers the same during the game).

import { catalogue, changedOptions } from "./catalogue.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { ruleLine } from "./rulewords.js";
import { invitePanel } from "./share.js";
import { socialPanel } from "./social.js";

const SHOWN_APART = new Set(["boot", "hands"]); // the settings line says these

export function waitingRoom(view, st) {
  const me = st.you;
  const host = st.seats.find((seat) => seat.host);
  const isHost = me !== null && st.seats[me] && st.seats[me].host;
  const rows = [];
  for (let i = 0; i < st.settings.seats; i++) {
    const seat = st.seats[i];
    rows.push(
      h(
        "li",
        { class: seat ? "taken" : "empty", "data-key": `w${i}`, "data-testid": `lobby-seat-${i}` },
        seat
          ? [
              h("span", { class: "seat-name" }, seat.name),
              i === me ? h("span", { class: "tag" }, t("you")) : null,
              seat.host ? h("span", { class: "tag" }, t("host")) : null,
            ]
          : [h("span", { class: "muted" }, t("wait.empty")), " ", h("span", { class: "badge bot" }, t("bot.badge", { level: t(`bots.${st.settings.bots}`) }))],
      ),
    );
  }
  return h(
    "div",
    { class: "lobby", "data-testid": "lobby" },
    h(
      "section",
      { class: "panel", "aria-labelledby": "seats-title" },
      h("h1", { id: "seats-title" }, t("wait.seats")),
      h("ol", { class: "lobby-seats" }, rows),
      h("p", { class: "muted small" }, settingsText(st.settings)),
      customRules(st.settings),
      isHost
        ? h(
            "button",
            {
              type: "button",
              class: "btn primary big",
              "data-testid": "start",
              disabled: view.held,
              onclick: () => view.send({ type: "start" }),
            },
            t("wait.start"),
          )
        : h("p", { class: "waiting", "data-testid": "wait-host" }, t("wait.host", { name: host ? host.name : "" })),
    ),
    invitePanel(view, st),
    view.call.panel(st),
    socialPanel(view, st),
  );
}

/** The game's settings in a line: hands, boot, the computer's level, the timer. */
export function settingsText(settings) {
  const rules = settings.rules || {};
  return t("wait.settings", {
    hands: rules.hands,
    boot: rules.boot,
    bots: t(`bots.${settings.bots}`),
    timer: settings.turn_seconds ? t("wait.timed", { time: t("timer.secs", { n: settings.turn_seconds }) }) : t("wait.untimed"),
  });
}

/** The house rules: the preset's name unless it is the default, and the options changed from it. */
export function customRules(settings) {
  const rules = settings.rules || {};
  const cat = catalogue();
  const named = rules.preset && rules.preset !== (cat ? cat.default : "nepal");
  const changed = changedOptions(rules)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => ruleLine(key, value));
  return [
    named
      ? h("p", { class: "muted small", "data-testid": "preset" }, `${t(`preset.${rules.preset}`)} · ${t(`play.${settings.play || "live"}`)}`)
      : null,
    changed.length
      ? h("p", { class: "small", "data-testid": "house-rules" }, t("wait.custom", { rules: changed.join(" · ") }))
      : null,
  ];
}
