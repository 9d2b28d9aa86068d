import assert from "node:assert/strict";
import { test } from "node:test";

import { CLIENT, SERVER, checked, state } from "./page.js";
import { problems } from "./schema.js";

test("the fixture state fits the server's schema, and the check refuses what does not", () => {
  assert.deepEqual(problems(SERVER, state()), []);
  const wrong = (changes, hand = {}) => problems(SERVER, { ...state(), ...changes, hand: { ...state().hand, ...hand } });
  assert.match(wrong({ version: "10" })[0], /version: expected integer/);
  assert.match(problems(SERVER, { ...state(), extra: 1 }).join(), /extra is not in the protocol/);
  const noNow = state();
  delete noNow.now;
  assert.match(problems(SERVER, noNow).join(), /now is missing/);
  assert.notDeepEqual(wrong({}, { ended_by: "packs" }), []);
  assert.notDeepEqual(wrong({ legal: [{ do: "fly", cost: 0, max: 0, label: "Fly", targets: [] }] }), []);
});

test("the other server messages fit their schema", () => {
  for (const message of [
    { type: "patch", version: 11, from: 10, ops: [["s", ["version"], 11], ["d", ["seats", 0, "late"]]] },
    { type: "error", code: "turn/not_yours", reason: "it is not your turn", id: "k-1", retryable: true },
    { type: "pong", version: 10 },
  ]) checked(SERVER, message);
  assert.notDeepEqual(problems(SERVER, { type: "error", code: "x/y", reason: "r", retryable: false }), []);
  assert.notDeepEqual(problems(SERVER, { type: "welcome" }), []);
});

test("what the page sends fits the client's schema", () => {
  const part = "ab".repeat(32);
  for (const message of [
    { type: "hello", token: "Xq3", patches: true },
    { type: "hello", token: null },
    { type: "act", action: { do: "chaal", amount: 20 }, version: 17, id: "k3-17" },
    { type: "act", action: { do: "sideshow", with: 2 } },
    { type: "chat", phrase: "shabash" },
    { type: "chat", emoji: "🙏" },
    { type: "chat", text: "ramro khel" },
    { type: "part", for: "41ab", part },
    { type: "configure", late: false },
    { type: "remove", seat: 2 },
    { type: "start" }, { type: "again" }, { type: "leave" }, { type: "pause" }, { type: "resume" },
    { type: "sync" }, { type: "ping" },
  ]) checked(CLIENT, message);
  for (const bad of [
    { type: "act", action: { do: "fly" } },
    { type: "part", for: "41ab", part: "AB".repeat(32) },
    { type: "chat", phrase: "hello" },
    { type: "remove", seat: "2" },
    { type: "act", action: { do: "pack" }, id: "" },
    { type: "dance" },
  ]) assert.notDeepEqual(problems(CLIENT, bad), [], JSON.stringify(bad));
});
