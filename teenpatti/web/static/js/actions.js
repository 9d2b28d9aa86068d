// This phone's own hand and moves: my cards (tap to see them), the action buttons in a fixed order,
// the stepper that sizes a chaal, and the answer to a side show someone asks of me. Drawn from the
// state and the page's choices (pagestate.js keeps the amount and the partner within what the
// state offers); a tap changes them only by the page's actions.

import { cardBack, cardFace, cardsName, handName, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { chaalRange, moveLabel, orderedLegal, seatName } from "./moves.js";

/** What happens next to a player out of chips: they sit out to the end, or (under the rebuy house
 *  rule, while it lets them) they may buy back in for the next hand. */
export function outOfChips(view, st) {
  if (!st.out) return null;
  const offer = st.rebuy;
  return h(
    "div",
    { class: "out-of-chips", "data-testid": "out" },
    offer
      ? [
          h(
            "button",
            { type: "button", class: "btn primary", "data-key": "rebuy", "data-testid": "rebuy", disabled: view.held, onclick: () => view.send({ type: "rebuy" }) },
            t("mine.rebuy", { chips: offer.chips }),
          ),
          h("p", { class: "small muted", "data-key": "note" }, t("mine.rebuyNote", { left: offer.left, until: offer.until })),
        ]
      : h("p", { class: "small", "data-key": "out" }, t("mine.out", { n: st.settings.rules.hands })),
  );
}

export function myHand(view, st) {
  const hand = st.hand;
  const seat = st.seats[st.you];
  if (!hand || !seat) return null;
  // a latecomer is dealt in from the next hand: the cards of this one are the computer's
  if (seat.late) return h("section", { class: "mine", "data-testid": "my-hand" }, h("p", { class: "muted" }, t("mine.late")));
  if (!seat.dealt) return h("section", { class: "mine", "data-testid": "my-hand" }, h("p", { class: "muted" }, t("mine.noCards")), outOfChips(view, st));
  const see = st.legal.find((a) => a.do === "see");
  const faceUp = Boolean(seat.cards);
  const cards = faceUp
    ? h(
        "div",
        { class: "my-cards", "data-testid": "my-cards", "data-face": "up", role: "group", "aria-label": cardsName(seat.cards) },
        sortCards(seat.cards).map((c, i) => cardFace(c, "lg", `m${i}`)),
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
          disabled: see && view.held ? true : null,
          onclick: see ? () => view.act({ do: "see" }) : null,
        },
        [0, 1, 2].map((i) => cardBack("lg", `m${i}`, false)),
      );
  return h(
    "section",
    { class: `mine${seat.packed ? " packed" : ""}`, "data-testid": "my-hand", "aria-label": t("mine.label"), tabindex: "-1" },
    cards,
    h(
      "div",
      { class: "my-info" },
      seat.category
        ? h("p", { class: "category", "data-testid": "my-category" }, handName(seat.category))
        : h("p", { class: "muted" }, seat.seen ? "" : t("mine.blindNote")),
      see
        ? h(
            "button",
            {
              type: "button",
              class: "btn see",
              "data-testid": "act-see",
              "data-do": "see",
              disabled: view.held,
              onclick: () => view.act({ do: "see" }),
            },
            t("act.see"),
          )
        : null,
    ),
    outOfChips(view, st),
  );
}

export function actions(view, st) {
  const hand = st.hand;
  if (!hand || hand.finished) return null;
  const legal = orderedLegal(st).filter((a) => a.do !== "see");
  const asked = hand.side_show && hand.side_show[1] === st.you;
  if (asked) {
    const accept = legal.find((a) => a.do === "accept");
    const decline = legal.find((a) => a.do === "decline");
    // a dialog that takes focus (table.js) and says who asks
    return h(
      "section",
      {
        class: "actions sideshow-ask",
        role: "alertdialog",
        "data-testid": "sideshow-request",
        "aria-labelledby": "ask-title",
        "aria-describedby": "ask-help",
      },
      h("h2", { id: "ask-title" }, t("side.asked", { name: seatName(st, hand.side_show[0]) })),
      h("p", { class: "small", id: "ask-help" }, t("side.askedHelp")),
      h(
        "div",
        { class: "action-grid two" },
        accept ? button(view, st, accept) : null,
        decline ? button(view, st, decline) : null,
      ),
    );
  }
  if (!legal.length) return h("section", { class: "actions empty", "data-testid": "actions", "aria-hidden": "true" });
  const range = chaalRange(st);
  const { amount, partner: chosen } = view.page;
  let stepper = null;
  if (range) {
    const { min, max } = range;
    stepper = h(
      "div",
      { class: "stepper", role: "group", "aria-label": `${t("act.amount")} (${t("act.range", { min, max })})`, "data-testid": "stepper" },
      h(
        "button",
        {
          type: "button",
          class: "btn step",
          "aria-label": t("act.less"),
          "data-testid": "step-less",
          disabled: amount <= min,
          onclick: () => view.dispatch({ type: "step", by: -1 }),
        },
        "−",
      ),
      h(
        "output",
        { class: "amount", "data-testid": "amount", "aria-live": "polite" },
        num(amount),
        h("span", { class: "small muted" }, ` (${t("act.range", { min, max })})`),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn step",
          "aria-label": t("act.more"),
          "data-testid": "step-more",
          disabled: amount >= max,
          onclick: () => view.dispatch({ type: "step", by: 1 }),
        },
        "+",
      ),
    );
  }
  const side = legal.find((a) => a.do === "sideshow");
  const targets = side ? side.targets || [] : [];
  return h(
    "section",
    { class: "actions", "data-testid": "actions", "aria-label": t("turn.you") },
    stepper,
    targets.length ? partner(view, st, targets) : null,
    h(
      "div",
      { class: "action-grid" },
      legal.map((action) => button(view, st, action, action.do === "sideshow" && targets.length > 1 ? chosen : null)),
    ),
  );
}

/**
 * Whom a side show asks, on a line above the moves: the button itself says only "Side show 40",
 * so the row keeps its size whatever the names. With several seats to choose from, the line is
 * a choice among them (the first by default).
 */
function partner(view, st, targets) {
  if (targets.length === 1) {
    return h(
      "p",
      { class: "partner", id: "side-partner", "data-testid": "sideshow-partner" },
      t("act.with", { action: t("act.sideshow"), name: seatName(st, targets[0]) }),
    );
  }
  return h(
    "label",
    { class: "partner", "data-testid": "sideshow-partner" },
    h("span", { id: "side-partner" }, t("act.withWhom")),
    h(
      "select",
      {
        "data-testid": "sideshow-with",
        disabled: view.held,
        onchange: (event) => view.dispatch({ type: "partner", seat: Number(event.target.value) }),
      },
      targets.map((seat) => h("option", { value: seat, selected: seat === view.page.partner, "data-key": `o${seat}` }, seatName(st, seat))),
    ),
  );
}

function button(view, st, action, target = null) {
  const { text, amount } = moveLabel(action, st, view.page.amount, target, false);
  const message = { do: action.do };
  if (action.do === "chaal" && action.max > action.cost) message.amount = amount;
  if (target !== null) message.with = target;
  return h(
    "button",
    {
      type: "button",
      class: `btn act act-${action.do}`,
      "data-key": action.do,
      "data-testid": `act-${action.do}`,
      "data-do": action.do,
      "data-cost": amount,
      "aria-describedby": action.do === "sideshow" ? "side-partner" : null,
      disabled: view.held,
      onclick: () => view.act(message),
    },
    text,
  );
}
