import assert from "node:assert/strict";
import { test } from "node:test";

import { CLIENT, JS, checked, older, state } from "./page.js";

const social = await import(new URL("social.js", JS));
const i18n = await import(new URL("i18n.js", JS));

const chat = [
  { n: 4, seat: 1, kind: "phrase", text: "shabash" },
  { n: 5, seat: 0, kind: "emoji", text: "🎉" },
  { n: 6, seat: 2, kind: "text", text: "<b>chiya?</b>" },
];

test("only the messages after the last one taken in are new", () => {
  const st = state({ chat });
  assert.deepEqual(social.newMessages(st, 4).map((m) => m.n), [5, 6]);
  assert.deepEqual(social.newMessages(st, 6), []);
  assert.deepEqual(social.newMessages(older({ chat: undefined }), 0), []);
});

test("a phrase is shown in the phone's language; reactions and typed text as they were sent", () => {
  i18n.setLang("en");
  assert.equal(social.chatText(chat[0]), "Shabash!");
  i18n.setLang("ne");
  assert.equal(social.chatText(chat[0]), "स्याबास!");
  assert.equal(social.chatText(chat[1]), "🎉");
  assert.equal(social.chatText(chat[2]), "<b>chiya?</b>");
  i18n.setLang("en");
});

test("the chat offers what the catalogue serves, and nothing before it arrives", () => {
  const chat = { phrases: ["shabash", "bye"], emoji: ["🎉"], text_max: 120 };
  assert.deepEqual(social.chatRules({ chat }), chat);
  assert.deepEqual(social.chatRules(null), { phrases: [], emoji: [], text_max: undefined });
});

test("a bubble shows a long message's start and says it is cut; the log keeps it whole", () => {
  assert.equal(social.bubbleText("chiya?"), "chiya?");
  const long = "ramro ".repeat(20).trim();
  const shown = social.bubbleText(long);
  assert.ok(shown.endsWith("…"));
  assert.ok([...shown].length <= social.BUBBLE_MAX);
  assert.ok(long.startsWith(shown.slice(0, -1)));
  assert.equal(social.bubbleText("🎉".repeat(60)), "🎉".repeat(60)); // characters, not code units
});

/** A table view that records what the question's answer sends and dispatches; `sends` says whether a send goes. */
function answering(sends) {
  const sent = [];
  const dispatched = [];
  return {
    sent,
    dispatched,
    send(message) {
      sent.push(checked(CLIENT, message));
      return sends;
    },
    dispatch(action) {
      dispatched.push(action);
    },
  };
}

test("the table menu's yes sends its message, then closes the question", () => {
  const view = answering(true);
  assert.equal(social.answerYes(view, { kind: "remove", seat: 2, name: "Bina" }), true);
  assert.deepEqual(view.sent, [{ type: "remove", seat: 2 }]);
  assert.deepEqual(view.dispatched, [{ type: "confirm", question: null }]);
  const leaving = answering(true);
  social.answerYes(leaving, { kind: "leave" });
  assert.deepEqual(leaving.sent, [{ type: "leave" }]);
});

test("a yes whose message cannot go leaves the question open", () => {
  const view = answering(false);
  assert.equal(social.answerYes(view, { kind: "leave" }), false);
  assert.deepEqual(view.sent, [{ type: "leave" }]);
  assert.deepEqual(view.dispatched, []);
});
