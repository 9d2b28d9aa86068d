// The table screen: the waiting room (code, link, QR), the table in play, each hand's result and
// the standings. It renders the server's `state` for this seat and nothing else: the server owns
// the rules, the clock and every card (docs/protocol.md).

import { cardBack, cardFace, cardsName, hand as handCards } from "./cards.js";
import { yourTurn } from "./cue.js";
import { h, morphChildren } from "./dom.js";
import { category, joinNames, num, t } from "./i18n.js";
import { TableSocket } from "./net.js";
import * as store from "./store.js";

const ORDER = ["see", "chaal", "raise", "show", "sideshow", "allin", "pack"];
const NEPAL = {
  direction: "anticlockwise",
  bets: "double",
  stake_cap_boots: 8,
  pot_limit_boots: 100,
  blind_turns_max: null,
  see_anytime: false,
  show_after_bet: false,
  show_seen_vs_blind: "forbidden",
  show_cost: "chaal",
  show_tie: "asker_loses",
  sideshow: "previous",
  sideshow_all_seen: false,
  a23: "second",
  suits_break_ties: false,
  variant: "standard",
  two_three_five: false,
};

let skew = 0; // local clock minus the server's, in seconds, learnt from fresh turn deadlines

function isMyTurn(st) {
  return Boolean(
    st && st.hand && !st.hand.finished && st.you !== null && st.hand.actor === st.you && st.legal.length > 0,
  );
}

export class TableView {
  /** app: {setHeader, announce, alert, toast, banner, go, joinPage} */
  constructor(code, root, app, token) {
    this.code = code;
    this.root = root;
    this.app = app;
    this.token = token;
    this.st = null;
    this.pending = false;
    this.costs = new Map();
    this.lastFinished = null;
    this.amount = null;
    this.fresh = true;
    this.socket = new TableSocket(code, token, {
      state: (msg) => this.onState(msg),
      error: (msg) => this.onError(msg),
      fatal: (msg) => this.onFatal(msg),
      status: (status, everOpen) => this.onStatus(status, everOpen),
    });
    this.ticker = setInterval(() => this.tick(), 250);
    this.render();
  }

  stop() {
    this.socket.stop();
    clearTimeout(this.pendingTimer);
    if (this.qr) URL.revokeObjectURL(this.qr);
    clearInterval(this.ticker);
    this.app.banner(null);
  }

  // ---------------------------------------------------------------- messages
  onStatus(status, everOpen) {
    if (status === "open") {
      if (this.lost) this.app.announce(t("conn.back"));
      this.lost = false;
      this.app.banner(null);
      return;
    }
    if (status === "lost" || status === "offline") {
      this.lost = true;
      this.fresh = true;
      this.pending = false;
      this.app.banner(status === "offline" ? "offline" : everOpen ? "reconnecting" : "connecting");
      this.render();
    }
  }

  onState(st) {
    const prev = this.fresh ? null : this.st;
    this.fresh = false;
    this.st = st;
    this.pending = false;
    this.track(prev, st);
    this.render();
  }

  onError(msg) {
    this.pending = false;
    if (msg.code === "state/stale" || msg.code === "state/conflict") {
      this.socket.send({ type: "sync" });
    }
    const key = `err.${msg.code}`;
    const text = t(key) === key ? t("err.generic", { reason: msg.reason || msg.code }) : t(key);
    this.app.toast(text);
    this.render();
  }

  onFatal(msg) {
    clearInterval(this.ticker);
    if (msg.code === "token/invalid") {
      store.forgetSeat(this.code);
      this.app.joinPage(this.code, t("err.token/invalid"));
      return;
    }
    this.failed = msg;
    this.app.banner(null);
    this.render();
  }

  send(message) {
    if (this.pending) return;
    if (this.socket.send(message)) {
      this.pending = true;
      // the answer is a new state or an error; should neither come, let the player try again
      clearTimeout(this.pendingTimer);
      this.pendingTimer = setTimeout(() => {
        if (this.pending) {
          this.pending = false;
          this.socket.send({ type: "sync" });
          this.render();
        }
      }, 8000);
      this.render();
    }
  }

  act(action) {
    this.send({ type: "act", action, version: this.st ? this.st.version : undefined });
  }

  // ---------------------------------------------------------------- what changed
  name(seat, st = this.st) {
    if (st.you === seat) return t("you");
    return st.seats[seat] ? st.seats[seat].name : "?";
  }

  moveText(action, cost) {
    const what = t(`did.${action.do}`);
    return cost ? t("did.cost", { what, n: cost }) : what;
  }

  track(prev, st) {
    const hand = st.hand;
    const prevHand = prev && prev.hand;
    if (typeof st.now === "number") {
      skew = Date.now() / 1000 - st.now; // the server says what time it is
    } else if (hand && st.deadline && prev && prev.deadline !== st.deadline && st.settings.turn_seconds) {
      skew = Date.now() / 1000 - (st.deadline - st.settings.turn_seconds);
    }
    if (!hand) return;
    const sameHand = prevHand && prevHand.number === hand.number;
    if (prev && !sameHand) {
      this.costs.clear();
      this.amount = null;
      this.app.announce(t("table.hand", { n: hand.number, of: hand.of }));
    }
    if (prev && sameHand) {
      const fresh = hand.actions.slice(prevHand.actions.length);
      const lines = [];
      fresh.forEach((action, k) => {
        const index = prevHand.actions.length + k;
        const bySeat = fresh.filter((a) => a.seat === action.seat).length;
        const before = prev.seats[action.seat];
        const after = st.seats[action.seat];
        let cost = 0;
        if (typeof action.paid === "number") {
          cost = action.paid; // what the server says the move put in
        } else if (bySeat === 1 && before && after && after.put_in > before.put_in) {
          cost = after.put_in - before.put_in;
          this.costs.set(`${hand.number}:${index}`, cost);
        }
        if (action.seat !== st.you) {
          lines.push(t("did.line", { name: this.name(action.seat), what: this.moveText(action, cost) }));
        }
        if (action.do === "accept" || action.do === "decline") {
          // the side show's outcome: who packed
          const pair = prevHand.side_show;
          if (action.do === "accept" && pair) {
            const loser = pair.find((seat) => st.seats[seat] && st.seats[seat].packed);
            if (loser !== undefined) lines.push(t("side.result", { loser: this.name(loser) }));
          }
        }
      });
      if (lines.length) this.app.announce(lines.join(". "));
    }
    if (hand.finished && !(sameHand && prevHand.finished)) {
      const summary = this.summary(st);
      this.lastFinished = st;
      if (prev) this.app.announce([summary.title, summary.how, ...summary.hands].filter(Boolean).join(". "));
    }
    if (st.status === "finished" && (!prev || prev.status !== "finished") && st.standings) {
      const top = st.standings.filter((row) => row.place === 1);
      if (prev) {
        this.app.announce(
          top.some((row) => row.seat === st.you)
            ? t("end.youWin")
            : t("end.winner", { name: joinNames(top.map((row) => row.name)) }),
        );
      }
    }
    const mine = isMyTurn(st);
    const was = prev && isMyTurn(prev) && sameHand;
    if (mine && !was) {
      yourTurn();
      const labels = this.orderedLegal(st).map((a) => this.label(a, st).text);
      this.app.alert(t("turn.cue", { actions: labels.join(", ") }));
    }
  }

  summary(st) {
    const hand = st.hand;
    const pots = hand.pots || [];
    const lines = pots.map((pot, i) => {
      const names = pot.winners.map((seat) => this.name(seat, st));
      let text;
      if (pot.winners.length === 1 && pot.winners[0] === st.you) text = t("result.youWin", { n: pot.amount });
      else if (pot.winners.length === 1) text = t("result.wins", { name: names[0], n: pot.amount });
      else text = t("result.share", { names: joinNames(names), n: pot.amount });
      if (pots.length > 1) text = `${i === 0 ? t("result.main") : t("result.side")}: ${text}`;
      return text;
    });
    const winners = new Set(pots.flatMap((pot) => pot.winners));
    const shown = st.seats
      .filter((seat) => seat.cards && seat.dealt)
      .map((seat) => ({ seat: seat.seat, cards: seat.cards, category: seat.category, packed: seat.packed }));
    return {
      number: hand.number,
      title: lines.join(". ") || t("result.title", { n: hand.number }),
      lines,
      how: hand.ended_by ? t(`result.by.${hand.ended_by}`) : "",
      winners,
      shown,
      hands: shown
        .filter((row) => !row.packed)
        .map((row) => t("result.hand", { name: this.name(row.seat, st), hand: category(row.category) })),
    };
  }

  // ---------------------------------------------------------------- the legal moves
  orderedLegal(st = this.st) {
    return [...st.legal].sort((a, b) => ORDER.indexOf(a.do) - ORDER.indexOf(b.do));
  }

  label(action, st = this.st, target = null) {
    const name = t(`act.${action.do}`);
    const amount = action.do === "chaal" && this.amount !== null && action.max > action.cost ? this.amount : action.cost;
    let text = action.cost || action.max ? `${name} ${num(amount)}` : name;
    if (target !== null) text = t("act.with", { action: text, name: this.name(target, st) });
    return { text, amount };
  }

  // ---------------------------------------------------------------- rendering
  render() {
    const st = this.st;
    if (this.failed) {
      const key = `err.${this.failed.code}`;
      const text = t(key) === key ? t("err.generic", { reason: this.failed.reason || this.failed.code }) : t(key);
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
      sub: hand ? t("table.code", { code: st.code }) : null,
      table: true,
    });
    const body = st.status === "waiting" ? this.lobby(st) : this.play(st);
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
        "data-seen": st.you !== null && st.seats[st.you] && st.seats[st.you].seen ? "1" : "0",
      },
      body,
    );
    morphChildren(this.root, [root]);
    // a tab in the background still shows whose turn it is
    document.title = isMyTurn(st)
      ? `● ${t("turn.you")} · ${t("app.name")}`
      : `${hand ? t("table.hand", { n: hand.number, of: hand.of }) : t("table.code", { code: st.code })} · ${t("app.name")}`;
    this.tick();
  }

  lobby(st) {
    const me = st.you;
    const host = st.seats.find((seat) => seat.host);
    const isHost = me !== null && st.seats[me] && st.seats[me].host;
    const link = `${location.origin}/t/${st.code}`;
    const rows = [];
    for (let i = 0; i < st.settings.seats; i++) {
      const seat = st.seats[i];
      rows.push(
        h(
          "li",
          { class: seat ? "taken" : "empty", "data-key": `w${i}`, "data-testid": `lobby-seat-${i}` },
          seat
            ? [
                h("span", { class: "seat-name" }, seat.name),
                i === me ? h("span", { class: "tag" }, t("you")) : null,
                seat.host ? h("span", { class: "tag" }, t("host")) : null,
              ]
            : h("span", { class: "muted" }, t("wait.empty")),
        ),
      );
    }
    const canShare = typeof navigator.share === "function";
    return h(
      "div",
      { class: "lobby", "data-testid": "lobby" },
      h(
        "section",
        { class: "panel share", "aria-labelledby": "share-title" },
        h("h1", { id: "share-title" }, t("share.title")),
        h("p", { class: "label", id: "code-label" }, t("share.code")),
        h(
          "p",
          {
            class: "code-big",
            "data-testid": "table-code",
            "aria-label": t("share.spelled", { code: st.code.split("").join(" ") }),
          },
          st.code.split("").map((ch, i) => h("span", { "data-key": `k${i}`, "aria-hidden": "true" }, ch)),
        ),
        h(
          "figure",
          { class: "qr" },
          h("img", {
            src: this.qrImage(st.code),
            alt: t("share.qr.alt", { code: st.code }),
            width: 168,
            height: 168,
            "data-testid": "qr",
          }),
          h("figcaption", {}, t("share.qr")),
        ),
        h("label", { class: "label", for: "share-link" }, t("share.link")),
        h(
          "div",
          { class: "link-row" },
          h("input", {
            id: "share-link",
            class: "link",
            readonly: true,
            value: link,
            "data-testid": "share-link",
            onclick: (e) => e.target.select(),
          }),
        ),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", class: "btn", "data-testid": "copy-link", onclick: () => this.copy(link) },
            t("share.copy"),
          ),
          canShare
            ? h(
                "button",
                {
                  type: "button",
                  class: "btn",
                  onclick: () => navigator.share({ title: t("app.name"), url: link }).catch(() => {}),
                },
                t("share.share"),
              )
            : null,
        ),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "seats-title" },
        h("h2", { id: "seats-title" }, t("wait.seats")),
        h("ol", { class: "lobby-seats" }, rows),
        h("p", { class: "muted small" }, this.settingsText(st.settings)),
        this.customRules(st.settings),
        isHost
          ? h(
              "button",
              {
                type: "button",
                class: "btn primary big",
                "data-testid": "start",
                disabled: this.pending,
                onclick: () => this.send({ type: "start" }),
              },
              t("wait.start"),
            )
          : h("p", { class: "waiting", "data-testid": "wait-host" }, t("wait.host", { name: host ? host.name : "" })),
      ),
    );
  }

  /** The QR code of the join link, from the server. Its SVG comes without the SVG namespace,
   *  which an <img> needs, so it is added here and the picture shown from a blob URL. */
  qrImage(code) {
    if (this.qr) return this.qr;
    if (!this.qrLoading) {
      this.qrLoading = true;
      fetch(`/api/tables/${encodeURIComponent(code)}/qr.svg`)
        .then((response) => (response.ok ? response.text() : Promise.reject(new Error("qr"))))
        .then((text) => {
          const svg = /<svg[^>]*xmlns=/.test(text) ? text : text.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
          this.qr = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
          this.render();
        })
        .catch(() => {
          this.qrLoading = false;
        });
    }
    return null;
  }

  settingsText(settings) {
    const rules = settings.rules || {};
    return t("wait.settings", {
      hands: rules.hands,
      boot: rules.boot,
      bots: t(`bots.${settings.bots}`),
      timer: settings.turn_seconds ? t("timer.secs", { n: settings.turn_seconds }) : t("timer.none"),
    });
  }

  customRules(settings) {
    const rules = settings.rules || {};
    if (rules.preset && rules.preset !== "nepal") return h("p", { class: "muted small" }, rules.preset);
    const changed = Object.entries(NEPAL)
      .filter(([key, value]) => key in rules && rules[key] !== value)
      .map(([key]) => {
        const value = rules[key];
        const label = t(`opt.${key}`);
        let shown = t(`opt.${key}.${value}`);
        if (key === "blind_turns_max" && value !== null) shown = t("opt.blind_turns_max.n", { n: value });
        if (shown === `opt.${key}.${value}`) shown = String(value);
        return `${label === `opt.${key}` ? key : label}: ${shown}`;
      });
    if (!changed.length) return null;
    return h("p", { class: "small", "data-testid": "house-rules" }, t("wait.custom", { rules: changed.join(" · ") }));
  }

  async copy(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.app.toast(t("share.copied"));
    } catch {
      const input = this.root.querySelector("#share-link");
      if (input) input.select();
      this.app.toast(t("err.copy", { link }));
    }
  }

  play(st) {
    const hand = st.hand;
    const n = st.seats.length;
    const you = st.you;
    const base = you === null ? 0 : you;
    const winners = hand && hand.finished ? new Set((hand.pots || []).flatMap((p) => p.winners)) : new Set();
    const lastMoves = new Map();
    if (hand) {
      hand.actions.forEach((action, index) => {
        if (action.do === "see") return; // the Seen badge says it
        const paid = typeof action.paid === "number" ? action.paid : this.costs.get(`${hand.number}:${index}`);
        lastMoves.set(action.seat, { action, cost: paid });
      });
    }
    const seats = st.seats.map((seat, i) => {
      const j = (i - base + n) % n;
      const angle = ((90 + (j * 360) / n) * Math.PI) / 180;
      return this.seat(st, seat, Math.cos(angle), Math.sin(angle), winners, lastMoves.get(i));
    });
    const felt = h(
      "div",
      { class: "felt", "data-testid": "felt" },
      hand
        ? [
            h(
              "p",
              { class: "pot", "data-testid": "pot" },
              this.direction(st),
              h("span", { class: "pot-label" }, t("table.pot")),
              " ",
              h("strong", {}, num(hand.finished ? (hand.pots || []).reduce((sum, pot) => sum + pot.amount, 0) : hand.pot)),
            ),
            h(
              "p",
              { class: "stake", "data-testid": "stake" },
              h("span", {}, `${t("table.stake")} ${num(hand.stake)}`),
              " · ",
              h("span", {}, `${t("table.boot")} ${num(hand.boot)}`),
            ),
            hand.wild ? h("p", { class: "wild" }, t("table.wild", { card: cardsName([hand.wild]) })) : null,
          ]
        : h("p", { class: "dealing" }, t("table.dealing")),
    );
    const panel =
      st.status === "finished"
        ? this.standings(st)
        : hand && hand.finished
          ? this.result(st)
          : hand && hand.side_show && hand.side_show[1] === you
            ? [this.turnLine(st), this.actions(st), this.mine(st)]
            : [this.turnLine(st), you === null ? null : this.mine(st), this.actions(st), this.result(st)];
    return h(
      "div",
      { class: "play" },
      h("div", { class: `felt-area seats-${n}`, "data-testid": "seats" }, felt, seats),
      h("div", { class: "panel-area" }, you === null ? h("p", { class: "watching" }, t("table.watching")) : null, panel),
    );
  }

  /** Which way play passes: an arrow by the pot, said in words to screen readers. */
  direction(st) {
    const clockwise = st.settings.rules.direction === "clockwise";
    const words = t(clockwise ? "table.clockwise" : "table.anticlockwise");
    return h(
      "span",
      { class: "direction", title: words },
      h("span", { "aria-hidden": "true" }, clockwise ? "↻" : "↺"),
      h("span", { class: "sr-only" }, words),
    );
  }

  seat(st, seat, x, y, winners, last) {
    const hand = st.hand;
    const i = seat.seat;
    const me = i === st.you;
    const active = hand && !hand.finished && hand.actor === i;
    const dealer = hand && hand.dealer === i;
    const badges = [];
    if (hand) {
      const kind = hand.finished && seat.cards && seat.category ? t(`cat.${seat.category}`) : null;
      if (!seat.dealt) badges.push(["out", t("seat.out")]);
      else if (seat.packed) badges.push(["packed", t("seat.packed")]);
      else if (hand.finished) {
        // after the hand: who won, and with what (the result below shows the cards)
        if (winners.has(i)) badges.push(["winner", kind || t("seat.winner"), kind ? `${t("seat.winner")}: ` : ""]);
        else if (kind) badges.push(["kind", kind]);
      } else {
        badges.push(seat.seen ? ["seen", t("seat.seen")] : ["blind", t("seat.blind")]);
        if (seat.all_in) badges.push(["allin", t("seat.allin")]);
      }
    }
    if (seat.person && seat.bot) badges.push(["auto", t("seat.computer")]);
    else if (seat.person && seat.connected === false) badges.push(["offline", t("seat.offline")]);
    const backs = hand && seat.dealt && !seat.packed && !me && !seat.cards;
    // once the hand is over the result lists the hands; the seat only names its kind
    const faces = hand && seat.cards && !me && !hand.finished;
    const cards = backs ? h("span", { class: "seat-cards" }, handCards(null, "sm")) : null;
    const shown = faces
      ? h(
          "div",
          { class: "seat-cards up", role: "img", "aria-label": `${cardsName(seat.cards)}${seat.category ? ` (${category(seat.category)})` : ""}` },
          handCards(seat.cards, "sm"),
        )
      : null;
    const classes = ["seat"];
    if (me) classes.push("me");
    if (active) classes.push("active");
    if (hand && seat.packed) classes.push("packed");
    if (hand && !seat.dealt) classes.push("out");
    if (winners.has(i)) classes.push("winner");
    const name = me ? t("you") : seat.name;
    return h(
      "div",
      {
        class: classes.join(" "),
        "data-key": `seat${i}`,
        "data-testid": `seat-${i}`,
        "data-seat": i,
        "data-active": active ? "1" : "0",
        role: "group",
        "aria-label": name,
        "aria-current": active ? "true" : null,
        style: `--x:${x.toFixed(3)};--y:${y.toFixed(3)}`,
      },
      h(
        "div",
        { class: "seat-top" },
        h("span", { class: "seat-name", title: seat.name }, name),
        dealer ? h("span", { class: "dealer", title: t("seat.dealer") }, h("span", { "aria-hidden": "true" }, "D"), h("span", { class: "sr-only" }, t("seat.dealer"))) : null,
      ),
      hand
        ? h(
            "div",
            { class: "seat-mid" },
            h(
              "span",
              { class: "chips", "data-testid": `chips-${i}` },
              h("span", { class: "chip-icon", "aria-hidden": "true" }),
              h("span", { class: "sr-only" }, `${t("seat.chips", { n: seat.chips })}`),
              h("span", { "aria-hidden": "true" }, num(seat.chips)),
            ),
            cards,
          )
        : null,
      shown,
      h(
        "div",
        { class: "seat-badges" },
        badges.map(([kind, text, hidden]) =>
          h("span", { class: `badge ${kind}`, "data-key": kind }, hidden ? h("span", { class: "sr-only" }, hidden) : null, text),
        ),
        hand && last && !hand.finished && last.action.do !== "pack"
          ? h("span", { class: "last-move" }, this.moveText(last.action, last.cost))
          : null,
      ),
      active ? h("span", { class: "sr-only" }, t("seat.turn")) : null,
      active && st.deadline
        ? h("div", { class: "seat-timer", "aria-hidden": "true" }, h("div", { class: "bar", "data-timer-bar": "" }))
        : null,
    );
  }

  turnLine(st) {
    const hand = st.hand;
    let text = "";
    let mine = false;
    if (!hand) text = t("table.dealing");
    else if (hand.finished) text = t("table.nextHand");
    else if (hand.side_show && hand.side_show[1] !== st.you) {
      text = t("side.waiting", { a: this.name(hand.side_show[0]), b: this.name(hand.side_show[1]) });
    } else if (hand.actor === st.you) {
      text = t("turn.you");
      mine = true;
    } else if (hand.actor !== null && hand.actor !== undefined) {
      const seat = st.seats[hand.actor];
      text = seat && seat.bot ? t("turn.thinking", { name: seat.name }) : t("turn.other", { name: this.name(hand.actor) });
    }
    const timed = hand && !hand.finished && st.deadline;
    return h(
      "div",
      { class: `turn-line${mine ? " mine" : ""}`, "data-testid": "turn-line" },
      h("span", { class: "turn-text" }, text),
      timed
        ? h(
            "span",
            { class: "timer", "data-testid": "timer" },
            h("span", { class: "timer-text", "data-timer-text": "" }, ""),
            h("span", { class: "timer-track", "aria-hidden": "true" }, h("span", { class: "bar", "data-timer-bar": "" })),
          )
        : null,
    );
  }

  mine(st) {
    const hand = st.hand;
    const seat = st.seats[st.you];
    if (!hand || !seat) return null;
    if (!seat.dealt) return h("section", { class: "mine", "data-testid": "my-hand" }, h("p", { class: "muted" }, t("mine.noCards")));
    const see = st.legal.find((a) => a.do === "see");
    const faceUp = Boolean(seat.cards);
    const cards = faceUp
      ? h(
          "div",
          { class: "my-cards", "data-testid": "my-cards", "data-face": "up", role: "group", "aria-label": cardsName(seat.cards) },
          seat.cards.map((c, i) => cardFace(c, "lg", `m${i}`)),
        )
      : h(
          see ? "button" : "div",
          {
            class: "my-cards",
            "data-testid": "my-cards",
            "data-face": "down",
            type: see ? "button" : null,
            role: see ? null : "img",
            "aria-label": see ? `${t("mine.facedown")}. ${t("act.see")}` : t("mine.facedown"),
            disabled: see && this.pending ? true : null,
            onclick: see ? () => this.act({ do: "see" }) : null,
          },
          [0, 1, 2].map((i) => cardBack("lg", `m${i}`, false)),
        );
    return h(
      "section",
      { class: `mine${seat.packed ? " packed" : ""}`, "data-testid": "my-hand", "aria-label": t("mine.label") },
      cards,
      h(
        "div",
        { class: "my-info" },
        seat.category
          ? h("p", { class: "category", "data-testid": "my-category" }, category(seat.category))
          : h("p", { class: "muted" }, seat.seen ? "" : t("mine.blindNote")),
        see
          ? h(
              "button",
              {
                type: "button",
                class: "btn see",
                "data-testid": "act-see",
                "data-do": "see",
                disabled: this.pending,
                onclick: () => this.act({ do: "see" }),
              },
              t("act.see"),
            )
          : null,
      ),
    );
  }

  actions(st) {
    const hand = st.hand;
    if (!hand || hand.finished) return null;
    const legal = this.orderedLegal(st).filter((a) => a.do !== "see");
    const asked = hand.side_show && hand.side_show[1] === st.you;
    if (asked) {
      const accept = legal.find((a) => a.do === "accept");
      const decline = legal.find((a) => a.do === "decline");
      return h(
        "section",
        { class: "actions sideshow-ask", "data-testid": "sideshow-request", "aria-labelledby": "ask-title" },
        h("h2", { id: "ask-title" }, t("side.asked", { name: this.name(hand.side_show[0]) })),
        h("p", { class: "small" }, t("side.askedHelp")),
        h(
          "div",
          { class: "action-grid two" },
          accept ? this.button(st, accept) : null,
          decline ? this.button(st, decline) : null,
        ),
      );
    }
    if (!legal.length) return h("section", { class: "actions empty", "data-testid": "actions", "aria-hidden": "true" });
    const chaal = legal.find((a) => a.do === "chaal");
    let stepper = null;
    if (chaal && chaal.max > chaal.cost) {
      if (this.amount === null || this.amount < chaal.cost || this.amount > chaal.max) this.amount = chaal.cost;
      const step = Math.max(1, Math.round(hand.boot / 2));
      stepper = h(
        "div",
        { class: "stepper", role: "group", "aria-label": t("act.amount"), "data-testid": "stepper" },
        h(
          "button",
          {
            type: "button",
            class: "btn step",
            "aria-label": t("act.less"),
            "data-testid": "step-less",
            disabled: this.amount <= chaal.cost,
            onclick: () => {
              this.amount = Math.max(chaal.cost, this.amount - step);
              this.render();
            },
          },
          "−",
        ),
        h(
          "output",
          { class: "amount", "data-testid": "amount", "aria-live": "polite" },
          num(this.amount),
          h("span", { class: "small muted" }, ` (${t("act.range", { min: chaal.cost, max: chaal.max })})`),
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn step",
            "aria-label": t("act.more"),
            "data-testid": "step-more",
            disabled: this.amount >= chaal.max,
            onclick: () => {
              this.amount = Math.min(chaal.max, this.amount + step);
              this.render();
            },
          },
          "+",
        ),
      );
    }
    const buttons = [];
    for (const action of legal) {
      if (action.do === "sideshow" && action.targets.length > 1) {
        for (const target of action.targets) buttons.push(this.button(st, action, target));
      } else {
        buttons.push(this.button(st, action));
      }
    }
    return h(
      "section",
      { class: "actions", "data-testid": "actions", "aria-label": t("turn.you") },
      stepper,
      h("div", { class: "action-grid" }, buttons),
    );
  }

  button(st, action, target = null) {
    const { text, amount } = this.label(action, st, target);
    const message = { do: action.do };
    if (action.do === "chaal" && action.max > action.cost) message.amount = amount;
    if (target !== null) message.with = target;
    return h(
      "button",
      {
        type: "button",
        class: `btn act act-${action.do}`,
        "data-key": `${action.do}${target === null ? "" : target}`,
        "data-testid": `act-${action.do}`,
        "data-do": action.do,
        "data-cost": amount,
        disabled: this.pending,
        onclick: () => this.act(message),
      },
      text,
    );
  }

  result(st) {
    const hand = st.hand;
    if (!hand || !hand.finished) {
      const done = this.lastFinished;
      if (!done || !hand || done.hand.number !== hand.number - 1) return null;
      const last = this.summary(done); // written now, in the language of now
      return h(
        "p",
        { class: "last-hand small muted", "data-testid": "last-hand" },
        `${t("result.title", { n: last.number })}: ${last.title}`,
      );
    }
    const summary = this.summary(st);
    return h(
      "section",
      { class: "result", "data-testid": "result", "aria-labelledby": "result-title" },
      h("h2", { id: "result-title" }, t("result.title", { n: hand.number })),
      h(
        "ul",
        { class: "result-pots" },
        summary.lines.map((line, i) => h("li", { "data-key": `p${i}`, "data-testid": "result-line" }, line)),
      ),
      summary.how ? h("p", { class: "muted small" }, summary.how) : null,
      summary.shown.length
        ? h(
            "ul",
            { class: "shown-hands", "aria-label": t("result.shown") },
            summary.shown.map((row) =>
              h(
                "li",
                {
                  "data-key": `h${row.seat}`,
                  class: summary.winners.has(row.seat) ? "winner" : row.packed ? "packed" : "",
                  "data-testid": "shown-hand",
                },
                h("span", { class: "shown-name" }, this.name(row.seat, st)),
                h("span", { class: "shown-cards", role: "img", "aria-label": cardsName(row.cards) }, row.cards.map((c, i) => cardFace(c, "md", `s${i}`))),
                h("span", { class: "shown-cat", "data-testid": "shown-category" }, category(row.category)),
              ),
            ),
          )
        : null,
      st.status === "playing" ? h("p", { class: "next-hand small muted" }, t("table.nextHand")) : null,
    );
  }

  standings(st) {
    const rows = st.standings || [];
    const top = rows.filter((row) => row.place === 1);
    const youWin = top.some((row) => row.seat === st.you);
    return h(
      "section",
      { class: "panel standings", "data-testid": "standings", "aria-labelledby": "end-title" },
      h("h2", { id: "end-title" }, t("end.title")),
      h(
        "p",
        { class: "end-winner", "data-testid": "end-winner" },
        youWin ? t("end.youWin") : t("end.winner", { name: joinNames(top.map((row) => row.name)) }),
      ),
      h(
        "table",
        { class: "standings-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("end.place")), h("th", { scope: "col" }, t("end.player")), h("th", { scope: "col", class: "num" }, t("end.chips")))),
        h(
          "tbody",
          {},
          rows.map((row) =>
            h(
              "tr",
              { "data-key": `r${row.seat}`, class: row.seat === st.you ? "me" : "", "data-testid": "standing" },
              h("td", {}, num(row.place)),
              h("th", { scope: "row" }, row.seat === st.you ? t("you.name", { name: row.name }) : row.name),
              h("td", { class: "num" }, num(row.chips)),
            ),
          ),
        ),
      ),
      st.hand && st.hand.finished ? this.result(st) : null,
      h(
        "div",
        { class: "row" },
        st.you !== null
          ? h(
              "button",
              {
                type: "button",
                class: "btn primary big",
                "data-testid": "again",
                disabled: this.pending,
                onclick: () => this.send({ type: "again" }),
              },
              t("end.again"),
            )
          : null,
        h("a", { class: "btn", href: "/", "data-link": "" }, t("end.home")),
      ),
    );
  }

  /** The turn timer: text and bars, four times a second, without re-rendering the table. */
  tick() {
    const st = this.st;
    if (!st || !st.deadline || !st.hand || st.hand.finished) return;
    const total = st.settings.turn_seconds || 30;
    const left = Math.max(0, Math.min(total, st.deadline - (Date.now() / 1000 - skew)));
    const share = `${((left / total) * 100).toFixed(1)}%`;
    for (const bar of this.root.querySelectorAll("[data-timer-bar]")) {
      bar.style.width = share;
      bar.classList.toggle("low", left <= 5);
    }
    const secs = Math.ceil(left);
    for (const el of this.root.querySelectorAll("[data-timer-text]")) {
      const text = t("turn.left", { n: secs });
      if (el.textContent !== text) el.textContent = text;
      el.parentElement.dataset.left = String(secs);
    }
  }
}
