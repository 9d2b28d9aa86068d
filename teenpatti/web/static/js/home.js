// The home page and its two forms: Play with friends (open a table) and Join with a code.

import { catalogue, loadCatalogue, optionValues, presetOptions } from "./catalogue.js";
import { h, uid } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { api } from "./net.js";
import * as store from "./store.js";

const BOTS = ["random", "easy", "medium", "hard"];
const SEATS = [2, 3, 4, 5, 6];
const TIMERS = [15, 30, 60, null];
/** The house rules the create form offers, in this order; their values and defaults come from the
 *  server's catalogue (catalogue.js). Number options list the counts the form offers. */
const HOUSE = [
  "show_tie",
  "sideshow",
  "see_anytime",
  "bets",
  "a23",
  "suits_break_ties",
  "show_cost",
  "blind_turns_max",
  "variant",
];
const COUNTS = { blind_turns_max: [null, 2, 3, 4] };
const CODE_RE = /^[A-Z2-9]{6}$/;

/** The preset the create form opens tables at (the server's default). */
function presetName() {
  const cat = catalogue();
  return cat ? cat.default : undefined;
}

/** A house rule's values, the first being the preset's own (the one left unsaid when sent). */
function houseValues(key) {
  const values = optionValues(key, presetName(), COUNTS[key] || []);
  const own = presetOptions(presetName())[key];
  return [own, ...values.filter((value) => value !== own)];
}

/** A value of an option in words; a value the page has no words for yet shows as it is. */
function optionText(key, value) {
  const text = t(`opt.${key}.${value}`);
  return text === `opt.${key}.${value}` ? String(value) : text;
}

function defaults() {
  const p = store.prefs();
  const preset = presetOptions(presetName());
  const hands = optionValues("hands", presetName());
  const boots = optionValues("boot", presetName());
  return {
    seats: SEATS.includes(p.seats) ? p.seats : 4,
    hands: hands.includes(p.hands) ? p.hands : preset.hands,
    boot: boots.includes(p.boot) ? p.boot : preset.boot,
    bots: BOTS.includes(p.bots) ? p.bots : "medium",
    turn_seconds: p.turn_seconds === null || TIMERS.includes(p.turn_seconds) ? p.turn_seconds : 30,
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
        turn_seconds: d.turn_seconds,
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
      menuItem(null, t("home.computer"), t("home.computer.sub"), "menu-computer", computer),
      menuItem("#rules", t("home.rules"), t("home.rules.sub"), "menu-rules"),
      menuItem("#words", t("home.words"), t("home.words.sub"), "menu-words"),
    ),
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

function select(name, label, values, current, text) {
  const id = uid(name);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h(
      "select",
      { id, name, "data-testid": `opt-${name}` },
      values.map((value) => h("option", { value: JSON.stringify(value), selected: value === current }, text(value))),
    ),
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
    } else if (el.tagName === "SELECT") {
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
  const d = { ...defaults(), ...(drafts.create || {}) };
  const rules = { ...(defaults().rules || {}), ...((drafts.create && drafts.create.rules) || {}) };
  const status = h("p", { class: "error", role: "alert", "data-testid": "form-error" });
  const house = HOUSE.map((key) => {
    const values = houseValues(key);
    return select(`rule.${key}`, t(`opt.${key}`), values, key in rules ? rules[key] : values[0], (value) =>
      key === "blind_turns_max" && value !== null ? t("opt.blind_turns_max.n", { n: value }) : optionText(key, value),
    );
  });
  const onsubmit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = readForm(form);
    const chosen = {};
    for (const key of HOUSE) {
      const value = data[`rule.${key}`];
      if (value !== houseValues(key)[0]) chosen[key] = value;
    }
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
      boot: data.boot,
      bots: data.bots,
      turn_seconds: data.turn_seconds,
      rules: { preset: presetName(), ...chosen },
    };
    try {
      const reply = await api("/api/tables", body);
      store.saveName(name);
      store.savePrefs({ seats: data.seats, hands: data.hands, boot: data.boot, bots: data.bots, turn_seconds: data.turn_seconds, rules: chosen });
      store.saveSeat(reply.code, reply.token, reply.seat);
      delete drafts.create;
      app.go(`/t/${reply.code}`);
    } catch (err) {
      status.textContent = errorText(err.code, err.reason);
      submit.disabled = false;
      submit.textContent = t("create.submit");
    }
  };
  const form = h(
    "form",
    {
      class: "panel form",
      "data-testid": "create-form",
      novalidate: true,
      onsubmit,
      oninput: (event) => {
        const data = readForm(event.currentTarget);
        const kept = { ...data, rules: {} };
        for (const key of HOUSE) kept.rules[key] = data[`rule.${key}`];
        drafts.create = kept;
      },
    },
    h("h1", {}, t("create.title")),
    h("p", { class: "muted" }, t("create.intro")),
    nameField(drafts.create ? drafts.create.name : store.savedName()),
    choice("seats", t("create.seats"), SEATS, d.seats, (v) => String(v)),
    choice("hands", t("create.hands"), optionValues("hands", presetName()), d.hands, (v) => String(v), t("create.hands.help")),
    choice("boot", t("create.boot"), optionValues("boot", presetName()), d.boot, (v) => String(v), t("create.boot.help")),
    choice("bots", t("create.bots"), BOTS, d.bots, (v) => t(`bots.${v}`)),
    h(
      "details",
      { class: "advanced", "data-testid": "advanced" },
      h("summary", {}, t("create.advanced")),
      h("p", { class: "help" }, t("create.advanced.help")),
      choice("turn_seconds", t("create.timer"), TIMERS, d.turn_seconds, (v) => (v === null ? t("timer.none") : t("timer.secs", { n: v }))),
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
    const wanted = (fixed ? code : data.code || "").trim().toUpperCase();
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
      if (fixed && (err.code === "table/started" || err.code === "table/full")) watch.hidden = false;
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
      ? h("p", { class: "code-big small-code", "aria-label": t("share.spelled", { code: code.split("").join(" ") }) }, code)
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
            maxlength: 6,
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
    api(`/api/tables/${encodeURIComponent(code)}`)
      .then((table) => {
        const host = table.seats.find((seat) => seat.host);
        const lines = [t("join.of", { name: host ? host.name : "" }), t("join.seats", { n: table.seats.length, total: table.settings.seats })];
        const onlyWatch = () => {
          watch.hidden = false;
          watch.className = "btn primary big";
          form.querySelector("[type=submit]").hidden = true;
          form.querySelector("[data-testid=name]").closest(".field").hidden = true;
        };
        if (table.status !== "waiting") {
          lines.push(table.status === "finished" ? t("join.finished") : t("join.started"));
          onlyWatch();
        } else if (table.seats.length >= table.settings.seats) {
          lines.push(t("join.full"));
          onlyWatch();
        }
        info.replaceChildren(...lines.map((line) => h("p", {}, line)));
      })
      .catch((err) => {
        info.textContent = "";
        status.textContent = errorText(err.code, err.reason);
      });
  }
  return h("div", { class: "page" }, form);
}
