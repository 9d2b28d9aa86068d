// Talking to the table server: the lobby over HTTP, and one WebSocket per table that says hello
// with the seat token, reconnects on its own with backoff, and wakes up when the phone does
// (visibilitychange, pageshow, online). See docs/protocol.md.

import { applyPatch } from "./versions.js";

export class ApiError extends Error {
  constructor(code, reason, status) {
    super(reason);
    this.code = code;
    this.reason = reason;
    this.status = status;
  }
}

/**
 * Ask the server for `path` (fetch's `init`): the response when it is a success, else an ApiError
 * with the server's stable code ("network" when the server could not be reached, `http/NNN` for a
 * status with no answer of ours), for `errorText` (i18n.js) to put in words.
 */
export async function request(path, init = {}) {
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("network", "the server could not be reached", 0);
  }
  if (response.ok) return response;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  const err = (data && data.error) || {};
  throw new ApiError(err.code || `http/${response.status}`, err.reason || response.statusText, response.status);
}

export async function api(path, body = undefined, headers = {}) {
  const response = await request(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** Errors after which saying hello again cannot help. */
const FATAL = new Set(["token/invalid", "table/unknown", "message/hello", "seat/removed", "seat/left"]);
/** Errors that end a socket at any time: this person no longer holds a seat here. */
const GONE = new Set(["seat/removed", "seat/left"]);

const PING_EVERY = 20000;
const PONG_WAIT = 6000;

/** Commands that carry an id of ours: sent again with the same id, they apply at most once. */
const COMMANDS = new Set(["act", "start", "again"]);
let commandCount = 0;
const commandPrefix = Math.random().toString(36).slice(2, 8);

function newCommandId() {
  commandCount += 1;
  return `${commandPrefix}-${commandCount}`;
}

export class TableSocket {
  /**
   * handlers: state(msg), error(msg), fatal(msg),
   * status("connecting" | "open" | "lost" | "offline" | "retrying")
   *
   * A command (act, start, again) gets an id; if the server answers a retryable error for it
   * (store/unavailable: the table cannot be reached now), the socket sends the same command, same
   * id, again with backoff and reports "retrying" meanwhile; the server applies it at most once.
   */
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.attempts = 0;
    this.retry = null;
    this.watchdog = null;
    this.pinger = null;
    this.stopped = false;
    this.everOpen = false;
    this.outstanding = null;
    this.resends = 0;
    this.resender = null;
    this.version = null;
    this.held = null;
    this.resyncing = false;
    this.status = "connecting";
    this.wake = this.wake.bind(this);
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.wake();
    };
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("pageshow", this.wake);
    window.addEventListener("online", this.wake);
    this.onOffline = () => this.setStatus("offline");
    window.addEventListener("offline", this.onOffline);
    this.open();
  }

  setStatus(status) {
    if (this.stopped) return;
    this.status = status;
    this.handlers.status(status, this.everOpen);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = null;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    let greeted = false;
    this.held = null; // the last state this socket got, that the next patch starts from
    this.resyncing = false; // a sync was asked for after a patch that did not fit
    ws.onopen = () => {
      // patches: send what changed since the state this socket holds, not each whole state
      ws.send(JSON.stringify({ type: "hello", token: this.token, patches: true }));
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      clearTimeout(this.watchdog);
      this.watchdog = null;
      if (greeted && this.status !== "open") this.setStatus("open");
      if (msg.type === "patch") {
        try {
          msg = applyPatch(this.held, msg);
        } catch {
          // a version missed, or a patch that does not fit: the whole state again (asked once)
          this.held = null;
          if (!this.resyncing) this.resyncing = this.send({ type: "sync" });
          return;
        }
      }
      if (msg.type === "state") {
        this.held = msg;
        this.resyncing = false;
        const first = !greeted;
        if (first) {
          greeted = true;
          this.attempts = 0;
          this.everOpen = true;
          this.setStatus("open");
          this.startPings();
        }
        this.version = msg.version;
        if (first && this.outstanding) {
          this.resend(); // a command unanswered when the socket broke: the same id again
        } else if (this.outstanding) {
          this.answered();
        }
        this.handlers.state(msg);
        if (first && this.handlers.opened) this.handlers.opened();
      } else if (msg.type === "pong") {
        // The server is ahead of the last state we got: an announcement was missed.
        if (this.version !== null && msg.version > this.version) this.send({ type: "sync" });
      } else if (msg.type === "call" || msg.type === "signal" || (msg.type === "error" && /^call\//.test(msg.code))) {
        if (this.handlers.call) this.handlers.call(msg); // the voice call's: no command's answer
      } else if (msg.type === "error") {
        if ((!greeted && FATAL.has(msg.code)) || GONE.has(msg.code)) {
          this.stop();
          this.handlers.fatal(msg);
        } else if (msg.retryable && this.outstanding && msg.id === this.outstanding.id) {
          this.setStatus("retrying");
          this.scheduleResend();
        } else {
          if (this.outstanding && (msg.id === undefined || msg.id === this.outstanding.id)) {
            this.answered();
          }
          this.handlers.error(msg);
        }
      }
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.stopPings();
      if (this.stopped) return;
      this.setStatus(navigator.onLine === false ? "offline" : "lost");
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  schedule() {
    if (this.stopped || this.retry) return;
    const base = Math.min(10000, 400 * 2 ** this.attempts);
    const delay = base * (0.6 + Math.random() * 0.4);
    this.attempts += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.open();
    }, delay);
  }

  /** The phone woke up or came back online: check the socket now rather than at the next retry. */
  wake() {
    if (this.stopped) return;
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING) {
      this.attempts = 0;
      this.open();
      return;
    }
    if (ws.readyState === WebSocket.OPEN) {
      this.probe();
    }
  }

  /** Ping, and drop the socket if nothing comes back: a phone may keep a dead socket "open". */
  probe() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    try {
      ws.send(JSON.stringify({ type: "ping" }));
    } catch {
      /* onclose follows */
    }
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (this.ws === ws) this.drop();
    }, PONG_WAIT);
  }

  /** Give up on the current socket and reconnect at once. */
  drop() {
    const ws = this.ws;
    this.ws = null;
    this.stopPings();
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      try {
        ws.close();
      } catch {
        /* already gone */
      }
    }
    if (this.stopped) return;
    this.setStatus(navigator.onLine === false ? "offline" : "lost");
    this.schedule();
  }

  startPings() {
    this.stopPings();
    this.pinger = setInterval(() => this.probe(), PING_EVERY);
  }

  stopPings() {
    clearInterval(this.pinger);
    clearTimeout(this.watchdog);
    this.pinger = null;
    this.watchdog = null;
  }

  send(message) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    if (COMMANDS.has(message.type)) {
      message = { ...message, id: message.id || newCommandId() };
      this.answered();
      this.outstanding = message;
    }
    ws.send(JSON.stringify(message));
    return true;
  }

  /** The outstanding command was answered (a state, or a refusal): stop retrying it. */
  answered() {
    const wasRetrying = this.resender !== null || this.resends > 0;
    clearTimeout(this.resender);
    this.resender = null;
    this.outstanding = null;
    this.resends = 0;
    if (wasRetrying && this.status === "retrying") this.setStatus("open");
  }

  scheduleResend() {
    clearTimeout(this.resender);
    const delay = Math.min(5000, 500 * 2 ** this.resends);
    this.resends += 1;
    this.resender = setTimeout(() => {
      this.resender = null;
      this.resend();
    }, delay);
  }

  resend() {
    const ws = this.ws;
    if (!this.outstanding || !ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify(this.outstanding));
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.resender);
    this.stopPings();
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("pageshow", this.wake);
    window.removeEventListener("online", this.wake);
    window.removeEventListener("offline", this.onOffline);
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      try {
        ws.close();
      } catch {
        /* already gone */
      }
    }
  }
}
