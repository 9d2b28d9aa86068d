import assert from "node:assert/strict";
import { test } from "node:test";

import { JS, older, state } from "./page.js";

const clock = await import(new URL("clock.js", JS));
const i18n = await import(new URL("i18n.js", JS));

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

/** An element that records the animations started on it. */
function element(child = null) {
  return {
    firstElementChild: child,
    started: [],
    animate(keyframes, options) {
      const animation = { keyframes, options, cancelled: false, cancel() { this.cancelled = true; } };
      this.started.push(animation);
      return animation;
    },
  };
}

test("the clocks run by transform and opacity alone, started once a turn (nothing is laid out while a turn waits)", () => {
  const low = element();
  const bar = element(low);
  const strip = element();
  const root = { querySelectorAll: (selector) => (selector === "[data-timer-bar]" ? [bar] : [strip]) };
  const server = 1_764_460_800;
  const st = state({ now: server, deadline: server + 15 }); // 15 s of a 30 s turn left
  clock.learnSkew(null, st, server * 1000);
  clock.startClocks(root, st, server * 1000);
  for (const el of [bar, low, strip]) {
    assert.equal(el.started.length, 1);
    for (const frame of el.started[0].keyframes) {
      assert.deepEqual(Object.keys(frame).filter((key) => key !== "transform" && key !== "opacity"), []);
    }
  }
  assert.deepEqual(bar.started[0].keyframes, [{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }]);
  assert.equal(bar.started[0].options.duration, 30_000);
  assert.equal(bar.started[0].options.delay, -15_000, "half the turn has run");
  assert.equal(low.started[0].options.delay, 10_000, "red for the last 5 s");
  assert.equal(strip.started[0].options.easing, "steps(30, end)", "a line a second");
  // a redraw of the same turn leaves the running clocks alone; the next turn starts them again
  clock.startClocks(root, st, (server + 3) * 1000);
  assert.equal(bar.started.length, 1);
  const next = state({ now: server + 16, deadline: server + 46 });
  clock.learnSkew(st, next, (server + 16) * 1000);
  clock.startClocks(root, next, (server + 16) * 1000);
  assert.equal(bar.started.length, 2);
  assert.ok(bar.started[0].cancelled);
  assert.equal(bar.started[1].options.delay + 0, 0, "a whole turn to run");
});

test("the countdown holds a line for every second of the turn, in the phone's language", () => {
  i18n.setLang("en");
  const lines = clock.countdownText(30).split("\n");
  assert.equal(lines.length, 31);
  assert.equal(lines[0], "30 s left");
  assert.equal(lines[30], "0 s left");
  i18n.setLang("ne");
  assert.equal(clock.countdownText(30).split("\n")[1], i18n.t("turn.left", { n: 29 }));
  assert.match(clock.countdownText(30), /२९/);
  i18n.setLang("en");
});
