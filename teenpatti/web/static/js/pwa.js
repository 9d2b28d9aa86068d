// The app on the home screen: the manifest in the page's language, the service worker that keeps
// the static shell for offline use, and the offline notice on pages without a table (a table's
// own connection shows it there).

import { lang, onLang } from "./i18n.js";

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
