// The page: one document that routes between home, the two forms, a table and the rules by its
// path (/ or /t/CODE) and hash (#create, #join, #mine, #learn, #rules, #ranking, #words, #faq, #tips). The rules
// open over whatever is underneath, so a table keeps playing (and cueing) while you read them.

import { cardFace } from "./cards.js";
import { loadCatalogue } from "./catalogue.js";
import { isSoundMuted, setSoundMuted } from "./cue.js";
import { codeText, h, morphChildren } from "./dom.js";
import { createPage, homePage, joinPage } from "./home.js";
import { learnPage } from "./learn.js";
import { digits, lang, onLang, parts, setLang, t } from "./i18n.js";
import { myTablesPage } from "./mytables.js";
import { SECTIONS, rulesPage } from "./rules.js";
import { startPwa } from "./pwa.js";
import * as store from "./store.js";
import { TableView } from "./table.js";

const header = document.getElementById("top");
const view = document.getElementById("view");
const overlay = document.getElementById("overlay");
const banner = document.getElementById("banner");
const toastEl = document.getElementById("toast");
const noticeEl = document.getElementById("notice");
const politeEl = document.getElementById("announce");
const assertiveEl = document.getElementById("alert");

let table = null; // {code, view: TableView}
const watching = new Set(); // table codes this page chose to watch without a seat
let headerState = { title: "", code: null, table: false };
let lastPath = null;
let lastRouted = null;
let opener = null; // what opened the rules: {el, testid, y}, to go back to when they close

// Two logs for screen readers, polite and urgent. Every message is a new line added to its log, so a
// screen reader queues them in order and none overwrites another (a repeated message is a new line
// too); `data-seq` numbers them across both logs. Old lines are dropped (removals are not read).
const KEEP = 80;
let said = 0;
function speak(el, text) {
  if (!text) return;
  said += 1;
  el.appendChild(h("p", { "data-seq": said, lang: lang() }, text));
  while (el.childElementCount > KEEP) el.firstElementChild.remove();
}

let toastTimer = null;
const app = {
  announce(text) {
    speak(politeEl, text);
  },
  alert(text) {
    speak(assertiveEl, text);
  },
  toast(text) {
    toastEl.textContent = text;
    toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      toastEl.hidden = true;
    }, 4500);
  },
  banner(kind) {
    if (!kind) {
      banner.hidden = true;
      banner.dataset.state = "ok";
      banner.textContent = "";
      return;
    }
    banner.hidden = false;
    banner.dataset.state = kind;
    const key = { offline: "conn.offline", connecting: "conn.connecting", retrying: "conn.retrying" }[kind];
    banner.textContent = t(key || "conn.reconnecting");
  },
  /** A notice that stays on the page until it is clicked or cleared (null): "Your turn at ...". */
  notice(text) {
    noticeEl.hidden = !text;
    noticeEl.textContent = text || "";
  },
  setHeader(state) {
    // a table sets it at every state: drawn again only when it says something else
    if (state.title === headerState.title && state.code === headerState.code && state.table === headerState.table) return;
    headerState = state;
    drawHeader();
  },
  go(path, options = {}) {
    // entries this page makes carry {tp: true}, so Back knows it can stay within the app
    if (options.replace) history.replaceState(history.state, "", path);
    else {
      // a section of the rules also counts how many steps back the page under them is
      const rules = SECTIONS.includes(decodeURIComponent(new URL(path, location.href).hash.slice(1)));
      const below = SECTIONS.includes(routeInfo().hash) && history.state ? history.state.rules || 0 : 0;
      history.pushState(rules ? { tp: true, rules: below + 1 } : { tp: true }, "", path);
    }
    route(true);
  },
  joinPage(code, message) {
    stopTable();
    view.replaceChildren(joinPage(app, code, message));
  },
  watch(code) {
    watching.add(code);
    stopTable();
    route(true);
  },
  digits(text) {
    return digits(text);
  },
  heroCards() {
    return ["As", "Ah", "Ad"].map((c, i) => cardFace(c, "md", `hero${i}`));
  },
};

function routeInfo() {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9]{1,16})\/?$/);
  const code = match ? match[1].toUpperCase() : null;
  const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
  return { code, hash };
}

function back() {
  const { code, hash } = routeInfo();
  if (history.state && history.state.tp) {
    history.back();
    return;
  }
  history.replaceState(null, "", hash && code ? `/t/${code}` : "/");
  route(true);
}

function drawHeader() {
  const { code, hash } = routeInfo();
  const rules = SECTIONS.includes(hash);
  const atHome = !code && !hash;
  const title = rules ? t("rules.title") : headerState.title || t("app.name");
  const left = atHome
    ? h("span", { class: "logo", "aria-hidden": "true" }, cardFace("As", "sm", "logo"))
    : h(
        "button",
        {
          type: "button",
          class: "icon-btn",
          "data-testid": "back",
          "aria-label": rules || !code ? t("nav.back") : t("nav.leave"),
          title: rules || !code ? t("nav.back") : t("nav.leave"),
          onclick: () => (rules || !code ? back() : app.go("/")),
        },
        h("span", { "aria-hidden": "true" }, "‹"),
      );
  const soundButton =
    headerState.table && code && !rules
      ? h(
          "button",
          {
            type: "button",
            class: "icon-btn",
            "data-testid": "sound",
            "aria-pressed": isSoundMuted() ? "false" : "true",
            "aria-label": isSoundMuted() ? t("sound.off") : t("sound.on"),
            title: isSoundMuted() ? t("sound.off") : t("sound.on"),
            onclick: () => {
              setSoundMuted(!isSoundMuted());
              drawHeader();
            },
          },
          h("span", { "aria-hidden": "true" }, isSoundMuted() ? "🔇" : "🔊"),
        )
      : null;
  morphChildren(header, [
    left,
    h(
      "div",
      { class: "titles" },
      h("span", { class: "title", "data-testid": "header-title" }, atHome ? t("app.name") : title),
      !rules && code && headerState.code
        ? h("span", { class: "sub" }, parts("table.code", { code: codeText(headerState.code) }))
        : null,
    ),
    soundButton,
    h(
      "button",
      {
        type: "button",
        class: "lang-btn",
        lang: lang() === "en" ? "ne" : "en",
        "data-testid": "lang",
        "aria-label": t("lang.label"),
        onclick: () => setLang(lang() === "en" ? "ne" : "en"),
      },
      t("lang.button"),
    ),
    rules
      ? null
      : h(
          "a",
          { class: "icon-btn", href: "#rules", "data-testid": "rules-link", "aria-label": t("nav.rules"), title: t("nav.rules") },
          h("span", { "aria-hidden": "true" }, "?"),
        ),
  ]);
}

function stopTable() {
  if (table) {
    table.view.stop();
    table = null;
  }
}

function route(navigated = false) {
  const { code, hash } = routeInfo();
  lastRouted = location.pathname + location.hash;
  const path = location.pathname;
  const pathChanged = path !== lastPath;
  lastPath = path;
  const rules = SECTIONS.includes(hash);
  const wasRules = overlay.dataset.shown === "1";
  headerState = code ? headerState : { title: "", code: null, table: false };
  if (rules && !wasRules) {
    // the rules open over the page: remember what had focus, and where the page was scrolled
    const from = document.activeElement;
    opener = { el: from, testid: from && from.dataset ? from.dataset.testid : null, y: window.scrollY };
  }
  const closing = !rules && wasRules ? opener : null;
  if (!rules) opener = null;

  if (rules) {
    overlay.hidden = false;
    view.hidden = true;
    morphChildren(overlay, [rulesPage(app, hash)]);
    const target = document.getElementById(`sec-${hash}`);
    if (navigated || !overlay.dataset.shown) {
      if (hash === "rules") window.scrollTo(0, 0);
      else if (target) target.scrollIntoView();
    }
    overlay.dataset.shown = "1";
  } else {
    overlay.hidden = true;
    overlay.dataset.shown = "";
    overlay.replaceChildren();
    view.hidden = false;
  }

  if (code) {
    const seat = store.seatFor(code);
    if (table && table.code !== code) stopTable();
    if (!table) {
      if (seat || watching.has(code)) {
        view.replaceChildren();
        table = { code, view: new TableView(code, view, app, seat ? seat.token : null) };
      } else if (pathChanged || !view.querySelector("[data-testid=join-form]")) {
        view.replaceChildren(joinPage(app, code));
      }
    }
  } else {
    stopTable();
    if (!rules || pathChanged || !view.firstChild) {
      if (hash === "create") view.replaceChildren(createPage(app));
      else if (hash === "join") view.replaceChildren(joinPage(app));
      else if (hash === "mine") view.replaceChildren(myTablesPage(app));
      else if (hash === "learn") view.replaceChildren(learnPage(app));
      else view.replaceChildren(homePage(app));
    }
  }
  drawHeader();
  if (!table) document.title = rules ? `${t("rules.title")} · ${t("app.name")}` : t("app.name");
  if (closing && !pathChanged) {
    // back from the rules: to the control that opened them, where the page was
    window.scrollTo(0, closing.y);
    const back = closing.el && closing.el.isConnected ? closing.el : closing.testid ? document.querySelector(`[data-testid="${closing.testid}"]`) : null;
    if (back && back.getClientRects().length) {
      back.focus({ preventScroll: true });
      return;
    }
  }
  if (navigated) {
    if (!rules) window.scrollTo(0, 0);
    const heading = (rules ? overlay : view).querySelector("h1");
    const main = document.getElementById("main");
    (heading || main).setAttribute("tabindex", "-1");
    (heading || main).focus({ preventScroll: true });
  }
}

// Escape closes the rules (every section visited), as it closes any layer over a page.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || overlay.hidden || event.defaultPrevented) return;
  event.preventDefault();
  const depth = history.state && history.state.rules;
  if (depth > 0) {
    history.go(-depth);
  } else {
    const { code } = routeInfo();
    history.replaceState(history.state, "", code ? `/t/${code}` : "/");
    route(true);
  }
});

// Links inside the app (paths and hashes) change the page without reloading it.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const raw = link.getAttribute("href");
  if (!raw.startsWith("#") && !link.hasAttribute("data-link")) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  if (url.pathname + url.hash === location.pathname + location.hash) return;
  app.go(url.pathname + url.hash);
});

function onHistory() {
  if (location.pathname + location.hash !== lastRouted) route(true);
}
window.addEventListener("popstate", onHistory);
window.addEventListener("hashchange", onHistory);

onLang(() => {
  drawHeader();
  if (banner.dataset.state && banner.dataset.state !== "ok") app.banner(banner.dataset.state);
  const { code, hash } = routeInfo();
  if (SECTIONS.includes(hash)) morphChildren(overlay, [rulesPage(app, hash)]);
  if (table) table.view.render();
  else if (code) view.replaceChildren(joinPage(app, code));
  else if (hash === "create") view.replaceChildren(createPage(app));
  else if (hash === "join") view.replaceChildren(joinPage(app));
  else if (hash === "mine") view.replaceChildren(myTablesPage(app));
  else if (hash === "learn") view.replaceChildren(learnPage(app));
  else view.replaceChildren(homePage(app));
});

noticeEl.addEventListener("click", () => app.notice(null));

// The header's real height (it grows with large text): what the page keeps clear of it when it
// scrolls a focused field into view, and whether it stays stuck to the top at all.
function measureHeader() {
  const height = header.getBoundingClientRect().height;
  document.documentElement.style.setProperty("--header-h", `${Math.ceil(height)}px`);
  document.documentElement.toggleAttribute("data-tall-header", height > window.innerHeight / 5);
}
if (typeof ResizeObserver === "function") new ResizeObserver(measureHeader).observe(header);
window.addEventListener("resize", measureHeader);

window.__tp = {
  get table() {
    return table ? table.view : null;
  },
};

loadCatalogue(); // the presets and options, fetched while the first page is drawn
route(false);
startPwa(app, () => table !== null);
document.documentElement.dataset.ready = "1";
