"""What the table page costs the phone while a person's turn waits (the page's work in Chromium
over a window in which nothing happens at the table but its clocks), and for each state while
the game is played.

    .venv/bin/python bench/page_turn.py [--seconds 8 --repeat 3 --moves 30] [--past-hands]

A real ``teenpatti serve`` (the browser tests' server: ``tests/support/page_server.py``) on
loopback; Debian's Chromium (``/usr/bin/chromium``, headless, a 360 x 640 phone at twice the
pixels); a host opens a live six-seat table from the home page and starts it with the computer in
the other seats; once it is the host's turn (a 30 s timer, a pulsing seat, a shrinking bar) and
what its arrival set moving has stopped (the deal, the chips, the seat's pulse: nothing moves but
the turn's clocks), the window starts: a turn that waits. Figures, from the renderer's own
counters (the DevTools protocol's ``Performance.getMetrics``) and from ``/proc`` for the
renderer processes:

- ``task``: seconds of the page's main thread in tasks (script, style, layout, paint records);
- ``layouts`` and ``styles``: how many times the page was laid out and its style worked out;
- ``cpu``: seconds of CPU of every renderer process (its compositor and raster threads too).

Each is per second of the window. Then the host plays ``--moves`` moves (chaal, accept or show
where offered, else the first move offered) while the computer plays the other seats, under
Chromium's trace, which gives what each state costs the page's main thread: the task that takes
a WebSocket message (the state drawn, its focus placed, its chips sent flying), and the frames
drawn meanwhile (animations and clocks), each in thread time. The medians of ``--repeat``
windows are printed, one table and one browser each. With ``--past-hands`` the host opens Past
hands below the table before the window, and it stays open while the moves are played. To weigh
a change to the page, run it from both checkouts one after the other (only runs close in time
compare: the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from proc import cpu_seconds  # noqa: E402
from support.chromium import launch  # noqa: E402
from support.page_server import Server  # noqa: E402
from support.table_page import CHOICES_JS  # noqa: E402


def renderer_cpu() -> float:
    """CPU seconds of every Chromium renderer process now."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                total += cpu_seconds(int(pid))
        except OSError:  # gone meanwhile
            continue
    return total


PREFERRED = ("act-chaal", "act-accept", "act-show")
"""The host's moves in the played stretch: the first of these offered, else the first offered."""
TURN_JS = """() => {
  const t = document.querySelector('[data-testid=table]');
  return Boolean(t) && (t.dataset.status === 'finished'
    || (t.dataset.myturn === '1' && t.dataset.pending === '0'));
}"""
SETTLED_JS = """() => document.getAnimations().every((a) => a.effect && a.effect.target
  && a.effect.target.closest('[data-timer-bar], [data-timer-text]'))"""
"""Whether nothing moves on the page but the turn's clocks."""
TRACED = ["devtools.timeline", "toplevel", "cc"]
"""The trace's categories: tasks, the page's function calls, and the frames."""


def main_thread_tasks(trace: bytes) -> dict[str, list[float]]:
    """The page's main-thread tasks in a Chromium trace, in thread milliseconds, sorted by what
    they ran: ``message`` (a WebSocket message's handler), ``frame`` (a frame drawn) and
    ``other``. The page is the renderer that handled the most messages."""
    events = json.loads(trace)["traceEvents"]
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("args", {}).get("name") == "CrRendererMain"
    }
    by_thread: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for e in events:
        if e.get("ph") == "X" and "dur" in e and (e["pid"], e["tid"]) in mains:
            by_thread.setdefault((e["pid"], e["tid"]), []).append(e)
    best: dict[str, list[float]] = {"message": [], "frame": [], "other": []}
    for found in by_thread.values():
        found.sort(key=lambda e: (e["ts"], -e["dur"]))
        tasks: dict[str, list[float]] = {"message": [], "frame": [], "other": []}
        end, kind, spent = -1.0, "", 0.0
        for e in [*found, {"ts": float("inf"), "dur": 0, "name": ""}]:
            if e["ts"] >= end:  # a new top-level task: the last one is done
                if kind:
                    tasks[kind].append(spent)
                kind, end = "", -1.0
                if e["name"] == "ThreadControllerImpl::RunTask":
                    kind, end, spent = "other", e["ts"] + e["dur"], e.get("tdur", e["dur"]) / 1000
            elif kind == "other" and e["name"] == "ProxyMain::BeginMainFrame":
                kind = "frame"
            elif (
                kind == "other"
                and e["name"] == "FunctionCall"
                and e.get("args", {}).get("data", {}).get("functionName") == "ws.onmessage"
            ):
                kind = "message"
        if len(tasks["message"]) > len(best["message"]):
            best = tasks
    return best


def window(browser: Any, url: str, seconds: float, moves: int, hands: bool) -> dict[str, float]:
    """One table, one phone: the page's work per second while the host's turn waits, then per
    state while the host plays ``moves`` moves; ``hands``: with Past hands open."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    try:
        page = context.new_page()
        page.goto(url + "/")
        page.wait_for_selector("html[data-ready='1']")
        page.get_by_test_id("menu-friends").tap()
        page.get_by_test_id("name").fill("Sita")
        page.get_by_test_id("create-submit").tap()
        page.get_by_test_id("lobby").wait_for()
        page.get_by_test_id("start").tap()
        page.locator("[data-testid=table][data-myturn='1']").wait_for(timeout=60_000)
        if hands:
            page.get_by_test_id("hands-toggle").tap()
            listed = "[data-testid=hands-none], [data-testid=past-hand]"
            page.get_by_test_id("past-hands").locator(listed).first.wait_for()
        page.wait_for_function(SETTLED_JS, timeout=10_000)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")

        def metrics() -> dict[str, float]:
            got = cdp.send("Performance.getMetrics")["metrics"]
            return {m["name"]: float(m["value"]) for m in got}

        before, cpu = metrics(), renderer_cpu()
        time.sleep(seconds)  # the window: nothing but the page's own clocks runs in it
        after, cpu = metrics(), renderer_cpu() - cpu
        assert page.locator("[data-testid=table][data-myturn='1']").count() == 1, "turn over"
        out = {
            "task": (after["TaskDuration"] - before["TaskDuration"]) / seconds,
            "layouts": (after["LayoutCount"] - before["LayoutCount"]) / seconds,
            "styles": (after["RecalcStyleCount"] - before["RecalcStyleCount"]) / seconds,
            "cpu": cpu / seconds,
        }
        if moves:
            browser.start_tracing(page=page, categories=TRACED)
            for _ in range(moves):
                page.wait_for_function(TURN_JS, timeout=60_000)
                choices = page.evaluate(CHOICES_JS)
                if not choices:  # the game is over
                    break
                page.get_by_test_id(next((c for c in PREFERRED if c in choices), choices[0])).tap()
            tasks = main_thread_tasks(browser.stop_tracing())
            out["states"] = len(tasks["message"])
            out["message_ms"] = statistics.median(tasks["message"])
            out["frame_ms"] = statistics.median(tasks["frame"])
            out["frames_per_state"] = len(tasks["frame"]) / len(tasks["message"])
        return out
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--moves", type=int, default=30, help="0: no played stretch")
    parser.add_argument("--past-hands", action="store_true", help="with Past hands open")
    args = parser.parse_args()
    if not 1 <= args.seconds <= 20:  # the turn timer is 30 s, some of it spent settling
        parser.error("--seconds is 1 to 20")
    runs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-page-") as folder:
        server = Server(Path(folder), result_pause=0.3)
        server.start()
        try:
            with launch() as browser:
                for _ in range(args.repeat):
                    runs.append(
                        window(browser, server.url, args.seconds, args.moves, args.past_hands)
                    )
        finally:
            server.close()
    medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(
        "a waiting turn, per second: "
        + f"main thread {medians['task'] * 1000:.0f} ms, "
        + f"{medians['layouts']:.1f} layouts, {medians['styles']:.1f} style passes, "
        + f"renderer CPU {medians['cpu'] * 1000:.0f} ms "
        + f"(medians of {args.repeat} windows of {args.seconds:g} s; "
        + f"load {os.getloadavg()[0]:.2f})"
    )
    if args.moves:
        print(
            "a played stretch, per state: "
            + f"its message {medians['message_ms']:.2f} ms of the main thread, "
            + f"{medians['frames_per_state']:.1f} frames of {medians['frame_ms']:.2f} ms "
            + f"(medians of {args.repeat} stretches of {args.moves} moves by the host, "
            + ("Past hands open, " if args.past_hands else "")
            + f"{medians['states']:.0f} states each)"
        )


if __name__ == "__main__":
    main()
