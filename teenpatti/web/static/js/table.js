// One table on this phone: it turns what happens (a state received, a tap, a timer, the
// connection going up or down) into the named actions of the page's one store (pagestate.js),
// says what changed, sends this player's moves, and draws the screen the store is at: the waiting
// room (lobby.js), the table in play (play.js, with actions.js and results.js) or an error, each
// part drawn again only when its part of the state changed (regions.js). The server owns the
// rules, the clock and every card (docs/protocol.md).

import { alertsControl } from "./alerts.js";
import { Call } from "./call.js";
import { announcements, startsHand } from "./announce.js";
import { loadCatalogue } from "./catalogue.js";
import { hurry, learnSkew, secondsLeft, startClocks } from "./clock.js";
import { yourTurn } from "./cue.js";
import { h, morphChildren, newDrawing } from "./dom.js";
import { feel } from "./feel.js";
import { PastHands } from "./hands.js";
import { Store, START } from "./pagestate.js";
import { errorText, lang, t } from "./i18n.js";
import { waitingRoom } from "./lobby.js";
import { isMyTurn } from "./moves.js";
import { TableSocket } from "./net.js";
import { play } from "./play.js";
import { QrImage } from "./qr.js";
import { Regions } from "./regions.js";
import { ShareLink } from "./share.js";
import { Social, savedMutes } from "./social.js";
import * as store from "./store.js";
import { placeOf } from "./versions.js";

export class TableView {
  /** app: {setHeader, announce, alert, toast, notice, banner, go, joinPage} */
  constructor(code, root, app, token) {
    this.code = code;
    this.root = root;
    this.app = app;
    this.token = token;
    this.store = new Store({ ...START, muted: savedMutes(code) });
    this.regions = new Regions();
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
    clearTimeout(this.titleTimer);
    clearTimeout(this.pendingTimer);
    this.qr.release();
    clearInterval(this.ticker);
    this.social.stop();
    this.call.stop();
    this.app.banner(null);
    this.app.notice(null);
  }

  /** The page's state (pagestate.js): read it, change it only by `dispatch`. */
  get page() {
    return this.store.state;
  }

  /** The latest state the server sent (null before the first). */
  get st() {
    return this.store.state.st;
  }

  /** Whether no move can be sent now: one is on its way, or the connection is down. */
  get held() {
    return this.page.pending || this.page.lost;
  }

  /** Change the page's state by `action` (pagestate.js), and draw what changed. */
  dispatch(action) {
    if (this.store.dispatch(action)) this.render();
  }

  // ---------------------------------------------------------------- messages
  onStatus(status, everOpen) {
    if (status === "open") {
      if (this.page.lost) this.app.announce(t("conn.back"));
      this.app.banner(null);
    } else if (status === "retrying") {
      this.app.banner("retrying"); // the move waits: the socket sends it again by itself
    } else if (status === "lost" || status === "offline") {
      this.app.banner(status === "offline" ? "offline" : everOpen ? "reconnecting" : "connecting");
    }
    this.dispatch({ type: "connection", status });
  }

  onState(st) {
    const before = this.page;
    const prev = before.fresh ? null : before.st;
    const place = placeOf(prev && prev.version, st.version);
    if (place === "stale") return;
    if (place === "gap" && !before.syncing) {
      // a version went missing: show none out of order; the answer to sync is the whole state
      if (this.send({ type: "sync" }, { waits: false })) {
        this.store.dispatch({ type: "gap" });
        return;
      }
    }
    clearTimeout(this.pendingTimer);
    this.store.dispatch({ type: "received", st, now: Date.now() });
    learnSkew(prev, st);
    const starts = startsHand(prev, st);
    const left = st.deadline && st.settings.turn_seconds ? Math.ceil(secondsLeft(st)) : null;
    const { polite, turn } = announcements(prev, st, this.page.amount, left);
    for (const line of polite) this.app.announce(line);
    if (turn) {
      yourTurn();
      this.app.alert(turn);
      // a page in the background (a play-anytime table left open) says so when the player looks
      if (document.hidden) this.app.notice(t("notice.turn", { code: this.code }));
    }
    if (!isMyTurn(st)) this.app.notice(null);
    this.social.onState(prev, st, before);
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
    if (msg.code === "state/stale" || msg.code === "state/conflict") {
      this.send({ type: "sync" }, { waits: false });
    }
    this.app.toast(errorText(msg.code, msg.reason));
    clearTimeout(this.pendingTimer);
    this.dispatch({ type: "answered" });
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
    this.app.banner(null);
    this.dispatch({ type: "failed", error: msg });
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
    if (this.page.pending) return false;
    if (this.socket.send(message)) {
      // the answer is a new state or an error; should neither come, let the player try again
      clearTimeout(this.pendingTimer);
      this.pendingTimer = setTimeout(() => {
        if (this.page.pending) {
          this.send({ type: "sync" }, { waits: false });
          this.dispatch({ type: "answered" });
        }
      }, 8000);
      this.dispatch({ type: "sent" });
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

  /** Four times a second: the chat bubbles whose time is up go, and a warning before the turn's
   *  time runs out (the clocks run by themselves). */
  onTick() {
    this.dispatch({ type: "tick", now: Date.now() });
    if (this.page.lost) return; // the clock is hidden: the state it counts from may be stale
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
    // Under the rules (which hide the table) there is nothing to focus. Asked of the page's
    // attributes, not its layout: a question about layout would lay the page out at once.
    const shown = () => !this.root.closest("[hidden]");
    const active = document.activeElement;
    const hand = this.st && this.st.hand;
    // a dialog: a side show asked of this player, or the table menu's question
    const asked = hand && hand.side_show && hand.side_show[1] === this.st.you;
    const dialog = asked || this.page.confirm ? this.root.querySelector("[role=alertdialog]") : null;
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
    const move = isMyTurn(this.st) && !this.page.pending ? this.root.querySelector("[data-testid=actions] button:not([disabled])") : null;
    if ((move || !parked) && !shown()) return;
    if (move) {
      // at the next frame, which lays the page out anyway (focus now would lay it out at once),
      // unless the player has put focus somewhere meanwhile; the row is in sight already
      // (keepInSight)
      requestAnimationFrame(() => {
        const now = document.activeElement;
        if (move.isConnected && !move.disabled && (now === active || now === document.body || now === null)) {
          move.focus({ preventScroll: true });
        }
      });
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
    const page = this.page;
    const st = page.st;
    if (page.failed) {
      const text = errorText(page.failed.code, page.failed.reason);
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
    if (this.drawnIn !== lang()) {
      this.regions.clear(); // every region's words are in the language it was drawn in
      this.drawnIn = lang();
    }
    newDrawing();
    const hand = st.hand;
    const drawn = this.regions.drawn;
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
        "data-pending": page.pending ? "1" : "0",
        "data-online": page.lost ? "0" : "1",
        "data-seen": st.you !== null && st.seats[st.you] && st.seats[st.you].seen ? "1" : "0",
      },
      body,
      alerts,
    );
    const had = this.root.contains(document.activeElement);
    morphChildren(this.root, [root]);
    this.placeFocus(had);
    // a tab in the background still shows whose turn it is
    const title = isMyTurn(st)
      ? `● ${t("turn.you")} · ${t("app.name")}`
      : `${hand ? t("table.hand", { n: hand.number, of: hand.of }) : t("table.code", { code: st.code })} · ${t("app.name")}`;
    if (title !== this.title) {
      // setting the tab's title costs more than drawing a whole state: on a page in sight it is
      // set in a task of its own, at once on a page in the background (timers there wait)
      this.title = title;
      clearTimeout(this.titleTimer);
      if (document.hidden) document.title = title;
      else {
        this.titleTimer = setTimeout(() => {
          document.title = this.title;
        });
      }
    }
    // new clocks are only in what was drawn anew, or on a new turn
    if (this.regions.drawn !== drawn || st.deadline !== this.clockedAt) {
      this.clockedAt = st.deadline;
      startClocks(this.root, st);
    }
  }
}
