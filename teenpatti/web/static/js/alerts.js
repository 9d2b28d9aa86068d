// Turn alerts for play-anytime tables (Web Push). Nothing is asked of the phone until the player
// taps "Tell me when it's my turn": then the browser asks for permission, subscribes with the
// server's key (GET /api/push) and the subscription is sent for this seat only
// (POST /api/tables/CODE/push with the seat token). The service worker (sw.js) shows each alert
// in the phone's language and opens the table when it is tapped. A page that cannot use push
// (plain http on the Wi-Fi, an old browser) says so: it keeps its own alerts while it is open
// (title, sound and vibration on your turn: table.js, cue.js).

import { h } from "./dom.js";
import { errorText, lang, onLang, t } from "./i18n.js";
import { api } from "./net.js";

const KEPT = "tp.push"; // {code: endpoint} of the tables this phone gets alerts for
const PREFS_CACHE = "teenpatti-prefs"; // read by the service worker: the language to write in

function read() {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "{}") || {};
  } catch {
    return {};
  }
}

function write(value) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(value));
  } catch {
    /* private mode: the alerts still come, the button forgets */
  }
}

/** Whether this page can use Web Push at all. */
export function pushable() {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

/** "unsupported", "denied", "on" or "off" for this table on this phone. */
export function alertState(code) {
  if (!pushable()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return read()[code] ? "on" : "off";
}

/** Tell the service worker the page's language (it cannot read the page's storage). */
export function shareLanguage() {
  if (typeof caches === "undefined" || !pushable()) return;
  caches
    .open(PREFS_CACHE)
    .then((cache) => cache.put("/lang", new Response(lang())))
    .catch(() => {});
}

function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function bearer(token) {
  return { Authorization: `Bearer ${token}` };
}

/** Ask for permission (after the player's tap), subscribe and send it for this seat. */
export async function turnOn(code, token) {
  const { key } = await api("/api/push");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw Object.assign(new Error("denied"), { code: "push/denied" });
  const registration = await navigator.serviceWorker.ready;
  let sub = await registration.pushManager.getSubscription();
  if (sub && sub.options && sub.options.applicationServerKey) {
    const had = new Uint8Array(sub.options.applicationServerKey);
    const want = keyBytes(key);
    if (had.length !== want.length || had.some((b, i) => b !== want[i])) {
      await sub.unsubscribe(); // made for another key (the server's key changed)
      sub = null;
    }
  }
  if (!sub) sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  shareLanguage();
  await api(`/api/tables/${encodeURIComponent(code)}/push`, sub.toJSON(), bearer(token));
  write({ ...read(), [code]: sub.endpoint });
}

/** Stop this table's alerts on this phone (the browser's subscription stays for other tables). */
export async function turnOff(code, token) {
  const endpoint = read()[code];
  const kept = read();
  delete kept[code];
  write(kept);
  if (!endpoint) return;
  await fetch(`/api/tables/${encodeURIComponent(code)}/push`, {
    method: "DELETE",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: JSON.stringify({ endpoint }),
  }).catch(() => {});
}

/**
 * Why turning the alerts on failed, in words: the server's refusals by their code; the browser's
 * own errors (a DOMException, such as the AbortError of a phone with no push service, whose
 * `code` is a number) as what the player can do instead, never as the browser's number.
 */
export function failure(err) {
  const code = err && err.code;
  if (code === "push/denied") return t("push.denied");
  if (typeof code === "string" && code !== "network") return errorText(code, err.reason);
  if (typeof DOMException === "function" && err instanceof DOMException) return t("push.cannot");
  return t("push.failed");
}

/**
 * The opt-in: a button, or what stands in its place, for a seat at a play-anytime table.
 * `redraw` draws the screen again once the state changed.
 */
export function alertsControl(code, token, redraw, busy = { now: false, error: null }) {
  const state = alertState(code);
  const testid = `alerts-${code}`;
  if (state === "unsupported") {
    return h("p", { class: "muted alerts-note", "data-testid": testid, "data-alerts": state }, t("push.http"));
  }
  if (state === "denied") {
    return h("p", { class: "muted alerts-note", "data-testid": testid, "data-alerts": state }, t("push.denied"));
  }
  const error = busy.error ? h("p", { class: "error", role: "alert" }, busy.error) : null;
  if (state === "on") {
    return h(
      "div",
      { class: "alerts", "data-testid": testid, "data-alerts": state },
      h("p", { class: "muted" }, t("push.on")),
      h(
        "button",
        {
          class: "btn",
          type: "button",
          "data-testid": `${testid}-stop`,
          onclick: (event) => {
            event.preventDefault();
            event.stopPropagation();
            turnOff(code, token).finally(redraw);
          },
        },
        t("push.stop"),
      ),
    );
  }
  return h(
    "div",
    { class: "alerts", "data-testid": testid, "data-alerts": state },
    h(
      "button",
      {
        class: "btn",
        type: "button",
        disabled: busy.now,
        "data-testid": `${testid}-ask`,
        onclick: (event) => {
          event.preventDefault();
          event.stopPropagation();
          busy.now = true;
          busy.error = null;
          redraw();
          turnOn(code, token)
            .catch((err) => {
              busy.error = failure(err);
            })
            .finally(() => {
              busy.now = false;
              redraw();
            });
        },
      },
      busy.now ? t("push.busy") : t("push.ask"),
    ),
    error,
  );
}

onLang(shareLanguage);
