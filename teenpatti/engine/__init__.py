"""The Teen Patti engine: pure rules, deterministic, typed; no I/O, no clock, no global state.

Nothing a hand does depends on anything outside the objects it is given. The engine does keep a
few module-level caches, each of values worked out from immutable inputs and shared only to save
time, so that dropping any of them changes no result:

- ``evaluate.Evaluator._cache``: one evaluator (its strength tables) per :class:`Ranking`;
- ``bulk``'s ``lru_cache``: the numpy copies of those tables;
- ``rules._RANKINGS`` and ``hand._FACTS``: per :class:`Rules` object (by identity; each entry
  holds its rules, so the identity is not reused; at most 1,024, then cleared), its ranking and
  the facts a hand reads at every move; ``rules``' ``lru_cache`` of the options that differ from
  the preset;
- ``hand._OPTIONS``, ``_CHAALS``, ``_RAISES``, ``_RANGES``, ``_OUTCOMES`` and
  ``actions._PLAIN``: frozen :class:`LegalAction`, :class:`Outcome` and :class:`Action` values by
  what they hold, made once and shared (they are immutable, so sharing is safe);
- ``view._PUBLIC``: per live hand (weakly keyed), what every viewer sees alike after its last
  move.

>>> from teenpatti.engine import Hand, Rules, parse_cards
>>> hand = Hand(Rules(), [1000, 1000, 1000], dealer=0, cards=[
...     parse_cards("Kh Kd 5s"), parse_cards("9c 8d 7h"), parse_cards("Ah Jh 4h")])
>>> hand.to_act, [a.label for a in hand.legal_actions()]
(2, ['See cards', 'Chaal 10', 'Raise 20', 'Pack'])
"""

from .actions import Action, ActionKind, LegalAction, Outcome
from .cards import CardError, card_str, cards_str, parse_card, parse_cards
from .errors import EngineError, IllegalAction, RulesError
from .evaluate import Category, Evaluator, Ranking
from .game import Game, Standing
from .hand import EndedBy, Hand, HandResult
from .history import HistoryError, export, load_hand, replay, replay_text
from .pots import Pot
from .rules import PRESETS, RULES_EDITION, Rules, preset
from .view import HandView, SeatView, can_see_cards, view

__all__ = [
    "PRESETS",
    "RULES_EDITION",
    "Action",
    "ActionKind",
    "CardError",
    "Category",
    "EndedBy",
    "EngineError",
    "Evaluator",
    "Game",
    "Hand",
    "HandResult",
    "HandView",
    "HistoryError",
    "IllegalAction",
    "LegalAction",
    "Outcome",
    "Pot",
    "Ranking",
    "Rules",
    "RulesError",
    "SeatView",
    "Standing",
    "can_see_cards",
    "card_str",
    "cards_str",
    "export",
    "load_hand",
    "parse_card",
    "parse_cards",
    "preset",
    "replay",
    "replay_text",
    "view",
]
