// Past hands: the hands of this game as this player may know them (the server's histories,
// docs/hand-history.md): each with its moves, the cards turned over for this player and only
// those, the pots and who won them, and "Check this deal" (fair.js): during the game your own
// and the shown cards against the commitment published at the deal, after it the whole deal from
// the revealed secret and the players' parts; and "Download hands", which saves the server's file
// as it came (here and in the standings) for `teenpatti verify` and `teenpatti replay`. Also sends
// this phone's part of each next deal.

import { cardFace, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { errorText, joinNames, num, parts, t } from "./i18n.js";
import { ApiError, request } from "./net.js";
import { checkHand, bytesToHex } from "./fair.js";
import { pastMoveText } from "./happened.js";
import { scoreTable } from "./results.js";

/** Why a check failed, in the player's words: `name(seat)` names a seat. Pure. */
export function whyWords(result, name = (seat) => String(seat)) {
  const key = `hands.why.${result.code}`;
  const known = t(key) !== key;
  return t(known ? key : "hands.why.error", { name: result.seat === null || result.seat === undefined ? "" : name(result.seat) });
}

/** The words for a check's outcome: what was checked and what it proves. Pure. */
export function checkWords(result, name = undefined, history = undefined) {
  if (!result) return "";
  if (result.busy) return t("hands.checking");
  if (!result.verified) return t("hands.bad", { reason: whyWords(result, name) });
  if (!result.complete) return t("hands.okShown");
  const given = history && Array.isArray(history.contributions) ? history.contributions : null;
  return t(given && given.every((part) => part === null) ? "hands.okAllServer" : "hands.okAll");
}

/** The technical side of a check, for its "details" switch: how it was done, the seals it used,
 *  and, when it failed, the reason as `teenpatti verify` gives it (or the phone's own error). */
export function checkDetails(result, history, open, toggle) {
  const button = h(
    "button",
    {
      class: "btn small",
      type: "button",
      "data-testid": "hands-details",
      "aria-expanded": open ? "true" : "false",
      onclick: toggle,
    },
    t("hands.details"),
  );
  if (!open) return h("div", { class: "check-details" }, button);
  const hex = (value) => h("code", { class: "hex" }, String(value));
  const lines = [];
  if (result.verified) lines.push(h("p", {}, t(result.complete ? "hands.how.all" : "hands.how.shown")));
  else if (result.raw) lines.push(h("p", {}, parts("hands.raw", { text: hex(result.raw) })));
  else lines.push(h("p", {}, parts("hands.how.bad", { reason: hex(result.reason) })));
  if (history && typeof history.cards_root === "string") {
    lines.push(h("p", {}, parts("hands.sealCards", { hex: hex(history.cards_root) })));
  }
  if (history && typeof history.commitment === "string") {
    lines.push(h("p", {}, parts("hands.sealSecret", { hex: hex(history.commitment) })));
  }
  return h("div", { class: "check-details" }, button, h("div", { "data-testid": "hands-details-body" }, lines));
}

/** Who held `seat` in a past hand, as the history names them (a late friend who took a computer's
 *  seat is not credited with the computer's earlier moves): "(computer)" after the name where the
 *  computer held the seat as its own in that hand (the history's `computer`, whoever holds the seat
 *  now), "You" where this phone's seat was yours then. Pure. */
export function heldBy(st, history, seat) {
  const held = history.seats[seat];
  if (!held) return "?";
  if (held.computer) return t("bot.name", { name: held.name });
  const row = st.seats[seat];
  return st.you === seat && row && row.name === held.name ? t("you") : held.name;
}

/** Whether this phone should send its part of the next deal now, and for which commitment (`sent`:
 *  commitment -> the part sent for it). Pure. */
export function partDue(st, sent) {
  const next = st && st.next_commitment;
  if (!next || st.you === null || st.status !== "playing") return null;
  if (st.hand && !st.hand.finished) return null;
  if ((st.next_parts || []).includes(st.you) || Object.hasOwn(sent, next)) return null;
  return next;
}

/** The name the server gives its file in `Content-Disposition` (`attachment; filename="..."`), or
 *  "hands.json" where it gives none. Pure. */
export function fileName(disposition) {
  const found = /filename="([^"]+)"/.exec(disposition || "");
  return found ? found[1] : "hands.json";
}

/** How long a saved file's object URL is kept: the browser reads it after the click returns. */
const KEEP_URL_MS = 40000;

/** Save `blob` on this phone as the file `name`: a link with `download` to its object URL, clicked,
 *  then taken away, and the URL revoked once the browser has read it. */
function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
}

/** Which list of hands the page asks for at `st` with game `game` shown (null: the one in play),
 *  its game's number first (pagestate.js tells games apart by it): an earlier game's stays as it
 *  is; this game's changes when a hand ends or the game does. Pure. */
export function listKey(st, game) {
  if (game !== null) return `${game}`;
  const hand = st.hand;
  return `${st.game}:${st.status}:${hand ? hand.number - (hand.finished ? 0 : 1) : 0}`;
}

/** The sentence for why the list or a file could not be had: the refusal's code, or the
 *  connection lost (no code). Pure. */
function whyNot(error) {
  return errorText(error.code || "network", error.reason);
}

/**
 * Past hands below the table. What it shows is the page's state (pagestate.js `hands`), changed by
 * the actions this dispatches as the player taps and the server answers; the panel is a region
 * (regions.js) drawn again only when that part, or what it shows of the table, changed.
 */
export class PastHands {
  constructor(view) {
    this.view = view;
  }

  /** Past hands' part of the page's state. */
  get part() {
    return this.view.page.hands;
  }

  /** On each state, before it is drawn (the store told without drawing): send this seat's part of
   *  the next deal; ask for the list again where it changed (a hand ended) while it is open. */
  onState(st) {
    const store = this.view.store;
    const due = partDue(st, this.part.sent);
    if (due) {
      const part = bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
      if (this.view.send({ type: "part", for: due, part }, { waits: false })) store.dispatch({ type: "hands/part", for: due, part });
    }
    if (this.part.open && listKey(st, this.part.game) !== this.part.asked) this.load((action) => store.dispatch(action));
  }

  toggle() {
    const opening = !this.part.open;
    this.view.dispatch({ type: opening ? "hands/opened" : "hands/closed" });
    if (opening) this.load();
  }

  /** Ask for the list the page shows now; `dispatch` tells the store (drawing, by default). Only
   *  the answer's own faults are said in the panel: a refusal by its code, a lost connection as
   *  one, and an answer that is not our JSON (a proxy's page) as the server's failing to answer;
   *  a fault in drawing the list is the page's, thrown, not told to the player as a lost
   *  connection. */
  async load(dispatch = (action) => this.view.dispatch(action)) {
    const st = this.view.st;
    if (!st) return;
    const key = listKey(st, this.part.game);
    dispatch({ type: "hands/loading", key });
    let list;
    try {
      const response = await this.fetch(this.part.game);
      try {
        list = await response.json();
      } catch {
        throw new ApiError(`http/${response.status}`, "the answer was not JSON", response.status);
      }
    } catch (error) {
      this.view.dispatch({ type: "hands/failed", key, error: { code: error.code || "network", reason: error.reason || "" } });
      return;
    }
    this.view.dispatch({ type: "hands/loaded", key, list });
  }

  /** The server's answer for the hands of game `game` (null: the one in play or last played),
   *  asked with this seat's token (docs/protocol.md, "Hand histories"); an ApiError if refused. */
  fetch(game) {
    const token = this.view.token;
    const which = game === null ? "" : `?game=${game}`;
    return request(`/api/tables/${encodeURIComponent(this.view.code)}/hands${which}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }

  /** Save the hands of game `game` (null: this one) as the server wrote them, under the name it
   *  gives them; a refusal or a lost connection is said in the page's words for its code. */
  async download(game) {
    if (this.part.saving) return;
    this.view.dispatch({ type: "hands/saving" });
    try {
      const response = await this.fetch(game);
      saveFile(await response.blob(), fileName(response.headers.get("content-disposition")));
    } catch (error) {
      this.view.app.toast(whyNot(error));
    } finally {
      this.view.dispatch({ type: "hands/saved" });
    }
  }

  /** The "Download hands" button for game `game` (null: this one); `noted`: the line that says what
   *  the file holds is beside it; `small`: as Past hands' other buttons (else as the standings'). */
  downloadButton(game, { noted = false, small = true } = {}) {
    return h(
      "button",
      {
        class: small ? "btn small" : "btn",
        type: "button",
        "data-testid": "hands-download",
        "aria-describedby": noted ? "hands-download-note" : null,
        disabled: this.part.saving, // a second tap waits for the file on its way
        "aria-busy": this.part.saving ? "true" : null,
        onclick: () => this.download(game),
      },
      t("hands.download"),
    );
  }

  /** Show the hands of game `game` at this table (null: the game in play or last played). */
  choose(game) {
    this.view.dispatch({ type: "hands/game", game });
    this.load();
  }

  /** The earlier games at this table, the last first, and this one: each a button. */
  games(st, shown) {
    if (!(st.game > 1)) return null;
    const pick = (game, text) =>
      h(
        "button",
        {
          class: "btn small",
          type: "button",
          "data-testid": "hands-game",
          "data-game": game === null ? "" : game,
          "aria-pressed": shown === game ? "true" : "false",
          onclick: () => this.choose(game),
        },
        text,
      );
    const earlier = [];
    for (let n = st.game - 1; n >= 1; n -= 1) earlier.push(pick(n, t("hands.game", { n: num(n) })));
    return h("nav", { class: "past-games", "aria-label": t("hands.games") }, pick(null, t("hands.thisGame")), earlier);
  }

  async check(index) {
    const { list, asked: key } = this.part;
    const history = list && list[index];
    if (!history || !this.view.st) return;
    this.view.dispatch({ type: "hands/checked", key, index, result: { busy: true } });
    let result;
    try {
      result = await checkHand(history, this.view.st.settings.rules);
    } catch (error) {
      result = { verified: false, code: "error", seat: null, reason: String(error), raw: String(error) };
    }
    this.view.dispatch({ type: "hands/checked", key, index, result });
    const words = checkWords(result, (seat) => heldBy(this.view.st, history, seat), history);
    this.view.app.announce(`${t("hands.hand", { n: num(history.hand || index + 1) })}: ${words}`);
  }

  /** The Past hands button; a spectator gets the hands only once the game is over. */
  bar(st) {
    const shown = st.you !== null || st.status === "finished";
    return this.view.regions.region("hands-bar", [shown, this.part.open], (mayOpen, open) =>
      mayOpen ? h("div", { class: "past-hands-bar" }, this.button(open)) : null,
    );
  }

  button(open) {
    return h(
      "button",
      {
        class: "btn small",
        type: "button",
        "data-testid": "hands-toggle",
        "aria-expanded": open ? "true" : "false",
        onclick: () => this.toggle(),
      },
      t(open ? "hands.close" : "hands.open"),
    );
  }

  /** The open panel: a region drawn from Past hands' part of the page's state and the few things
   *  of the table it shows (the seat, its name, the game, the score), so a move does not draw it. */
  panel(st) {
    const me = st.you === null || !st.seats[st.you] ? null : st.seats[st.you].name;
    const inputs = [this.part, st.you, me, st.status, st.game, st.status === "playing" ? st.score : null];
    return this.view.regions.region("hands", inputs, (part) => this.draw(st, part));
  }

  draw(st, part) {
    if (!part.open || (st.you === null && st.status !== "finished")) return null;
    const list = part.list || [];
    const body = part.failed
      ? h("p", { class: "error", "data-testid": "hands-failed" }, whyNot(part.failed))
      : !part.list
        ? h("p", {}, t("conn.connecting"))
        : !list.length
          ? h("p", { "data-testid": "hands-none" }, t("hands.none"))
          : h("ol", { class: "past-hands-list" }, list.map((history, i) => this.item(st, part, history, i)));
    return h(
      "section",
      { class: "panel past-hands", "data-testid": "past-hands", "aria-label": t("hands.title"), "aria-busy": part.loading ? "true" : "false" },
      h("h2", {}, t("hands.title")),
      this.games(st, part.game),
      st.status === "playing" ? scoreTable(st) : null, // the score so far, while the next game is on
      h(
        "p",
        { class: "hint" },
        part.game !== null
          ? t("hands.earlier", { n: num(part.game) })
          : t(st.status === "finished" ? "hands.afterGame" : "hands.duringGame"),
      ),
      // the file may be had where the list could not (or its refusal says why once more)
      part.failed || list.length ? this.downloadRow(st, part.game) : null,
      body,
    );
  }

  /** Download hands, and while the game is on, that the file holds only what this player saw. */
  downloadRow(st, game) {
    const partial = game === null && st.status === "playing";
    return h(
      "div",
      { class: "hands-download" },
      this.downloadButton(game, { noted: partial }),
      partial ? h("p", { class: "hint", id: "hands-download-note", "data-testid": "hands-download-note" }, t("hands.downloadNow")) : null,
    );
  }

  item(st, part, history, i) {
    const number = history.hand || i + 1;
    const name = (seat) => heldBy(st, history, seat);
    const moves = history.actions.map((a, k) =>
      h("li", { "data-key": `m${k}`, "data-testid": "past-move" }, `${name(a.seat)}: ${pastMoveText(history.actions, k, name)}`),
    );
    const cards = history.seats
      .map((row, seat) => ({ row, seat }))
      .filter(({ row }) => row.cards)
      .map(({ row, seat }) =>
        h(
          "li",
          { "data-testid": "hands-cards", "data-seat": seat, "data-key": `c${seat}` },
          h("span", { class: "who" }, name(seat)),
          sortCards(Array.isArray(row.cards) ? row.cards : row.cards.split(" ")).map((c, k) => cardFace(c, "sm", `f${k}`)),
        ),
      );
    const pots = ((history.result && history.result.pots) || []).map((pot, k) =>
      h(
        "li",
        { "data-key": `p${k}` },
        t("hands.pot", { n: pot.amount, names: joinNames(pot.winners.map((seat) => name(seat))) }),
      ),
    );
    const result = part.checks[i];
    const mine = history.contributions && st.you !== null && part.game === null ? history.contributions[st.you] : undefined;
    const sent = part.sent[history.commitment];
    return h(
      "li",
      { class: "past-hand", "data-testid": "past-hand", "data-hand": number, "data-key": `h${number}` },
      h("h3", {}, t("hands.hand", { n: num(number) })),
      h("ul", { class: "moves" }, moves),
      cards.length ? h("ul", { class: "shown" }, cards) : h("p", {}, t("hands.noCards")),
      h("ul", { class: "pots" }, pots),
      mine === undefined
        ? null
        : h(
            "p",
            { class: "hint", "data-testid": "hands-part" },
            mine === null ? t("hands.serverPart") : mine === sent ? t("hands.yourPart") : t("hands.aPart"),
          ),
      h(
        "button",
        {
          class: "btn small",
          type: "button",
          "data-testid": "hands-check",
          disabled: Boolean(result && result.busy),
          onclick: () => this.check(i),
        },
        t("hands.check"),
      ),
      result
        ? h(
            "p",
            {
              class: result.verified ? "ok" : "error",
              role: "status",
              "data-testid": "hands-verdict",
              "data-verified": result.busy ? "" : result.verified ? "1" : "0",
              "data-complete": result.complete ? "1" : "0",
            },
            checkWords(result, name, history),
          )
        : null,
      result && !result.busy
        ? checkDetails(result, history, part.details.includes(i), () => this.view.dispatch({ type: "hands/details", index: i }))
        : null,
    );
  }
}
