// The waiting room: the table's code, link and QR code to share, the seats taken so far, the
// table's settings and house rules, and the host's Start button.

import { catalogue, changedOptions } from "./catalogue.js";
import { codeText, h } from "./dom.js";
import { t } from "./i18n.js";
import { copyText, shareTable } from "./share.js";
import { socialPanel } from "./social.js";

const SHOWN_APART = new Set(["boot", "hands"]); // the settings line says these

/** Whether this page can neither copy nor share (a plain-http address that is not this device). */
export function byHand() {
  const clipboard = navigator.clipboard && typeof navigator.clipboard.writeText === "function";
  return !window.isSecureContext || (!clipboard && typeof navigator.share !== "function");
}

export function waitingRoom(view, st) {
  const me = st.you;
  const host = st.seats.find((seat) => seat.host);
  const isHost = me !== null && st.seats[me] && st.seats[me].host;
  const share = view.share.get();
  const link = share ? share.url : "";
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
      { class: "panel share", "aria-labelledby": "share-title" },
      h("h1", { id: "share-title" }, t("share.title")),
      h("p", { class: "label", id: "code-label" }, t("share.code")),
      h("p", { class: "code-big", "data-testid": "table-code", "data-code": st.code }, codeText(st.code)),
      h(
        "figure",
        { class: "qr" },
        h("img", {
          src: view.qr.src(),
          alt: t("share.qr.alt", { code: st.code }),
          width: 168,
          height: 168,
          "data-testid": "qr",
        }),
        h("figcaption", {}, t("share.qr")),
      ),
      h("label", { class: "label", for: "share-link" }, t("share.link")),
      h(
        "div",
        { class: "link-row" },
        h("input", {
          id: "share-link",
          class: "link",
          readonly: true,
          value: link,
          "data-testid": "share-link",
          "data-local": share && share.local_only ? "1" : "0",
          onclick: (e) => e.target.select(),
        }),
      ),
      share && share.local_only
        ? h("p", { class: "warn small", role: "note", "data-testid": "share-local" }, t("share.local"))
        : null,
      // a plain-http address on the Wi-Fi: phones let no such page copy or share, so the link is
      // written out whole to copy by hand (and the QR code above is there to scan)
      byHand()
        ? [
            h("p", { class: "link-whole", "data-testid": "share-whole" }, link),
            h("p", { class: "small muted", role: "note", "data-testid": "share-manual" }, t("share.manual")),
          ]
        : null,
      byHand()
        ? null
        : h(
            "div",
            { class: "row" },
            h(
              "button",
              {
                type: "button",
                class: "btn",
                "data-testid": "copy-link",
                disabled: !link,
                onclick: () => copyText(view, link, t("share.copied")),
              },
              t("share.copy"),
            ),
            h(
              "button",
              {
                type: "button",
                class: "btn",
                "data-testid": "share",
                disabled: !link,
                onclick: () => shareTable(view, st.code, link),
              },
              t("share.share"),
            ),
          ),
    ),
    h(
      "section",
      { class: "panel", "aria-labelledby": "seats-title" },
      h("h2", { id: "seats-title" }, t("wait.seats")),
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
              disabled: view.pending,
              onclick: () => view.send({ type: "start" }),
            },
            t("wait.start"),
          )
        : h("p", { class: "waiting", "data-testid": "wait-host" }, t("wait.host", { name: host ? host.name : "" })),
    ),
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
    .map(([key, value]) => {
      const label = t(`opt.${key}`);
      let shown = t(`opt.${key}.${value}`);
      if (key === "blind_turns_max" && value !== null) shown = t("opt.blind_turns_max.n", { n: value });
      if (shown === `opt.${key}.${value}`) shown = String(value);
      return `${label === `opt.${key}` ? key : label}: ${shown}`;
    });
  return [
    named
      ? h("p", { class: "muted small", "data-testid": "preset" }, `${t(`preset.${rules.preset}`)} · ${t(`play.${settings.play || "live"}`)}`)
      : null,
    changed.length
      ? h("p", { class: "small", "data-testid": "house-rules" }, t("wait.custom", { rules: changed.join(" · ") }))
      : null,
  ];
}
