"""The load test: ``teenpatti serve`` and a bare Starlette app, the same swarm against each.

    .venv/bin/python bench/load/run.py --tables 1000 --seconds 60 --out load.json

In one run, one after the other (never both at once: they would share the 2 cores):

1. ``teenpatti serve --lobby-rate 100000,100000 --result-pause 1 --bot-delay 1`` on a temporary
   data folder, then ``swarm.py`` against it in a process of its own;
2. ``bare_app.py`` (``--message-bytes``: the mean size of the state messages our server just
   sent), then the same swarm against it.

While each swarm runs, this script samples the server's process (it pins nothing): CPU time
(utime + stime from ``/proc/PID/stat``) when the swarm says the measured window starts and ends,
and resident memory (``VmRSS`` from ``/proc/PID/status``) before the N tables are set up (after
the slow table, so one-off costs are not counted), after, and at the end of the window. It prints
the figures side by side with the ratio of our server's CPU per action to the bare app's, and
writes them (and the machine's load) as JSON to ``--out``.

Everything is on loopback; every wait is bounded; the servers are stopped at the end (SIGINT,
then SIGKILL after 15 s).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import queue
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.append(str(HERE.parent))  # after bench/load: its own modules first

from proc import cpu_seconds  # noqa: E402  (bench/proc.py: a process's CPU time, for scale.py too)

GOAL_P99_MS = 50.0
"""Move to the last seat's update, at one action a second a table (issue 27: at 2,000 tables)."""
GOAL_TABLES = 2000
GOAL_CPU_RATIO = 1.5
"""Our server's CPU per action over the bare app's, measured in the same run (issue 27; the
first goal, of issue 6, was 3.0)."""
SERVE = """
import sys
sys.path.insert(0, sys.argv[1])
from bare_app import log_gc_pauses
log_gc_pauses()
profile_to = sys.argv[2]
sys.argv = ["teenpatti", *sys.argv[3:]]
from teenpatti.cli import main
if profile_to == "-":
    main()
else:
    import cProfile
    profile = cProfile.Profile()
    try:
        profile.runcall(main)
    except SystemExit:
        pass
    finally:
        profile.dump_stats(profile_to)
"""
"""``teenpatti serve`` with the collector's pauses logged (see ``bare_app.log_gc_pauses``), and
under cProfile with ``--profile`` (the profile is written when it stops)."""


EDGE_OPTIONS = [
    "--tables-per-address",
    "1000000",
    "--connections-per-address",
    "1000000",
    "--max-connections",
    "1000000",
    "--max-tables",
    "1000000",
]
"""The swarm is one client address on loopback: the per-address limits are lifted for it."""


def log(text: str) -> None:
    """Progress, on stderr."""
    print(f"[run {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def rss_kib(pid: int) -> int:
    """Resident memory of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def schedstat(pid: int) -> tuple[float, float]:
    """Seconds the process's main thread has run on a CPU, and waited for one while runnable."""
    on_cpu, waiting, _ = Path(f"/proc/{pid}/schedstat").read_text().split()
    return int(on_cpu) / 1e9, int(waiting) / 1e9


def gc_pauses(server_log: Path, start: float, end: float) -> list[dict[str, float]]:
    """The collector's pauses the server logged between ``start`` and ``end`` (epoch seconds)."""
    pauses = []
    for line in server_log.read_text(errors="replace").splitlines():
        if not line.startswith("gc-pause "):
            continue
        fields = dict(part.split("=", 1) for part in line.split()[1:])
        at = float(fields["at"])
        if start <= at <= end:
            pauses.append(
                {
                    "gen": int(fields["gen"]),
                    "ms": float(fields["ms"]),
                    "cpu_ms": float(fields.get("cpu", "nan")),
                    "second": int(at - start),
                }
            )
    return pauses


def free_port(host: str) -> int:
    """A port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def raise_open_files(wanted: int = 0) -> int:
    """Raise the open-files limit to ``wanted`` (past the hard limit too, where the system
    allows it: as root, up to ``fs.nr_open``), else to the hard limit; the servers and swarms
    inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and wanted > hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def uptime() -> str:
    """What ``uptime`` says (the load averages of the whole machine)."""
    try:
        return subprocess.run(
            ["uptime"], capture_output=True, text=True, timeout=5, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def spawn_lines(cmd: list[str]) -> tuple[subprocess.Popen[str], queue.Queue[str | None]]:
    """Start ``cmd`` in the project's folder; its standard output arrives line by line in the
    queue (``None`` once it has closed), read by a thread so that the caller can time out."""
    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return process, lines


def swarm_events(
    lines: queue.Queue[str | None], deadline: float
) -> Iterator[dict[str, Any] | None]:
    """The swarm's JSON lines as events until it closes its output or ``deadline`` passes;
    ``None`` whenever a quarter of a second goes by with nothing (a moment to sample)."""
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=min(0.25, max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            yield None
            continue
        if line is None:
            return
        try:
            event = json.loads(line)
        except ValueError:
            continue
        yield event


def reap(process: subprocess.Popen[str]) -> None:
    """Wait for a process to end by itself, or end it."""
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def wait_listening(host: str, port: int, server: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait until the server accepts connections (or fail if it died or took too long)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not listen on {host}:{port} within {timeout:.0f} s")


def stop(process: subprocess.Popen[Any], timeout: float = 15.0) -> None:
    """SIGINT (a graceful stop), then SIGKILL if it does not exit in time."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def measure(
    name: str, server_cmd: list[str], port: int, args: argparse.Namespace, logs: Path
) -> dict[str, Any]:
    """Start one server, run the swarm against it, sample the server; return the figures."""
    shown = [a for a in server_cmd if "\n" not in a]  # not the wrapper's source
    log(f"{name}: starting {' '.join(shown)}")
    server_log = logs / f"{name}.log"
    with server_log.open("wb") as out:
        server = subprocess.Popen(server_cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    swarm: subprocess.Popen[str] | None = None
    try:
        wait_listening(args.host, port, server, timeout=60)
        samples: dict[str, Any] = {"rss_idle_kib": rss_kib(server.pid)}
        swarm_cmd = [
            sys.executable,
            str(HERE / "swarm.py"),
            "--host",
            args.host,
            "--port",
            str(port),
            "--tables",
            str(args.tables),
            "--seconds",
            str(args.seconds),
            "--warmup",
            str(args.warmup),
            "--stall-sync",
            str(args.stall_sync),
            "--rate",
            str(args.rate),
            "--target",
            name,
            *(["--whole"] if args.whole else []),
        ]
        swarm, lines = spawn_lines(swarm_cmd)
        budget = args.tables / 5 + 60 + args.warmup + args.seconds + 90
        deadline = time.monotonic() + budget
        result: dict[str, Any] | None = None
        window: dict[str, float] = {}
        per_second: list[tuple[float, float, float]] = []  # (at, on cpu, waiting for a cpu)
        for event in swarm_events(lines, deadline):
            if "at" in window and "server_cpu_s" not in samples:
                now = time.monotonic()
                if not per_second or now - per_second[-1][0] >= 1.0:
                    per_second.append((now, *schedstat(server.pid)))
            if event is None:
                continue
            kind = event.get("event")
            if kind == "window-start":  # sample first: the window has begun
                window["server_cpu"] = cpu_seconds(server.pid)
                window["swarm_cpu"] = cpu_seconds(swarm.pid)
                window["at"] = time.monotonic()
                window["epoch"] = time.time()
                samples["server_sched_start"] = schedstat(server.pid)
                per_second.append((window["at"], *samples["server_sched_start"]))
                samples["loadavg_window_start"] = os.getloadavg()[0]
            elif kind == "window-end":
                samples["server_cpu_s"] = cpu_seconds(server.pid) - window["server_cpu"]
                samples["swarm_cpu_s"] = cpu_seconds(swarm.pid) - window["swarm_cpu"]
                samples["sampled_window_s"] = time.monotonic() - window["at"]
                per_second.append((time.monotonic(), *schedstat(server.pid)))
                samples["server_wait_s"] = per_second[-1][2] - samples["server_sched_start"][1]
                samples["by_second"] = [
                    {
                        "cpu": round((b[1] - a[1]) / (b[0] - a[0]), 2),
                        "wait": round((b[2] - a[2]) / (b[0] - a[0]), 2),
                    }
                    for a, b in itertools.pairwise(per_second)
                ]
                window["epoch_end"] = time.time()
                samples["rss_end_kib"] = rss_kib(server.pid)
                samples["server_fds"] = len(os.listdir(f"/proc/{server.pid}/fd"))
                samples["loadavg_window_end"] = os.getloadavg()[0]
            elif kind == "baseline":
                samples["rss_baseline_kib"] = rss_kib(server.pid)
            elif kind == "setup-done":
                samples["rss_setup_kib"] = rss_kib(server.pid)
                log(f"{name}: {event['tables']} tables, {event['sockets']} sockets live")
            elif kind == "result":
                result = event
        reap(swarm)
        if result is None or "server_cpu_s" not in samples:
            raise RuntimeError(
                f"{name}: the swarm ended without a result (exit {swarm.returncode})"
            )
        samples["gc_pauses"] = gc_pauses(server_log, window["epoch"], window["epoch_end"])
        return figures(name, result, samples)
    except BaseException:
        tail = server_log.read_text(errors="replace")[-3000:]
        log(f"{name}: failed; the server's log ends with:\n{tail}")
        raise
    finally:
        if swarm is not None and swarm.poll() is None:
            swarm.kill()
            swarm.wait(5)
        stop(server)


def figures(name: str, result: dict[str, Any], samples: dict[str, Any]) -> dict[str, Any]:
    """One server's figures from the swarm's result and the samples of its process."""
    tables = int(result["tables"])
    actions = int(result["actions"]) + int(result["slow_table"]["actions"])
    window = float(result["window_s"])
    grown = samples["rss_setup_kib"] - samples["rss_baseline_kib"]
    return {
        "server": name,
        "tables": tables + 1,
        "sockets": result["sockets"],
        "actions_in_window": actions,
        "actions_per_s": round(actions / window, 1),
        "latency_ms": result["latency_ms"],
        "lost": result["lost"],
        "errors": result["errors"],
        "server_cpu_s": round(samples["server_cpu_s"], 2),
        "server_cpu_share": round(samples["server_cpu_s"] / window, 3),
        "server_cpu_ms_per_action": round(samples["server_cpu_s"] / actions * 1000, 4)
        if actions
        else None,
        "server_waited_for_cpu_share": round(samples["server_wait_s"] / window, 3),
        "swarm_cpu_share": round(samples["swarm_cpu_s"] / window, 3),
        "client_loop_lag_ms": result["client_loop_lag_ms"],
        "client_rss_mib": round(result.get("client_rss_kib", 0) / 1024, 1),
        "client_fds": result.get("client_fds"),
        "rss_idle_mib": round(samples["rss_idle_kib"] / 1024, 1),
        "rss_baseline_mib": round(samples["rss_baseline_kib"] / 1024, 1),
        "rss_setup_mib": round(samples["rss_setup_kib"] / 1024, 1),
        "rss_end_mib": round(samples["rss_end_kib"] / 1024, 1),
        "server_fds": samples.get("server_fds"),
        "memory_per_table_kib": round(grown / tables, 1),
        "memory_per_connection_kib": round(grown / (tables * 6), 1),
        "memory_per_table_end_kib": round(
            (samples["rss_end_kib"] - samples["rss_baseline_kib"]) / tables, 1
        ),
        "state_bytes_mean": result["state_bytes_mean"],
        "setup_s": result["setup_s"],
        "window_s": window,
        "loadavg_window": [samples["loadavg_window_start"], samples["loadavg_window_end"]],
        "slow_table": result["slow_table"],
        "gc_pauses": samples["gc_pauses"],
        "worst_ms_by_second": result["worst_ms_by_second"],
        "server_by_second": samples["by_second"],
        "swarm_result": result,
    }


def row(label: str, values: list[Any]) -> str:
    """One line of the printed table."""
    return f"{label:<34}" + "".join(f"{'-' if v is None else v!s:>16}" for v in values)


def report(runs: dict[str, dict[str, Any]], ratio: float | None) -> str:
    """The figures side by side, as text."""
    names = list(runs)
    cols = [runs[n] for n in names]

    def lat(run: dict[str, Any], key: str) -> Any:
        return run["latency_ms"].get(key)

    def slow(run: dict[str, Any], key: str) -> Any:
        return run["slow_table"]["latency_ms"].get(key)

    def stalled(run: dict[str, Any]) -> str:
        s = run["slow_table"]["stalled_client"]
        outcome = str(s.get("outcome", "?"))
        how = s.get("close_code") or (
            "reset" if "Reset" in outcome else "open" if outcome == "still open" else "ended"
        )
        return f"{how}/{s.get('states_buffered')}/{s.get('server_ended_it_after_s')}"

    def gc_summary(run: dict[str, Any]) -> str:
        pauses = run["gc_pauses"]
        gen2 = sum(1 for p in pauses if p["gen"] == 2)
        wall = max((p["ms"] for p in pauses), default=0)
        cpu = max((p["cpu_ms"] for p in pauses), default=0)
        return f"{len(pauses)}/{gen2}/{wall:.0f}/{cpu:.0f}"

    lines = [
        row("", names),
        row("live tables (incl. the slow one)", [c["tables"] for c in cols]),
        row("sockets", [c["sockets"] for c in cols]),
        row("actions/s achieved", [c["actions_per_s"] for c in cols]),
        row("latency p50 ms", [lat(c, "p50") for c in cols]),
        row("latency p99 ms", [lat(c, "p99") for c in cols]),
        row("latency max ms", [lat(c, "max") for c in cols]),
        row("lost actions / errors", [f"{c['lost']}/{sum(c['errors'].values())}" for c in cols]),
        row("server CPU per action ms", [c["server_cpu_ms_per_action"] for c in cols]),
        row("server CPU (share of a core)", [c["server_cpu_share"] for c in cols]),
        row("server waiting for a CPU (share)", [c["server_waited_for_cpu_share"] for c in cols]),
        row("swarm CPU (share of a core)", [c["swarm_cpu_share"] for c in cols]),
        row("swarm loop lag p99 ms", [c["client_loop_lag_ms"].get("p99") for c in cols]),
        row("swarm RSS MiB", [c["client_rss_mib"] for c in cols]),
        row("swarm descriptors", [c["client_fds"] for c in cols]),
        row("server descriptors", [c.get("server_fds") for c in cols]),
        row("RSS after setup MiB", [c["rss_setup_mib"] for c in cols]),
        row("memory per table KiB", [c["memory_per_table_kib"] for c in cols]),
        row("memory per connection KiB", [c["memory_per_connection_kib"] for c in cols]),
        row("memory per table at end KiB", [c["memory_per_table_end_kib"] for c in cols]),
        row("state message bytes (mean)", [c["state_bytes_mean"] for c in cols]),
        row("slow table p50/p99 ms", [f"{slow(c, 'p50')}/{slow(c, 'p99')}" for c in cols]),
        row("slow table max ms", [slow(c, "max") for c in cols]),
        row("stalled: how/buffered/after s", [stalled(c) for c in cols]),
        row("GC >=5ms: n/gen2/max wall/cpu ms", [gc_summary(c) for c in cols]),
        row("load average in window", [f"{c['loadavg_window'][1]:.2f}" for c in cols]),
    ]
    if ratio is not None:
        lines.append(
            f"CPU per action, teenpatti / bare: {ratio:.2f} (goal: at most {GOAL_CPU_RATIO})"
        )
    return "\n".join(lines)


def parse() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--rate", type=float, default=1.0, help="moves a second per table (0.1: a person's pace)"
    )
    parser.add_argument("--stall-sync", type=float, default=0.0)
    parser.add_argument(
        "--whole",
        action="store_true",
        help="the swarm asks for whole states, not patches (the bare app ignores it)",
    )
    parser.add_argument("--only", choices=("both", "teenpatti", "bare"), default="both")
    parser.add_argument(
        "--message-bytes", type=int, default=None, help="the bare app's message size"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the figures here (JSON)")
    parser.add_argument(
        "--profile", type=Path, default=None, help="run teenpatti under cProfile (slower!)"
    )
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        parser.error("--host must be a loopback address")
    return args


def main() -> None:
    """Run both, print, write."""
    args = parse()
    limit = raise_open_files((args.tables + 1) * 6 + 1024)
    log(f"open-files limit {limit}; {os.cpu_count()} CPUs; {uptime()}")
    started = time.time()
    before = uptime()
    runs: dict[str, dict[str, Any]] = {}
    logs = Path(tempfile.mkdtemp(prefix="teenpatti-load-"))
    try:
        if args.only in ("both", "teenpatti"):
            port = free_port(args.host)
            serve = [
                "serve",
                "--host",
                args.host,
                "--port",
                str(port),
                "--data",
                str(logs / "data"),
                "--lobby-rate",
                "100000,100000",
                "--result-pause",
                "1",
                "--bot-delay",
                "1",
                *EDGE_OPTIONS,
            ]
            profile = "-" if args.profile is None else str(args.profile.resolve())
            cmd = [sys.executable, "-c", SERVE, str(HERE), profile, *serve]
            runs["teenpatti"] = measure("teenpatti", cmd, port, args, logs)
        if args.only in ("both", "bare"):
            size = args.message_bytes or (
                runs["teenpatti"]["state_bytes_mean"] if "teenpatti" in runs else 2300
            )
            port = free_port(args.host)
            cmd = [
                sys.executable,
                str(HERE / "bare_app.py"),
                "--host",
                args.host,
                "--port",
                str(port),
                "--message-bytes",
                str(size),
                "--gc-log",
            ]
            runs["bare"] = measure("bare", cmd, port, args, logs)
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    ratio = None
    if "teenpatti" in runs and "bare" in runs:
        ours = runs["teenpatti"]["server_cpu_ms_per_action"]
        bare = runs["bare"]["server_cpu_ms_per_action"]
        ratio = round(ours / bare, 2) if ours and bare else None
    after = uptime()
    print(report(runs, ratio))
    print(f"machine before: {before}\nmachine after:  {after}")
    goals: dict[str, Any] = {}
    if "teenpatti" in runs:
        p99 = runs["teenpatti"]["latency_ms"]["p99"]
        goals["p99_under_50ms"] = p99 is not None and p99 < GOAL_P99_MS
        goals[f"tables_{GOAL_TABLES}"] = runs["teenpatti"]["tables"] > GOAL_TABLES
    if ratio is not None:
        goals[f"cpu_ratio_at_most_{GOAL_CPU_RATIO}"] = ratio <= GOAL_CPU_RATIO
    print("goals: " + ", ".join(f"{k}={'yes' if v else 'NO'}" for k, v in goals.items()))
    if args.out is not None:
        document = {
            "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
            "cpus": os.cpu_count(),
            "uptime_before": before,
            "uptime_after": after,
            "profiled": args.profile is not None,
            "cpu_ratio_teenpatti_to_bare": ratio,
            "goals": goals,
            "runs": runs,
        }
        args.out.write_text(json.dumps(document, indent=2) + "\n")
        log(f"figures written to {args.out}")


if __name__ == "__main__":
    main()
