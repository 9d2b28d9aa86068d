"""The lobby over HTTP (JSON): open a table, look at one, join it, its hand histories, its QR
code, the rules' catalogue, and the page itself. See docs/protocol.md, "The lobby"."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import msgspec
import segno
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ..engine.rules import catalogue
from ..tables.play.chat import EMOJI, PHRASES, TEXT_MAX
from ..tables.play.errors import Refusal
from ..tables.play.settings import HANDS_MAX, read_request
from ..tables.wire.messages import TableSeat
from . import logs
from .bodies import (
    Catalogue,
    HandHistory,
    Joined,
    Opened,
    ServerInfo,
    TableInfo,
    answer,
    encoded,
    read_join,
)
from .edge import address_key
from .limits import Refused
from .site import Gone, bearer, client_host, site_of, status_of

__all__ = ["lobby_routes", "rules_served"]

log = logging.getLogger("teenpatti.web")


def rules_served() -> Catalogue:
    """What ``GET /api/rules`` serves: the engine's catalogue of presets and options, with this
    server's limit on a game's hands, and the chat's quick phrases, reactions and longest text
    (defined once, in :mod:`teenpatti.tables.play.chat`).

    >>> served = rules_served()
    >>> served.options["hands"].max, served.chat.text_max, served.chat.phrases[0]
    (100, 120, 'shabash')
    """
    rules = catalogue()
    rules["options"]["hands"]["max"] = HANDS_MAX  # the most a game here may have
    rules["chat"] = {"phrases": list(PHRASES), "emoji": list(EMOJI), "text_max": TEXT_MAX}
    return msgspec.convert(rules, Catalogue)  # the engine's dict, typed once at start


def lobby_routes(rules: Catalogue, static: Path) -> list[Route]:
    """The lobby's routes (over the app's :class:`~.site.Site`); ``rules`` is the catalogue
    ``/api/rules`` serves, ``static`` the page's folder."""
    served = encoded(rules)  # the same bytes for every request

    async def create_table(request: Request) -> Response:
        site = site_of(request)
        if not site.same_origin(request):
            return site.error(
                "origin/forbidden", "tables are opened from this server's own page", 403
            )
        host = client_host(request)
        try:
            site.lobby.check(host)
        except Refused as refused:
            return site.refused(refused)
        key = address_key(host)
        if site.live_tables(key) >= site.caps.per_address:
            return site.error(
                "table/limit", "too many tables open from your address: finish one first", 429
            )
        if site.live_tables() >= site.caps.per_process:
            return site.error("server/full", "this server has all the tables it can hold", 503)
        try:
            code, token, seat = await site.service.create(read_request(await site.body(request)))
        except Refusal as error:
            return site.error(error.code, error.reason, status_of(error))
        except Gone:
            return site.error("message/incomplete", "the request did not arrive whole")
        site.opened_by.setdefault(key, []).append(code)
        logs.set_table(code)
        log.info("table %s opened", code)
        return answer(
            Opened(code=code, token=token, seat=seat, link=f"/t/{code}", share=site.share(code)),
            201,
        )

    async def table_info(request: Request) -> Response:
        site = site_of(request)
        live = await site.look_up(request)
        if isinstance(live, Response):
            return live
        state = live.fanout.render.public_state()
        hand = state.hand
        turn = None if hand is None or hand.finished else hand.actor
        # the shown cards' proofs belong to the table's own states and histories, not the lobby
        # (nor whether a socket is open: only the serving process knows)
        fields = TableSeat.__struct_fields__
        seats = [TableSeat(**{k: getattr(row, k) for k in fields}) for row in state.seats]
        # how long the table has stood since its last move (My tables: "waiting 3 h")
        since = live.writer.since
        waited = round(max(0.0, site.service.clock.time() - since)) if since else None
        return answer(
            TableInfo(
                code=state.code,
                status=state.status,
                settings=state.settings,
                version=state.version,
                seats=seats,
                share=site.share(live.table.code),
                turn=turn,
                waited=waited,
            )
        )

    async def join_table(request: Request) -> Response:
        site = site_of(request)
        if not site.same_origin(request):
            return site.error(
                "origin/forbidden", "tables are joined from this server's own page", 403
            )
        live = await site.look_up(request)
        if isinstance(live, Response):
            return live
        try:
            asked = read_join(await site.body(request))
            token, seat = await site.service.join(live.table.code, asked.name, bearer(request))
        except Refusal as error:
            return site.error(error.code, error.reason, status_of(error))
        except Gone:
            return site.error("message/incomplete", "the request did not arrive whole")
        return answer(Joined(token=token, seat=seat))

    async def hand_histories(request: Request) -> Response:
        site = site_of(request)
        token = bearer(request)
        live = await site.look_up(request, token)
        if isinstance(live, Response):
            return live
        asked = request.query_params.get("game")
        table = live.table
        if asked is None:
            game = table.games_played
        elif asked.isascii() and asked.isdigit() and len(asked) < 6:
            game = int(asked)
        else:
            return site.error("hands/game", "say which game by its number: 1, 2, ...")
        try:  # a token sent is checked, even where none is needed (a finished game's hands)
            seat = site.service.seat_for(live, token)
        except Refusal as error:
            return site.error(error.code, error.reason, 403)
        if game != table.games_played or table.status == "finished":
            seat = None  # every hand complete, for anyone
        elif token is None:
            return site.error(
                "hands/private",
                "the hands of a game in play go to its players (send your seat token)",
                403,
            )
        try:
            hands = table.histories(seat, game)
        except Refusal as error:
            return site.error(error.code, error.reason, 404)
        name = "hands.json" if game == table.games_played else f"hands-game-{game}.json"
        typed = msgspec.convert(hands, list[HandHistory])  # the engine's JSON, held to its type
        return Response(
            msgspec.json.encode(typed),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def qr_code(request: Request) -> Response:
        site = site_of(request)
        live = await site.look_up(request)
        if isinstance(live, Response):
            return live
        link = site.share(live.table.code).url
        out = io.BytesIO()
        segno.make(link, error="m").save(out, kind="svg", xmldecl=False, scale=6, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def rules_catalogue(request: Request) -> Response:
        return Response(served, media_type="application/json")

    async def index(request: Request) -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page)
        return answer(
            ServerInfo(teenpatti="table server", api="/api/tables", docs="docs/protocol.md")
        )

    return [
        Route("/", index),
        Route("/t/{code}", index),
        Route("/api/rules", rules_catalogue),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_info),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/tables/{code}/hands", hand_histories),
        Route("/api/tables/{code}/qr.svg", qr_code),
    ]
