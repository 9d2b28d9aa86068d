"""The table server the tests talk to: a real ``teenpatti serve`` process on loopback (on a
listening socket the test binds to port 0 and hands to it, so no port is ever guessed), an HTTP
lobby helper and WebSocket clients that keep (and check) every message they receive. The
fixtures over them are in ``tests/server/conftest.py`` and ``tests/scale/conftest.py``.

Every client checks each ``state`` it gets against the rules of what a seat may see (see
:func:`card_problems`), that it is the view of its own seat, and that no message holds any seat
token the lobby gave out (or its SHA-256). The ``ws`` fixture fails the test if any client saw a
problem, so every test that plays through the server checks the card gate for free.

Every wait is bounded (a hang fails fast), and a server that does not start says why (its log).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import msgspec
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from teenpatti.engine.cards import JOKERS, is_joker, parse_card
from teenpatti.engine.deck import check_card
from teenpatti.engine.history import verify_deal
from teenpatti.store.base import StoredEvent
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.wire import messages
from teenpatti.tables.wire.patch import PatchError, apply
from teenpatti.web import bodies

FAST_WITH_MESSAGE_LIMIT = (
    "--bot-delay",
    "0",
    "--result-pause",
    "0",
    "--lobby-rate",
    "1000,1000",
    "--lookup-misses",
    "1000,1000",
)
"""Computer players and deals without delay, no lobby limit, the default message limit."""
NO_MESSAGE_LIMIT = ("--message-rate", "1000,1000")
"""A socket may send as fast as it likes: no test client paces itself by the clock, so every
server a test starts sets this but the ones that test the limit."""
FAST = (*FAST_WITH_MESSAGE_LIMIT, *NO_MESSAGE_LIMIT)
"""The server options of these tests: computer players and deals without delay, no lobby or
message limit (the tests of the limits start servers of their own), so that no client needs to
pace itself by the clock."""
SHOWDOWN = frozenset({"show", "pot_limit", "all_in"})
"""How a hand ends with the hands still in turned over for everyone."""

ISSUED_TOKENS: set[str] = set()
"""Every seat token any lobby reply gave out in this test run: no message may ever hold one."""
TABLE_TOKENS: dict[str, str] = {}
"""A seat token of each table the lobby opened in this test run (for its hand histories)."""


def listening_socket(host: str = "127.0.0.1") -> socket.socket:
    """A TCP socket listening on a port of ``host`` the kernel chose (port 0): a server is handed
    it, so no other process can take its port between a test's choice and the server's start."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(1024)
    return sock


def serve_command() -> list[str]:
    """How to run ``teenpatti``: the virtualenv's console script, else the module."""
    script = Path(sys.executable).parent / "teenpatti"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from teenpatti.cli import main; main()"]


def refusing_socket(host: str = "127.0.0.1") -> socket.socket:
    """A TCP socket bound to a port of ``host`` the kernel chose, and not listening: while it is
    open, a connection to that port is refused (a service that is down), and no other process
    can take the port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((host, 0))
    return sock


# ---------------------------------------------------------------------- the server process
class Server:
    """One ``teenpatti serve`` subprocess on ``127.0.0.1:port`` over the data folder ``data``
    (``port`` ``None``: a port the kernel chose, on a socket bound here and handed down).

    :meth:`start` waits until the server answers; :meth:`kill` is SIGKILL (nothing flushed,
    nothing closed); :meth:`restart` starts it again on the same port and data folder.
    """

    def __init__(
        self,
        data: Path,
        port: int | None = None,
        args: Sequence[str] = FAST,
        prefix: Sequence[str] = (),
    ) -> None:
        self.data = data
        self.listener = listening_socket() if port is None else None
        """The socket the server serves on, bound here and handed to every start of the process
        (``--fd``): a restart serves on the same port, and while the process is down its port
        stays this test's (connections wait for the next start)."""
        self.port = port if self.listener is None else int(self.listener.getsockname()[1])
        self.args = list(args)
        self.prefix = list(prefix)
        """A command the server runs under (``prlimit --nofile=1024``)."""
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data.parent / f"{data.name}-server.log"
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def db(self) -> Path:
        """The SQLite event store the server writes."""
        return self.data / "teenpatti.sqlite3"

    def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until it answers HTTP."""
        assert self.proc is None or self.proc.poll() is not None, "the server is running"
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"\n---- start {self.starts}\n".encode())
        log.flush()
        if self.listener is not None:
            where = ["--fd", str(self.listener.fileno())]
            fds: tuple[int, ...] = (self.listener.fileno(),)
        else:
            where, fds = ["--host", "127.0.0.1", "--port", str(self.port)], ()
        command = [
            *self.prefix,
            *serve_command(),
            "serve",
            *where,
            "--data",
            str(self.data),
            *self.args,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=env, pass_fds=fds
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited ({self.proc.returncode}):\n{self.log()}")
            try:
                # On the socket handed down, the request waits in its backlog for the server.
                if httpx.get(self.http + "/", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                if self.listener is None:
                    time.sleep(0.05)  # refused: nothing listens on the port yet; ask again
        self.kill()
        raise AssertionError(f"the server did not answer in {timeout} s:\n{self.log()}")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it does not exit in time."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def close(self) -> None:
        """Stop the process and give its port back."""
        self.stop()
        if self.listener is not None:
            self.listener.close()

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.kill()
        self.proc.wait(10)

    def restart(self) -> None:
        """Start again on the same port and data folder."""
        self.stop()
        self.start()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def api(self) -> Api:
        """This server's lobby."""
        return Api(self.http)

    def rss(self) -> int:
        """The process's resident memory, in bytes."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS")

    def descriptors(self) -> int:
        """How many descriptors the process has open."""
        assert self.proc is not None
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def table_count(self) -> int:
        """How many tables the store holds (read through the store's own API, read-only)."""
        return len(stored(self.db, lambda store: store.tables()))

    def events(self, code: str) -> list[dict[str, Any]]:
        """A table's event log as the store holds it."""
        return [event.data for event in stored_log(self.db, code)]

    def log(self) -> str:
        """What the server printed (uvicorn logs warnings and unhandled exceptions)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    async def wait_log(self, text: str, timeout: float = 10.0) -> str:
        """Wait until the server logs a line holding ``text`` (read as it is written); that
        line. Fails after ``timeout`` seconds (a bound against a hang, not a wait)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for line in self.log().splitlines():
                if text in line:
                    return line
            if loop.time() > deadline:
                raise AssertionError(f"the server never logged {text!r}:\n{self.log()[-4000:]}")
            await asyncio.sleep(0.05)  # the next look at the log file

    def assert_healthy(self) -> None:
        """The process runs and never logged an unhandled exception."""
        assert self.alive, f"the server died:\n{self.log()}"
        assert "Traceback" not in self.log(), f"the server logged an exception:\n{self.log()}"


# ---------------------------------------------------------------------- the lobby (HTTP)
_TLS = ssl.create_default_context()  # made once: building one per client costs 20 ms


class Api:
    """The lobby over HTTP. Each call opens its own connection (a refused request cannot spoil
    the next). Tokens the lobby hands out are remembered in :data:`ISSUED_TOKENS`."""

    def __init__(self, base: str, source: str | None = None) -> None:
        self.base = base
        self.source = source
        """The loopback address requests come from (``127.0.0.2``: another client address)."""

    def client(self) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=self.source, verify=_TLS)
        return httpx.AsyncClient(base_url=self.base, timeout=10.0, transport=transport)

    async def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        content: bytes | str | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        async with self.client() as client:
            if content is not None:
                response = await client.request(
                    method,
                    path,
                    content=content,
                    headers={"content-type": "application/json", **(headers or {})},
                )
            elif json_body is not None:
                response = await client.request(method, path, json=json_body, headers=headers)
            else:
                response = await client.request(method, path, headers=headers)
        with contextlib.suppress(ValueError):
            _remember_tokens(response.json(), path)
        if response.status_code >= 400 and response.headers.get("content-type") == JSON:
            strictly(bodies.ErrorBody, response)  # every refusal, whatever the route
        return response

    async def create(self, **body: Any) -> dict[str, Any]:
        """Open a table; returns ``{"code", "token", "seat", "link"}``."""
        response = await self.request("POST", "/api/tables", json_body=body)
        assert response.status_code == 201, response.text
        opened: dict[str, Any] = strictly(bodies.Opened, response)
        return opened

    async def join(self, code: str, name: str) -> dict[str, Any]:
        """Take a seat; returns ``{"token", "seat"}``."""
        response = await self.request("POST", f"/api/tables/{code}/join", json_body={"name": name})
        assert response.status_code == 200, response.text
        joined: dict[str, Any] = strictly(bodies.Joined, response)
        return joined

    async def info(self, code: str) -> dict[str, Any]:
        response = await self.request("GET", f"/api/tables/{code}")
        assert response.status_code == 200, response.text
        info: dict[str, Any] = strictly(bodies.TableInfo, response)
        return info

    async def hands(self, code: str, token: str | None = "seated") -> list[dict[str, Any]]:
        """The table's hand histories, asked with a seat token of the table (by default one the
        lobby gave out in this run; ``None``: as someone not seated)."""
        if token == "seated":
            token = TABLE_TOKENS.get(code)
        async with self.client() as client:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            response = await client.get(f"/api/tables/{code}/hands", headers=headers)
        assert response.status_code == 200, response.text
        hands: list[dict[str, Any]] = strictly(list[bodies.HandHistory], response)
        # the bytes the untyped answer had: JSON as Python writes it, compact, in UTF-8
        compact = json.dumps(hands, ensure_ascii=False, separators=(",", ":")).encode()
        assert response.content == compact
        return hands


JSON = "application/json"
T = TypeVar("T")


def stored(db: Path, read: Callable[[SqliteStore], Awaitable[T]]) -> T:
    """What ``read`` gets from the SQLite store in ``db`` (a running server's file, opened
    read-only beside it, through the store's own API), from a sync or async test alike: the read
    runs to its end on an event loop of its own."""

    async def reading() -> T:
        store = SqliteStore(db, read_only=True)
        try:
            return await read(store)
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, reading()).result(timeout=30)


def stored_log(db: Path, code: str) -> list[StoredEvent]:
    """Table ``code``'s log as the store in ``db`` holds it, oldest first (none if no table)."""

    async def log(store: SqliteStore) -> list[StoredEvent]:
        found = await store.find(code)
        return await store.load(found.table_id) if found else []

    return stored(db, log)


def strictly(kind: Any, response: httpx.Response) -> Any:
    """A lobby answer's body, checked against its type (no key the type does not have, each
    value of its type), as JSON values."""
    as_sent = response.json()  # a refusal may quote a lone surrogate
    try:
        typed = msgspec.convert(as_sent, kind)
    except msgspec.ValidationError as error:
        raise AssertionError(f"{kind}: {error}: {response.text[:300]}") from None
    assert json.loads(json.dumps(msgspec.to_builtins(typed))) == as_sent, response.text[:300]
    return as_sent


def _remember_tokens(data: Any, path: str) -> None:
    if isinstance(data, dict) and isinstance(data.get("token"), str):
        ISSUED_TOKENS.add(data["token"])
        parts = path.split("/")
        code = data.get("code") or (parts[3] if len(parts) > 3 else None)
        if isinstance(code, str):
            TABLE_TOKENS.setdefault(code, data["token"])


EDGE_ARGS = ("--bot-delay", "0", "--result-pause", "0", "--client-timeout", "2")
"""The edge tests' server: production limits, a short client timeout."""


# ---------------------------------------------------------------------- what a seat may see
def accepted_side_shows(actions: Sequence[dict[str, Any]]) -> set[frozenset[int]]:
    """The pairs of seats whose side show was accepted, from a hand's public action list."""
    pairs: set[frozenset[int]] = set()
    pending: tuple[int, int] | None = None
    for action in actions:
        if action["do"] == "sideshow":
            pending = (action["seat"], action["with"])
        elif action["do"] == "accept":
            assert pending is not None and pending[1] == action["seat"], actions
            pairs.add(frozenset(pending))
            pending = None
        elif action["do"] == "decline":
            pending = None
    return pairs


def may_see(state: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether the viewer of ``state`` may see the cards of the seat ``row``, by the rules alone
    (from the public action list and the seat flags in the same message)."""
    hand = state["hand"]
    you, seat = state["you"], row["seat"]
    if hand is None or not row["dealt"]:
        return False
    if hand["finished"] and hand["ended_by"] in SHOWDOWN and not row["packed"]:
        return True  # a show or showdown turns over every hand still in, for everyone
    if you is None:
        return False  # a spectator sees shown hands only
    if you == seat:
        return bool(row["seen"] or hand["finished"])  # blind: not even your own
    return frozenset((you, seat)) in accepted_side_shows(hand["actions"])


def card_problems(state: dict[str, Any], you: int | None) -> list[str]:
    """Everything wrong with a ``state`` message sent to seat ``you`` (``None``: a spectator):
    a card it may not see, a card it should see but does not, another seat's view, a deck seed
    revealed before the hand is over, moves offered to someone who cannot move, chips that do
    not add up."""
    out: list[str] = []
    version, hand = state.get("version"), state.get("hand")
    where = f"v{version}"
    if state.get("you") != you:
        out.append(f"{where}: the view of seat {state.get('you')} sent to seat {you}")
    rows = state.get("seats", [])
    if hand is None:
        for row in rows:
            if row.get("cards") is not None:
                out.append(f"{where}: cards of seat {row['seat']} with no hand dealt")
        if state.get("legal"):
            out.append(f"{where}: moves offered with no hand in play")
        return out
    visible: list[str] = []
    for row in rows:
        allowed = may_see(state, row)
        cards = row["cards"]
        if cards is not None and not allowed:
            out.append(f"{where}: seat {you} was shown seat {row['seat']}'s cards {cards}")
        if cards is None and allowed:
            out.append(f"{where}: seat {you} should see seat {row['seat']}'s cards")
        if (row["category"] is None) != (cards is None):
            out.append(f"{where}: seat {row['seat']} category without cards (or the reverse)")
        if cards is not None:
            if len(cards) != 3:
                out.append(f"{where}: seat {row['seat']} holds {cards}")
            visible.extend(cards)
    if len(visible) != len(set(visible)):
        out.append(f"{where}: a card appears twice: {visible}")
    if hand.get("secret") is not None and state.get("status") != "finished":
        out.append(f"{where}: a hand's secret revealed while the game is in play")
    if "seed" in hand:
        out.append(f"{where}: a deck seed sent to a client")
    root = hand.get("cards_root")
    for row in rows:
        if row["cards"] is None or root is None:
            if row.get("proof") is not None and row["cards"] is None:
                out.append(f"{where}: a proof without its cards for seat {row['seat']}")
            continue
        proofs = row.get("proof") or []
        if len(proofs) != 3 or not all(
            any(check_card(root, c, p) for c in _numbers(card))
            for card, p in zip(row["cards"], proofs, strict=False)
        ):
            out.append(f"{where}: seat {row['seat']}'s cards do not prove against cards_root")
    legal = state.get("legal") or []
    if legal and (you is None or hand["finished"]):
        out.append(f"{where}: moves offered to seat {you}: {legal}")
    if legal and hand["actor"] != you and [m["do"] for m in legal] != ["see"]:
        out.append(f"{where}: seat {you} offered {legal} while seat {hand['actor']} acts")
    starting = state["settings"]["rules"].get("starting_chips")
    if isinstance(starting, int):
        total = sum(row["chips"] for row in rows) + hand["pot"]
        # Rebuys add chips: those bought during a hand are on the table from the next one.
        bought = state["settings"]["rules"].get("rebuy_chips") or 0
        rebuys = sum(state.get("rebuys", []))
        if total not in {starting * len(rows) + bought * k for k in range(rebuys + 1)}:
            out.append(f"{where}: chips add up to {total}, not {starting * len(rows)}")
    return out


def _numbers(card: str) -> list[int]:
    number = parse_card(card)
    return list(JOKERS) if is_joker(number) else [number]


def history_problems(histories: list[dict[str, Any]], you: int | None, finished: bool) -> list[str]:
    """Everything wrong with the hand histories a seat (``None``: anyone) was given: during the
    game a card the rules did not show it (a packed hand, an unseen winner's, a side show it was
    not in), a secret or seed, or a shown card without its proof; after the game, a history
    that is not complete."""
    out: list[str] = []
    for k, history in enumerate(histories, 1):
        where = f"history {k} for seat {you}"
        if finished:
            if "secret" not in history or not all(
                r["cards"] for r in history["seats"] if r["chips"]
            ):
                out.append(f"{where}: incomplete after the game")
            continue
        if "secret" in history or "seed" in history:
            out.append(f"{where}: the secret given out during the game")
        ended_by = history["result"]["ended_by"]
        pairs = accepted_side_shows(history["actions"])
        packed = {a["seat"] for a in history["actions"] if a["do"] == "pack"}
        packed |= {a["loser"] for a in history["actions"] if a.get("loser") is not None}
        for seat, row in enumerate(history["seats"]):
            if not row["cards"]:
                continue
            shown = ended_by in SHOWDOWN and seat not in packed
            allowed = shown or you == seat or (you is not None and frozenset((you, seat)) in pairs)
            if not allowed:
                out.append(f"{where}: seat {seat}'s cards {row['cards']} were not shown to it")
        if not verify_deal(history).verified:
            out.append(f"{where}: the cards it shows do not prove against cards_root")
    return out


def leaked_secrets(text: str) -> list[str]:
    """Seat tokens (or their hashes) found in a message: none may ever be sent to a client."""
    out = []
    for token in list(ISSUED_TOKENS):
        if token in text or hashlib.sha256(token.encode()).hexdigest() in text:
            out.append(f"a seat token (or its hash) was sent: {text[:200]}")
    return out


# ---------------------------------------------------------------------- a WebSocket client
CLOSED = "_closed"


class Closed(AssertionError):
    """The server closed the socket while the test waited for a message."""


class Client:
    """One socket to ``/ws/{code}``. A reader task keeps every message it receives, in order
    (``raw`` as text, ``messages`` parsed), queues them for :meth:`next`, and checks each state
    with :func:`card_problems` for seat ``seat`` (what this client's token should hold).

    It applies patches, as the page does (the server's default): a ``patch`` is kept in
    ``messages`` as it came, and the state it leads to is what is queued (a ``state``, as if
    sent whole), checked and listed by :meth:`states`. A patch that does not fit the state held
    is a problem the test fails on. ``hello(token, patches=False)`` asks for whole states.

    It sends as fast as it is asked to: the servers of :data:`FAST` set no message limit, and a
    test of the limit floods on purpose."""

    def __init__(self, base: str, code: str, seat: int | None, label: str = "") -> None:
        self.url = f"{base}/ws/{code}"
        self.seat = seat
        self.label = label or f"seat {seat}"
        self.conn: ClientConnection | None = None
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.close_code: int | None = None
        self.reader: asyncio.Task[None] | None = None
        self.acted: set[int] = set()
        self.parts: dict[str, str] = {}
        """The parts this client sent, by the commitment each answered."""
        self.held: list[dict[str, Any]] = []
        """Every state this client held, in order: those sent whole and those patches led to."""

    async def open(self) -> None:
        """Open the socket (without saying hello)."""
        self.conn = await websockets.connect(
            self.url, open_timeout=5, close_timeout=2, max_size=None, compression=None
        )
        self.reader = asyncio.create_task(self._read())

    async def hello(
        self, token: Any, *, patches: bool = True, timeout: float = 5.0
    ) -> dict[str, Any]:
        """Open the socket, say hello with ``token`` and return the first reply. With
        ``patches`` (the default, left unsaid as the server's default) the client is sent
        patches after its first state; without, it says ``"patches": false``."""
        await self.open()
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if not patches:
            hello["patches"] = False
        with contextlib.suppress(websockets.ConnectionClosed):  # refused before the hello
            await self.send(hello)
        return await self.next(timeout=timeout)

    async def _read(self) -> None:
        assert self.conn is not None
        try:
            async for raw in self.conn:
                text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                self.raw.append(text)
                self.problems.extend(leaked_secrets(text))
                try:
                    messages.decode(text)  # one of the wire's types, strictly
                except msgspec.DecodeError as error:  # (a ValidationError too)
                    self.problems.append(f"{self.label}: not a message ({error}): {text[:200]}")
                    continue
                message = json.loads(text)  # as data, which the tests read key by key
                self.messages.append(message)
                if message["type"] == "patch":
                    message = self._patched(message)
                    if message is None:
                        continue
                if message["type"] == "state":
                    self.held.append(message)
                    self.problems.extend(
                        f"{self.label}: {p}" for p in card_problems(message, self.seat)
                    )
                self.inbox.put_nowait(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.conn.close_code
            self.inbox.put_nowait({"type": CLOSED, "code": self.close_code})

    def _patched(self, patch: dict[str, Any]) -> dict[str, Any] | None:
        """The state ``patch`` leads to from the state held; ``None`` (and a problem) when it
        does not fit."""
        held = self.held[-1] if self.held else None
        if held is None or patch.get("from") != held["version"]:
            where = None if held is None else held["version"]
            self.problems.append(f"{self.label}: a patch from {patch.get('from')} on {where}")
            return None
        try:
            state: dict[str, Any] = apply(held, patch["ops"])
        except PatchError as error:
            self.problems.append(f"{self.label}: a patch that does not fit: {error}")
            return None
        if state.get("version") != patch["version"]:
            self.problems.append(f"{self.label}: a patch to {patch['version']} leads elsewhere")
            return None
        try:
            msgspec.convert(state, messages.State)  # what it leads to is a state, strictly
        except msgspec.ValidationError as error:
            self.problems.append(f"{self.label}: a patch that leads to no state: {error}")
            return None
        return state

    async def send(self, message: Any) -> None:
        """Send a message: a dict as JSON, text or bytes as they are."""
        assert self.conn is not None
        if isinstance(message, dict | list) or message is None:
            message = json.dumps(message)
        await self.conn.send(message)

    async def next(
        self,
        pred: Callable[[dict[str, Any]], bool] = lambda m: True,
        *,
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        """The next message ``pred`` accepts (skipping the others); :class:`Closed` if the socket
        closes first, ``TimeoutError`` if none comes in time."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.label}: no such message in {timeout} s")
            try:
                message = await asyncio.wait_for(self.inbox.get(), left)
            except TimeoutError:
                raise TimeoutError(f"{self.label}: no such message in {timeout} s") from None
            if message["type"] == CLOSED:
                self.inbox.put_nowait(message)  # stays closed for later waits
                raise Closed(f"{self.label}: the server closed the socket ({message['code']})")
            if pred(message):
                return message

    async def state(
        self, pred: Callable[[dict[str, Any]], bool] = lambda m: True, *, timeout: float = 5.0
    ) -> dict[str, Any]:
        """The next ``state`` that ``pred`` accepts."""
        return await self.next(lambda m: m["type"] == "state" and pred(m), timeout=timeout)

    async def error(self, *, timeout: float = 5.0) -> dict[str, Any]:
        """The next ``error``."""
        return await self.next(lambda m: m["type"] == "error", timeout=timeout)

    async def request(self, message: Any, *, timeout: float = 5.0) -> dict[str, Any]:
        """Send ``message`` and return the next ``error`` or ``pong`` (what a refused or a
        harmless message gets back)."""
        await self.send(message)
        return await self.next(lambda m: m["type"] in ("error", "pong"), timeout=timeout)

    async def ping(self, *, timeout: float = 5.0) -> int:
        """The table's version, asked with ``ping``."""
        await self.send({"type": "ping"})
        pong = await self.next(lambda m: m["type"] == "pong", timeout=timeout)
        return int(pong["version"])

    async def sync(self, *, timeout: float = 5.0) -> dict[str, Any]:
        """The whole state again."""
        while not self.inbox.empty():  # what was queued before is older
            message = self.inbox.get_nowait()
            if message["type"] == CLOSED:
                self.inbox.put_nowait(message)
                raise Closed(f"{self.label}: the server closed the socket")
        await self.send({"type": "sync"})
        return await self.state(timeout=timeout)

    async def wait_closed(self, *, timeout: float = 5.0) -> int | None:
        """Wait until the server closes the socket; its close code."""
        assert self.reader is not None
        await asyncio.wait_for(asyncio.shield(self.reader), timeout)
        return self.close_code

    @property
    def latest(self) -> dict[str, Any] | None:
        """The last state received."""
        states = self.states()
        return states[-1] if states else None

    check = staticmethod(card_problems)
    """:func:`card_problems`, for the tests that check the checker."""
    check_histories = staticmethod(history_problems)
    """:func:`history_problems`: what is wrong with the hand histories given to a seat."""

    @staticmethod
    def public(state: dict[str, Any]) -> dict[str, Any]:
        """A state without what depends on who is connected and on the clock (to compare)."""
        out: dict[str, Any] = json.loads(json.dumps(state))
        out.pop("deadline", None)
        out.pop("now", None)
        for row in out.get("seats", []):
            row.pop("connected", None)
        return out

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]

    def states(self) -> list[dict[str, Any]]:
        """Every state held, in order (sent whole, or led to by a patch)."""
        return list(self.held)

    async def close(self) -> None:
        """Close the socket (the client goes away)."""
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.close(), 5)
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)

    # ------------------------------------------------------------------ playing
    def choose(self, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """A random move among the ``legal`` ones of ``state`` (weighted so hands end), as an
        ``act`` message for that version."""
        weights = {
            "see": 4,
            "chaal": 5,
            "raise": 1,
            "pack": 1,
            "show": 4,
            "sideshow": 3,
            "accept": 1,
            "decline": 1,
            "allin": 2,
        }
        legal = state["legal"]
        move = rng.choices(legal, [weights.get(m["do"], 1) for m in legal])[0]
        action: dict[str, Any] = {"do": move["do"]}
        if move["do"] == "chaal" and move["max"] > move["cost"]:
            action["amount"] = rng.randint(move["cost"], move["max"])
        if move["do"] == "sideshow" and move["targets"]:
            action["with"] = rng.choice(move["targets"])
        return {"type": "act", "action": action, "version": state["version"]}

    async def _contribute(self, state: dict[str, Any], rng: random.Random) -> None:
        """Send this seat's part of the next deal if the state asks for one."""
        commitment = state.get("next_commitment")
        hand = state["hand"]
        if commitment is None or commitment in self.parts or (hand and not hand["finished"]):
            return
        if self.seat in state.get("next_parts", []):
            return
        part = rng.randbytes(32).hex()
        self.parts[commitment] = part
        await self.send({"type": "part", "for": commitment, "part": part})

    async def play(
        self,
        rng: random.Random,
        until: Callable[[dict[str, Any]], bool],
        *,
        timeout: float = 30.0,
        chooser: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
        allowed_errors: Sequence[str] = ("state/stale",),
        contribute: bool = False,
    ) -> dict[str, Any]:
        """Play this seat from the states it is sent until one satisfies ``until``; return it.

        On each newest state (never a stale one, when a newer waits) with moves for us, send one
        chosen move for that version (``chooser``, default :meth:`choose`; ``None`` from it
        means wait). An error other than ``allowed_errors`` fails the test; after an allowed one
        the state is asked again and the move chosen anew. With ``contribute``, the seat sends
        its part of each next deal as a phone does (once per commitment; ``deal/late`` is then
        allowed: the deal may come first)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        choose = chooser or (lambda s: self.choose(s, rng))
        if contribute:
            allowed_errors = (*allowed_errors, "deal/late")
        # Start from the last state already taken from the queue (the hello's, say).
        waiting = [self.latest] if self.inbox.empty() and self.latest is not None else []
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.label}: the game did not get there in {timeout} s")
            message = waiting.pop() if waiting else await self.next(timeout=left)
            if message["type"] == "error":
                assert message["code"] in allowed_errors, f"{self.label}: {message}"
                self.acted.clear()
                await self.send({"type": "sync"})
                continue
            if message["type"] != "state":
                continue
            if until(message):
                return message
            if contribute:
                await self._contribute(message, rng)
            if not self.inbox.empty():
                continue  # a newer message waits: decide on that one
            if message["legal"] and message["version"] not in self.acted:
                move = choose(message)
                if move is not None:
                    self.acted.add(message["version"])
                    await self.send(move)


SHOW_FIRST = ("see", "show", "raise", "chaal", "accept", "allin", "pack")
"""The steady player's moves, first choice first: hands end soon (a show as soon as one may)."""


def steady(
    client: Client, order: Sequence[str] = SHOW_FIRST
) -> Callable[[dict[str, Any]], dict[str, Any] | None]:
    """A steady player for ``client.play(chooser=...)``: look at the cards, then make the first
    move of ``order`` that is legal (the default asks for a show if it may, else raises, else
    chaals; accepts a side show; packs only when nothing else is left). Another order makes
    hands last longer (chaal before show: a few turns)."""

    def choose(state: dict[str, Any]) -> dict[str, Any] | None:
        legal = [m["do"] for m in state["legal"]]
        me = state["seats"][client.seat]
        for do in order:
            if do in legal and not (do == "see" and me["seen"]):
                return {"type": "act", "action": {"do": do}, "version": state["version"]}
        return None

    return choose


def run(coro: Any, timeout: float = 60.0) -> Any:
    """Run a test's coroutine on a fresh event loop, bounded by ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


# ---------------------------------------------------------------------- fixtures
@pytest.fixture
def ws() -> Iterator[Callable[..., Client]]:
    """Make clients: ``ws(server, code, seat, label)`` (``server``: a :class:`Server` or a
    ``ws://`` address). At the end, the test fails if any client got a card it may not see,
    another seat's view, a token, or a message that is not JSON."""
    made: list[Client] = []

    def make(where: Server | str, code: str, seat: int | None, label: str = "") -> Client:
        client = Client(where.ws if isinstance(where, Server) else where, code, seat, label)
        made.append(client)
        return client

    yield make
    problems = [p for client in made for p in client.problems]
    assert not problems, "\n".join(problems[:20])


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``cli("verify", path)``: run the ``teenpatti`` command line, bounded."""

    def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*serve_command(), *args], input=stdin, capture_output=True, text=True, timeout=30
        )

    return run_cli


@pytest.fixture
def arun() -> Callable[..., Any]:
    """``arun(coro, timeout)``: run the test body in a fresh event loop, bounded."""
    return run
