// The table in play: the felt (pot, stake, boot, wild card, which way play passes), the seats
// around it with their chips, cards and badges, whose turn it is with the timer, and below it the
// panel of this screen: my hand and moves, the hand's result, or the standings at the end.

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
  const hand = st.hand;
  const n = st.seats.length;
  const you = st.you;
  const base = you === null ? 0 : you;
  const winners = new Set(wonPots(hand).flatMap((p) => p.winners));
  const last = lastMoves(hand);
  const seats = st.seats.map((seat, i) => {
    const j = (i - base + n) % n;
    return seatBox(view, st, seat, j, winners, last.get(i));
  });
  const felt = h(
    "div",
    { class: "felt", "data-testid": "felt" },
    hand
      ? [
          h(
            "p",
            { class: "pot", "data-testid": "pot" },
            direction(st),
            h("span", { class: "pot-label" }, t("table.pot")),
            " ",
            h("strong", {}, num(hand.finished ? wonPots(hand).reduce((sum, pot) => sum + pot.amount, 0) : hand.pot)),
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
      ? standings(view, st)
      : hand && hand.finished
        ? result(view, st)
        : hand && hand.side_show && hand.side_show[1] === you
          ? [turnLine(st), newsLine(st), actions(view, st), myHand(view, st)]
          : [turnLine(st), newsLine(st), you === null ? null : myHand(view, st), actions(view, st), result(view, st)];
  return h(
    "div",
    { class: "play" },
    h("h1", { class: "sr-only", id: "table-title" }, parts("table.code", { code: codeText(st.code) })),
    h("div", { class: `felt-area seats-${n}${n > 6 ? " many" : ""}`, "data-testid": "seats", style: feltStyle(n) }, felt, seats),
    h("div", { class: "panel-area" }, you === null ? h("p", { class: "watching" }, t("table.watching")) : null, panel, view.call.panel(st), socialPanel(view, st)),
  );
}

/** The pots a finished hand gave away: not the top of a bet nobody called (it went back). */
function wonPots(hand) {
  return hand && hand.finished ? (hand.pots || []).filter((pot) => !pot.returned) : [];
}

/** The news of the latest move (a side show's outcome or refusal, a timeout), for everyone to
 *  read until the next move. */
function newsLine(st) {
  const news = latestNews(st);
  return news ? h("p", { class: "news", "data-testid": "news" }, news) : null;
}

/** Which way play passes: an arrow by the pot, said in words to screen readers. */
function direction(st) {
  const clockwise = st.settings.rules.direction === "clockwise";
  const words = t(clockwise ? "table.clockwise" : "table.anticlockwise");
  return h(
    "span",
    { class: "direction", title: words },
    h("span", { "aria-hidden": "true" }, clockwise ? "↻" : "↺"),
    h("span", { class: "sr-only" }, words),
  );
}

function seatBox(view, st, seat, j, winners, last) {
  const hand = st.hand;
  const i = seat.seat;
  const me = i === st.you;
  const active = hand && !hand.finished && hand.actor === i;
  const dealer = hand && hand.dealer === i;
  const badges = [];
  if (hand) {
    const kind = hand.finished && seat.cards && seat.category ? t(`cat.${seat.category}`) : null;
    if (!seat.dealt) badges.push(["out", t("seat.out")]);
    else if (seat.packed) {
      const how = packedHow(hand, i);
      badges.push(["packed", t(how === "timeout" ? "seat.packedTimeout" : how === "sideshow" ? "seat.packedSide" : "seat.packed")]);
    }
    else if (hand.finished) {
      // after the hand: who won, and with what (the result below shows the cards)
      if (winners.has(i)) badges.push(["winner", kind || t("seat.winner"), kind ? `${t("seat.winner")}: ` : ""]);
      else if (kind) badges.push(["kind", kind]);
    } else {
      badges.push(seat.seen ? ["seen", t("seat.seen")] : ["blind", t("seat.blind")]);
      if (seat.all_in) badges.push(["allin", t("seat.allin")]);
    }
  }
  // round a crowded table (seven to ten seats) the badge is the gear alone, its words for screen
  // readers only, so a narrow seat stays short enough for its neighbours (the level is the table's)
  if (isComputer(seat)) badges.push(st.seats.length > 6 ? ["bot", "", botBadge(st)] : ["bot", botBadge(st)]);
  else if (seat.person && seat.bot) badges.push(["auto", me ? t("seat.playsForYou") : t("seat.playsFor", { name: seat.name })]);
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
  const n = st.seats.length;
  const classes = ["seat", `side-${seatSpot(j, n).side}`];
  if (me) classes.push("me");
  if (active) classes.push("active");
  if (hand && seat.packed) classes.push("packed");
  if (hand && !seat.dealt) classes.push("out");
  if (winners.has(i)) classes.push("winner");
  if (view.call.isSpeaking(i)) classes.push("speaking");
  const name = me ? t("you") : seat.name;
  const label = me ? t("you") : seatName(st, i);
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
      hand && last && !hand.finished && last.action.do !== "pack"
        ? h("span", { class: "last-move", "data-testid": `move-${i}` }, caption(last.action))
        : null,
    ),
    active ? h("span", { class: "sr-only" }, t(me && !seat.late ? "seat.yourTurn" : "seat.turn")) : null,
    active && st.deadline
      ? h("div", { class: "seat-timer", "aria-hidden": "true" }, timerBar())
      : null,
    chatBubble(view, st, i),
  );
}

function turnLine(st) {
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
  const clock = clockOf(st);
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
