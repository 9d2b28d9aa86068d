import assert from "node:assert/strict";
import { test } from "node:test";

import { JS } from "./page.js";

const { placeOf } = await import(new URL("versions.js", JS));

test("the first state, or the first after a reconnect, is applied whatever its version", () => {
  assert.equal(placeOf(null, 42), "apply");
  assert.equal(placeOf(undefined, 0), "apply");
});

test("the next version is applied, and the same version again (who is online changed)", () => {
  assert.equal(placeOf(7, 8), "apply");
  assert.equal(placeOf(7, 7), "apply");
});

test("an older state is stale and a skipped version is a gap", () => {
  assert.equal(placeOf(7, 6), "stale");
  assert.equal(placeOf(7, 0), "stale");
  assert.equal(placeOf(7, 9), "gap");
  assert.equal(placeOf(0, 100), "gap");
});
