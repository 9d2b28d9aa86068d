// The home page and its two forms: Play with friends (open a table) and Join with a code.

import { catalogue, loadCatalogue, presetOptions } from "./catalogue.js";
import { codeText, h, uid } from "./dom.js";
import { ON_TOP, changes, groups, offered, parseWhole, played, problems, relevant } from "./houserules.js";
import { STRINGS, digits, errorText, t } from "./i18n.js";
import { customRules, settingsText } from "./lobby.js";
import { api } from "./net.js";
import { installHint } from "./pwa.js";
import { ruleName, ruleText } from "./rulewords.js";
import { TABLE_SWITCHES } from "./social.js";
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

/** A remembered hands or boot if this preset takes it (our table: one of its own), else the preset's. */
function ownNumber(value, preset, key, ours) {
  const fits = Number.isInteger(value) && value > 0 && (preset !== "nepal" || ours.includes(value));
  return fits ? value : presetOptions(preset)[key] || presetOptions("nepal")[key];
}

function defaults() {
  const p = store.prefs();
  const preset = presetNames().includes(p.preset) ? p.preset : "nepal";
  const seats = seatRange(preset);
  return {
    preset,
    seats: seats.includes(p.seats) ? p.seats : Math.min(4, seats[seats.length - 1]),
    hands: ownNumber(p.hands, preset, "hands", HANDS),
    boot: ownNumber(p.boot, preset, "boot", BOOTS),
    bots: BOTS.includes(p.bots) ? p.bots : "medium",
    play: PLAYS.includes(p.play) ? p.play : playDefault(preset),
    turn_seconds: TIMERS.includes(p.turn_seconds) ? p.turn_seconds : 30,
    rules: typeof p.rules === "object" && p.rules ? p.rules : {},
    // what the host may change later in the table menu: on unless they turned it off last time
    ...Object.fromEntries(TABLE_SWITCHES.map((key) => [key, p[key] !== false])),
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
        hands: HANDS.includes(d.hands) ? d.hands : 20,
        boot: BOOTS.includes(d.boot) ? d.boot : 10,
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
      menuItem("#learn", t("home.learn"), t("home.learn.sub"), "menu-learn"),
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
      // the server counts a name's characters as a reader does (a vowel sign is part of its
      // letter): 24 of them may be 72 code points in Devanagari, which maxlength counts
      maxlength: 72,
      required: true,
      value,
      "data-testid": "name",
      "aria-describedby": `${id}-help`,
    }),
    h("p", { class: "help", id: `${id}-help` }, t("field.name.help")),
  );
}

/** Hands or boot: the preset's own values as a row of buttons, else a number to type. */
function topNumber(key, label, values, current, help) {
  if (values) return choice(key, label, values, current, (v) => String(v), help);
  const id = uid(key);
  return h(
    "div",
    { class: "field", "data-rule": key },
    h("label", { for: id }, label),
    numberInput(id, key, current, false, null),
    h("p", { class: "help", id: `${id}-help` }, help),
    h("p", { class: "error field-error", id: `${id}-err`, "data-testid": `err-${key}` }),
  );
}

/** A whole number to type, in the page's digits (either language's digits are read). */
function numberInput(id, name, value, nullable, empty) {
  return h("input", {
    id,
    name,
    type: "text",
    inputmode: "numeric",
    autocomplete: "off",
    "data-kind": "int",
    value: Number.isInteger(value) ? digits(String(value)) : "",
    placeholder: nullable ? empty : null,
    "data-testid": `opt-${name}`,
    "aria-describedby": `${id}-help ${id}-err`,
  });
}

/** One house rule: a menu of its values or a number to type, one line on what it changes with
 *  this table's own value, and a place for what is wrong with it. */
function ruleField(key, value, own, preset, cat, hidden) {
  const id = uid(`rule-${key}`);
  const values = offered(key, preset, cat);
  const option = cat.options[key];
  const control = values
    ? h(
        "select",
        { id, name: `rule.${key}`, "data-testid": `opt-rule.${key}`, "aria-describedby": `${id}-help ${id}-err` },
        values.map((v) => h("option", { value: JSON.stringify(v), selected: v === value }, ruleText(key, v))),
      )
    : numberInput(id, `rule.${key}`, value, option.null, ruleText(key, null));
  // a line on what it changes (and, for a number that may be left empty, what empty means)
  const help = [`opt.${key}.help`, `opt.${key}.empty`].filter((k) => k in STRINGS.en).map((k) => t(k));
  return h(
    "div",
    { class: "field", "data-rule": key, hidden },
    h("label", { for: id }, ruleName(key)),
    control,
    h("p", { class: "help", id: `${id}-help` }, help.join(" "), " ", h("span", { class: "own" }, t("create.default", { value: ruleText(key, own) }))),
    h("p", { class: "error field-error", id: `${id}-err`, "data-testid": `err-rule.${key}` }),
  );
}

/** The preset's options with what the form holds over them (a number not yet whole is NaN). */
function formOptions(form, preset, cat) {
  const options = { ...cat.presets[preset].options };
  for (const el of form.elements) {
    const key = el.name && el.name.startsWith("rule.") ? el.name.slice(5) : ON_TOP.includes(el.name) ? el.name : null;
    if (!key || !(key in cat.options)) continue;
    if (el.type === "radio") {
      if (el.checked) options[key] = JSON.parse(el.value);
    } else if (el.dataset.kind === "int") options[key] = parseWhole(el.value);
    else options[key] = JSON.parse(el.value);
  }
  return options;
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
  const cat = catalogue();
  const base = cat.presets[preset].options;
  const shown = { ...base, ...rules };
  const status = h("p", { class: "error", role: "alert", "data-testid": "form-error" });
  const house = groups(cat).map(([group, keys]) =>
    h(
      "fieldset",
      { class: "field house-group", "data-testid": `group-${group}` },
      h("legend", {}, t(`group.${group}`)),
      keys.map((key) => ruleField(key, shown[key], base[key], preset, cat, !relevant(key, shown))),
    ),
  );
  /** What the host has set, checked as the server checks it: [the options to send, problems]. */
  const chosenRules = (form) => {
    const chosen = changes(formOptions(form, preset, cat), preset, cat);
    return [chosen, problems(played(chosen, preset, cat), preset, cat)];
  };
  /** Show each problem by its rule (and open the fold it is in); false if there is none. */
  const mark = (form, found) => {
    for (const el of form.querySelectorAll("[data-rule]")) {
      const key = el.dataset.rule;
      const problem = found[key];
      const slot = el.querySelector(".field-error");
      slot.textContent = problem ? t(`house.err.${problem[0]}`, problem[1]) : "";
      el.classList.toggle("invalid", Boolean(problem));
      const input = el.querySelector("input[data-kind], select");
      if (input) input.setAttribute("aria-invalid", problem ? "true" : "false");
    }
    const first = Object.keys(found)
      .map((key) => form.querySelector(`[data-rule="${key}"]`))
      .find(Boolean);
    if (first && first.closest("details")) first.closest("details").open = true;
    return first || null;
  };
  const onsubmit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = readForm(form);
    const [chosen, found] = chosenRules(form);
    const name = (data.name || "").trim();
    if (!name) {
      status.textContent = t("err.name/empty");
      form.querySelector("[name=name]").focus();
      return;
    }
    const wrong = mark(form, found);
    if (Object.keys(found).length) {
      status.textContent = t("house.err.summary");
      if (wrong) wrong.querySelector("input, select").focus();
      return;
    }
    const submit = form.querySelector("[type=submit]");
    submit.disabled = true;
    submit.textContent = t("create.busy");
    const body = {
      name,
      seats: data.seats,
      bots: data.bots,
      play: data.play,
      turn_seconds: data.play === "live" ? data.turn_seconds : null,
      rules: { preset, ...chosen },
      ...Object.fromEntries(TABLE_SWITCHES.map((key) => [key, data[key] !== false])),
    };
    try {
      const reply = await api("/api/tables", body);
      const kept = Object.fromEntries(Object.entries(chosen).filter(([key]) => !ON_TOP.includes(key)));
      const own = played(chosen, preset, cat);
      store.saveName(name);
      const switches = Object.fromEntries(TABLE_SWITCHES.map((key) => [key, body[key]]));
      store.savePrefs({ preset, seats: data.seats, hands: own.hands, boot: own.boot, bots: data.bots, play: data.play, turn_seconds: data.turn_seconds, rules: kept, ...switches });
      store.saveSeat(reply.code, reply.token, reply.seat);
      delete drafts.create;
      app.go(`/t/${reply.code}`);
    } catch (err) {
      const key = String(err.code).startsWith("rules/") ? err.code.slice(6) : null;
      const wrong = key && form.querySelector(`[data-rule="${key}"]`) ? mark(form, { [key]: ["server", {}] }) : null;
      status.textContent = errorText(err.code, err.reason);
      if (wrong) wrong.querySelector(".field-error").textContent = errorText(err.code, err.reason);
      submit.disabled = false;
      submit.textContent = t("create.submit");
    }
  };
  const keep = (form) => {
    const data = readForm(form);
    const options = formOptions(form, preset, cat);
    const kept = { ...data, hands: options.hands, boot: options.boot, rules: {} };
    for (const [key, value] of Object.entries(options)) {
      if (!ON_TOP.includes(key) && value !== base[key]) kept.rules[key] = value;
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
        if (name !== "preset" && name !== "play") {
          // a rule that matters only with another one comes and goes with it; typed numbers are
          // written again in the page's digits; what cannot be played is said at once
          const form = event.currentTarget;
          const options = formOptions(form, preset, cat);
          for (const el of form.querySelectorAll("[data-rule]")) el.hidden = !relevant(el.dataset.rule, options);
          if (event.target.dataset.kind === "int" && Number.isInteger(parseWhole(event.target.value))) {
            event.target.value = digits(String(parseWhole(event.target.value)));
          }
          mark(form, chosenRules(form)[1]);
          return;
        }
        // another table: its seats, its way of playing and its rules; redraw the form
        const kept = keep(event.currentTarget);
        if (name === "preset") {
          kept.rules = {};
          const range = seatRange(kept.preset);
          kept.seats = Math.min(4, range[range.length - 1]);
          kept.play = playDefault(kept.preset);
          kept.hands = presetOptions(kept.preset).hands || 20;
          kept.boot = presetOptions(kept.preset).boot || 10;
        }
        // the redrawn form keeps what the host had open and the field they were changing
        kept.open = Boolean(event.currentTarget.querySelector("details.advanced[open]"));
        const page = event.currentTarget.closest(".page");
        const next = createPage(app);
        page.replaceWith(next);
        const field = next.querySelector(`[name="${name}"]:checked, select[name="${name}"]`);
        if (field) field.focus();
      },
    },
    h("h1", {}, t("create.title")),
    h("p", { class: "muted" }, t("create.intro")),
    nameField(draft.name !== undefined ? draft.name : store.savedName()),
    select("preset", t("create.preset"), presetNames(), preset, (v) => t(`preset.${v}`), t(`preset.${preset}.help`)),
    seats.length > 1 ? choice("seats", t("create.seats"), seats, d.seats, (v) => String(v)) : h("input", { type: "hidden", name: "seats", value: JSON.stringify(seats[0]) }),
    choice("play", t("create.play"), PLAYS, d.play, (v) => t(`play.${v}`), t(`play.${d.play}.help`)),
    topNumber("hands", t("create.hands"), offered("hands", preset, cat), d.hands, t("create.hands.help", { n: presetOptions(preset).hands || 20 })),
    topNumber("boot", t("create.boot"), offered("boot", preset, cat), d.boot, t("create.boot.help")),
    choice("bots", t("create.bots"), BOTS, d.bots, (v) => t(`bots.${v}`)),
    h(
      "details",
      { class: "advanced", "data-testid": "advanced", open: Boolean(draft.open) },
      h("summary", {}, t(d.play === "live" ? "create.advanced" : "create.advancedRules")),
      h("p", { class: "help" }, t("create.advanced.help")),
      d.play === "live" ? choice("turn_seconds", t("create.timer"), TIMERS, d.turn_seconds, (v) => t("timer.secs", { n: v })) : null,
      TABLE_SWITCHES.map((key) => choice(key, t(`host.${key}`), [true, false], d[key] !== false, (v) => t(v ? "host.yes" : "host.no"))),
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
      const was = store.goneToken(wanted); // a removed person stays removed, whatever the name
      const reply = await api(`/api/tables/${encodeURIComponent(wanted)}/join`, { name }, was ? { authorization: `Bearer ${was}` } : {});
      store.saveName(name);
      store.saveSeat(wanted, reply.token, reply.seat);
      delete drafts.join;
      app.go(`/t/${wanted}`, { replace: fixed });
    } catch (err) {
      status.textContent = errorText(err.code, err.reason);
      submit.disabled = false;
      submit.textContent = t("join.submit");
      if (fixed && ["table/started", "table/full", "table/late_closed", "seat/removed"].includes(err.code)) watch.hidden = false;
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
        if (table.status !== "waiting" && store.goneToken(code) && !status.textContent) {
          // this phone's seat here was taken away by the host: say so at once, beside Watch
          // (sitting down again is still tried, in case the host has let them back)
          status.textContent = t("err.seat/removed");
          watch.hidden = false;
        }
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
