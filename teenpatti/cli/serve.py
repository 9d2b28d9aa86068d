"""``teenpatti serve``: the table server (SQLite in a data folder, no other service needed)."""

from __future__ import annotations

import contextlib
import gc
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from . import app

if TYPE_CHECKING:
    from ..web.reach import Reach


def _pair(text: str, option: str, form: str = "RATE,BURST, like 1,30") -> tuple[float, float]:
    try:
        first, second = (float(x) for x in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"write {option} as {form}") from None
    return first, second


def _fit_descriptors(wanted: int) -> int:
    """Raise this process's descriptor limit as far as it may go, and fit ``wanted``
    connections under it (leaving room for the store, the bus and the files served)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, wanted + 256)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    room = wanted if soft == resource.RLIM_INFINITY else max(16, int(soft) - 128)
    if room < wanted:
        typer.echo(f"Descriptor limit {soft}: at most {room} open connections", err=True)
    return min(wanted, room)


@app.command()
def serve(
    host: str = typer.Option(
        "0.0.0.0",
        "--host",
        help="Address to listen on: all of this machine's (the default, so phones on the same "
        "network can join), or 127.0.0.1 to keep the table on this device.",
    ),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    fd: int | None = typer.Option(
        None,
        "--fd",
        help="Serve on this listening socket, handed down by the process that started this one "
        "(systemd's socket activation, or a test that bound port 0); --host and --port are "
        "then read from it.",
    ),
    data: Path = typer.Option(Path("data"), "--data", help="Folder for the SQLite event store."),
    database: str | None = typer.Option(
        None, "--database", help="postgresql://user:pass@host:port/db (default: SQLite in --data)."
    ),
    bus: str | None = typer.Option(
        None, "--bus", help="redis://host:port/0 to share tables with other processes."
    ),
    bot_delay: float = typer.Option(1.2, "--bot-delay", help="Computer players' mean delay (s)."),
    result_pause: float = typer.Option(4.0, "--result-pause", help="Pause after each hand (s)."),
    grace: float = typer.Option(45.0, "--grace", help="Reconnect grace before the computer plays."),
    lobby_rate: str = typer.Option(
        "5,100",
        "--lobby-rate",
        help="Creates, joins, look-ups and sockets per client address: RATE,BURST.",
    ),
    lookup_misses: str = typer.Option(
        "0.1,10", "--lookup-misses", help="Table codes per address that name no table: RATE,BURST."
    ),
    message_rate: str = typer.Option(
        "10,30", "--message-rate", help="Messages, pings and pongs per socket: RATE,BURST."
    ),
    max_connections: int = typer.Option(
        4096, "--max-connections", help="Open connections in all (fitted to the descriptor limit)."
    ),
    connections_per_address: int = typer.Option(
        256, "--connections-per-address", help="Open connections per client address."
    ),
    client_timeout: float = typer.Option(
        10.0,
        "--client-timeout",
        help="Seconds for a request's headers, for its body, and for a stalled write"
        " (a socket's hello: half as long).",
    ),
    send_buffer: int = typer.Option(
        0,
        "--send-buffer",
        help="Kernel send buffer per connection, in bytes (SO_SNDBUF); 0: the kernel's autotuning.",
    ),
    write_buffer: int = typer.Option(
        64 * 1024,
        "--write-buffer",
        help="Bytes a connection may have waiting in the process's write buffer before its"
        " messages queue (a socket's queue holds 64; over it, the client is dropped).",
    ),
    ws_ping: str = typer.Option(
        "20,20",
        "--ws-ping",
        help="Seconds between pings to each socket, and for its pong: INTERVAL,TIMEOUT"
        " (a socket that stops reading is dropped once a pong is late).",
    ),
    max_tables: int = typer.Option(10_000, "--max-tables", help="Live tables in this process."),
    tables_per_address: int = typer.Option(
        20, "--tables-per-address", help="Live tables opened from one client address."
    ),
    public_url: str | None = typer.Option(
        None,
        "--public-url",
        help="The address friends use, behind a proxy or a domain: https://cards.example.org. "
        "Links and QR codes are built from it.",
    ),
    forwarded_allow_ips: str = typer.Option(
        "",
        "--forwarded-allow-ips",
        help="Proxies trusted to say who the client is (X-Forwarded-For, X-Forwarded-Proto): "
        "comma-separated addresses or networks, like 127.0.0.1. Nobody by default.",
    ),
    log_format: str = typer.Option(
        "text", "--log-format", help="text (readable) or json (one object a line)."
    ),
    push: bool = typer.Option(
        True,
        "--push/--no-push",
        help="Turn alerts for play-anytime tables by Web Push (phones need the page over HTTPS).",
    ),
    vapid_key: Path | None = typer.Option(
        None,
        "--vapid-key",
        envvar="TEENPATTI_VAPID_KEY",
        help="The VAPID private key (PEM, P-256) that signs alerts; default: made at the first "
        "start in --data (vapid.pem). Several processes of one server share one key.",
    ),
    vapid_subject: str | None = typer.Option(
        None,
        "--vapid-subject",
        envvar="TEENPATTI_VAPID_SUBJECT",
        help="How push services reach the operator: mailto:you@example.org or an https URL "
        "(default: --public-url, else mailto:teenpatti@localhost).",
    ),
    ice_servers: str = typer.Option(
        "",
        "--ice-servers",
        envvar="TEENPATTI_ICE_SERVERS",
        help="STUN and TURN servers for the tables' voice calls, comma-separated: "
        "stun:turn.example.org:3478,turn:turn.example.org:3478 (none: calls between the phones "
        "of one network only).",
    ),
    turn_secret: str | None = typer.Option(
        None,
        "--turn-secret",
        envvar="TEENPATTI_TURN_SECRET",
        help="The secret shared with the TURN server (coturn's static-auth-secret): each seat on "
        "a call gets credentials made from it that last --turn-ttl. Best given in the "
        "environment.",
    ),
    turn_ttl: int = typer.Option(
        4 * 3600, "--turn-ttl", help="Seconds a seat's TURN credentials last."
    ),
    ice_policy: str = typer.Option(
        "all",
        "--ice-policy",
        envvar="TEENPATTI_ICE_POLICY",
        help="all (phones connect directly where they can) or relay (every call through the "
        "TURN server: no player's address is shown to another).",
    ),
    push_hosts: str = typer.Option(
        "",
        "--push-hosts",
        envvar="TEENPATTI_PUSH_HOSTS",
        help="More push services to send to, comma-separated: push.example.org (https, port "
        "443), push.example.org:8443 (https, that port), or http://127.0.0.1:PORT (plain http to "
        "that port: a test's push service). The browsers' own services are always allowed; "
        "nothing else by default.",
    ),
) -> None:
    """Start the table server: lobby, WebSockets and the phone UI on one port."""
    import uvicorn

    from ..web import logs
    from ..web.reach import Reach

    if log_format not in ("text", "json"):
        raise typer.BadParameter("--log-format is text or json")
    if fd is not None:
        host, port = _listening(fd)
    from ..web.ice import Ice

    try:
        ice = Ice.parse(ice_servers, turn_secret, turn_ttl, ice_policy)
    except ValueError as error:
        raise typer.BadParameter(f"--ice-servers: {error}") from None
    try:
        reach = Reach(public_url=public_url, listen_host=host, port=port)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    logs.configure(log_format)
    from ..bus import Bus, open_bus
    from ..store import EventStore, open_store
    from ..tables.live.service import Timing
    from ..web.app import TableLimits, create_app
    from ..web.edge import Edge, EdgeLimits, protocols

    timing = Timing(
        bot_delay=(bot_delay * 0.6, bot_delay * 1.4),
        result_pause=result_pause,
        first_deal=min(1.5, result_pause),
        reconnect_grace=grace,
    )

    async def store() -> EventStore:
        opened = await open_store(database, data)
        if push and (database is None or database.startswith("sqlite:///")):
            from ..push.keep import adopt

            # where an earlier version kept the turn alerts' records, beside the SQLite store
            beside = Path(database.removeprefix("sqlite:///")) if database else None
            old = (
                data / "push.sqlite3"
                if beside is None
                else beside.with_name(beside.stem + "-push.sqlite3")
            )
            await adopt(old, opened)
        return opened

    async def open_the_bus() -> Bus:
        return await open_bus(bus)

    from ..push.sender import PushConfig
    from ..push.subscription import PushHosts

    try:
        hosts = PushHosts.parse(push_hosts)
    except ValueError as error:
        raise typer.BadParameter(f"--push-hosts: {error}") from None

    keys = None
    if push:
        try:
            from ..push.keys import VapidKeys
        except ImportError as error:  # an install without the Web Push libraries
            typer.echo(f"Turn alerts are off: {error} (pip install pywebpush)", err=True)
            push = False
        else:
            try:
                keys = VapidKeys.load_or_make(data, vapid_key)
            except (OSError, ValueError) as error:
                raise typer.BadParameter(f"--vapid-key: {error}") from None
    subject = vapid_subject or (
        public_url if public_url and public_url.startswith("https://") else None
    )

    async def open_push() -> PushConfig:
        assert keys is not None
        return PushConfig(keys, subject=subject or "mailto:teenpatti@localhost", hosts=hosts)

    asgi = create_app(
        store,
        bus=open_the_bus,
        timing=timing,
        lobby_rate=_pair(lobby_rate, "--lobby-rate"),
        lookup_misses=_pair(lookup_misses, "--lookup-misses"),
        message_rate=_pair(message_rate, "--message-rate"),
        hello_timeout=client_timeout / 2,
        tables=TableLimits(per_process=max_tables, per_address=tables_per_address),
        freeze_every=0.25,  # what a young collection may find: a quarter second of states
        reach=reach,
        push=open_push if push else None,
        ice=ice,
    )
    ping_interval, ping_timeout = _pair(ws_ping, "--ws-ping", "INTERVAL,TIMEOUT, like 20,20")
    proxies = tuple(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    edge = Edge(
        EdgeLimits(
            max_connections=_fit_descriptors(max_connections),
            per_address=connections_per_address,
            timeout=client_timeout,
            send_buffer=send_buffer,
            write_high=write_buffer,
            frame_rate=_pair(message_rate, "--message-rate"),
            trusted=proxies,
        )
    )
    http, ws = protocols(edge)
    # Thousands of sockets make the collector's pauses the p99: collect young objects less often
    # (the app freezes the survivors four times a second, so no collection walks the whole heap).
    gc.set_threshold(50_000, 20, 100)
    where = database.split("@")[-1] if database else f"SQLite in {data}"
    typer.echo(f"Teen Patti table server on port {port} ({where}; bus {bus or 'local'})")
    _print_addresses(reach, port)
    config = uvicorn.Config(
        asgi,
        host=host,
        port=port,
        http=http,
        ws=ws,
        ws_max_size=64 * 1024,  # the app refuses anything over 4 KiB itself, with an error
        ws_per_message_deflate=False,
        ws_ping_interval=ping_interval,  # a client that stops reading is dropped once a pong
        ws_ping_timeout=ping_timeout,  # is late
        timeout_keep_alive=5,  # idle keep-alive connections close after 5 s
        log_level="warning",
        log_config=None,  # our own handler (logs.configure): text or JSON, one format
        lifespan="on",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(proxies),
    )
    server = uvicorn.Server(config)
    # A socket handed down is served as it is (uvicorn's own fd= takes it for a Unix socket).
    sockets = [socket.socket(fileno=fd)] if fd is not None else None
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=sockets)
    if not server.started:
        raise typer.Exit(3)


def _listening(fd: int) -> tuple[str, int]:
    """The address and port of the listening socket ``fd``."""
    try:
        with socket.socket(fileno=os.dup(fd)) as sock:
            listening = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
            address = sock.getsockname()
    except OSError as error:
        raise typer.BadParameter(f"--fd {fd}: {error.strerror}") from None
    if not listening or not isinstance(address, tuple):
        raise typer.BadParameter(f"--fd {fd} is not a listening TCP socket")
    return str(address[0]), int(address[1])


def _print_addresses(reach: Reach, port: int) -> None:
    """Each URL to open, with its QR code for a phone's camera."""
    import segno

    from ..web.reach import is_loopback

    urls = [reach.public_url] if reach.public_url else reach.network_urls()
    if is_loopback(reach.listen_host):  # loopback, or every address (0.0.0.0, ::)
        typer.echo(f"On this device: http://127.0.0.1:{port}")
    if not urls:
        typer.echo(
            "Only this device can open the table: start with --host 0.0.0.0 (the default) for "
            "phones on the same network, or give --public-url."
        )
    for url in urls:
        typer.echo(f"Friends open: {url}")
        segno.make(url, error="m").terminal(compact=True)
