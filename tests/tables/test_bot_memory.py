"""Computer players at a table keep what they learn about the others from hand to hand.

A real service over SQLite plays a computer table (the ``hard`` level, which keeps an opponent
model); the person at seat 0 packs whenever it is their turn. Each computer player is shown every
finished hand once, from its own seat, and its model holds exactly what the public log of those
hands says (the same as a model fed the spectator's view of the same hands).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from support.tables import until

from teenpatti.bots.hard import HardBot
from teenpatti.bots.model import TableModel
from teenpatti.engine import view
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request

FAST = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, reconnect_grace=60.0)


def test_computer_players_learn_across_the_hands_of_a_game(tmp_path: Path) -> None:
    async def body() -> None:
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), FAST)
        await service.start()
        code, _, seat = await service.create(
            read_request(
                {"name": "Asha", "seats": 3, "computer": True, "turn_seconds": None, "bots": "hard"}
            )
        )
        assert seat == 0
        live = service.get(code)
        game = live.table.game
        assert game is not None

        def persons_turn() -> bool:
            hand = game.hand
            return hand is not None and not hand.finished and hand.actor == 0

        # The person packs at every turn until four hands are over; the table then waits for
        # them (no turn timer), with every finished hand shown to the computer players.
        while True:
            await until(service, persons_turn, "the computer never got to the person's turn")
            if game.hands_played >= 4:
                await service.thinker.idle()  # the players learn on their own thread
                break
            await service.command(code, 0, convert({"type": "act", "action": {"do": "pack"}}))
        finished = list(game.played)
        bots = {s: b for s, b in live.computers.bots.items() if isinstance(b, HardBot)}
        assert set(bots) == {1, 2}
        for s, bot in bots.items():
            spectator = TableModel()
            shown = [h for h in finished if h.dealt[s]]
            for hand in shown:
                spectator.observe(view(hand, None))
            assert bot.model.hands_seen == len(shown) >= 4
            others = {k: v for k, v in spectator.seats.items() if k != s}
            assert bot.model.seats == others
            assert s not in bot.model.seats  # its own play is not modelled
        await service.stop()
        await service.store.close()

    asyncio.run(asyncio.wait_for(body(), 60))
