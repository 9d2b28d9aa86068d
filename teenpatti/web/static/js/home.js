// The home page and its two forms: Play with friends (open a table) and Join with a code.

import { catalogue, loadCatalogue, optionValues, presetOptions } from "./catalogue.js";
import { codeText, h, uid } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { customRules, settingsText } from "./lobby.js";
import { api } from "./net.js";
import { installHint } from "./pwa.js";
import * as store from "./store.js";

const HANDS = [10, 20, 30];
const BOOTS = [5, 10, 20, 50];
const BOTS = ["random", "easy", "medium", "hard", "expert"];
const TIMERS = [15, 30, 60];
const PLAYS = ["live", "anytime"];
// How each table plays unless the host says otherwise (docs/rules.md, section 5); the tables, their
// seats and their rules come from the server's catalogue (catalogue.js).
const PLAY_DEFAULT = { duo: "anytime" };

function presetNames() {
  const cat = catalogue();
  return cat ? Object.keys(cat.presets) : ["nepal"];
}

function playDefault(preset) {
  return PLAY_DEFAULT[preset] || "live";
}
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
// The house rules, grouped; each shows one line saying what it does.
const HOUSE = [
  ["bets", [["bets", ["double", "range"]], ["range_max_stakes", [2, 3, 4]], ["blind_turns_max", [null, 2, 3, 4]], ["see_anytime", [false, true]]]],
  ["show", [["show_tie", ["asker_loses", "split"]], ["show_cost", ["chaal", "double"]], ["show_seen_vs_blind", ["forbidden", "allowed", "quadruple"]], ["show_after_bet", [false, true]]]],
  ["sideshow", [["sideshow", ["previous", "any_seen", "off"]], ["sideshow_all_seen", [false, true]]]],
  ["ranking", [["a23", ["second", "highest", "lowest"]], ["suits_break_ties", [false, true]], ["two_three_five", [false, true]]]],
  ["wild", [["variant", ["standard", "ak47", "jokers", "wild_rank", "fixed_rank"]], ["fixed_rank", RANKS], ["muflis", [false, true]]]],
  ["allin", [["all_in", ["showdown", "two_left"]]]],
];
const HOUSE_KEYS = HOUSE.flatMap(([, options]) => options);

function presetValue(preset, key, values) {
  const own = presetOptions(preset);
  return key in own ? own[key] : values[0];
}

function seatRange(preset) {
  const cat = catalogue();
  const seats = cat && cat.presets[preset] ? cat.presets[preset].seats : { min: 2, max: 6 };
  return Array.from({ length: seats.max - seats.min + 1 }, (_, i) => seats.min + i);
}
const CODE_RE = /^[A-Z2-9]{6}$/;

/** A table code as typed: spaces and dashes (a code read out in two halves) set aside. Pure. */
export function codeOf(typed) {
  return String(typed || "").replace(/[\s\-\u2010-\u2015]+/g, "").toUpperCase();
}

function defaults() {
  const p = store.prefs();
  const preset = presetNames().includes(p.preset) ? p.preset : "nepal";
  const seats = seatRange(preset);
  return {
    preset,
    seats: seats.includes(p.seats) ? p.seats : Math.min(4, seats[seats.length - 1]),
    hands: HANDS.includes(p.hands) ? p.hands : presetOptions(preset).hands || 20,
    boot: BOOTS.includes(p.boot) ? p.boot : 10,
    bots: BOTS.includes(p.bots) ? p.bots : "medium",
    play: PLAYS.includes(p.play) ? p.play : playDefault(preset),
    turn_seconds: TIMERS.includes(p.turn_seconds) ? p.turn_seconds : 30,
    rules: typeof p.rules === "object" && p.rules ? p.rules : {},
  };
}

/** A big menu button that is a link (so it works with a middle click and a screen reader). */
function menuItem(href, title, sub, testid, onclick = null) {
  return h(
    onclick ? "button" : "a",
    { class: "menu-item", href: onclick ? null : href, type: onclick ? "button" : null, "data-testid": testid, onclick, "data-link": onclick ? null : "" },
    h("span", { class: "menu-title" }, title),
    h("span", { class: "menu-sub" }, sub),
  );
}

export function homePage(app) {
  const last = store.lastTable();
  let busy = false;
  const computer = async (event) => {
    if (busy) return;
    busy = true;
    const button = event.currentTarget;
    button.setAttribute("aria-busy", "true");
    const d = defaults();
    const name = store.savedName() || t("home.defaultName");
    try {
      const reply = await api("/api/tables", {
        name,
        computer: true,
        hands: d.hands,
        boot: d.boot,
        bots: d.bots,
        turn_seconds: d.play === "anytime" ? null : d.turn_seconds,
      });
      store.saveSeat(reply.code, reply.token, reply.seat);
      app.go(`/t/${reply.code}`);
    } catch (err) {
      app.toast(errorText(err.code, err.reason));
    } finally {
      busy = false;
      button.removeAttribute("aria-busy");
    }
  };
  return h(
    "div",
    { class: "home", "data-testid": "home" },
    h(
      "section",
      { class: "hero" },
      h("h1", {}, h("span", { class: "brand" }, t("app.name")), " ", h("span", { class: "brand-other", lang: t("app.other") === "Teen Patti" ? "en" : "ne" }, t("app.other"))),
      h("p", { class: "tagline" }, t("app.tagline")),
      h("div", { class: "hero-cards", "aria-hidden": "true" }, app.heroCards()),
    ),
    last
      ? h(
          "a",
          { class: "btn resume", href: `/t/${last}`, "data-link": "", "data-testid": "resume" },
          t("home.resume", { code: last }),
        )
      : null,
    h(
      "nav",
      { class: "menu", "aria-label": t("nav.main") },
      menuItem("#create", t("home.friends"), t("home.friends.sub"), "menu-friends"),
      menuItem("#join", t("home.join"), t("home.join.sub"), "menu-join"),
      store.savedTables().length ? menuItem("#mine", t("home.mine"), t("home.mine.sub"), "menu-mine") : null,
      menuItem(null, t("home.computer"), t("home.computer.sub"), "menu-computer", computer),
      menuItem("#rules", t("home.rules"), t("home.rules.sub"), "menu-rules"),
      menuItem("#words", t("home.words"), t("home.words.sub"), "menu-words"),
    ),
    installHint(),
    h("p", { class: "muted small center" }, t("home.note")),
  );
}

/** A row of radio buttons drawn as a segmented control. */
function choice(name, label, values, current, text, help = null) {
  const id = uid(name);
  return h(
    "fieldset",
    { class: "field choice", "data-testid": `choice-${name}` },
    h("legend", {}, label),
    h(
      "div",
      { class: "segments" },
      values.map((value) => {
        const inputId = `${id}-${String(value)}`;
        return h(
          "label",
          { class: "segment", for: inputId },
          h("input", {
            type: "radio",
            id: inputId,
            name,
            value: JSON.stringify(value),
            checked: value === current,
            "data-testid": `${name}-${String(value)}`,
          }),
          h("span", {}, text(value)),
        );
      }),
    ),
    help ? h("p", { class: "help" }, help) : null,
  );
}

function select(name, label, values, current, text, help = null) {
  const id = uid(name);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h(
      "select",
      { id, name, "data-testid": `opt-${name}`, "aria-describedby": help ? `${id}-help` : null },
      values.map((value) => h("option", { value: JSON.stringify(value), selected: value === current }, text(value))),
    ),
    help ? h("p", { class: "help", id: `${id}-help` }, help) : null,
  );
}

function optionText(key, value) {
  if (key === "blind_turns_max" && value !== null) return t("opt.blind_turns_max.n", { n: value });
  if (key === "range_max_stakes") return t("opt.range_max_stakes.n", { n: value, seen: value * 2 });
  if (key === "fixed_rank") return value;
  return t(`opt.${key}.${value}`);
}

function nameField(value) {
  const id = uid("name");
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, t("field.name")),
    h("input", {
      id,
      name: "name",
      type: "text",
      autocomplete: "nickname",
      maxlength: 24,
      required: true,
      value,
      "data-testid": "name",
      "aria-describedby": `${id}-help`,
    }),
    h("p", { class: "help", id: `${id}-help` }, t("field.name.help")),
  );
}

function readForm(form) {
  const data = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    if (el.type === "radio") {
      if (el.checked) data[el.name] = JSON.parse(el.value);
    } else if (el.tagName === "SELECT" || el.type === "hidden") {
      data[el.name] = JSON.parse(el.value);
    } else if (el.type !== "submit" && el.type !== "button") {
      data[el.name] = el.value;
    }
  }
  return data;
}

/** Keep what was typed when the language changes: the form is drawn again from this draft. */
const drafts = {};

export function createPage(app) {
  if (!catalogue()) {
    // the options come from the server: wait for them (a first visit straight to #create)
    const holder = h("div", { class: "page" }, h("p", { class: "panel muted", "data-testid": "create-loading" }, t("conn.connecting")));
    loadCatalogue().then((cat) => {
      if (!holder.isConnected) return;
      if (cat) holder.replaceWith(createPage(app));
      else holder.firstChild.textContent = t("err.network");
    });
    return holder;
  }
  const draft = drafts.create || {};
  const d = { ...defaults(), ...draft };
  if (!presetNames().includes(d.preset)) d.preset = "nepal";
  const preset = d.preset;
  const seats = seatRange(preset);
  if (!seats.includes(d.seats)) d.seats = Math.min(4, seats[seats.length - 1]);
  // a rule kept from another preset's draft only if the host changed it there
  const rules = draft.preset === preset || draft.preset === undefined ? { ...(defaults().rules || {}), ...(draft.rules || {}) } : {};
  const status = h("p", { class: "error", role: "alert", "data-testid": "form-error" });
  const house = HOUSE.map(([group, options]) =>
    h(
      "fieldset",
      { class: "field house-group", "data-testid": `group-${group}` },
      h("legend", {}, t(`group.${group}`)),
      options.map(([key, values]) =>
        select(
          `rule.${key}`,
          t(`opt.${key}`),
          values,
          key in rules ? rules[key] : presetValue(preset, key, values),
          (value) => optionText(key, value),
          t(`opt.${key}.help`),
        ),
      ),
    ),
  );
  const chosenRules = (data) => {
    const chosen = {};
    for (const [key, values] of HOUSE_KEYS) {
      const value = data[`rule.${key}`];
      if (key === "fixed_rank" && data["rule.variant"] !== "fixed_rank") continue;
      if (value !== presetValue(preset, key, values)) chosen[key] = value;
    }
    return chosen;
  };
  const onsubmit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = readForm(form);
    const chosen = chosenRules(data);
    const name = (data.name || "").trim();
    if (!name) {
      status.textContent = t("err.name/empty");
      form.querySelector("[name=name]").focus();
      return;
    }
    const submit = form.querySelector("[type=submit]");
    submit.disabled = true;
    submit.textContent = t("create.busy");
    const body = {
      name,
      seats: data.seats,
      hands: data.hands,
      bots: data.bots,
      play: data.play,
      turn_seconds: data.play === "live" ? data.turn_seconds : null,
      rules: { preset, ...chosen },
    };
    if (preset === "nepal") body.boot = data.boot;
    try {
      const reply = await api("/api/tables", body);
      store.saveName(name);
      store.savePrefs({ preset, seats: data.seats, hands: data.hands, boot: data.boot, bots: data.bots, play: data.play, turn_seconds: data.turn_seconds, rules: chosen });
      store.saveSeat(reply.code, reply.token, reply.seat);
      delete drafts.create;
      app.go(`/t/${reply.code}`);
    } catch (err) {
      status.textContent = errorText(err.code, err.reason);
      submit.disabled = false;
      submit.textContent = t("create.submit");
    }
  };
  const keep = (form) => {
    const data = readForm(form);
    const kept = { ...data, rules: {} };
    for (const [key, values] of HOUSE_KEYS) {
      if (data[`rule.${key}`] !== presetValue(preset, key, values)) kept.rules[key] = data[`rule.${key}`];
    }
    drafts.create = kept;
    return kept;
  };
  const form = h(
    "form",
    {
      class: "panel form",
      "data-testid": "create-form",
      "data-preset": preset,
      novalidate: true,
      onsubmit,
      oninput: (event) => keep(event.currentTarget),
      onchange: (event) => {
        const name = event.target.name;
        if (name !== "preset" && name !== "play") return;
        // another table: its seats, its way of playing and its rules; redraw the form
        const kept = keep(event.currentTarget);
        if (name === "preset") {
          kept.rules = {};
          const range = seatRange(kept.preset);
          kept.seats = Math.min(4, range[range.length - 1]);
          kept.play = playDefault(kept.preset);
          kept.hands = presetOptions(kept.preset).hands || 20;
        }
        const page = event.currentTarget.closest(".page");
        page.replaceWith(createPage(app));
      },
    },
    h("h1", {}, t("create.title")),
    h("p", { class: "muted" }, t("create.intro")),
    nameField(draft.name !== undefined ? draft.name : store.savedName()),
    select("preset", t("create.preset"), presetNames(), preset, (v) => t(`preset.${v}`), t(`preset.${preset}.help`)),
    seats.length > 1 ? choice("seats", t("create.seats"), seats, d.seats, (v) => String(v)) : h("input", { type: "hidden", name: "seats", value: JSON.stringify(seats[0]) }),
    choice("play", t("create.play"), PLAYS, d.play, (v) => t(`play.${v}`), t(`play.${d.play}.help`)),
    choice("hands", t("create.hands"), HANDS, d.hands, (v) => String(v), t("create.hands.help", { n: presetOptions(preset).hands || 20 })),
    preset === "nepal" ? choice("boot", t("create.boot"), optionValues("boot", "nepal", BOOTS), d.boot, (v) => String(v), t("create.boot.help")) : null,
    choice("bots", t("create.bots"), BOTS, d.bots, (v) => t(`bots.${v}`)),
    h(
      "details",
      { class: "advanced", "data-testid": "advanced" },
      h("summary", {}, t(d.play === "live" ? "create.advanced" : "create.advancedRules")),
      h("p", { class: "help" }, t("create.advanced.help")),
      d.play === "live" ? choice("turn_seconds", t("create.timer"), TIMERS, d.turn_seconds, (v) => t("timer.secs", { n: v })) : null,
      house,
    ),
    status,
    h("button", { type: "submit", class: "btn primary big", "data-testid": "create-submit" }, t("create.submit")),
  );
  // digits in the segment labels follow the language
  for (const span of form.querySelectorAll(".segment span")) {
    if (/^\d+$/.test(span.textContent)) span.textContent = app.digits(span.textContent);
  }
  return h("div", { class: "page" }, form);
}

export function joinPage(app, code = "", message = "") {
  const draft = drafts.join || {};
  const status = h("p", { class: "error", role: "alert", "data-testid": "form-error" }, message);
  const info = h("div", { class: "join-info", "data-testid": "join-info", "aria-live": "polite" });
  const codeId = uid("code");
  const fixed = Boolean(code);
  const watch = h(
    "button",
    { type: "button", class: "btn", hidden: true, "data-testid": "watch", onclick: () => app.watch(code) },
    t("join.watch"),
  );
  const onsubmit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = readForm(form);
    const wanted = fixed ? code : codeOf(data.code);
    const name = (data.name || "").trim();
    if (!CODE_RE.test(wanted)) {
      status.textContent = t("err.code");
      form.querySelector("[name=code]")?.focus();
      return;
    }
    if (!name) {
      status.textContent = t("err.name/empty");
      form.querySelector("[name=name]").focus();
      return;
    }
    const submit = form.querySelector("[type=submit]");
    submit.disabled = true;
    submit.textContent = t("join.busy");
    try {
      const reply = await api(`/api/tables/${encodeURIComponent(wanted)}/join`, { name });
      store.saveName(name);
      store.saveSeat(wanted, reply.token, reply.seat);
      delete drafts.join;
      app.go(`/t/${wanted}`, { replace: fixed });
    } catch (err) {
      status.textContent = errorText(err.code, err.reason);
      submit.disabled = false;
      submit.textContent = t("join.submit");
      if (fixed && ["table/started", "table/full", "table/late_closed"].includes(err.code)) watch.hidden = false;
    }
  };
  const form = h(
    "form",
    {
      class: "panel form",
      "data-testid": "join-form",
      novalidate: true,
      onsubmit,
      oninput: (event) => {
        drafts.join = readForm(event.currentTarget);
      },
    },
    h("h1", {}, t("join.title")),
    fixed
      ? h("p", { class: "code-big small-code" }, h("span", { class: "sr-only" }, `${t("join.code")}: `), codeText(code))
      : h(
          "div",
          { class: "field" },
          h("label", { for: codeId }, t("join.code")),
          h("input", {
            id: codeId,
            name: "code",
            type: "text",
            inputmode: "text",
            autocapitalize: "characters",
            autocomplete: "off",
            spellcheck: "false",
            maxlength: 16, // room for the spaces and dashes a code is read out with ("tlm qyj")
            class: "code-input",
            value: draft.code || "",
            "data-testid": "join-code",
            "aria-describedby": `${codeId}-help`,
          }),
          h("p", { class: "help", id: `${codeId}-help` }, t("join.code.help")),
        ),
    info,
    nameField(draft.name !== undefined ? draft.name : store.savedName()),
    status,
    h("button", { type: "submit", class: "btn primary big", "data-testid": "join-submit" }, t("join.submit")),
    watch,
  );
  if (fixed) {
    info.textContent = t("join.check");
    // the house rules are named against the presets: wait for the catalogue too
    Promise.all([api(`/api/tables/${encodeURIComponent(code)}`), loadCatalogue()])
      .then(([table]) => {
        const host = table.seats.find((seat) => seat.host);
        const lines = [
          t("join.of", { name: host ? host.name : "" }),
          t("join.seats", { n: table.seats.length, total: table.settings.seats }),
        ].map((line) => h("p", {}, line));
        lines.push(
          h("p", { class: "small", "data-testid": "join-settings" }, settingsText(table.settings)),
          ...customRules(table.settings),
          h(
            "ul",
            { class: "join-seated small", "data-testid": "join-seated", "aria-label": t("wait.seats") },
            table.seats.map((seat) => h("li", {}, seat.name, seat.person === false ? [" ", h("span", { class: "badge bot" }, t("bot.badge", { level: t(`bots.${table.settings.bots}`) }))] : null)),
          ),
        );
        const onlyWatch = () => {
          watch.hidden = false;
          watch.className = "btn primary big";
          form.querySelector("[type=submit]").hidden = true;
          form.querySelector("[data-testid=name]").closest(".field").hidden = true;
        };
        if (table.status !== "waiting") {
          // a latecomer takes a computer's seat from the next hand, if the host lets them
          const free = table.settings.late !== false && table.seats.some((seat) => !seat.person);
          lines.push(h("p", {}, free ? t("join.late") : table.status === "finished" ? t("join.finished") : t("join.started")));
          if (!free) onlyWatch();
        } else if (table.seats.length >= table.settings.seats) {
          lines.push(h("p", {}, t("join.full")));
          onlyWatch();
        }
        info.replaceChildren(...lines.filter(Boolean));
      })
      .catch((err) => {
        info.textContent = "";
        status.textContent = errorText(err.code, err.reason);
      });
  }
  return h("div", { class: "page" }, form);
}
