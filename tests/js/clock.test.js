import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, older, state } from "./page.js";

const clock = await import(new URL("clock.js", JS));

test("the time left follows the server's clock, not the phone's", () => {
  const phone = 1_000_000; // seconds on this phone's clock
  const st = state({ now: phone - 100, deadline: phone - 100 + 12 });
  clock.learnSkew(null, st, phone * 1000); // the phone runs 100 s ahead of the server
  assert.equal(clock.secondsLeft(st, phone * 1000), 12);
  assert.equal(clock.secondsLeft(st, (phone + 20) * 1000), 0, "never below nothing");
  assert.equal(clock.secondsLeft({ ...st, deadline: phone - 100 + 500 }, phone * 1000), 30, "never above the turn");
});

test("without the server's time, a fresh deadline starts a whole turn", () => {
  const before = older({ now: undefined, deadline: 5000 });
  const after = older({ now: undefined, deadline: 9000 });
  clock.learnSkew(before, after, 2_000_000); // the server's "now" is read as deadline - turn_seconds
  assert.equal(clock.secondsLeft(after, 2_000_000), 30);
  assert.equal(clock.secondsLeft(after, 2_010_000), 20);
  clock.learnSkew(after, after, 3_000_000); // the same deadline again teaches nothing
  assert.equal(clock.secondsLeft(after, 2_010_000), 20);
});

test("the timer bars shrink by a transform, never by their width (a width is a layout at every frame)", () => {
  const bar = { style: {}, classList: { toggle(name, on) { this[name] = on; } } };
  const text = { textContent: "", parentElement: { dataset: {} } };
  const root = { querySelectorAll: (selector) => (selector === "[data-timer-bar]" ? [bar] : [text]) };
  const at = (left) => {
    const st = state({ now: 1_764_460_800, deadline: 1_764_460_800 + left });
    clock.learnSkew(null, st); // the server's clock is the phone's: `left` seconds are left now
    clock.tick(root, st);
  };
  at(15);
  assert.match(bar.style.transform, /^scaleX\(0\.(49\d|500)\)$/, "half of a 30 s turn");
  assert.equal(bar.style.width, undefined);
  assert.equal(bar.classList.low, false);
  assert.equal(text.parentElement.dataset.left, "15");
  at(3);
  assert.match(bar.style.transform, /^scaleX\(0\.(09\d|100)\)$/);
  assert.equal(bar.classList.low, true, "the last 5 s are marked");
});
