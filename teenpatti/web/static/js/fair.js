// The fair deal, checked in the browser with WebCrypto: the same derivation as the engine's
// teenpatti-deck/2 (teenpatti/engine/deck.py, docs/protocol.md "The fair deal"). During a game a
// hand's shown cards (your own among them) are checked against the cards commitment published at
// the deal, each with its proof; once the game is over the whole deal is derived again from the
// revealed secret and the players' parts. Pure: no page, no network; every check is async.

const DECK_V2 = "teenpatti-deck/2";
const enc = new TextEncoder();
const SEED_MSG = enc.encode("teenpatti-deck/2 seed");
const STREAM_MSG = enc.encode("teenpatti-deck/2");
const SALT_MSG = enc.encode("teenpatti-salt/2");
const LEAF_MSG = enc.encode("\x00teenpatti-card/2");
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

const subtle = () => globalThis.crypto.subtle;

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(...chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function u16(n) {
  return new Uint8Array([(n >> 8) & 255, n & 255]);
}

function u64(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setUint32(4, n);
  return out;
}

export async function sha256(bytes) {
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

async function hmacKey(key) {
  return subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, message) {
  return new Uint8Array(await subtle().sign("HMAC", key, message));
}

/** A card's number from its text ("As", "Td", "10d", "Jk"): rank * 4 + suit; a joker is 52 or 53. */
export function cardNumbers(text) {
  if (typeof text !== "string") return [];
  const t = text.trim();
  if (/^j[ko]$/i.test(t)) return [52, 53];
  const rank = RANKS.indexOf(t.length === 3 && t.startsWith("10") ? "T" : t[0].toUpperCase());
  const suit = SUITS.indexOf(t[t.length - 1].toLowerCase());
  if (rank < 0 || suit < 0 || (t.length === 3 && !t.startsWith("10")) || t.length > 3) return [];
  return [rank * 4 + suit];
}

/** The text of a card number, as the server writes it. */
export function cardText(card) {
  return card >= 52 ? "Jk" : RANKS[card >> 2] + SUITS[card & 3];
}

async function leaf(position, card, salt) {
  return sha256(concat(LEAF_MSG, u16(position), new Uint8Array([card]), salt));
}

async function node(left, right) {
  return sha256(concat(new Uint8Array([1]), left, right));
}

/** Whether `proof` ({position, salt, path}) shows `card` (a number) dealt under `root`. */
export async function checkCard(root, card, proof) {
  try {
    const salt = hexToBytes(proof.salt);
    if (!salt || salt.length !== 32 || !Number.isInteger(proof.position)) return false;
    let h = await leaf(proof.position, card, salt);
    for (const [side, sibling] of proof.path) {
      const other = hexToBytes(sibling);
      if (!other || other.length !== 32 || (side !== "L" && side !== "R")) return false;
      h = side === "L" ? await node(other, h) : await node(h, other);
    }
    return typeof root === "string" && bytesToHex(h) === root.toLowerCase();
  } catch {
    return false;
  }
}

/** Whether a card's text is the card its proof commits to (a joker may be either joker). */
export async function checkCardText(root, text, proof) {
  for (const card of cardNumbers(text)) {
    if (await checkCard(root, card, proof)) return true;
  }
  return false;
}

/** The deck's seed: HMAC-SHA256(secret, "teenpatti-deck/2 seed" + per seat 0x01 part | 0x00). */
export async function deckSeed(secret, parts) {
  const chunks = [SEED_MSG];
  for (const part of parts) chunks.push(part === null ? new Uint8Array([0]) : concat(new Uint8Array([1]), part));
  return hmac(await hmacKey(secret), concat(...chunks));
}

/** The first `count` cards a seed deals: the forward Fisher-Yates, drawn only as far as needed. */
export async function draw(seed, count, jokers = false) {
  const n = jokers ? 54 : 52;
  const key = await hmacKey(seed);
  const moved = new Map();
  const out = [];
  let words = [];
  let counter = 0;
  for (let p = 0; p < count; p += 1) {
    const m = n - p;
    const limit = Math.floor(2 ** 32 / m) * m;
    let w;
    do {
      if (!words.length) {
        const block = await hmac(key, concat(STREAM_MSG, u64(counter)));
        const view = new DataView(block.buffer);
        words = Array.from({ length: 8 }, (_, k) => view.getUint32(4 * k));
        counter += 1;
      }
      w = words.shift();
    } while (w >= limit);
    const j = p + (w % m);
    const card = moved.has(j) ? moved.get(j) : j;
    moved.set(j, moved.has(p) ? moved.get(p) : p);
    out.push(card);
  }
  return out;
}

/** The root of the commitment tree over the salted cards dealt from `seed`, as hex. */
export async function cardsRoot(seed, cards) {
  const key = await hmacKey(seed);
  let level = [];
  for (let p = 0; p < cards.length; p += 1) {
    level.push(await leaf(p, cards[p], await hmac(key, concat(SALT_MSG, u16(p)))));
  }
  while (level.length > 1) {
    const up = [];
    for (let k = 0; k + 1 < level.length; k += 2) up.push(await node(level[k], level[k + 1]));
    if (level.length % 2) up.push(level[level.length - 1]);
    level = up;
  }
  return bytesToHex(level[0]);
}

/**
 * The seats dealt in, in the order they get cards: from the seat after the dealer in the
 * direction of play, those with chips.
 */
export function dealOrder(history, direction) {
  const n = history.seats.length;
  const step = direction === "anticlockwise" ? -1 : 1;
  const out = [];
  for (let k = 1; k <= n; k += 1) {
    const seat = (((history.dealer + step * k) % n) + n) % n;
    if (history.seats[seat].chips > 0) out.push(seat);
  }
  return out;
}

/**
 * A failed check: `code` names what failed (hands.js words it in the player's language, see
 * `hands.why.*` in strings-en.js), `seat` the seat it concerns if any, and `reason` says it in English as
 * `teenpatti verify` does.
 */
const refuse = (code, reason, seat = null) => ({ verified: false, code, seat, reason });

/** Check each card a history shows against its cards_root (a history given during the game). */
export async function checkShown(history) {
  const root = history.cards_root;
  const checked = [];
  for (let seat = 0; seat < history.seats.length; seat += 1) {
    const row = history.seats[seat];
    if (!row.cards) continue;
    const cards = Array.isArray(row.cards) ? row.cards : row.cards.split(" ");
    const proofs = row.proof;
    if (!Array.isArray(proofs) || proofs.length !== 3 || cards.length !== 3) {
      return refuse("no_proof", `seat ${seat}'s cards come without the proof of each card`, seat);
    }
    for (let k = 0; k < 3; k += 1) {
      if (!(await checkCardText(root, cards[k], proofs[k]))) {
        return refuse("shown", `seat ${seat}'s cards are not the ones committed to at the deal`, seat);
      }
    }
    checked.push(seat);
  }
  if (history.wild && history.wild_proof && !(await checkCardText(root, history.wild, history.wild_proof))) {
    return refuse("wild_shown", "the card turned up is not the one committed to at the deal");
  }
  return { verified: true, complete: false, checked };
}

/**
 * Check one hand as `teenpatti verify` does (the deal's part of it): during the game the cards
 * shown, after it the whole deal from the secret and the parts. `rules` are the table's full
 * rules (direction, variant).
 */
export async function checkHand(history, rules) {
  if (!history || history.deck !== DECK_V2) return refuse("deck", "not a teenpatti-deck/2 hand");
  if (typeof history.cards_root !== "string" || typeof history.commitment !== "string") {
    return refuse("no_seal", "the hand has no commitment and cards_root to check");
  }
  if (!("secret" in history)) return checkShown(history);
  const secret = hexToBytes(history.secret);
  if (!secret || secret.length !== 32) return refuse("secret", "the secret must be 64 hex digits");
  if (bytesToHex(await sha256(secret)) !== history.commitment.toLowerCase()) {
    return refuse("commitment", "the secret does not match the commitment published before the deal");
  }
  const raw = history.contributions;
  if (!Array.isArray(raw) || raw.length !== history.seats.length) {
    return refuse("parts", "the hand needs one contribution (or null) per seat");
  }
  const parts = [];
  for (let seat = 0; seat < raw.length; seat += 1) {
    const part = raw[seat] === null ? null : hexToBytes(raw[seat]);
    if (raw[seat] !== null && (!part || part.length !== 32)) {
      return refuse("part", `seat ${seat}'s contribution must be 64 hex digits or null`, seat);
    }
    parts.push(part);
  }
  const order = dealOrder(history, rules.direction);
  const variant = (history.rules && history.rules.variant) || rules.variant;
  const wild = variant === "wild_rank";
  const seed = await deckSeed(secret, parts);
  const cards = await draw(seed, 3 * order.length + (wild ? 1 : 0), variant === "jokers");
  if ((await cardsRoot(seed, cards)) !== history.cards_root.toLowerCase()) {
    return refuse(
      "root",
      "the secret and the contributions do not give the cards_root published at the deal" +
        " (a contribution, the secret or the root was changed)",
    );
  }
  for (let seat = 0; seat < history.seats.length; seat += 1) {
    const k = order.indexOf(seat);
    const mine = k < 0 ? "" : [cards[k], cards[k + order.length], cards[k + 2 * order.length]].map(cardText).join(" ");
    const row = history.seats[seat];
    const theirs = Array.isArray(row.cards) ? row.cards.join(" ") : row.cards || "";
    if (mine !== theirs) return refuse("dealt", `seat ${seat} was dealt ${mine || "nothing"}, not what the file shows`, seat);
  }
  if (wild && history.wild !== cardText(cards[cards.length - 1])) {
    return refuse("wild_dealt", "the card turned up is not the one dealt");
  }
  return { verified: true, complete: true };
}
