// The app on the home screen: the manifest in the page's language, the service worker that keeps
// the static shell for offline use, the offline notice on pages without a table (a table's
// own connection shows it there), and "Add to home screen" where the browser offers it.

import { h } from "./dom.js";
import { lang, onLang, t } from "./i18n.js";

// The browser's offer to add the app to the home screen (beforeinstallprompt: Chrome and the
// browsers built on it, on Android); null where it makes none, or once it is taken.
let offer = null;
const hints = new Set();

function drawHints() {
  for (const hint of [...hints]) {
    if (!hint.isConnected) {
      hints.delete(hint); // a page drawn again: its old hint is gone
      continue;
    }
    hint.hidden = !offer;
  }
}

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault(); // offered on the home page, when the player chooses, not at once
  offer = event;
  drawHints();
});
window.addEventListener("appinstalled", () => {
  offer = null;
  drawHints();
});

/** The home page's "Add to home screen" button and its line, shown only while the browser offers it. */
export function installHint() {
  const hint = h(
    "div",
    { class: "install-hint", "data-testid": "install-hint", hidden: !offer },
    h("p", { class: "small" }, t("pwa.installHelp")),
    h(
      "button",
      {
        type: "button",
        class: "btn",
        "data-testid": "install",
        onclick: async () => {
          const taken = offer;
          if (!taken) return;
          offer = null;
          drawHints();
          try {
            await taken.prompt();
          } catch {
            /* the browser would not show it now */
          }
        },
      },
      t("pwa.install"),
    ),
  );
  hints.add(hint);
  return hint;
}

/** Point <link rel=manifest> at the manifest in the page's language. */
function linkManifest() {
  const link = document.querySelector("link[rel=manifest]");
  if (link) link.href = lang() === "ne" ? "/manifest-ne.webmanifest" : "/manifest.webmanifest";
}

/** Register /sw.js (scope "/"); a browser without service workers simply has no offline shell. */
function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

/** Show the offline banner while there is no network and no table is telling it already. */
function watchNetwork(app, hasTable) {
  const update = () => {
    if (hasTable()) return;
    app.banner(navigator.onLine === false ? "offline" : null);
  };
  window.addEventListener("offline", update);
  window.addEventListener("online", update);
  update();
}

export function startPwa(app, hasTable) {
  linkManifest();
  onLang(linkManifest);
  registerWorker();
  watchNetwork(app, hasTable);
}
