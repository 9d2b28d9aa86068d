// The people at the table: the chat (quick phrases, reactions, typed text shown only as text, each
// message a short-lived bubble at its sender's seat, and a mute per person "for you", kept on this
// phone) and the table menu (the host pauses and resumes, lets latecomers sit or not, turns typed
// chat on or off, removes a person for the rest of the game and may let them back; anyone gives up
// their seat, after a confirmation). The server
// holds who the host is and what is allowed (docs/protocol.md); this module only asks.

import { catalogue } from "./catalogue.js";
import { clockOf, countdown } from "./clock.js";
import { h } from "./dom.js";
import { joinNames, num, t } from "./i18n.js";
import { isMyTurn, seatName } from "./moves.js";
import { newMessages, who } from "./pagestate.js";
import { invitePanel } from "./share.js";

/**
 * The quick phrases' keys, the reactions and the longest text, as the server defines them (the
 * catalogue's `chat`, GET /api/rules): none until the catalogue has arrived (the table draws
 * itself again then), so the page never offers a phrase the server would refuse.
 */
export function chatRules(cat = catalogue()) {
  return (cat && cat.chat) || { phrases: [], emoji: [], text_max: undefined };
}
const LOG_SHOWN = 20;

/** The table's settings the host turns on and off here (and on the create form, home.js):
 *  latecomers, typed chat, the voice call; each labelled `host.<key>`. */
export const TABLE_SWITCHES = ["late", "chat", "voice"];

/** A chat message in this phone's language: a phrase by its key, a reaction, or the text as sent. */
export function chatText(message) {
  return message.kind === "phrase" ? t(`phrase.${message.text}`) : message.text;
}

export { newMessages };

/** The people this phone muted at table `code` (pagestate.js `who`), as kept on the phone. */
export function savedMutes(code) {
  try {
    const kept = JSON.parse(localStorage.getItem(`tp.chatmute.${code}`) || "[]");
    return Array.isArray(kept) ? kept.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function hostSeat(st) {
  const row = st.seats.find((seat) => seat.host);
  return row ? row.seat : null;
}

/** What the chat and the table menu do besides drawing: say what the others said and what the
 *  host did, keep this phone's mutes, and send chat lines. Their state is the page's (pagestate.js). */
export class Social {
  constructor(view) {
    this.view = view;
  }

  stop() {}

  isMuted(st, seat) {
    return this.view.page.muted.includes(who(st, seat));
  }

  toggleMute(seat) {
    this.view.dispatch({ type: "mute", seat });
    try {
      localStorage.setItem(`tp.chatmute.${this.view.code}`, JSON.stringify(this.view.page.muted));
    } catch {
      /* a private window: the mute lasts this page */
    }
  }

  /** A new state, received when the page was at `before`: announcements for new chat messages
   *  (what was said before this phone came is in the log, not said) and for the host's doings. */
  onState(prev, st, before) {
    const app = this.view.app;
    if (before.lastN !== null) {
      for (const m of newMessages(st, before.lastN)) {
        if (this.isMuted(st, m.seat) || m.seat === st.you) continue;
        app.announce(t("chat.line", { name: seatName(st, m.seat), text: chatText(m) }));
      }
    }
    if (!prev) return;
    if (prev.paused !== st.paused && st.status === "playing") {
      app.announce(t(st.paused ? "host.pausedBy" : "host.resumed"));
    }
    if (prev.status !== "waiting" && st.status !== "waiting") {
      for (const row of st.seats) {
        const before = prev.seats[row.seat];
        if (before && before.person && !row.person && row.seat !== st.you) {
          // the host removed them (their name is among this game's removed), or they left
          const removed = (st.removed || []).includes(before.name);
          app.announce(t(removed ? "host.removedName" : "host.left", { name: before.name }));
        }
      }
    }
    const was = hostSeat(prev);
    const is = hostSeat(st);
    if (was !== is && is !== null && was !== null) {
      app.announce(is === st.you ? t("host.you") : t("host.newHost", { name: st.seats[is].name }));
    }
  }

  /** Send a chat line; false when it could not go (the connection is down). */
  say(message) {
    // chat goes straight out: it must not hold up (or wait for) a move on its way
    return this.view.send({ type: "chat", ...message }, { waits: false });
  }
}

/** The longest part of a message a bubble shows; the chat log has the whole of it. */
export const BUBBLE_MAX = 60;

/** A message as its bubble shows it: the first `BUBBLE_MAX` characters, and "…" when cut. Pure. */
export function bubbleText(text) {
  const chars = [...text];
  return chars.length > BUBBLE_MAX ? `${chars.slice(0, BUBBLE_MAX - 1).join("").trimEnd()}…` : text;
}

/** The bubble at a seat: the seat's newest message (`bubble`, pagestate.js), laid over its box. */
export function chatBubble(bubble, seat) {
  if (!bubble) return null;
  const m = bubble.message;
  return h(
    "div",
    {
      class: `chat-bubble ${m.kind}`,
      "data-key": `bubble${seat}-${m.n}`,
      "data-testid": `bubble-${seat}`,
      "aria-hidden": "true", // screen readers hear the message in the log instead
    },
    bubbleText(chatText(m)),
  );
}

/** "Play again" at the end: the host's starts the next game; anyone else's asks for it (a vote). */
export function againButton(view, st) {
  if (st.you === null) return null;
  const me = st.seats[st.you];
  const votes = st.votes || [];
  const asked = votes.includes(st.you);
  const host = me && me.host;
  return [
    votes.length
      ? h("p", { class: "small muted votes", "data-testid": "votes" }, t("host.votes", { names: joinNames(votes.map((s) => seatName(st, s))) }))
      : null,
    host ? null : h("p", { class: "small muted" }, t("host.waitHost")),
    h(
      "button",
      {
        type: "button",
        class: "btn primary big",
        "data-testid": "again",
        disabled: view.held || asked,
        onclick: () => view.send({ type: "again" }),
      },
      host ? t("end.again") : t("host.vote"),
    ),
  ];
}

/** What sits under the table: the paused line, the late note, and the Chat and Table buttons
 *  with the one of them that is open. */
export function socialPanel(view, st) {
  const page = view.page;
  // closed, it is drawn from a few things; open, from the whole state
  const me = st.you === null ? null : st.seats[st.you];
  // what the others said since the chat was last open: a marker on the Chat button
  const unread = (st.chat || []).filter((m) => m.n > page.readN && m.seat !== st.you && !view.social.isMuted(st, m.seat)).length;
  const inputs = page.open ? [page, st, view.held, catalogue()] : [null, st.paused, Boolean(me && me.late), unread];
  return view.regions.region("social", inputs, () => socialBox(view, st, Boolean(me && me.late), unread));
}

function socialBox(view, st, late, unread) {
  const open = view.page.open;
  const toggle = (which) => () => view.dispatch({ type: "open", which });
  return h(
    "section",
    { class: "social", "data-testid": "social" },
    st.paused ? h("p", { class: "paused-note", "data-testid": "paused" }, t("host.paused")) : null,
    late ? h("p", { class: "late-note small", "data-testid": "late-note" }, t("host.lateYou")) : null,
    h(
      "div",
      { class: "social-tabs row" },
      h(
        "button",
        { type: "button", class: "btn", "aria-expanded": open === "chat" ? "true" : "false", "aria-controls": "chat-panel", "data-testid": "chat-open", onclick: toggle("chat") },
        t("chat.open"),
        unread ? h("span", { class: "unread", "data-testid": "chat-unread" }, t("chat.unread", { n: unread })) : null,
      ),
      h(
        "button",
        { type: "button", class: "btn", "aria-expanded": open === "menu" ? "true" : "false", "aria-controls": "table-menu", "data-testid": "menu-open", onclick: toggle("menu") },
        t("host.title"),
      ),
    ),
    open === "chat" ? chatPanel(view, st) : null,
    open === "menu" ? tableMenu(view, st) : null,
  );
}

function chatPanel(view, st) {
  const social = view.social;
  const seated = st.you !== null;
  const offered = chatRules();
  const shown = (st.chat || []).filter((m) => !social.isMuted(st, m.seat)).slice(-LOG_SHOWN);
  // what a mute hides is said, with how many and whose, so the chat never looks empty by mistake
  const hidden = (st.chat || []).filter((m) => social.isMuted(st, m.seat));
  const whose = [...new Set(hidden.map((m) => seatName(st, m.seat)))];
  const hiddenLine = hidden.length
    ? h(
        "li",
        { class: "muted", "data-key": "hidden", "data-testid": "chat-hidden" },
        t(hidden.length === 1 ? "chat.hiddenOne" : "chat.hiddenMany", { n: num(hidden.length), names: joinNames(whose) }),
      )
    : null;
  // while the connection is down nothing can be sent: nothing is offered (as with the moves),
  // and typed text stays in its box until it can go
  const down = view.page.lost;
  const send = (e) => {
    e.preventDefault();
    const input = e.target.querySelector("input");
    const text = input.value.trim();
    if (!text || !social.say({ text })) return;
    input.value = "";
  };
  return h(
    "div",
    { class: "chat-panel", id: "chat-panel", "data-key": "chat", "data-testid": "chat" },
    h("h2", { class: "sr-only" }, t("chat.title")),
    h(
      "ol",
      { class: "chat-log", "data-testid": "chat-log", "aria-label": t("chat.title") },
      shown.length
        ? shown.map((m) =>
            h(
              "li",
              { "data-key": `m${m.n}`, "data-testid": "chat-line", "data-seat": m.seat },
              h("strong", {}, `${seatName(st, m.seat)}: `),
              h("span", { class: `chat-${m.kind}` }, chatText(m)),
            ),
          )
        : hiddenLine
          ? null
          : h("li", { class: "muted", "data-key": "none" }, t("chat.empty")),
      hiddenLine,
    ),
    seated
      ? [
          h(
            "div",
            { class: "chat-phrases", role: "group", "aria-label": t("chat.phrases"), "data-key": "phrases" },
            offered.phrases.map((key) =>
              h(
                "button",
                { type: "button", class: "btn small", "data-key": key, "data-testid": `phrase-${key}`, disabled: down, onclick: () => social.say({ phrase: key }) },
                t(`phrase.${key}`),
              ),
            ),
          ),
          h(
            "div",
            { class: "chat-emoji", role: "group", "aria-label": t("chat.emoji"), "data-key": "emoji" },
            offered.emoji.map((emoji, i) =>
              h(
                "button",
                { type: "button", class: "btn small emoji", "data-key": `e${i}`, "data-testid": `emoji-${i}`, disabled: down, onclick: () => social.say({ emoji }) },
                emoji,
              ),
            ),
          ),
          // typing on your turn: the turn and its timer stay in sight beside the box, however far
          // the phone scrolls to show it over the keyboard
          isMyTurn(st)
            ? h(
                "p",
                { class: "chat-turn", "data-key": "turn", "data-testid": "chat-turn" },
                h("span", {}, t("turn.you")),
                clockOf(st) ? h("span", { class: "timer" }, countdown(clockOf(st))) : null,
              )
            : null,
          st.settings.chat === false
            ? h("p", { class: "small muted", "data-key": "off", "data-testid": "chat-off" }, t("chat.textOff"))
            : h(
                "form",
                { class: "chat-form row", "data-key": "form", onsubmit: send },
                h("input", {
                  type: "text",
                  maxlength: offered.text_max,
                  "aria-label": t("chat.placeholder"),
                  placeholder: t("chat.placeholder"),
                  autocomplete: "off",
                  "data-testid": "chat-text",
                }),
                h("button", { type: "submit", class: "btn", "data-testid": "chat-send", disabled: down }, t("chat.send")),
              ),
        ]
      : h("p", { class: "small muted", "data-key": "watch" }, t("chat.spectator")),
    mutes(view, st),
  );
}

/** Each other person's mute, for this phone only (the host's Remove is in the table menu). */
function mutes(view, st) {
  const social = view.social;
  const people = st.seats.filter((row) => row.person && row.seat !== st.you);
  if (!people.length) return null;
  return h(
    "div",
    { class: "chat-mutes", role: "group", "aria-label": t("chat.mutes"), "data-key": "mutes" },
    h("p", { class: "small muted" }, t("chat.mutes")),
    people.map((row) =>
      h(
        "button",
        { type: "button", class: "btn small", "data-key": `mute${row.seat}-${row.name}`, "data-testid": `mute-${row.seat}`, "aria-pressed": social.isMuted(st, row.seat) ? "true" : "false", onclick: () => social.toggleMute(row.seat) },
        t(social.isMuted(st, row.seat) ? "chat.unmute" : "chat.mute", { name: row.name }),
      ),
    ),
  );
}

function tableMenu(view, st) {
  const me = st.you === null ? null : st.seats[st.you];
  const isHost = Boolean(me && me.host);
  const hostAt = hostSeat(st);
  const ask = (confirm) => () => {
    view.dispatch({ type: "confirm", question: confirm });
    const no = view.root.querySelector("[data-testid=confirm-no]");
    if (no) no.focus(); // a question asked takes focus, on its harmless answer
  };
  const people = st.seats.filter((row) => row.person && row.seat !== st.you);
  const confirm = view.page.confirm;
  return h(
    "div",
    { class: "table-menu", id: "table-menu", "data-key": "menu", "data-testid": "table-menu" },
    h(
      "p",
      { class: "host-line", "data-testid": "host-line" },
      isHost ? t("host.you") : hostAt !== null ? t("host.is", { name: st.seats[hostAt].name }) : "",
    ),
    isHost && st.status === "playing"
      ? h(
          "button",
          {
            type: "button",
            class: "btn",
            "data-testid": st.paused ? "resume" : "pause",
            disabled: view.held,
            onclick: () => view.send({ type: st.paused ? "resume" : "pause" }),
          },
          t(st.paused ? "host.resume" : "host.pause"),
        )
      : null,
    isHost
      ? h(
          "div",
          { class: "host-settings" },
          TABLE_SWITCHES.map((key) => setting(view, st, key, t(`host.${key}`))),
        )
      : null,
    isHost && st.removed && st.removed.length
      ? h(
          "div",
          { class: "removed", "data-testid": "removed" },
          h("p", { class: "small muted" }, t("host.removedList")),
          h(
            "ul",
            { class: "people" },
            st.removed.map((name, i) =>
              h(
                "li",
                { "data-key": `r-${name}` },
                h(
                  "button",
                  { type: "button", class: "btn small", "data-testid": `readmit-${i}`, disabled: view.held, onclick: () => view.send({ type: "readmit", name }) },
                  t("host.readmit", { name }),
                ),
              ),
            ),
          ),
        )
      : null,
    people.length && isHost
      ? h(
          "ul",
          { class: "people", "data-testid": "people" },
          people.map((row) =>
            h(
              "li",
              { "data-key": `p${row.seat}-${row.name}`, "data-testid": `person-${row.seat}` },
              h("span", { class: "seat-name" }, row.name),
              row.late ? h("span", { class: "tag" }, t("host.late.seat")) : null,
              isHost
                ? h(
                    "button",
                    { type: "button", class: "btn small danger", "data-testid": `remove-${row.seat}`, disabled: view.held, onclick: ask({ kind: "remove", seat: row.seat, name: row.name }) },
                    t("host.remove", { name: row.name }),
                  )
                : null,
            ),
          ),
        )
      : null,
    st.status === "waiting" // the waiting room shows the invitation already
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "btn",
            "aria-expanded": view.page.invite ? "true" : "false",
            "data-testid": "invite-open",
            onclick: () => {
              view.dispatch({ type: "invite" });
            },
          },
          t("share.title"),
        ),
    view.page.invite && st.status !== "waiting" ? invitePanel(view, st, "h3") : null,
    me ? h("button", { type: "button", class: "btn danger", "data-testid": "leave", disabled: view.held, onclick: ask({ kind: "leave" }) }, t("host.leave")) : null,
    confirm ? confirmBox(view, st, confirm) : null,
  );
}

function setting(view, st, key, label) {
  const on = st.settings[key] !== false;
  return h(
    "button",
    {
      type: "button",
      role: "switch",
      class: `btn switch${on ? " on" : ""}`,
      "aria-checked": on ? "true" : "false",
      "data-key": key,
      "data-testid": `setting-${key}`,
      disabled: view.held,
      onclick: () => view.send({ type: "configure", [key]: !on }),
    },
    h("span", { class: "switch-mark", "aria-hidden": "true" }, on ? "✓" : ""),
    label,
  );
}

/**
 * The table menu's question answered yes: its message sent (leave the table, or remove the named
 * seat's player), and the question closed only once the message went. A send that cannot go (the
 * connection lost between drawing the button and the press, or a move still on its way) leaves the
 * question open, so the host sees that nothing happened and can press again. Returns whether it went.
 */
export function answerYes(view, confirm) {
  const message = confirm.kind === "leave" ? { type: "leave" } : { type: "remove", seat: confirm.seat };
  if (!view.send(message)) return false;
  view.dispatch({ type: "confirm", question: null });
  return true;
}

function confirmBox(view, st, confirm) {
  const question = confirm.kind === "leave" ? t("host.leaveAsk") : t("host.removeAsk", { name: confirm.name });
  const yes = () => answerYes(view, confirm);
  const no = () => view.dispatch({ type: "confirm", question: null });
  return h(
    "div",
    { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-q", "data-testid": "confirm", "data-key": `c${confirm.kind}${confirm.seat ?? ""}` },
    h("p", { id: "confirm-q" }, question),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "btn", "data-testid": "confirm-no", onclick: no }, t("host.no")),
      h("button", { type: "button", class: "btn danger", "data-testid": "confirm-yes", disabled: view.held, onclick: yes }, t("host.yes")),
    ),
  );
}
