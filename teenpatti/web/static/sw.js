// The service worker: keeps the static shell (the page, its styles, scripts, icons and the
// offline page) so the table opens from the home screen and shows a clear page with no network.
// It never touches the lobby (/api/...) or the table's socket (/ws/...): those always go to the
// server, and a move is never answered from a cache.
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
