"""``teenpatti serve``: the table server (SQLite in a data folder, no other service needed)."""

from __future__ import annotations

import gc
from pathlib import Path

import typer

from . import app


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: all)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    data: Path = typer.Option(Path("data"), "--data", help="Folder for the SQLite event store."),
    bot_delay: float = typer.Option(1.2, "--bot-delay", help="Computer players' mean delay (s)."),
    result_pause: float = typer.Option(4.0, "--result-pause", help="Pause after each hand (s)."),
    grace: float = typer.Option(45.0, "--grace", help="Reconnect grace before the computer plays."),
    lobby_rate: str = typer.Option(
        "1,30", "--lobby-rate", help="Creates, joins and look-ups per address: RATE,BURST."
    ),
) -> None:
    """Start the table server: lobby, WebSockets and the phone UI on one port."""
    import uvicorn

    from ..store.sqlite import SqliteStore
    from ..tables.service import Timing
    from ..web.app import MAX_MESSAGE, create_app

    store = SqliteStore(data / "teenpatti.sqlite3")
    timing = Timing(
        bot_delay=(bot_delay * 0.6, bot_delay * 1.4),
        result_pause=result_pause,
        first_deal=min(0.5, result_pause),
        reconnect_grace=grace,
    )
    try:
        rate, burst = (float(x) for x in lobby_rate.split(","))
    except ValueError:
        raise typer.BadParameter("write --lobby-rate as RATE,BURST, like 1,30") from None
    asgi = create_app(store, timing=timing, lobby_rate=(rate, burst))
    # Thousands of sockets make the collector's pauses the p99: collect less often.
    gc.set_threshold(50_000, 20, 100)
    typer.echo(f"Teen Patti table server on http://{host}:{port} (data in {data})")
    uvicorn.run(
        asgi,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
    )
