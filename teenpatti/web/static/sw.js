// The service worker: keeps the static shell (the page, its styles, scripts, icons and the
// offline page) so the table opens from the home screen and shows a clear page with no network.
// It never touches the lobby (/api/...) or the table's socket (/ws/...): those always go to the
// server, and a move is never answered from a cache.
//
// It also shows the turn alerts of play-anytime tables (Web Push: the server sends
// {"kind", "table", "name"}; the words are chosen here, in the page's language, which the page
// keeps in the "teenpatti-prefs" cache) and opens the table when one is tapped.
//
// The server fills in SHELL (every static file) and VERSION (a digest of them) when it serves
// this file, so a new release replaces the old cache.

const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const CACHE = `teenpatti-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("teenpatti-shell-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function isShell(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/ws/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || !isShell(url)) return; // the network, untouched
  if (request.mode === "navigate") {
    // A page (/ or /t/CODE): the server's, else the cached shell (it routes by path), else the
    // offline page.
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE).then((cache) => cache.match("/").then((shell) => shell || cache.match("/static/offline.html"))),
      ),
    );
    return;
  }
  // Static files: the network first (pages are no-cache: a phone sees a new release at once),
  // the cached copy when there is no network.
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && SHELL.includes(url.pathname)) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request).then((cached) => cached || Response.error())),
  );
});

// ---------------------------------------------------------------- turn alerts
const WORDS = {
  en: {
    app: "Teen Patti",
    turn: "Your turn at table {code}",
    turnBody: "The others have played: take your turn when it suits you.",
    start: "The game has started at table {code}",
    startBody: "Open the table to play.",
    end: "The game is over at table {code}",
    endBody: "See the standings.",
    join: "{name} joined table {code}",
    joinBody: "Open the table to see who is in.",
  },
  ne: {
    app: "तीन पत्ती",
    turn: "टेबल {code} मा तपाईंको पालो",
    turnBody: "अरूले खेलिसक्नुभयो: तपाईंलाई मिल्ने बेला आफ्नो पालो खेल्नुहोस्।",
    start: "टेबल {code} मा खेल सुरु भयो",
    startBody: "खेल्न टेबल खोल्नुहोस्।",
    end: "टेबल {code} मा खेल सकियो",
    endBody: "नतिजा हेर्नुहोस्।",
    join: "{name} टेबल {code} मा बस्नुभयो",
    joinBody: "को-को बस्नुभयो, टेबल खोलेर हेर्नुहोस्।",
  },
};

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (_, key) => String(params[key] ?? ""));
}

async function language() {
  try {
    const cache = await caches.open("teenpatti-prefs");
    const kept = await cache.match("/lang");
    const text = kept ? (await kept.text()).trim() : "";
    if (text === "ne" || text === "en") return text;
  } catch {
    /* no cache: the phone's languages decide */
  }
  const langs = (self.navigator && self.navigator.languages) || [];
  for (const tag of langs) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "ne") return "ne";
    if (base === "en") return "en";
  }
  return "en";
}

/** The notification for an alert: [title, options]. */
function notificationOf(alert, lang) {
  const words = WORDS[lang] || WORDS.en;
  const kind = Object.hasOwn(words, alert.kind) ? alert.kind : "turn";
  const code = String(alert.table || "").replace(/[^A-Za-z0-9]/g, "").slice(0, 12);
  const name = String(alert.name || "").slice(0, 24);
  return [
    fill(words[kind], { code, name }),
    {
      body: words[`${kind}Body`],
      lang,
      tag: `table-${code}`, // a newer alert of the same table replaces the older
      renotify: true,
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png",
      data: { url: `/t/${code}`, kind },
    },
  ];
}

self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = {};
  }
  event.waitUntil(language().then((lang) => self.registration.showNotification(...notificationOf(alert, lang))));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || "/";
  const url = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const there = windows.find((w) => new URL(w.url).pathname === new URL(url).pathname);
      if (there) return there.focus();
      // a page of this site that the worker controls is taken to the table; else a new one
      const ours = windows.find((w) => "navigate" in w && new URL(w.url).origin === self.location.origin);
      if (ours) return ours.navigate(url).then((w) => (w || ours).focus().catch(() => w));
      return self.clients.openWindow(url);
    }),
  );
});
