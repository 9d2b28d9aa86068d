// The page: one document that routes between home, the two forms, a table and the rules by its
// path (/ or /t/CODE) and hash (#create, #join, #mine, #rules, #ranking, #words, #faq, #tips). The rules
// open over whatever is underneath, so a table keeps playing (and cueing) while you read them.

import { cardFace } from "./cards.js";
import { loadCatalogue } from "./catalogue.js";
import { isSoundMuted, setSoundMuted } from "./cue.js";
import { h, morphChildren } from "./dom.js";
import { createPage, homePage, joinPage } from "./home.js";
import { digits, lang, onLang, setLang, t } from "./i18n.js";
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
let headerState = { title: "", sub: null, table: false };
let lastPath = null;
let lastRouted = null;

function speak(el, text) {
  el.textContent = "";
  // a fresh text node after a tick makes screen readers read a repeated message again
  setTimeout(() => {
    el.textContent = text;
  }, 30);
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
    headerState = state;
    drawHeader();
  },
  go(path, options = {}) {
    // entries this page makes carry {tp: true}, so Back knows it can stay within the app
    if (options.replace) history.replaceState(history.state, "", path);
    else history.pushState({ tp: true }, "", path);
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
      !rules && code && headerState.sub ? h("span", { class: "sub" }, headerState.sub) : null,
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
  headerState = code ? headerState : { title: "", sub: null, table: false };

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
      else view.replaceChildren(homePage(app));
    }
  }
  drawHeader();
  if (!table) document.title = rules ? `${t("rules.title")} · ${t("app.name")}` : t("app.name");
  if (navigated) {
    if (!rules) window.scrollTo(0, 0);
    const heading = (rules ? overlay : view).querySelector("h1");
    const main = document.getElementById("main");
    (heading || main).setAttribute("tabindex", "-1");
    (heading || main).focus({ preventScroll: true });
  }
}

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
  else view.replaceChildren(homePage(app));
});

noticeEl.addEventListener("click", () => app.notice(null));

window.__tp = {
  get table() {
    return table ? table.view : null;
  },
};

loadCatalogue(); // the presets and options, fetched while the first page is drawn
route(false);
startPwa(app, () => table !== null);
document.documentElement.dataset.ready = "1";
