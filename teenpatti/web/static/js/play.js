// The table in play: the felt (pot, stake, boot, wild card, which way play passes), the seats
// around it with their chips, cards and badges, whose turn it is with the timer, and below it the
// panel of this screen: my hand and moves, the hand's result, or the standings at the end. Each
// part is a region (regions.js): drawn from its inputs, and again only when one of them changed.

import { cardsName, hand as handCards } from "./cards.js";
import { actions, myHand } from "./actions.js";
import { clockOf, countdown, timerBar } from "./clock.js";
import { codeText, h } from "./dom.js";
import { category, num, parts, t } from "./i18n.js";
import { caption, latestNews, packedHow } from "./happened.js";
import { botBadge, isComputer, lastMoves, seatName } from "./moves.js";
import { result, standings } from "./results.js";
import { chatBubble, socialPanel } from "./social.js";
import { feltStyle, seatSpot, spotStyle } from "./spots.js";

export function play(view, st) {
  const regions = view.regions;
  const hand = st.hand;
  const n = st.seats.length;
  const you = st.you;
  const base = you === null ? 0 : you;
  const winners = new Set(wonPots(hand).flatMap((p) => p.winners));
  const last = lastMoves(hand);
  const seats = st.seats.map((seat, i) => regions.region(`seat${i}`, seatInputs(view, st, i, (i - base + n) % n, winners, last.get(i)), seatBox));
  const felt = hand
    ? regions.region(
        "felt",
        [hand.finished ? wonPots(hand).reduce((sum, pot) => sum + pot.amount, 0) : hand.pot, hand.stake, hand.boot, hand.wild, st.settings.rules.direction],
        feltBox,
      )
    : h("div", { class: "felt", "data-testid": "felt" }, h("p", { class: "dealing" }, t("table.dealing")));
  const panel =
    st.status === "finished"
      ? standings(view, st)
      : hand && hand.finished
        ? regions.region("result", [st], () => result(view, st))
        : hand && hand.side_show && hand.side_show[1] === you
          ? [turnRegion(regions, st), newsRegion(regions, st), actionsRegion(view, st), handRegion(view, st)]
          : [
              turnRegion(regions, st),
              newsRegion(regions, st),
              you === null ? null : handRegion(view, st),
              actionsRegion(view, st),
              regions.region("result", [view.page.lastFinished, hand ? hand.number : null], () => result(view, st)),
            ];
  return h(
    "div",
    { class: "play" },
    regions.region("title", [st.code], (code) => h("h1", { class: "sr-only", id: "table-title" }, parts("table.code", { code: codeText(code) }))),
    h("div", { class: `felt-area seats-${n}${n > 6 ? " many" : ""}`, "data-testid": "seats", style: feltStyle(n) }, felt, seats),
    h("div", { class: "panel-area" }, you === null ? h("p", { class: "watching" }, t("table.watching")) : null, panel, view.call.panel(st), socialPanel(view, st)),
  );
}

/** The felt's middle: the pot (what a finished hand gave away), the stake and boot, the wild
 *  card, and which way play passes. */
function feltBox(pot, stake, boot, wild, way) {
  return h(
    "div",
    { class: "felt", "data-testid": "felt" },
    h(
      "p",
      { class: "pot", "data-testid": "pot" },
      direction(way),
      h("span", { class: "pot-label" }, t("table.pot")),
      " ",
      h("strong", {}, num(pot)),
    ),
    h(
      "p",
      { class: "stake", "data-testid": "stake" },
      h("span", {}, `${t("table.stake")} ${num(stake)}`),
      " · ",
      h("span", {}, `${t("table.boot")} ${num(boot)}`),
    ),
    wild ? h("p", { class: "wild" }, t("table.wild", { card: cardsName([wild]) })) : null,
  );
}

/** The turn line's region: its words and clock worked out first, drawn when they change. */
function turnRegion(regions, st) {
  const { text, mine } = turnWords(st);
  return regions.region("turn", [text, mine, clockOf(st)], turnLine);
}

function newsRegion(regions, st) {
  return regions.region("news", [latestNews(st)], (news) => (news ? h("p", { class: "news", "data-testid": "news" }, news) : null));
}

/** This player's moves: what they are drawn from is the legal moves, the choices on the stepper
 *  and the partner's list, whether a move can be sent, and the names a side show gives. */
function actionsRegion(view, st) {
  const hand = st.hand;
  const page = view.page;
  const side = hand ? hand.side_show : null;
  const names = side || st.legal.some((a) => a.do === "sideshow") ? st.seats.map((row) => row.name).join("\n") : "";
  return view.regions.region("actions", [st.legal, hand ? hand.finished : null, side, st.you, page.amount, page.partner, view.held, names], () => actions(view, st));
}

/** This player's cards: drawn from their seat, the moves (See), whether a move can be sent,
 *  and being out of chips (a rebuy's offer). */
function handRegion(view, st) {
  return view.regions.region("mine", [Boolean(st.hand), st.seats[st.you], st.legal, view.held, st.out, st.rebuy, st.settings], () => myHand(view, st));
}

/** The pots a finished hand gave away: not the top of a bet nobody called (it went back). */
function wonPots(hand) {
  return hand && hand.finished ? (hand.pots || []).filter((pot) => !pot.returned) : [];
}

/** Which way play passes: an arrow by the pot, said in words to screen readers. */
function direction(way) {
  const clockwise = way === "clockwise";
  const words = t(clockwise ? "table.clockwise" : "table.anticlockwise");
  return h(
    "span",
    { class: "direction", title: words },
    h("span", { "aria-hidden": "true" }, clockwise ? "↻" : "↺"),
    h("span", { class: "sr-only" }, words),
  );
}

/**
 * What a seat is drawn from (`seatBox`'s arguments): its row, its place round the table (`j` of
 * `n`, this player's at the bottom), and what the hand, the call and the chat say of it.
 */
function seatInputs(view, st, i, j, winners, last) {
  const hand = st.hand;
  const seat = st.seats[i];
  const active = Boolean(hand && !hand.finished && hand.actor === i);
  return [
    seat,
    j,
    st.seats.length,
    i === st.you,
    hand ? (hand.finished ? "finished" : "playing") : null,
    active,
    Boolean(hand && hand.dealer === i),
    winners.has(i),
    hand && seat.dealt && seat.packed ? packedHow(hand, i) : null,
    last ? last.action : null,
    view.page.call.speaking.includes(i),
    view.page.bubbles[i] || null,
    Boolean(active && st.deadline),
    isComputer(seat) ? botBadge(st) : null,
    seatName(st, i),
  ];
}

/** A seat round the felt: its name, chips, cards, badges, last move, clock and chat bubble. */
function seatBox(seat, j, n, me, hand, active, dealer, winner, how, lastAction, speaking, bubble, timed, bot, label) {
  const i = seat.seat;
  const finished = hand === "finished";
  const badges = [];
  if (hand) {
    const kind = finished && seat.cards && seat.category ? t(`cat.${seat.category}`) : null;
    if (!seat.dealt) badges.push(["out", t("seat.out")]);
    else if (seat.packed) {
      badges.push(["packed", t(how === "timeout" ? "seat.packedTimeout" : how === "sideshow" ? "seat.packedSide" : "seat.packed")]);
    }
    else if (finished) {
      // after the hand: who won, and with what (the result below shows the cards)
      if (winner) badges.push(["winner", kind || t("seat.winner"), kind ? `${t("seat.winner")}: ` : ""]);
      else if (kind) badges.push(["kind", kind]);
    } else {
      badges.push(seat.seen ? ["seen", t("seat.seen")] : ["blind", t("seat.blind")]);
      if (seat.all_in) badges.push(["allin", t("seat.allin")]);
    }
  }
  // round a crowded table (seven to ten seats) the badge is the gear alone, its words for screen
  // readers only, so a narrow seat stays short enough for its neighbours (the level is the table's)
  if (bot) badges.push(n > 6 ? ["bot", "", bot] : ["bot", bot]);
  else if (seat.person && seat.bot) badges.push(["auto", me ? t("seat.playsForYou") : t("seat.playsFor", { name: seat.name })]);
  else if (seat.person && seat.connected === false) badges.push(["offline", t("seat.offline")]);
  const backs = hand && seat.dealt && !seat.packed && !me && !seat.cards;
  // once the hand is over the result lists the hands; the seat only names its kind
  const faces = hand && seat.cards && !me && !finished;
  const cards = backs ? h("span", { class: "seat-cards" }, handCards(null, "sm")) : null;
  const shown = faces
    ? h(
        "div",
        { class: "seat-cards up", role: "img", "aria-label": `${cardsName(seat.cards)}${seat.category ? ` (${category(seat.category)})` : ""}` },
        handCards(seat.cards, "sm"),
      )
    : null;
  const classes = ["seat", `side-${seatSpot(j, n).side}`];
  if (me) classes.push("me");
  if (active) classes.push("active");
  if (hand && seat.packed) classes.push("packed");
  if (hand && !seat.dealt) classes.push("out");
  if (winner) classes.push("winner");
  if (speaking) classes.push("speaking");
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
      "aria-label": label,
      "aria-current": active ? "true" : null,
      style: spotStyle(j, n),
    },
    h(
      "div",
      { class: "seat-top" },
      h("span", { class: "seat-name", title: seat.name }, name),
      dealer ? h("span", { class: "dealer", title: t("seat.dealer") }, h("span", { "aria-hidden": "true" }, t("seat.dealerMark")), h("span", { class: "sr-only" }, t("seat.dealer"))) : null,
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
      hand && lastAction && !finished && lastAction.do !== "pack"
        ? h("span", { class: "last-move", "data-testid": `move-${i}` }, caption(lastAction))
        : null,
    ),
    active ? h("span", { class: "sr-only" }, t(me && !seat.late ? "seat.yourTurn" : "seat.turn")) : null,
    timed ? h("div", { class: "seat-timer", "aria-hidden": "true" }, timerBar()) : null,
    chatBubble(bubble, i),
  );
}

/** What the turn line says: whose turn it is, or who is in a side show ({text, mine}). */
function turnWords(st) {
  const hand = st.hand;
  let text = "";
  let mine = false;
  if (!hand) text = t("table.dealing");
  else if (hand.finished) text = t("table.nextHand");
  else if (hand.side_show && hand.side_show[1] !== st.you) {
    const [a, b] = hand.side_show;
    text = a === st.you ? t("side.youAsked", { b: seatName(st, b) }) : t("side.waiting", { a: seatName(st, a), b: seatName(st, b) });
  } else if (hand.actor === st.you && st.seats[st.you].late) {
    text = t("turn.late"); // a latecomer watches the computer play their seat until the next deal
  } else if (hand.actor === st.you) {
    text = t("turn.you");
    mine = true;
  } else if (hand.actor !== null && hand.actor !== undefined) {
    const seat = st.seats[hand.actor];
    text = seat && seat.bot ? t("turn.thinking", { name: seatName(st, hand.actor) }) : t("turn.other", { name: seatName(st, hand.actor) });
  }
  return { text, mine };
}

/** The turn line: its words, whether the turn is this player's, and the turn's clock (or null). */
function turnLine(text, mine, clock) {
  return h(
    "div",
    { class: `turn-line${mine ? " mine" : ""}`, "data-testid": "turn-line", tabindex: "-1" },
    h("span", { class: "turn-text" }, text),
    clock
      ? h(
          "span",
          // the seconds the turn had left when its clock was first drawn
          { class: "timer", "data-testid": "timer", "data-left": String(Math.ceil(clock.left)) },
          countdown(clock),
          h("span", { class: "timer-track", "aria-hidden": "true" }, timerBar()),
        )
      : null,
  );
}
