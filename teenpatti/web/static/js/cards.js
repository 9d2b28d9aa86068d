// Cards drawn as SVG: crisp at any size, and never told apart by colour alone. Every suit has its
// own shape, the rank is written in the corner, and each card is labelled for screen readers.

import { h, s } from "./dom.js";
import { digits, lang, t } from "./i18n.js";

const SUIT_PATHS = {
  h: ["M12 21.6C12 21.6 2 14.7 2 8.3 2 5 4.6 2.5 7.6 2.5c1.9 0 3.6 1.1 4.4 2.7.8-1.6 2.5-2.7 4.4-2.7 3 0 5.6 2.5 5.6 5.8 0 6.4-10 13.3-10 13.3z"],
  d: ["M12 1.5 21 12 12 22.5 3 12z"],
  s: [
    "M12 1.5S2.5 9 2.5 14c0 3 2.3 5 5 5 1.7 0 3.1-.8 3.8-2-.3 2.5-1.3 4-2.8 5.5h7c-1.5-1.5-2.5-3-2.8-5.5.7 1.2 2.1 2 3.8 2 2.7 0 5-2 5-5C21.5 9 12 1.5 12 1.5z",
  ],
  c: [
    "M7.2 7a4.8 4.8 0 1 0 9.6 0a4.8 4.8 0 1 0-9.6 0z",
    "M2.2 14a4.8 4.8 0 1 0 9.6 0a4.8 4.8 0 1 0-9.6 0z",
    "M12.2 14a4.8 4.8 0 1 0 9.6 0a4.8 4.8 0 1 0-9.6 0z",
    "M11 11h2c0 5 .9 8.2 3.2 11.5H7.8C10.1 19.2 11 16 11 11z",
  ],
};
const RED = new Set(["h", "d"]);
const RANK_TEXT = { T: "10" };

/** Parse "Kh" / "10h" / "Jk" into {rank, suit} (rank a letter of 23456789TJQKA, suit of cdhs). */
export function parseCard(text) {
  if (text === "Jk") return { rank: "Jk", suit: null };
  const suit = text.slice(-1);
  let rank = text.slice(0, -1);
  if (rank === "10") rank = "T";
  return { rank, suit };
}

/** The index printed in a card's corner: A K Q J as on any pack, numbers in the page's digits. */
export function rankText(rank) {
  return digits(RANK_TEXT[rank] || rank);
}

export function cardName(text) {
  const { rank, suit } = parseCard(text);
  if (rank === "Jk") return t("joker");
  const rankName = t(`rank.${rank}`) === `rank.${rank}` ? rank : t(`rank.${rank}`);
  return t("card.of", { rank: rankName, suit: t(`suit.${suit}`) });
}

export function cardsName(cards) {
  return sortCards(cards).map(cardName).join(", ");
}

const VALUE = { T: 10, J: 11, Q: 12, K: 13, A: 14 };
const SUIT_ORDER = "shdc";

/**
 * Cards in the order a hand reads: the highest rank first, pairs side by side, a run as one
 * (Q-J-10; the low run 3-2-A, the ace counting one), a wild joker last. Not the order dealt.
 * @param {string[]} cards
 * @returns {string[]}
 */
export function sortCards(cards) {
  const parsed = cards.map((text) => ({ text, ...parseCard(text) }));
  const value = ({ rank }) => (rank === "Jk" ? 0 : VALUE[rank] || Number(rank));
  const ranks = new Set(parsed.map(value));
  const lowRun = parsed.length === 3 && ranks.has(14) && ranks.has(2) && ranks.has(3);
  const key = (card) => (lowRun && value(card) === 14 ? 1 : value(card));
  return parsed
    .slice()
    .sort((a, b) => key(b) - key(a) || SUIT_ORDER.indexOf(a.suit) - SUIT_ORDER.indexOf(b.suit))
    .map((card) => card.text);
}

function suitShape(suit, x, y, size, extra = {}) {
  const scale = size / 24;
  return s(
    "g",
    { transform: `translate(${x} ${y}) scale(${scale})`, ...extra },
    SUIT_PATHS[suit].map((d) => s("path", { d })),
  );
}

/**
 * Cards are drawn once each (a card of each size, key and language) and copied after that: a copy
 * is cheaper than drawing, and carries `__drawing`, which tells the page's morph (dom.js) that a
 * card copied from the same drawing is the same card, with nothing in it to compare.
 */
const drawings = new Map();

function copied(id, draw) {
  if (!drawings.has(id)) drawings.set(id, draw());
  const copy = drawings.get(id).cloneNode(true);
  copy.__drawing = id;
  return copy;
}

/** One card face up. `size` is a CSS class: "lg", "md" or "sm". */
export function cardFace(text, size = "md", key = null) {
  return copied(`face ${text} ${size} ${key} ${lang()}`, () => drawFace(text, size, key));
}

function drawFace(text, size, key) {
  const { rank, suit } = parseCard(text);
  const label = cardName(text);
  const joker = rank === "Jk";
  const colour = joker ? "joker" : RED.has(suit) ? "red" : "black";
  const shown = joker ? "★" : rankText(rank);
  const small = size === "sm";
  return s(
    "svg",
    {
      class: `card card-${size} face ${colour} suit-${suit || "joker"}`,
      viewBox: "0 0 60 84",
      role: "img",
      "aria-label": label,
      "data-card": text,
      "data-key": key,
    },
    s("title", {}, label),
    s("rect", { class: "card-bg", x: 1, y: 1, width: 58, height: 82, rx: 6 }),
    s(
      "text",
      {
        class: "card-rank",
        x: small ? 30 : 6,
        y: small ? 30 : 22,
        "text-anchor": small ? "middle" : "start",
        "font-size": small ? (shown.length > 1 ? 24 : 28) : shown.length > 1 ? 18 : 21,
      },
      shown,
    ),
    joker
      ? s("text", { class: "card-rank", x: 30, y: 62, "text-anchor": "middle", "font-size": 11 }, t("joker").toUpperCase())
      : small
        ? suitShape(suit, 15, 40, 30, { class: "pip" })
        : [
            suitShape(suit, 6, 27, 13, { class: "pip" }),
            suitShape(suit, 20, 38, 34, { class: "pip" }),
            s(
              "text",
              {
                class: "card-rank",
                x: 54,
                y: 78,
                "text-anchor": "end",
                "font-size": shown.length > 1 ? 13 : 15,
                "aria-hidden": "true",
              },
              shown,
            ),
          ],
  );
}

/** The name of a kind of hand in both languages ("Pure sequence · डबल रन"), the second half marked
 *  with its own language so a screen reader reads each half in its own voice. */
export function handName(cat) {
  const other = lang() === "en" ? "ne" : "en";
  const mine = t(`cat.${cat}`);
  const theirs = t(`cat.${cat}`, {}, other);
  return h("span", {}, mine, mine === theirs ? null : [" · ", h("span", { lang: other }, theirs)]);
}

/** One card face down. */
export function cardBack(size = "md", key = null, label = true) {
  return copied(`back ${size} ${key} ${label ? lang() : ""}`, () => drawBack(size, key, label));
}

function drawBack(size, key, label) {
  return s(
    "svg",
    {
      class: `card card-${size} back`,
      viewBox: "0 0 60 84",
      role: label ? "img" : null,
      "aria-label": label ? t("cards.back") : null,
      "aria-hidden": label ? null : "true",
      "data-key": key,
    },
    s("rect", { class: "back-bg", x: 1, y: 1, width: 58, height: 82, rx: 6 }),
    s("rect", { class: "back-inner", x: 6, y: 6, width: 48, height: 72, rx: 3, fill: "url(#tp-back)" }),
    suitShape("d", 20, 32, 20, { class: "back-mark" }),
  );
}

/** Three cards: faces when known, else backs. */
export function hand(cards, size = "md", count = 3) {
  if (cards && cards.length) return sortCards(cards).map((c, i) => cardFace(c, size, `c${i}`));
  return Array.from({ length: count }, (_, i) => cardBack(size, `b${i}`, false));
}
