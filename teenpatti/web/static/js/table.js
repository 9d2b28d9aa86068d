// One table on this phone: it keeps the latest state the server sent for this seat, says what
// changed, sends this player's moves, and draws the screen the state is at: the waiting room
// (lobby.js), the table in play (play.js, with actions.js and results.js) or an error. The server
// owns the rules, the clock and every card (docs/protocol.md).

import { alertsControl } from "./alerts.js";
import { Call } from "./call.js";
import { announcements, endsHand, startsHand } from "./announce.js";
import { loadCatalogue } from "./catalogue.js";
import { hurry, learnSkew, secondsLeft, startClocks } from "./clock.js";
import { yourTurn } from "./cue.js";
import { h, morphChildren } from "./dom.js";
import { feel } from "./feel.js";
import { PastHands } from "./hands.js";
import { errorText, t } from "./i18n.js";
import { waitingRoom } from "./lobby.js";
import { isMyTurn } from "./moves.js";
import { TableSocket } from "./net.js";
import { play } from "./play.js";
import { QrImage } from "./qr.js";
import { ShareLink } from "./share.js";
import { Social } from "./social.js";
import * as store from "./store.js";
import { placeOf } from "./versions.js";

export class TableView {
  /** app: {setHeader, announce, alert, toast, notice, banner, go, joinPage} */
  constructor(code, root, app, token) {
    this.code = code;
    this.root = root;
    this.app = app;
    this.token = token;
    this.st = null;
    this.pending = false;
    this.lastFinished = null; // the last finished hand's state, for the line under the next one
    this.amount = null; // the chaal amount chosen on the stepper, this hand
    this.partner = null; // the seat a side show would ask, where it may ask several
    this.fresh = true; // the next state is taken whole (the first, or the first after a reconnect)
    this.syncing = false; // a sync was asked for after a gap in versions
    this.qr = new QrImage(code, () => this.render());
    this.share = new ShareLink(code, () => this.render());
    this.social = new Social(this);
    this.hands = new PastHands(this);
    this.call = new Call(this);
    this.alertsBusy = { now: false, error: null }; // the turn alerts' button, while it asks
    this.socket = new TableSocket(code, token, {
      state: (msg) => this.onState(msg),
      error: (msg) => this.onError(msg),
      fatal: (msg) => this.onFatal(msg),
      status: (status, everOpen) => this.onStatus(status, everOpen),
      call: (msg) => this.call.onMessage(msg),
      opened: () => this.call.onOpen(), // a phone that was on the call joins it again
    });
    this.parked = null; // where focus was put when what had it went away
    this.askedAt = null; // the side show request focus was taken to
    this.ticker = setInterval(() => this.onTick(), 250);
    loadCatalogue().then((cat) => {
      if (cat && this.st) this.render(); // the waiting room names the house rules from it
    });
    this.render();
  }

  stop() {
    this.socket.stop();
    clearTimeout(this.pendingTimer);
    this.qr.release();
    clearInterval(this.ticker);
    this.social.stop();
    this.call.stop();
    this.app.banner(null);
    this.app.notice(null);
  }

  /** Whether no move can be sent now: one is on its way, or the connection is down. */
  get held() {
    return this.pending || Boolean(this.lost);
  }

  // ---------------------------------------------------------------- messages
  onStatus(status, everOpen) {
    if (status === "open") {
      if (this.lost) this.app.announce(t("conn.back"));
      const was = this.lost;
      this.lost = false;
      this.app.banner(null);
      if (was) this.render();
      return;
    }
    if (status === "retrying") {
      this.app.banner("retrying"); // the move waits: the socket sends it again by itself
      return;
    }
    if (status === "lost" || status === "offline") {
      this.lost = true;
      this.fresh = true;
      this.syncing = false;
      this.pending = false;
      this.app.banner(status === "offline" ? "offline" : everOpen ? "reconnecting" : "connecting");
      this.render();
    }
  }

  onState(st) {
    const prev = this.fresh ? null : this.st;
    const place = placeOf(prev && prev.version, st.version);
    if (place === "stale") return;
    if (place === "gap" && !this.syncing) {
      // a version went missing: show none out of order; the answer to sync is the whole state
      this.syncing = this.send({ type: "sync" }, { waits: false });
      if (this.syncing) return;
    }
    this.syncing = false;
    this.fresh = false;
    this.st = st;
    this.pending = false;
    learnSkew(prev, st);
    const starts = startsHand(prev, st);
    if (starts) {
      this.amount = null;
      this.partner = null;
    }
    if (endsHand(prev, st)) this.lastFinished = st;
    const left = st.deadline && st.settings.turn_seconds ? Math.ceil(secondsLeft(st)) : null;
    const { polite, turn } = announcements(prev, st, this.amount, left);
    for (const line of polite) this.app.announce(line);
    if (turn) {
      yourTurn();
      this.app.alert(turn);
      // a page in the background (a play-anytime table left open) says so when the player looks
      if (document.hidden) this.app.notice(t("notice.turn", { code: this.code }));
    }
    if (!isMyTurn(st)) this.app.notice(null);
    this.social.onState(prev, st);
    this.call.onState(st);
    this.hands.onState(st);
    // something for this player to do that was not there before (a hand's first turn is new)
    const had = Boolean(prev && !starts && (isMyTurn(prev) || prev.rebuy));
    this.render();
    this.keepInSight(starts, !had && (isMyTurn(st) || Boolean(st.rebuy)));
    feel(prev, st, this.root); // after drawing: what moves only decorates a table already in play
  }

  onError(msg) {
    // this phone's part of a deal came too late (or twice): the server's part stood, quietly
    if (typeof msg.code === "string" && msg.code.startsWith("deal/")) return;
    this.pending = false;
    if (msg.code === "state/stale" || msg.code === "state/conflict") {
      this.send({ type: "sync" }, { waits: false });
    }
    this.app.toast(errorText(msg.code, msg.reason));
    this.render();
  }

  onFatal(msg) {
    clearInterval(this.ticker);
    this.call.stop(); // removed, gone, or the table cannot be played: off the call at once
    if (["token/invalid", "seat/removed", "seat/left"].includes(msg.code)) {
      if (msg.code === "seat/removed" && this.token) store.rememberGone(this.code, this.token);
      store.forgetSeat(this.code);
      this.app.joinPage(this.code, t(`err.${msg.code}`));
      return;
    }
    this.failed = msg;
    this.app.banner(null);
    this.render();
  }

  /**
   * The one way the page sends: a command goes out through the socket (which gives it its id and
   * sends it again until it is answered, net.js). A command that changes the table waits for its
   * answer (`pending`: every control that sends is disabled meanwhile, and after 8 s unanswered the
   * page asks for the state again). `{ waits: false }` sends without waiting and without being held
   * up by a move on its way: a chat line, this phone's part of the next deal, a sync.
   */
  send(message, { waits = true } = {}) {
    if (!waits) return this.socket.send(message);
    if (this.pending) return false;
    if (this.socket.send(message)) {
      this.pending = true;
      // the answer is a new state or an error; should neither come, let the player try again
      clearTimeout(this.pendingTimer);
      this.pendingTimer = setTimeout(() => {
        if (this.pending) {
          this.pending = false;
          this.send({ type: "sync" }, { waits: false });
          this.render();
        }
      }, 8000);
      this.render();
      return true;
    }
    return false;
  }

  act(action) {
    this.send({ type: "act", action, version: this.st ? this.st.version : undefined });
  }

  /**
   * Where the page is scrolled as the table moves on: a new hand starts at the top (the header
   * says which hand, the seats are all there), and when a move becomes this player's to make, their
   * moves come into sight (below the seats on a narrow phone, in the panel's own scroll sideways),
   * the top of the table kept in sight as far as they allow. A player typing in the chat is not
   * moved.
   */
  keepInSight(starts, toDo) {
    const active = document.activeElement;
    if (active && active.matches("input, textarea, select") && !active.closest("[data-testid=actions]")) return;
    if (starts) window.scrollTo(0, 0);
    if (!toDo) return;
    const moves = this.root.querySelector("[data-testid=actions], [data-testid=sideshow-request], [data-testid=out]");
    const mine = this.root.querySelector("[data-testid=my-hand]");
    // the moves last: where both cannot be in sight, the moves are
    if (mine && mine.querySelector("button")) mine.scrollIntoView({ block: "nearest", behavior: "instant" });
    if (moves) moves.scrollIntoView({ block: "nearest", behavior: "instant" });
  }

  /** Four times a second: a warning before the time runs out (the clocks run by themselves). */
  onTick() {
    if (this.lost) return; // the clock is hidden: the state it counts from may be stale
    const warning = hurry(this.st, isMyTurn(this.st));
    if (warning) this.app.alert(warning);
  }

  /**
   * Keep the keyboard on the table. When the control that had focus goes away (See cards, a move's
   * button after the move, Start, Play again), focus moves to the next thing to do or read instead
   * of falling to the page: the moves when it is this player's turn, else their cards, the hand's
   * result or the standings. A side show asked of this player takes focus once, as a dialog does.
   */
  placeFocus(had) {
    // Under the rules there is nothing to focus. Asked only when focus is about to move: the
    // question lays the page out at once, and most states move no focus.
    const shown = () => this.root.getClientRects().length > 0;
    const active = document.activeElement;
    const dialog = this.root.querySelector("[role=alertdialog]");
    const hand = this.st && this.st.hand;
    if (dialog && hand) {
      const key = `${hand.number}:${hand.actions.length}`;
      if (this.askedAt !== key) {
        const answer = dialog.querySelector("button:not([disabled])");
        if (answer && shown()) {
          answer.focus();
          this.askedAt = key;
          this.parked = null;
          return;
        }
      }
    }
    // a button disabled while its move is on the way loses focus too (the browser drops it later)
    const lost = had && (!active || active === document.body || !this.root.contains(active) || active.disabled);
    const parked = this.parked !== null && active === this.parked;
    if (!lost && !parked) return;
    const move = isMyTurn(this.st) && !this.pending ? this.root.querySelector("[data-testid=actions] button:not([disabled])") : null;
    if ((move || !parked) && !shown()) return;
    if (move) {
      move.focus();
      this.parked = null;
      return;
    }
    if (parked) return;
    const rest = ["[data-testid=standings]", "[data-testid=result]", "[data-testid=my-hand]", "[data-testid=turn-line]", "h1"];
    for (const selector of rest) {
      const el = this.root.querySelector(selector);
      if (el && el.getClientRects().length) {
        if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
        el.focus();
        this.parked = el;
        return;
      }
    }
  }

  render() {
    const st = this.st;
    if (this.failed) {
      const text = errorText(this.failed.code, this.failed.reason);
      this.app.setHeader({ title: t("table.code", { code: this.code }), table: false });
      morphChildren(this.root, [
        h(
          "section",
          { class: "panel center", "data-testid": "table-error" },
          h("p", { class: "error", role: "alert" }, text),
          h("a", { class: "btn primary", href: "/", "data-link": "" }, t("end.home")),
        ),
      ]);
      return;
    }
    if (!st) {
      this.app.setHeader({ title: t("table.code", { code: this.code }), table: true });
      morphChildren(this.root, [
        h("section", { class: "panel center", "data-testid": "connecting" }, h("p", {}, t("conn.connecting"))),
      ]);
      return;
    }
    const hand = st.hand;
    this.app.setHeader({
      title: hand ? t("table.hand", { n: hand.number, of: hand.of }) : t("table.code", { code: st.code }),
      code: hand ? st.code : null,
      table: true,
    });
    const body =
      st.status === "waiting"
        ? waitingRoom(this, st)
        : [play(this, st), this.hands.bar(st), this.hands.panel(st)];
    // a seat at a play-anytime table may ask to be told when it is their turn (alerts.js)
    const alerts =
      st.you !== null && this.token && st.settings.play === "anytime" && st.status !== "finished"
        ? alertsControl(this.code, this.token, () => this.render(), this.alertsBusy)
        : null;
    const actor = hand && !hand.finished ? hand.actor : null;
    const actorSeat = actor === null || actor === undefined ? null : st.seats[actor];
    const root = h(
      "section",
      {
        class: `table-screen status-${st.status}`,
        "data-testid": "table",
        "data-status": st.status,
        "data-version": st.version,
        "data-code": st.code,
        "data-you": st.you === null ? "" : st.you,
        "data-hand": hand ? hand.number : 0,
        "data-hand-finished": hand && hand.finished ? "1" : "0",
        "data-actor": actor === null || actor === undefined ? "" : actor,
        "data-person-turn": actorSeat && actorSeat.person && !actorSeat.bot ? "1" : "0",
        "data-myturn": isMyTurn(st) ? "1" : "0",
        "data-pending": this.pending ? "1" : "0",
        "data-online": this.lost ? "0" : "1",
        "data-seen": st.you !== null && st.seats[st.you] && st.seats[st.you].seen ? "1" : "0",
      },
      body,
      alerts,
    );
    const had = this.root.contains(document.activeElement);
    morphChildren(this.root, [root]);
    this.placeFocus(had);
    // a tab in the background still shows whose turn it is
    document.title = isMyTurn(st)
      ? `● ${t("turn.you")} · ${t("app.name")}`
      : `${hand ? t("table.hand", { n: hand.number, of: hand.of }) : t("table.code", { code: st.code })} · ${t("app.name")}`;
    startClocks(this.root, st);
  }
}
