"""Scale-out load test: one ``teenpatti serve`` on SQLite against two on PostgreSQL and Redis,
the same swarm against each, side by side on this machine.

    .venv/bin/python bench/load/scale.py --tables 300 --seconds 30 --out scale.json

One after the other (never at once: they would share the CPUs):

1. **sqlite-1**: one ``teenpatti serve`` on a temporary data folder (SQLite, the in-process bus);
2. **postgres-redis-N** (``--processes``, 2 by default): a private PostgreSQL cluster and a private
   Redis, started here from the Debian packages' binaries (``tests/support/services.py``:
   ``initdb`` in a temporary folder, ``fsync=off`` unless ``--pg-fsync``), and N ``teenpatti serve
   --database postgresql://... --bus redis://...`` processes on them.

Both with the options of ``run.py`` (``--lobby-rate 100000,100000 --result-pause 1 --bot-delay
1``). The swarm is ``swarm.py``'s, unchanged, run in a process of its own (``scale.py swarm``):
only where it connects is changed, so that it spreads over the servers' ports as a round-robin
balancer with no sticky sessions would: every lobby request and every socket goes to the next
port in turn, so a table is opened on one process, its people join through the others and their
six sockets are spread over all of them (with one server, everything goes to its one port).

While each swarm runs, the CPU time of every process involved is sampled when the swarm's window
starts and ends (``/proc``): the servers, and for the second setup PostgreSQL (the postmaster and
its backends) and Redis. Printed side by side, and written as JSON to ``--out`` with the machine's
load (``uptime``) before and after. Everything stays on 127.0.0.1; every wait is bounded; the
servers, PostgreSQL and Redis are stopped at the end.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, cast

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(ROOT / "tests"))

import run as load_run  # noqa: E402  (bench/load/run.py: its process helpers)
from support.services import PgCluster, RedisServer, missing_services  # noqa: E402

SERVE_OPTIONS = [
    "--lobby-rate",
    "100000,100000",
    "--result-pause",
    "1",
    "--bot-delay",
    "1",
    *load_run.EDGE_OPTIONS,
]
"""As in ``run.py``: no lobby limit for the swarm's setup; no computer players are seated."""


def log(text: str) -> None:
    print(f"[scale {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------- the swarm, spread out
def swarm_main(argv: list[str]) -> None:
    """``scale.py swarm --ports P1,P2 [swarm.py options]``: ``swarm.py`` with every lobby request
    and every socket sent to the next of ``--ports`` in turn (a round-robin balancer)."""
    import swarm

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--ports", required=True)
    known, rest = parser.parse_known_args(argv)
    ports = [int(p) for p in known.ports.split(",")]
    sockets = itertools.cycle(ports)
    requests = itertools.cycle(ports)
    opened: Counter[int] = Counter()
    asked: Counter[int] = Counter()
    open_client = swarm.open_client
    post = swarm.post
    server_side_state = swarm.server_side_state

    async def open_client_spread(
        crowd: Any, code: str, seat: int, token: str, table: Any, rcvbuf: int | None = None
    ) -> Any:
        # ``open_client`` reads only ``crowd.args``: give it a copy with the next port.
        port = next(sockets)
        opened[port] += 1
        there = argparse.Namespace(**{**vars(crowd.args), "port": port})
        crowd_there = cast(Any, argparse.Namespace(args=there))
        return await open_client(crowd_there, code, seat, token, table, rcvbuf)

    async def post_spread(http: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
        port = next(requests)
        asked[port] += 1
        return await post(http, f"http://{http.base_url.host}:{port}{path}", body)

    def state_on_any(server_port: int, client_port: int) -> str | None:
        for port in ports:  # the stalled socket may be on any of the servers
            found = server_side_state(port, client_port)
            if found is not None:
                return found
        return None

    swarm.open_client = open_client_spread  # type: ignore[assignment]
    swarm.post = post_spread
    swarm.server_side_state = state_on_any
    swarm.main(["--port", str(ports[0]), *rest])
    swarm.log(f"spread over ports {ports}: sockets {dict(opened)}, lobby requests {dict(asked)}")


# ---------------------------------------------------------------------- sampling processes
def children(pid: int) -> list[int]:
    """The direct children of a process (PostgreSQL's backends are the postmaster's)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) of each process that is still there."""
    out = {}
    for pid in pids:
        try:
            out[pid] = load_run.cpu_seconds(pid)
        except (OSError, ValueError, IndexError):
            continue
    return out


class Sampled:
    """A group of processes whose CPU is counted over the window (``tree``: with children)."""

    def __init__(self, name: str, pid: int, tree: bool = False) -> None:
        self.name = name
        self.pid = pid
        self.tree = tree
        self.start: dict[int, float] = {}
        self.end: dict[int, float] = {}

    def pids(self) -> list[int]:
        return [self.pid, *children(self.pid)] if self.tree else [self.pid]

    def sample_start(self) -> None:
        self.start = cpu_of(self.pids())

    def sample_end(self) -> None:
        self.end = cpu_of(self.pids())

    def seconds(self) -> float:
        """CPU used in the window (a process started meanwhile counts from zero)."""
        return sum(cpu - self.start.get(pid, 0.0) for pid, cpu in self.end.items())


# ---------------------------------------------------------------------- one setup
def measure(
    name: str,
    extra_options: list[str],
    processes: int,
    services: list[Sampled],
    args: argparse.Namespace,
    folder: Path,
) -> dict[str, Any]:
    """Start ``processes`` servers with ``extra_options``, run the spread swarm against them,
    sample every process; return the figures."""
    servers: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    swarm: subprocess.Popen[str] | None = None
    logs = [folder / f"{name}-{i}.log" for i in range(processes)]
    try:
        for i in range(processes):
            port = load_run.free_port(args.host)
            serve = [
                "serve",
                "--host",
                args.host,
                "--port",
                str(port),
                "--data",
                str(folder / f"{name}-data"),
                *SERVE_OPTIONS,
                *extra_options,
            ]
            profile = "-"
            if args.profile is not None:  # cProfile: its figures are then not comparable
                args.profile.mkdir(parents=True, exist_ok=True)
                profile = str((args.profile / f"{name}-{i}.prof").resolve())
            command = [sys.executable, "-c", load_run.SERVE, str(HERE), profile, *serve]
            with logs[i].open("wb") as out:
                servers.append(
                    subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
                )
            ports.append(port)
        for port, server in zip(ports, servers, strict=True):
            load_run.wait_listening(args.host, port, server, timeout=60)
        log(f"{name}: {processes} server(s) on {ports}")
        sampled = [Sampled(f"server {i}", s.pid) for i, s in enumerate(servers)] + services
        swarm_cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "swarm",
            "--ports",
            ",".join(map(str, ports)),
            "--host",
            args.host,
            "--tables",
            str(args.tables),
            "--seconds",
            str(args.seconds),
            "--warmup",
            str(args.warmup),
            "--rate",
            str(args.rate),
            "--target",
            name,
        ]
        swarm, lines = load_run.spawn_lines(swarm_cmd)
        budget = args.tables / 5 + 120 + args.warmup + args.seconds + 90
        deadline = time.monotonic() + budget
        result: dict[str, Any] | None = None
        samples: dict[str, Any] = {}
        for event in load_run.swarm_events(lines, deadline):
            if event is None:
                continue
            kind = event.get("event")
            if kind == "window-start":
                for group in sampled:
                    group.sample_start()
                samples["swarm_cpu"] = load_run.cpu_seconds(swarm.pid)
                samples["at"] = time.monotonic()
                samples["load_start"] = os.getloadavg()[0]
            elif kind == "window-end":
                for group in sampled:
                    group.sample_end()
                samples["swarm_cpu"] = load_run.cpu_seconds(swarm.pid) - samples["swarm_cpu"]
                samples["sampled_s"] = time.monotonic() - samples["at"]
                samples["load_end"] = os.getloadavg()[0]
                samples["rss_mib"] = [
                    round(load_run.rss_kib(s.pid) / 1024, 1) for s in servers if s.poll() is None
                ]
            elif kind == "setup-done":
                log(f"{name}: {event['tables']} tables, {event['sockets']} sockets live")
            elif kind == "result":
                result = event
        load_run.reap(swarm)
        if result is None or "sampled_s" not in samples:
            raise RuntimeError(f"{name}: the swarm ended without a result ({swarm.returncode})")
        dead = [i for i, s in enumerate(servers) if s.poll() is not None]
        if dead:
            raise RuntimeError(f"{name}: server(s) {dead} died during the run")
        return figures(name, processes, result, samples, sampled)
    except BaseException:
        for path in logs:
            if path.exists():
                log(f"{name}: {path.name} ends with:\n{path.read_text(errors='replace')[-3000:]}")
        raise
    finally:
        if swarm is not None and swarm.poll() is None:
            swarm.kill()
            swarm.wait(5)
        for server in servers:
            load_run.stop(server)
        for path in logs:
            text = path.read_text(errors="replace") if path.exists() else ""
            if "Traceback" in text:
                log(f"{name}: {path.name} logged an exception:\n{text[-3000:]}")


def figures(
    name: str,
    processes: int,
    result: dict[str, Any],
    samples: dict[str, Any],
    sampled: list[Sampled],
) -> dict[str, Any]:
    """One setup's figures, from the swarm's result and the processes' CPU."""
    window = float(result["window_s"])
    actions = int(result["actions"]) + int(result["slow_table"]["actions"])
    cpu = {group.name: round(group.seconds(), 2) for group in sampled}
    servers = sum(v for k, v in cpu.items() if k.startswith("server"))
    everything = sum(cpu.values())
    return {
        "setup": name,
        "server_processes": processes,
        "tables": int(result["tables"]) + 1,
        "sockets": result["sockets"],
        "actions_in_window": actions,
        "actions_per_s": round(actions / window, 1),
        "latency_ms": result["latency_ms"],
        "lost": result["lost"],
        "errors": result["errors"],
        "sockets_closed_by_server": result.get("sockets_closed_by_server"),
        "ticks_busy": result.get("ticks_busy"),
        "cpu_s": cpu,
        "servers_cpu_share": round(servers / window, 3),
        "servers_cpu_ms_per_action": round(servers / actions * 1000, 3) if actions else None,
        "all_cpu_share": round(everything / window, 3),
        "all_cpu_ms_per_action": round(everything / actions * 1000, 3) if actions else None,
        "swarm_cpu_share": round(samples["swarm_cpu"] / window, 3),
        "client_loop_lag_ms": result["client_loop_lag_ms"],
        "servers_rss_mib": samples["rss_mib"],
        "setup_s": result["setup_s"],
        "window_s": window,
        "loadavg_window": [samples["load_start"], samples["load_end"]],
        "worst_ms_by_second": result["worst_ms_by_second"],
        "swarm_result": result,
    }


def report(runs: list[dict[str, Any]]) -> str:
    """The figures side by side, as text."""

    def row(label: str, values: list[Any]) -> str:
        return f"{label:<34}" + "".join(f"{'-' if v is None else v!s:>22}" for v in values)

    def lat(key: str) -> list[Any]:
        return [r["latency_ms"].get(key) for r in runs]

    def cpu(prefix: str) -> list[Any]:
        return [
            round(sum(v for k, v in r["cpu_s"].items() if k.startswith(prefix)) / r["window_s"], 3)
            if any(k.startswith(prefix) for k in r["cpu_s"])
            else None
            for r in runs
        ]

    return "\n".join(
        [
            row("", [r["setup"] for r in runs]),
            row("server processes", [r["server_processes"] for r in runs]),
            row("live tables (incl. the slow one)", [r["tables"] for r in runs]),
            row("sockets", [r["sockets"] for r in runs]),
            row("actions/s achieved", [r["actions_per_s"] for r in runs]),
            row("latency p50 ms", lat("p50")),
            row("latency p90 ms", lat("p90")),
            row("latency p99 ms", lat("p99")),
            row("latency max ms", lat("max")),
            row(
                "lost actions / errors", [f"{r['lost']}/{sum(r['errors'].values())}" for r in runs]
            ),
            row("servers CPU (cores)", [r["servers_cpu_share"] for r in runs]),
            row("PostgreSQL CPU (cores)", cpu("postgres")),
            row("Redis CPU (cores)", cpu("redis")),
            row("servers CPU per action ms", [r["servers_cpu_ms_per_action"] for r in runs]),
            row("all CPU per action ms", [r["all_cpu_ms_per_action"] for r in runs]),
            row("swarm CPU (cores)", [r["swarm_cpu_share"] for r in runs]),
            row("swarm loop lag p99 ms", [r["client_loop_lag_ms"].get("p99") for r in runs]),
            row("servers RSS MiB", ["/".join(map(str, r["servers_rss_mib"])) for r in runs]),
            row("setup s", [r["setup_s"] for r in runs]),
            row("load average in window", [f"{r['loadavg_window'][1]:.2f}" for r in runs]),
        ]
    )


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second per table")
    parser.add_argument("--processes", type=int, default=2, help="servers on PostgreSQL + Redis")
    parser.add_argument("--only", choices=("both", "sqlite", "cluster"), default="both")
    parser.add_argument("--pg-fsync", action="store_true", help="PostgreSQL with fsync=on")
    parser.add_argument("--out", type=Path, default=None, help="write the figures here (JSON)")
    parser.add_argument(
        "--profile", type=Path, default=None, help="run the servers under cProfile, into DIR"
    )
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    if args.host not in ("127.0.0.1", "::1", "localhost"):
        parser.error("--host must be a loopback address")
    if not 1 <= args.processes <= 8:
        parser.error("--processes 1-8")
    return args


def main(argv: list[str]) -> None:
    args = parse(argv)
    if args.only != "sqlite" and missing_services():
        raise SystemExit("missing: " + ", ".join(missing_services()))
    limit = load_run.raise_open_files()
    before = load_run.uptime()
    log(f"open-files limit {limit}; {os.cpu_count()} CPUs; {before}")
    started = time.time()
    runs: list[dict[str, Any]] = []
    folder = Path(tempfile.mkdtemp(prefix="teenpatti-scale-"))
    try:
        if args.only in ("both", "sqlite"):
            runs.append(measure("sqlite-1", [], 1, [], args, folder))
        if args.only in ("both", "cluster"):
            pg, redis = PgCluster(fsync=args.pg_fsync), RedisServer()
            try:
                pg.start()
                redis.start()
                url = pg.create_database("teenpatti")
                pid = pg.postmaster_pid()
                assert pid is not None and redis.proc is not None
                services = [Sampled("postgres", pid, tree=True), Sampled("redis", redis.proc.pid)]
                options = ["--database", url, "--bus", redis.url(0)]
                name = f"postgres-redis-{args.processes}"
                runs.append(measure(name, options, args.processes, services, args, folder))
            finally:
                pg.stop()
                redis.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    after = load_run.uptime()
    print(report(runs))
    print(f"machine before: {before}\nmachine after:  {after}")
    if args.out is not None:
        document = {
            "command": " ".join(["bench/load/scale.py", *argv]),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
            "cpus": os.cpu_count(),
            "uptime_before": before,
            "uptime_after": after,
            "postgres_fsync": args.pg_fsync,
            "runs": runs,
        }
        args.out.write_text(json.dumps(document, indent=2) + "\n")
        log(f"figures written to {args.out}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["swarm"]:
        swarm_main(sys.argv[2:])
    else:
        main(sys.argv[1:])
