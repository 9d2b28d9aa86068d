"""``teenpatti serve``: the table server (SQLite in a data folder, no other service needed)."""

from __future__ import annotations

import gc
from pathlib import Path

import typer

from . import app


def _pair(text: str, option: str) -> tuple[float, float]:
    try:
        rate, burst = (float(x) for x in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"write {option} as RATE,BURST, like 1,30") from None
    return rate, burst


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: all)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
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
        "1,30", "--lobby-rate", help="Creates, joins and look-ups per address: RATE,BURST."
    ),
    message_rate: str = typer.Option(
        "10,30", "--message-rate", help="Messages per socket: RATE,BURST."
    ),
) -> None:
    """Start the table server: lobby, WebSockets and the phone UI on one port."""
    import uvicorn

    from ..bus import Bus, open_bus
    from ..store import EventStore, open_store
    from ..tables.service import Timing
    from ..web.app import create_app

    timing = Timing(
        bot_delay=(bot_delay * 0.6, bot_delay * 1.4),
        result_pause=result_pause,
        first_deal=min(0.5, result_pause),
        reconnect_grace=grace,
    )

    async def store() -> EventStore:
        return await open_store(database, data)

    async def open_the_bus() -> Bus:
        return await open_bus(bus)

    asgi = create_app(
        store,
        bus=open_the_bus,
        timing=timing,
        lobby_rate=_pair(lobby_rate, "--lobby-rate"),
        message_rate=_pair(message_rate, "--message-rate"),
        freeze_every=1.0,
    )
    # Thousands of sockets make the collector's pauses the p99: collect young objects less often
    # (the app freezes the survivors every second, so no collection walks the whole heap).
    gc.set_threshold(50_000, 20, 100)
    where = database.split("@")[-1] if database else f"SQLite in {data}"
    typer.echo(f"Teen Patti table server on http://{host}:{port} ({where}; bus {bus or 'local'})")
    uvicorn.run(
        asgi,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,  # the app refuses anything over 4 KiB itself, with an error
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,  # a client that stops reading is dropped once pings go unanswered
        ws_ping_timeout=20.0,
        log_level="warning",
        lifespan="on",
    )
