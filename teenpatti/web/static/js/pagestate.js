// The table page's state in one place: what the server last sent, whether a move is on its way,
// whether the connection is up, and this player's own choices (the chaal amount on the stepper,
// the side show's partner, what is open below the table, Past hands, what the page shows of the
// voice call). It changes only by the named actions below, each a new object (what an action
// leaves alone stays the same object, so a part of the page can tell by identity that its input
// did not change: regions.js). Pure: the table view (table.js) sends and says what the actions
// ask for.

import { endsHand, startsHand } from "./announce.js";
import { chaalRange } from "./moves.js";

/** The page before the first state: connecting, nothing chosen. */
export const START = Object.freeze({
  st: null, // the latest state the server sent for this seat
  fresh: true, // the next state is taken whole (the first, or the first after a reconnect)
  syncing: false, // a sync was asked for after a gap in versions
  pending: false, // a move is on its way: every control that sends waits for its answer
  lost: false, // the connection is down: nothing can be sent, the clock may be stale
  failed: null, // the error that ended the table for this page ({code, reason})
  lastFinished: null, // the last finished hand's state, for the line under the next one
  amount: null, // the chaal amount chosen on the stepper, this turn
  partner: null, // the seat a side show would ask, where it may ask several
  open: null, // what is open below the table: "chat", "menu" or null
  confirm: null, // the table menu's question: {kind: "leave"} | {kind: "remove", seat, name}
  invite: false, // the invitation open in the table menu
  readN: null, // the last chat message read (shown in the open chat, or there when the page came)
  lastN: null, // the last chat message taken in (bubbles are for the ones after it)
  bubbles: Object.freeze({}), // seat -> {message, until}: the newest message at a seat, for a while
  muted: Object.freeze([]), // the people muted "for you" on this phone (`who`), kept by the view
  hands: Object.freeze({
    open: false, // Past hands is open below the table
    game: null, // the earlier game shown (its number at the table), or null: the one in play
    asked: null, // which list was last asked for (hands.js `listKey`): an older answer is dropped
    list: null, // the histories of `asked`, as fetched
    loading: false, // the list is on its way
    failed: null, // why the list could not be had ({code, reason}), till the next answer
    saving: false, // a download on its way: its button is disabled (and busy) till it ends
    checks: Object.freeze({}), // hand index -> what "Check this deal" found ({busy} meanwhile)
    details: Object.freeze([]), // hand indices whose check's details are open
    sent: Object.freeze({}), // commitment -> this phone's part of that deal, as sent
  }),
  // what the page shows of the voice call; its connections and the microphone are call.js's own
  call: Object.freeze({
    joined: false, // this phone is on the call (it holds the microphone)
    joining: false, // the microphone was asked for
    muted: false, // this phone's microphone is muted on the call
    problem: null, // what went wrong, said in the panel: {key, params} or {code, reason}
    roster: Object.freeze([]), // [{seat, n, muted}]: who is on the call, as the server last said
    unheard: Object.freeze([]), // seats whose sound this phone has switched off
    speaking: Object.freeze([]), // seats heard talking now
  }),
});

/** How long a chat message stays in its bubble at its sender's seat, in ms. */
export const BUBBLE_MS = 4000;

/** A person at a seat, as a mute remembers them: the seat and the name (a seat may change hands). */
export function who(st, seat) {
  const row = st.seats[seat];
  return row ? `${seat}:${row.name}` : `${seat}:`;
}

/** The new chat messages of `st` (those numbered after `lastN`), oldest first. */
export function newMessages(st, lastN) {
  return (st.chat || []).filter((m) => m.n > lastN);
}

/** The seats a side show may ask now, when there is a choice among several; else []. */
function partners(st) {
  const side = st && st.legal ? st.legal.find((a) => a.do === "sideshow") : null;
  return side && side.targets && side.targets.length > 1 ? side.targets : [];
}

/** The newest chat message's number in `st` (0 when none). */
function topChat(st) {
  const chat = (st && st.chat) || [];
  return chat.length ? chat[chat.length - 1].n : 0;
}

/** `page` with its choices kept within what its state offers: the amount within the stepper's
 *  range (its least when unset or out of it; none without a stepper), the partner among the seats
 *  a side show may ask (the first by default), the chat read while it is open. */
function settle(page) {
  const range = page.st ? chaalRange(page.st) : null;
  let amount = null;
  if (range) amount = page.amount === null || page.amount < range.min || page.amount > range.max ? range.min : page.amount;
  const targets = partners(page.st);
  const partner = targets.length && !targets.includes(page.partner) ? targets[0] : page.partner;
  const readN = page.readN === null || page.open === "chat" ? topChat(page.st) : page.readN;
  if (amount === page.amount && partner === page.partner && readN === page.readN) return page;
  return { ...page, amount, partner, readN };
}

/** The bubbles of `page` with those for the chat messages of `st` it has not taken in, from
 *  people not muted; and the last message taken in. The first state's messages get none. */
function taken(page, st, now) {
  const top = topChat(st);
  if (page.lastN === null) return { lastN: top, bubbles: page.bubbles };
  const fresh = newMessages(st, page.lastN).filter((m) => !page.muted.includes(who(st, m.seat)));
  if (!fresh.length) return { lastN: Math.max(page.lastN, top), bubbles: page.bubbles };
  const bubbles = { ...page.bubbles };
  for (const message of fresh) bubbles[message.seat] = { message, until: now + BUBBLE_MS };
  return { lastN: Math.max(page.lastN, top), bubbles };
}

/** `bubbles` without those whose time is up at `now` (the same object when none is). */
function expired(bubbles, now) {
  const kept = Object.entries(bubbles).filter(([, bubble]) => bubble.until > now);
  return kept.length === Object.keys(bubbles).length ? bubbles : Object.fromEntries(kept);
}

/** `part` with `changes` made, or `part` itself when they change nothing. */
function changed(part, changes) {
  for (const key of Object.keys(changes)) {
    if (part[key] !== changes[key]) return { ...part, ...changes };
  }
  return part;
}

/** `list` with `item` taken out when it is in it, else put in. */
function toggled(list, item) {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

/** The game a list of hands is of, from its key (hands.js `listKey`: the game's number first). */
function gameOf(key) {
  return key === null ? null : key.split(":")[0];
}

/** A list of hands with nothing checked and no check's details open (a new list, or none). */
const UNCHECKED = Object.freeze({ checks: Object.freeze({}), details: Object.freeze([]) });

/** Past hands after one of its actions (`reduce`'s "hands/..."). */
function handsAfter(hands, action) {
  const current = action.key === hands.asked; // an answer to the list last asked for
  switch (action.type) {
    case "hands/opened":
      return changed(hands, { open: true });
    case "hands/closed":
      return changed(hands, { open: false });
    case "hands/game":
      if (action.game === hands.game) return hands;
      return { ...hands, ...UNCHECKED, game: action.game, asked: null, list: null, failed: null };
    case "hands/loading":
      // another game's list (the next one's, after Play again): the last one's goes at once
      if (gameOf(action.key) !== gameOf(hands.asked)) return { ...hands, ...UNCHECKED, asked: action.key, loading: true, list: null };
      return changed(hands, { asked: action.key, loading: true });
    case "hands/loaded":
      return current ? { ...hands, ...UNCHECKED, list: action.list, loading: false, failed: null } : hands;
    case "hands/failed":
      return current ? changed(hands, { loading: false, failed: action.error }) : hands;
    case "hands/saving":
      return changed(hands, { saving: true });
    case "hands/saved":
      return changed(hands, { saving: false });
    case "hands/checked":
      return current ? { ...hands, checks: { ...hands.checks, [action.index]: action.result } } : hands;
    case "hands/details":
      return { ...hands, details: toggled(hands.details, action.index) };
    case "hands/part":
      return hands.sent[action.for] === action.part ? hands : { ...hands, sent: { ...hands.sent, [action.for]: action.part } };
    default:
      throw new Error(`no action ${action.type}`);
  }
}

/** Whether two lists hold the same items, in any order. */
function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The call's part of the page after one of its actions (`reduce`'s "call/..."). */
function callAfter(call, action) {
  switch (action.type) {
    case "call/joining":
      return changed(call, { joining: true, problem: null });
    case "call/joined":
      return changed(call, { joined: true, joining: false });
    case "call/left":
      return changed(call, { joined: false, joining: false, speaking: call.speaking.length ? [] : call.speaking });
    case "call/mute":
      return { ...call, muted: !call.muted };
    case "call/hear":
      return { ...call, unheard: toggled(call.unheard, action.seat) };
    case "call/problem":
      return changed(call, { problem: action.problem, joining: action.problem ? false : call.joining });
    case "call/roster":
      return changed(call, { roster: action.seats });
    case "call/speaking":
      return sameSet(call.speaking, action.seats) ? call : { ...call, speaking: action.seats };
    default:
      throw new Error(`no action ${action.type}`);
  }
}

/** `page` with `changes` made, or `page` itself when they change nothing. */
function change(page, changes) {
  const next = changed(page, changes);
  return next === page ? page : settle(next);
}

/**
 * The page after `action`. The actions:
 * - `{type: "received", st, now}`: a state (whole, or a patch applied) to show, come at `now`
 *   (ms); the move on its way is answered; a new hand forgets the last one's choices; new chat
 *   messages get their bubbles;
 * - `{type: "tick", now}`: the time is `now` (ms): bubbles whose time is up go;
 * - `{type: "gap"}`: versions were skipped, a sync is asked for;
 * - `{type: "sent"}` / `{type: "answered"}`: a move went out / came back refused or unanswered;
 * - `{type: "connection", status}`: "open", "retrying", "lost" or "offline" (net.js);
 * - `{type: "failed", error}`: the table cannot be played from this page;
 * - `{type: "step", by}`: the stepper's − (-1) or + (1), a step of the chaal's range;
 * - `{type: "partner", seat}`: the side show's partner chosen;
 * - `{type: "open", which}`: the chat or the table menu opened, or closed when it was open;
 * - `{type: "confirm", question}` (null: answered), `{type: "invite"}` (open or close it);
 * - `{type: "mute", seat}`: the person at `seat` muted for this phone, or heard again;
 * - Past hands (hands.js): `{type: "hands/opened"}` / `{type: "hands/closed"}`; `{type:
 *   "hands/game", game}`: an earlier game chosen (null: the one in play); `{type: "hands/loading",
 *   key}`: the list `key` asked for (another game's: the list shown goes); `{type: "hands/loaded", key, list}` / `{type: "hands/failed",
 *   key, error}`: its answer (dropped when another list was asked for since); `{type:
 *   "hands/saving"}` / `{type: "hands/saved"}`: a download started / ended; `{type:
 *   "hands/checked", key, index, result}`: a deal's check (`{busy: true}` while it runs); `{type:
 *   "hands/details", index}`: its details opened or closed; `{type: "hands/part", for, part}`:
 *   this phone's part of a deal sent;
 * - the voice call (call.js): `{type: "call/joining"}` (the microphone asked for), `{type:
 *   "call/joined"}`, `{type: "call/left"}` (off the call on this phone), `{type: "call/mute"}`
 *   (muted or unmuted), `{type: "call/hear", seat}` (a seat's sound off or on), `{type:
 *   "call/problem", problem}` (null: none), `{type: "call/roster", seats}`, `{type:
 *   "call/speaking", seats}`.
 */
export function reduce(page, action) {
  switch (action.type) {
    case "received": {
      const prev = page.fresh ? null : page.st;
      const st = action.st;
      const changes = { st, fresh: false, syncing: false, pending: false, ...taken(page, st, action.now) };
      if (startsHand(prev, st)) Object.assign(changes, { amount: null, partner: null });
      if (endsHand(prev, st)) changes.lastFinished = st;
      return change(page, changes);
    }
    case "tick":
      return change(page, { bubbles: expired(page.bubbles, action.now) });
    case "mute": {
      if (!page.st) return page;
      const id = who(page.st, action.seat);
      return change(page, { muted: toggled(page.muted, id) });
    }
    case "gap":
      return change(page, { syncing: true });
    case "sent":
      return change(page, { pending: true });
    case "answered":
      return change(page, { pending: false });
    case "connection":
      if (action.status === "open") return change(page, { lost: false });
      if (action.status === "lost" || action.status === "offline") {
        return change(page, { lost: true, fresh: true, syncing: false, pending: false });
      }
      return page;
    case "failed":
      return change(page, { failed: action.error });
    case "step": {
      const range = page.st ? chaalRange(page.st) : null;
      if (!range || page.amount === null) return page;
      return change(page, { amount: Math.min(range.max, Math.max(range.min, page.amount + action.by * range.step)) });
    }
    case "partner":
      return partners(page.st).includes(action.seat) ? change(page, { partner: action.seat }) : page;
    case "open":
      return change(page, { open: page.open === action.which ? null : action.which, confirm: null });
    case "confirm":
      return change(page, { confirm: action.question });
    case "invite":
      return change(page, { invite: !page.invite });
    default:
      if (action.type.startsWith("hands/")) return change(page, { hands: handsAfter(page.hands, action) });
      if (action.type.startsWith("call/")) return change(page, { call: callAfter(page.call, action) });
      throw new Error(`no action ${action.type}`);
  }
}

/** The one store of a page: its state, changed only by `dispatch`, which tells the listener. */
export class Store {
  constructor(state = START, listener = () => {}) {
    this.state = state;
    this.listener = listener;
  }

  /** Apply `action`; true when the state changed (the listener has been told). */
  dispatch(action) {
    const next = reduce(this.state, action);
    if (next === this.state) return false;
    const prev = this.state;
    this.state = next;
    this.listener(next, prev, action);
    return true;
  }
}
