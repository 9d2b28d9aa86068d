import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const { PastHands, fileName } = await import(new URL("hands.js", JS));
const i18n = await import(new URL("i18n.js", JS));
const { Store } = await import(new URL("pagestate.js", JS));

test("a download is saved under the name the server gives it", () => {
  assert.equal(fileName('attachment; filename="hands.json"'), "hands.json");
  assert.equal(fileName('attachment; filename="hands-game-2.json"'), "hands-game-2.json");
  assert.equal(fileName(null), "hands.json");
});

/** What the page says when "Download hands" meets `answer` (fetch's result, or what it throws). */
async function toldFor(answer) {
  const told = [];
  const store = new Store();
  const saving = [];
  const view = {
    code: "K7WQ3M",
    token: "seat-token",
    app: { toast: (text) => told.push(text) },
    get page() {
      return store.state;
    },
    dispatch: (action) => store.dispatch(action) && saving.push(store.state.hands.saving),
  };
  const asked = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (path, init) => {
    asked.push([path, init.headers]);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  try {
    await new PastHands(view).download(2);
  } finally {
    globalThis.fetch = real;
  }
  assert.deepEqual(asked, [["/api/tables/K7WQ3M/hands?game=2", { authorization: "Bearer seat-token" }]]);
  assert.deepEqual(saving, [true, false], "a download in progress, then none");
  return told;
}

test("a download refused or cut off is said in the page's sentence for its code", async () => {
  for (const lang of ["en", "ne"]) {
    i18n.setLang(lang);
    assert.deepEqual(await toldFor(new TypeError("Failed to fetch")), [i18n.t("err.network")]);
    const refusal = { error: { code: "hands/private", reason: "the hands of a game in play go to its players" } };
    assert.deepEqual(await toldFor(new Response(JSON.stringify(refusal), { status: 403 })), [i18n.t("err.hands/private")]);
    assert.deepEqual(await toldFor(new Response("<html>Bad gateway</html>", { status: 502 })), [i18n.t("err.http")]);
  }
  i18n.setLang("en");
});

/** Past hands opened on game 2 and its list asked for, `answer` being what fetch gives (or throws);
 *  `drawn` stands for drawing the page after each action. The store's Past hands after it. */
async function listedFor(answer, drawn = () => {}) {
  const store = new Store();
  const view = {
    code: "K7WQ3M",
    token: "seat-token",
    st: { version: 10, game: 2, status: "playing", hand: { number: 3, finished: false } },
    get page() {
      return store.state;
    },
    dispatch: (action) => {
      if (store.dispatch(action)) drawn(action);
    },
  };
  view.dispatch({ type: "hands/opened" });
  view.dispatch({ type: "hands/game", game: 2 });
  const real = globalThis.fetch;
  globalThis.fetch = async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  };
  try {
    await new PastHands(view).load();
  } finally {
    globalThis.fetch = real;
  }
  return store.state.hands;
}

test("Past hands says a lost connection, a refusal and an answer that is not JSON each for what it is", async () => {
  const list = [{ number: 1 }];
  const shown = await listedFor(new Response(JSON.stringify(list), { status: 200 }));
  assert.deepEqual([shown.list, shown.failed, shown.loading], [list, null, false]);
  assert.equal((await listedFor(new TypeError("Failed to fetch"))).failed.code, "network");
  const refusal = { error: { code: "hands/private", reason: "the hands of a game in play go to its players" } };
  assert.equal((await listedFor(new Response(JSON.stringify(refusal), { status: 403 }))).failed.code, "hands/private");
  // a proxy's page served as a success: the server did not answer, the connection is not lost
  const portal = await listedFor(new Response("<html>Sign in to the Wi-Fi</html>", { status: 200 }));
  assert.equal(portal.failed.code, "http/200");
  assert.equal(portal.loading, false);
  assert.equal(i18n.errorText(portal.failed.code), i18n.t("err.http"));
});

test("a fault in drawing the list is the page's own, not said to the player as a lost connection", async () => {
  const fault = new Error("a region failed to draw");
  const drawn = [];
  const drawing = (action) => {
    drawn.push(action.type);
    if (action.type === "hands/loaded") throw fault;
  };
  await assert.rejects(listedFor(new Response("[]", { status: 200 }), drawing), fault);
  assert.ok(drawn.includes("hands/loaded") && !drawn.includes("hands/failed"), drawn.join(", "));
});
