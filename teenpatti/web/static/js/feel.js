// How the table feels: cards dealt one by one round the table, chips flying from a seat to the pot
// and from the pot to the winner, with their sounds (cue.js). Everything here happens after the new
// state is drawn and only decorates it: the cards, buttons and numbers are already in place and
// work while anything still moves, so no move waits for an animation. With
// `prefers-reduced-motion` nothing moves (the sounds stay, unless muted); the mute switch silences
// sound and vibration.

import { endsHand, startsHand } from "./announce.js";
import { cue } from "./cue.js";

const DEAL_GAP = 90; // ms between two cards dealt
const FLIGHT = 450; // ms a chip takes to fly

/** Whether the player asked the phone for less motion. */
export function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

let layer = null;
function fxLayer() {
  if (!layer || !layer.isConnected) {
    layer = document.createElement("div");
    layer.className = "fx-layer";
    layer.setAttribute("aria-hidden", "true");
    layer.dataset.testid = "fx";
    document.body.appendChild(layer);
  }
  return layer;
}

/**
 * Finish every card or chip still in flight: they fly between places measured when they set off,
 * so once the page is laid out anew (a phone turned, the text made larger) they would cross a
 * stale path, even past the screen's edge and widen the page for a moment.
 */
export function landAll() {
  if (typeof document.getAnimations !== "function") return 0;
  const flying = document.getAnimations().filter((a) => String(a.id).startsWith("fx-"));
  for (const motion of flying) motion.finish();
  return flying.length;
}

if (typeof window !== "undefined" && typeof window.addEventListener === "function") {
  window.addEventListener("resize", landAll);
}

function centre(el) {
  const box = el.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/** Each seat's cards (mine and the backs of the others) in the order they are dealt. */
function dealtCards(root, st) {
  const n = st.seats.length;
  const start = st.hand.dealer === null || st.hand.dealer === undefined ? 0 : st.hand.dealer + 1;
  const bySeat = [];
  for (let k = 0; k < n; k++) {
    const seat = (start + k) % n;
    const box = seat === st.you ? root.querySelector("[data-testid=my-cards]") : root.querySelector(`[data-testid=seat-${seat}] .seat-cards`);
    bySeat.push(box ? [...box.querySelectorAll(".card")] : []);
  }
  const order = [];
  for (let round = 0; round < 3; round++) for (const cards of bySeat) if (cards[round]) order.push(cards[round]);
  return order;
}

function deal(root, st) {
  const pot = root.querySelector("[data-testid=felt]");
  const cards = dealtCards(root, st);
  if (!cards.length) return 0;
  cue("deal", { count: cards.length, gap: DEAL_GAP / 1000 });
  if (reducedMotion() || !pot) return 0;
  const from = centre(pot);
  // every place asked before any card moves: an animation started between two questions would
  // have the page laid out again for the next one
  const places = cards.map(centre);
  cards.forEach((card, i) => {
    const to = places[i];
    card.animate(
      [
        { transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(0.6)`, opacity: 0 },
        { transform: "none", opacity: 1 },
      ],
      { duration: 260, delay: i * DEAL_GAP, easing: "ease-out", fill: "backwards", id: "fx-deal" },
    );
  });
  return cards.length;
}

/** The sound of chips moving, with their flight at the next frame: making a sound costs the
 *  task that draws a state more than drawing it does. */
function cueLater(kind) {
  requestAnimationFrame(() => cue(kind));
}

/** Send chips flying from `from` to `to` at the next frame: where they are is asked then, when
 *  the frame lays the page out anyway, not in the task that drew the state (which would lay it
 *  out once more, at once). */
function flyLater(from, to, delay = 0) {
  requestAnimationFrame(() => {
    if (from.isConnected && to.isConnected) fly(from, to, delay);
  });
}

function fly(from, to, delay = 0) {
  const a = centre(from);
  const b = centre(to);
  const chip = document.createElement("span");
  chip.className = "fx-chip";
  fxLayer().appendChild(chip);
  chip.style.left = `${a.x}px`;
  chip.style.top = `${a.y}px`;
  const motion = chip.animate(
    [
      { transform: "translate(0, 0)", opacity: 1 },
      { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px)`, opacity: 0.9 },
    ],
    { duration: FLIGHT, delay, easing: "ease-in-out", fill: "both", id: "fx-chip" },
  );
  motion.onfinish = () => chip.remove();
  motion.oncancel = () => chip.remove();
  const root = document.documentElement;
  root.dataset.flown = String(Number(root.dataset.flown || 0) + 1); // chips flown so far, for the tests
}

/**
 * After `st` is drawn in `root` (prev: the state before it, null for the first): deal, chips to
 * the pot for each move that paid, chips to the winners when the hand ends. Returns what it
 * started, for the tests: {dealt, chips, won}.
 */
export function feel(prev, st, root) {
  const did = { dealt: 0, chips: 0, won: 0 };
  const hand = st.hand;
  if (!hand || !prev) return did;
  const motion = !reducedMotion();
  if (startsHand(prev, st)) {
    did.dealt = deal(root, st);
    return did;
  }
  const pot = root.querySelector("[data-testid=pot]");
  const before = prev.hand && prev.hand.number === hand.number ? prev.hand.actions.length : hand.actions.length;
  const paid = hand.actions.slice(before).filter((a) => a.paid > 0);
  if (paid.length) {
    cueLater("chips");
    if (motion && pot) {
      paid.forEach((action, i) => {
        const seat = root.querySelector(`[data-testid=seat-${action.seat}]`);
        if (seat) flyLater(seat, pot, i * 120);
      });
    }
    did.chips = paid.length;
  }
  if (endsHand(prev, st)) {
    const won = (hand.pots || []).filter((p) => !p.returned).flatMap((p) => p.winners);
    if (won.includes(st.you)) cueLater("win");
    else if (won.length) cueLater("chips");
    if (motion && pot) {
      for (const seat of new Set(won)) {
        const box = root.querySelector(`[data-testid=seat-${seat}]`);
        if (box) flyLater(pot, box, 150);
      }
    }
    did.won = won.length;
  }
  return did;
}
