"""``teenpatti play``: a whole game at our table in the terminal, against computer players.

The person at seat 0 sees the table through :func:`~teenpatti.engine.view.view`, exactly as a
computer player or a web client in that seat would: no card it may not see is ever drawn. Cards are
drawn with their suit symbols (hearts and diamonds in red), every move of every seat gets a line,
and ``q`` leaves the game once the person confirms.
"""

from __future__ import annotations

import secrets

import typer
from rich.console import Console
from rich.table import Table

from ..bots import BOTS, DecidesActions, load_bot
from ..engine import (
    Action,
    ActionKind,
    EngineError,
    Evaluator,
    Game,
    Hand,
    HandView,
    LegalAction,
    view,
)
from ..engine.cards import JOKERS, card_rank, card_str, card_suit
from ..engine.errors import RulesError
from ..engine.pots import returned
from ..engine.rules import Rules, Variant
from . import app
from .common import rules_from

COMPUTER_NAMES = ("Asha", "Bikash", "Chandra", "Deepa", "Ekraj", "Firoza", "Gita", "Hari", "Indra")
"""Names the computer players take, in seat order."""


SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")
WHY = {
    "last_player": "everyone else packed",
    "show": "show",
    "all_in": "all in: everyone still in showed",
    "pot_limit": "pot limit: everyone still in showed",
}
"""How a hand ended, as the result line says it."""
QUIT = ("q", "quit")
"""What the person types at their turn to leave the game (asked to confirm)."""
NUMBERS = {
    ActionKind.SEE: 1,
    ActionKind.CHAAL: 2,
    ActionKind.RAISE: 3,
    ActionKind.SHOW: 4,
    ActionKind.SIDESHOW: 5,
    ActionKind.ALLIN: 6,
    ActionKind.PACK: 7,
    ActionKind.ACCEPT: 1,
    ActionKind.DECLINE: 2,
}
"""Each move's number in the menu, the same whether the person is blind or has seen (2 is
always Chaal); the answers to a side show, offered alone, are 1 and 2."""


def sorted_cards(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Cards in the order a hand reads (the web page's order): the highest rank first, pairs
    side by side, the low run 3-2-A, a joker last.

    >>> from teenpatti.engine import parse_card
    >>> from teenpatti.engine.cards import card_str
    >>> [card_str(c) for c in sorted_cards(tuple(parse_card(t) for t in ("Jh", "Qh", "Th")))]
    ['Qh', 'Jh', 'Th']
    >>> [card_str(c) for c in sorted_cards(tuple(parse_card(t) for t in ("2c", "As", "3d")))]
    ['3d', '2c', 'As']
    """
    ranks = {card_rank(c) for c in cards if c not in JOKERS}
    low_run = len(cards) == 3 and ranks == {14, 2, 3}

    def key(card: int) -> tuple[int, int]:
        if card in JOKERS:
            return (0, 0)
        rank = card_rank(card)
        return (1 if low_run and rank == 14 else rank, card_suit(card))

    return tuple(sorted(cards, key=key, reverse=True))


def card_markup(card: int) -> str:
    """One card as rich markup: its rank and suit symbol, red for hearts and diamonds.

    >>> from teenpatti.engine import parse_card
    >>> card_markup(parse_card("Th")), card_markup(parse_card("As"))
    ('[bold red]10♥[/]', '[bold]A♠[/]')
    """
    if card in JOKERS:
        return "[bold magenta]Joker[/]"
    text = card_str(card)
    rank, suit = text[0], text[1]
    shown = f"{'10' if rank == 'T' else rank}{SUIT_SYMBOLS[suit]}"
    return f"[bold red]{shown}[/]" if suit in RED_SUITS else f"[bold]{shown}[/]"


def names_markup(names: list[str]) -> str:
    """``Asha``, ``Asha and Bikash``, ``Asha, Bikash and You``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def chaal_top(options: list[LegalAction], boot: int) -> int:
    """The most a chaal is offered for under range bets: a step (half a boot) below its top when
    the top would cost what Raise costs (the same move twice), as the page's stepper does.

    >>> from teenpatti.engine import ActionKind
    >>> chaal = LegalAction(ActionKind.CHAAL, 20, 40)
    >>> chaal_top([chaal, LegalAction(ActionKind.RAISE, 40, 40)], 20), chaal_top([chaal], 20)
    (30, 40)
    """
    chaal = next((o for o in options if o.kind is ActionKind.CHAAL), None)
    if chaal is None:
        return 0
    step = max(1, round(boot / 2))
    raise_ = next((o for o in options if o.kind is ActionKind.RAISE), None)
    if raise_ is not None and raise_.cost == chaal.max_cost:
        return max(chaal.cost, chaal.max_cost - step)
    return chaal.max_cost


def menu_labels(options: list[LegalAction], boot: int) -> list[tuple[LegalAction, str]]:
    """Each move with what its menu entry says, its chips with thousands separators
    ("Chaal 1,000", "Chaal 20-30" below "Raise 40").

    >>> from teenpatti.engine import ActionKind
    >>> moves = [LegalAction(ActionKind.CHAAL, 20, 40), LegalAction(ActionKind.RAISE, 40, 40)]
    >>> [text for _, text in menu_labels(moves, 20)]
    ['Chaal 20-30', 'Raise 40']
    >>> [text for _, text in menu_labels([LegalAction(ActionKind.CHAAL, 1000, 1000)], 500)]
    ['Chaal 1,000']
    """
    out = []
    top = chaal_top(options, boot)
    for option in options:
        if not (option.cost or option.max_cost):
            out.append((option, option.label))  # See cards, Pack...
            continue
        name = option.label.rsplit(" ", 1)[0]  # "Chaal", "Side show"
        high = top if option.kind is ActionKind.CHAAL else option.max_cost
        if high > option.cost:
            out.append((option, f"{name} {option.cost:,}-{high:,}"))
        else:
            out.append((option, f"{name} {option.cost:,}"))
    return out


def _default_bot() -> str:
    for name in ("medium", "easy", "random"):
        if name in BOTS:
            return name
    return "random"


class TerminalTable:
    """One game between a person at seat 0 and computer players, drawn with rich."""

    def __init__(self, game: Game, bots: dict[int, DecidesActions], console: Console) -> None:
        self.game = game
        self.bots = bots
        self.console = console
        self.evaluator = Evaluator.get(game.rules.ranking)

    # ---------------------------------------------------------------- drawing
    def _cards(self, cards: tuple[int, ...] | None, wild: int | None) -> str:
        if cards is None:
            return "[dim]? ? ?[/]"
        kind = self.evaluator.category(cards, wild).value.replace("_", " ")
        return f"{' '.join(card_markup(c) for c in sorted_cards(cards))} ({kind})"

    def draw(self, me: HandView) -> None:
        """The table as the person at seat 0 sees it."""
        game = self.game
        table = Table(title=f"Hand {game.hand_number} of {game.rules.hands}", expand=False)
        for column in ("", "Player", "Chips", "In pot", "Status", "Cards"):
            table.add_column(column)
        for seat in me.seats:
            marks = ("D" if seat.seat == me.dealer else "") + ("▶" if seat.seat == me.actor else "")
            if not seat.dealt:
                status = "sitting out"
            elif seat.packed:
                status = "packed"
            else:
                status = ("seen" if seat.seen else "blind") + (" · all in" if seat.all_in else "")
            table.add_row(
                marks,
                game.names[seat.seat],
                f"{seat.chips:,}",
                f"{seat.put_in:,}",
                status,
                self._cards(seat.cards, me.wild) if seat.dealt else "",
            )
        self.console.print(table)
        line = f"Pot [bold]{me.pot:,}[/]   Stake {me.stake:,}   Boot {me.boot:,}"
        if me.wild is not None:
            line += f"   Wild {card_markup(me.wild)}"
        rules = game.rules
        if rules.variant is Variant.FIXED_RANK:
            line += f"   Wild: every {rules.fixed_rank}"
        if rules.muflis:
            line += "   Muflis: the lowest hand wins"
        self.console.print(line)

    def say(self, seat: int, action: Action, me: HandView) -> None:
        """Announce what a player did (the last move of ``me``'s public log)."""
        outcome = me.outcomes[-1]
        you = seat == 0
        name = "You" if you else self.game.names[seat]
        kind = action.kind
        if kind is ActionKind.SIDESHOW and action.target is not None:
            asked = "you" if action.target == 0 else self.game.names[action.target]
            text = f"ask{'' if you else 's'} {asked} for a side show"
        elif kind is ActionKind.SEE:
            text = "look at your cards" if you else "looks at their cards"
        elif kind in (ActionKind.CHAAL, ActionKind.ALLIN, ActionKind.SHOW):
            paid = outcome.paid
            verb = {"chaal": "chaal", "allin": "go all in with", "show": "ask for a show:"}[kind]
            if not you:
                verb = {"chaal": "chaal", "allin": "goes all in with", "show": "asks for a show:"}[
                    kind
                ]
            text = f"{verb} {paid:,}"
        elif kind is ActionKind.RAISE:  # "Raise 40", as its button and the web page say it
            text = f"raise{'' if you else 's'} {outcome.paid:,}"
        else:
            verbs = {"pack": "pack", "accept": "accept", "decline": "decline"}
            text = verbs[kind.value] + ("" if you else "s")
        self.console.print(f"  [cyan]{name}[/] {text}")
        if kind is ActionKind.ACCEPT and outcome.loser is not None:
            winner = self._asker(me) if outcome.loser == seat else seat
            self.console.print(f"  Side show: {self._better(winner, outcome.loser)}")

    def _name(self, seat: int) -> str:
        return "You" if seat == 0 else self.game.names[seat]

    def _asker(self, me: HandView) -> int:
        """Who asked for the side show the last move of ``me``'s log answered."""
        for action in reversed(me.actions):
            if action.kind is ActionKind.SIDESHOW:
                return action.seat
        raise AssertionError("an answer without a side show")  # pragma: no cover

    def _better(self, winner: int, loser: int) -> str:
        """A side show's outcome, without the cards: "Bikash's hand was better: you pack"."""
        whose = "Your" if winner == 0 else f"{self.game.names[winner]}'s"
        packs = "you pack" if loser == 0 else f"{self.game.names[loser]} packs"
        return f"{whose} hand was better: {packs}"

    # ---------------------------------------------------------------- choosing
    def ask(self, me: HandView, hand: Hand) -> Action:
        """Ask the person for a move until the engine takes one."""
        options = list(me.legal_actions)
        while True:
            menu = "  ".join(
                f"[bold]{NUMBERS[o.kind]}[/] {label}" for o, label in menu_labels(options, me.boot)
            )
            self.console.print(f"Your move: {menu}  [dim](q to leave)[/]")
            answer = typer.prompt(">", prompt_suffix=" ").strip().lower()
            if answer in QUIT:
                if typer.confirm("Leave the game? Your seat's chips are lost", default=False):
                    raise typer.Abort()
                continue
            chosen = self._match(answer, options)
            if chosen is None:
                self.console.print("[red]Type the number of a move, or its name (q to leave).[/]")
                continue
            amount = target = None
            top = chaal_top(options, me.boot)
            if chosen.kind is ActionKind.CHAAL and top > chosen.cost:
                amount = typer.prompt(
                    f"How much ({chosen.cost:,}-{top:,})", type=int, default=chosen.cost
                )
            if chosen.kind is ActionKind.SIDESHOW and len(chosen.targets) > 1:
                names = ", ".join(f"{t} {self.game.names[t]}" for t in chosen.targets)
                target = typer.prompt(f"Ask which seat ({names})", type=int)
            action = chosen.action(0, amount, target)
            try:
                hand.verify(action)
            except EngineError as error:
                self.console.print(f"[red]{error.reason}[/]")
                continue
            return action

    @staticmethod
    def _match(answer: str, options: list[LegalAction]) -> LegalAction | None:
        if answer.isdigit():
            return next((o for o in options if NUMBERS[o.kind] == int(answer)), None)
        for option in options:
            if answer in (option.kind.value, option.label.lower().split(" ")[0]):
                return option
        return None

    # ---------------------------------------------------------------- playing
    def play_hand(self) -> None:
        """Deal and play one hand to its end."""
        hand = self.game.start_hand()
        self.console.rule(f"Hand {self.game.hand_number}")
        shown_turn = None
        me = view(hand, 0)
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            if seat == 0:
                if shown_turn != len(me.actions):
                    self.draw(me)
                    shown_turn = len(me.actions)
                action = self.ask(me, hand)
            else:
                action = self.bots[seat].decide(view(hand, seat))
            asking = me.side_show
            self.game.apply(action)
            me = view(hand, 0)
            self.say(seat, action, me)
            if action.kind is ActionKind.ACCEPT and asking is not None and 0 in asking:
                other = asking[1] if asking[0] == 0 else asking[0]
                self.console.print(
                    f"  Side show: {self._cards(me.seats[other].cards, me.wild)}"
                    f" against your {self._cards(me.seats[0].cards, me.wild)}"
                )
        self.result(me)

    def result(self, me: HandView) -> None:
        """Who won each pot and why, chips of a bet nobody called handed back, the hands shown."""
        self.draw(me)
        why = WHY.get(me.ended_by or "", "")
        back = returned([s.put_in for s in me.seats], me.pots)
        for i, pot in enumerate(me.pots):
            if i == back:
                who = pot.winners[0]
                text = "You get" if who == 0 else f"{self.game.names[who]} gets"
                self.console.print(f"{text} {pot.amount:,} back (nobody called it)")
                continue
            winners = [self._name(w) for w in pot.winners]
            verb = "win" if len(winners) > 1 or pot.winners == (0,) else "wins"
            best = me.seats[pot.winners[0]]
            kind = ""
            if best.cards is not None and me.ended_by != "last_player":
                category = self.evaluator.category(best.cards, me.wild).value.replace("_", " ")
                kind = f" with {category}"
            self.console.print(
                f"[green]{names_markup(winners)}[/] {verb} {pot.amount:,}{kind} ({why})"
            )

    def play(self) -> None:
        """Play the whole game and print the standings."""
        while not self.game.finished:
            self.play_hand()
        standings = Table(title="Standings")
        for column in ("Place", "Player", "Chips"):
            standings.add_column(column)
        for row in self.game.standings():
            name = row.name if row.seat == 0 else f"{row.name} (computer)"
            standings.add_row(str(row.place), name, f"{row.chips:,}")
        self.console.print(standings)


@app.command()
def play(
    players: int = typer.Option(4, "--players", "-p", help="Players at the table, you included."),
    hands: int | None = typer.Option(
        None, "--hands", help="Hands (10, 20 or 30 at our table; any number at the others)."
    ),
    boot: int | None = typer.Option(
        None, "--boot", help="The boot (5, 10, 20 or 50 at our table)."
    ),
    rules_preset: str = typer.Option(
        "nepal", "--rules", help="nepal, classic, club, duo, limited, limited2."
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="A house rule, NAME=VALUE."),
    bot: str = typer.Option("", "--bot", help="The computer players' strength or import path."),
    name: str = typer.Option("You", "--name", help="Your name at the table."),
    seed: str = typer.Option("", "--seed", help="64 hex digits to replay the same game."),
) -> None:
    """Play a game against computer players in the terminal."""
    console = Console(highlight=False)
    if hands is not None and rules_preset == "nepal":
        try:
            Rules.from_options({"preset": "nepal", "hands": hands})
        except RulesError as error:  # our table plays 10, 20 or 30 hands; the others any number
            console.print(
                f"[red]error:[/] {error.reason}. For a short game play another table's rules:"
                f" --rules classic --hands {hands} (or --rules limited, --rules club)."
            )
            raise typer.Exit(2) from None
    try:
        rules = rules_from(rules_preset, option, hands=hands, boot=boot)
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(
                f"the {rules.preset} table seats {rules.min_players} to {rules.max_players}"
                f" players, not {players}"
            )
        game_seed = bytes.fromhex(seed) if seed else secrets.token_bytes(32)
        names = [name, *COMPUTER_NAMES[: players - 1]]
        game = Game(rules, names, game_seed)
        strength = bot or _default_bot()
        bots = {s: load_bot(strength, seed=s) for s in range(1, players)}
    except (EngineError, ValueError) as error:
        console.print(f"[red]error:[/] {error}")
        raise typer.Exit(2) from None
    console.print(
        f"Teen Patti · {rules.preset} · boot {rules.boot} · {rules.hands} hands · "
        f"computer: {strength}. You are dealt blind; See cards shows them."
    )
    try:
        TerminalTable(game, bots, console).play()
    except (typer.Abort, EOFError, KeyboardInterrupt):
        console.print("\nYou left the game.")
        raise typer.Exit(0) from None
