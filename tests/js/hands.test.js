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
