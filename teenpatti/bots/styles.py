"""Fixed styles: simple players with one habit each, the catalogue every level is measured against.

Each is a one-line trick a person might try against the computer, written as a bot so the arena
can measure whether it pays (``teenpatti arena hard never_looks``). None of them reads the others
or the pot; most ignore their own cards. A level that loses to one of them has a leak.

======================  ===============================================================
``never_looks``         never sees its cards: chaals blind to the end (sees only when a
                        blind-turn limit forces it, then chaals on whatever it holds)
``blind_raiser``        raises blind whenever it can, else chaals blind; never looks
``station``             looks at once, then always pays the chaal; never raises, shows or packs
``maniac``              looks at once, then raises whenever it can, else chaals; never packs
``show_asker``          looks at once, asks for a show whenever one is open, else chaals
``sideshow_asker``      looks at once, asks for a side show whenever one is open, accepts
                        every side show, else chaals
``tight_aggressive``    looks at once, packs the weaker 60% of hands, raises the best 15%,
                        chaals the rest (asks a show with them when two are left)
``blind_presser``       while another player still in is blind, stays blind and raises to
                        the cap (then chaals blind); once all the others have seen, looks
                        and plays its hand as ``tight_aggressive`` does
``calldown``            looks at once, packs the weakest third of hands and pays every
                        chaal with the rest, to the pot limit: never raises, never asks
======================  ===============================================================

>>> from teenpatti.bots import load_bot
>>> load_bot("blind_raiser", 1).name
'blind_raiser'
"""

from __future__ import annotations

from ..engine.actions import Action, ActionKind, LegalAction
from ..engine.view import HandView
from ..odds import heads_up_equity
from .base import Bot

__all__ = [
    "STYLES",
    "BlindPresser",
    "BlindRaiser",
    "CallDown",
    "Maniac",
    "NeverLooks",
    "ShowAsker",
    "SideShowAsker",
    "Station",
    "StyleBot",
    "TightAggressive",
]


class StyleBot(Bot):
    """A fixed style: ``prefer`` lists the moves it makes, first legal one wins.

    ``looks`` says whether it sees its cards at its first turn; ``accepts`` whether it accepts a
    side show it is asked for.
    """

    looks = True
    accepts = False
    prefer: tuple[ActionKind, ...] = (ActionKind.CHAAL,)

    def decide(self, view: HandView) -> Action:
        """The first of :attr:`prefer` that is legal now (seeing first if the style looks)."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        legal = {a.kind: a for a in view.legal_actions}
        if ActionKind.ACCEPT in legal:
            kind = ActionKind.ACCEPT if self.accepts else ActionKind.DECLINE
            return legal[kind].action(seat)
        you = view.seats[seat]
        if ActionKind.SEE in legal and not you.seen:
            forced = set(legal) <= {ActionKind.SEE, ActionKind.PACK}
            if self.looks or forced:
                return legal[ActionKind.SEE].action(seat)
        for kind in self.choose(view, legal):
            if kind in legal:
                return _least(legal[kind], seat)
        for kind in (ActionKind.CHAAL, ActionKind.ALLIN, ActionKind.SHOW, ActionKind.PACK):
            if kind in legal:
                return _least(legal[kind], seat)
        return view.legal_actions[0].action(seat)

    def choose(
        self, view: HandView, legal: dict[ActionKind, LegalAction]
    ) -> tuple[ActionKind, ...]:
        """The moves this style wants now, best first."""
        return self.prefer


def _least(option: LegalAction, seat: int) -> Action:
    """The move at its least price (range bets: the least chaal)."""
    return option.action(seat, option.cost if option.max_cost > option.cost else None)


class NeverLooks(StyleBot):
    """Never sees: chaals blind, all in when short, to the end."""

    name = "never_looks"
    looks = False
    prefer = (ActionKind.CHAAL, ActionKind.ALLIN)


class BlindRaiser(StyleBot):
    """Raises blind whenever it can (to the stake cap), then chaals blind; never looks."""

    name = "blind_raiser"
    looks = False
    prefer = (ActionKind.RAISE, ActionKind.CHAAL, ActionKind.ALLIN)


class Station(StyleBot):
    """Looks, then pays every chaal: never raises, shows or packs."""

    name = "station"
    prefer = (ActionKind.CHAAL, ActionKind.ALLIN)


class Maniac(StyleBot):
    """Looks, then raises whenever it can, else chaals; accepts every side show; never packs."""

    name = "maniac"
    accepts = True
    prefer = (ActionKind.RAISE, ActionKind.CHAAL, ActionKind.ALLIN)


class ShowAsker(StyleBot):
    """Looks, then asks for a show whenever one is open, else chaals."""

    name = "show_asker"
    prefer = (ActionKind.SHOW, ActionKind.CHAAL, ActionKind.ALLIN)


class SideShowAsker(StyleBot):
    """Looks, asks for a side show whenever one is open, accepts every side show, else chaals."""

    name = "sideshow_asker"
    accepts = True
    prefer = (ActionKind.SIDESHOW, ActionKind.CHAAL, ActionKind.ALLIN)


class TightAggressive(StyleBot):
    """Looks, packs the weaker 60% of hands, raises the best 15%, chaals (or shows) between."""

    name = "tight_aggressive"
    stay = 0.6
    raise_ = 0.85
    between: tuple[ActionKind, ...] = (ActionKind.SHOW, ActionKind.CHAAL, ActionKind.ALLIN)
    """The moves of a hand between the two lines, best first."""

    def choose(
        self, view: HandView, legal: dict[ActionKind, LegalAction]
    ) -> tuple[ActionKind, ...]:
        """By the hand's heads-up equity ``u`` (see :mod:`teenpatti.bots.strategy`)."""
        seat = view.viewer
        assert seat is not None
        cards = view.seats[seat].cards
        if cards is None:
            return (ActionKind.CHAAL,)
        u = heads_up_equity(cards, view.rules.ranking, view.wild, ())
        if u < self.stay:
            return (ActionKind.PACK,)
        if u >= self.raise_:
            return (ActionKind.RAISE, ActionKind.CHAAL, ActionKind.ALLIN, ActionKind.SHOW)
        return self.between


class BlindPresser(TightAggressive):
    """Presses blind players: blind, it raises to the cap while another player still in is
    blind; once every other player still in has seen, it looks and plays as
    ``tight_aggressive``."""

    name = "blind_presser"
    looks = False

    def decide(self, view: HandView) -> Action:
        """A blind raise (or chaal) while someone else is blind, else ``tight_aggressive``."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        legal = {a.kind: a for a in view.legal_actions}
        others_blind = any(
            not s.seen for s in view.seats if s.dealt and not s.packed and s.seat != seat
        )
        if ActionKind.SEE in legal and not view.seats[seat].seen and not others_blind:
            return legal[ActionKind.SEE].action(seat)
        return super().decide(view)

    def choose(
        self, view: HandView, legal: dict[ActionKind, LegalAction]
    ) -> tuple[ActionKind, ...]:
        """Blind: raise, else chaal; seen: ``tight_aggressive``'s moves."""
        seat = view.viewer
        assert seat is not None
        if not view.seats[seat].seen:
            return (ActionKind.RAISE, ActionKind.CHAAL, ActionKind.ALLIN)
        return super().choose(view, legal)


class CallDown(TightAggressive):
    """Looks, packs the weakest third of hands, and pays every chaal with the rest to the pot
    limit; never raises, shows or asks for a side show."""

    name = "calldown"
    stay = 1 / 3
    raise_ = 2.0  # above every hand: never
    between = (ActionKind.CHAAL, ActionKind.ALLIN)


STYLES: dict[str, type[StyleBot]] = {
    cls.name: cls
    for cls in (
        NeverLooks,
        BlindRaiser,
        Station,
        Maniac,
        ShowAsker,
        SideShowAsker,
        TightAggressive,
        BlindPresser,
        CallDown,
    )
}
"""The catalogue of fixed styles by name."""
