"""A hand of Teen Patti: the boot, the deal, every move and its legality, and the settlement.

One :class:`Hand` object holds the state, with lists indexed by seat (seats are numbered clockwise
around the table). Every move goes through one check: :meth:`Hand.verify` raises
:class:`~teenpatti.engine.errors.IllegalAction` with a stable code and a sentence a player
understands, and changes nothing; :meth:`Hand.apply` verifies and then plays the move.
:meth:`Hand.legal_actions` lists what a seat may do now, each with its cost.

>>> from teenpatti.engine import Hand, Rules, parse_cards
>>> hand = Hand(Rules(), [1000, 1000], dealer=1,
...             cards=[parse_cards("Ah 2d 3c"), parse_cards("Kh Qh Jd")])
>>> [a.label for a in hand.legal_actions()]
['See cards', 'Chaal 10', 'Raise 20', 'Show 10', 'Pack']
>>> _ = hand.chaal(0); _ = hand.see(1); _ = hand.chaal(1); _ = hand.show(0)
>>> print(hand.ended_by, hand.chips)
show [1030, 970]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import compress
from operator import gt

from . import prices
from .actions import Action, ActionKind, LegalAction, Outcome
from .cards import CardError, cards_str, is_joker
from .deck import DECK_V1, CardProof, CardTree, Shuffle
from .errors import IllegalAction
from .evaluate import CARD_COUNT, Evaluator
from .pots import Pot, cut_pots, share
from .prices import chaal_top
from .rules import (
    AllIn,
    Bets,
    Direction,
    Rules,
    ShowCost,
    ShowSeenVsBlind,
    ShowTie,
    SideShow,
    Variant,
)

__all__ = ["EndedBy", "Hand", "HandResult"]

# The kinds of move as module constants: reading a member off its enum class costs a lookup
# through the class each time, and the moves are checked and listed at every turn.
_K_SEE, _K_CHAAL, _K_RAISE = ActionKind.SEE, ActionKind.CHAAL, ActionKind.RAISE
_K_PACK, _K_SHOW, _K_SIDESHOW = ActionKind.PACK, ActionKind.SHOW, ActionKind.SIDESHOW
_K_ACCEPT, _K_DECLINE, _K_ALLIN = ActionKind.ACCEPT, ActionKind.DECLINE, ActionKind.ALLIN

_SEE = LegalAction(_K_SEE)
_PACK = LegalAction(_K_PACK)
_ACCEPT = LegalAction(_K_ACCEPT)
_DECLINE = LegalAction(_K_DECLINE)

Refusal = tuple[str, str, tuple[object, ...]]
"""Why a move is not allowed now: a stable code, a sentence with ``{}`` for each value, and the
values. The sentence is written only when the refusal is raised (:func:`_error`), so that a check
that refuses costs one tuple, and listing the legal moves spends nothing on the ones that are
not."""


def _error(refusal: Refusal) -> IllegalAction:
    """The :class:`IllegalAction` a refusal raises."""
    code, template, values = refusal
    return IllegalAction(code, template.format(*values))


# The refusals without values that listing the legal moves meets most, made once.
_ALREADY_SEEN: Refusal = ("see/already_seen", "you have already seen your cards", ())
_SHOW_PLAYERS: Refusal = ("show/players", "a show needs exactly two players left in the hand", ())
_SIDE_SHOW_BLIND: Refusal = (
    "sideshow/blind",
    "see your cards before you ask for a side show",
    (),
)
_SIDE_SHOW_PLAYERS: Refusal = (
    "sideshow/players",
    "a side show needs three or more players in the hand",
    (),
)
_SIDE_SHOW_ALL_SEEN: Refusal = (
    "sideshow/all_seen",
    "a side show needs every player still in to be seen",
    (),
)


def _passed(checked: int | Refusal) -> int:
    """The cost a check returned, or raise the refusal it returned."""
    if type(checked) is int:
        return checked
    assert isinstance(checked, tuple)
    raise _error(checked)


class _Facts:
    """What a hand reads from its rules at every move, worked out once per :class:`Rules` (the
    rules never change; a member read off its enum class costs a lookup each time)."""

    __slots__ = (
        "all_in_showdown",
        "asker_loses",
        "blind_turns_max",
        "cap",
        "evaluator",
        "jokers",
        "limit",
        "limit_settles_shows",
        "quadruple",
        "range_bets",
        "range_stakes",
        "see_anytime",
        "seen_vs_blind_forbidden",
        "show_after_bet",
        "show_double",
        "sideshow_all_seen",
        "sideshow_off",
        "sideshow_previous",
        "step",
        "wild_rank",
    )

    def __init__(self, rules: Rules) -> None:
        self.evaluator = Evaluator.get(rules.ranking)
        self.cap = rules.stake_cap
        """The highest stake in chips, or ``None``."""
        self.limit = rules.pot_limit
        """The pot limit in chips, or ``None``."""
        self.step = -1 if rules.direction is Direction.ANTICLOCKWISE else 1
        self.range_bets = rules.bets is Bets.RANGE
        self.range_stakes = rules.range_max_stakes
        self.blind_turns_max = rules.blind_turns_max
        self.see_anytime = rules.see_anytime
        self.show_after_bet = rules.show_after_bet
        self.sideshow_all_seen = rules.sideshow_all_seen
        self.quadruple = rules.show_seen_vs_blind is ShowSeenVsBlind.QUADRUPLE
        self.seen_vs_blind_forbidden = rules.show_seen_vs_blind is ShowSeenVsBlind.FORBIDDEN
        self.show_double = rules.show_cost is ShowCost.DOUBLE
        self.sideshow_off = rules.sideshow is SideShow.OFF
        self.sideshow_previous = rules.sideshow is SideShow.PREVIOUS
        self.all_in_showdown = rules.all_in is AllIn.SHOWDOWN
        self.asker_loses = rules.show_tie is ShowTie.ASKER_LOSES
        self.limit_settles_shows = rules.edition >= 2
        """Whether a show whose payment brings the pot to its limit is settled by the pot
        limit's showdown (edition 2) rather than as a show (edition 1)."""
        self.wild_rank = rules.variant is Variant.WILD_RANK
        self.jokers = rules.variant is Variant.JOKERS


_FACTS: dict[int, tuple[Rules, _Facts]] = {}
"""The :class:`_Facts` of each rules object by its identity (each entry holds its rules, so an
identity is not reused while it is kept)."""


def _facts(rules: Rules) -> _Facts:
    known = _FACTS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    facts = _Facts(rules)
    if len(_FACTS) >= 1024:
        _FACTS.clear()
    _FACTS[id(rules)] = (rules, facts)
    return facts


_OPTIONS: dict[tuple[ActionKind, int, int, tuple[int, ...]], LegalAction] = {}
"""Legal moves with a cost, made once and shared (they are frozen): a few prices come up again
and again."""


def _option(kind: ActionKind, cost: int, most: int, targets: tuple[int, ...] = ()) -> LegalAction:
    if type(cost) is not int or type(most) is not int:
        return LegalAction(kind, cost, most, targets)
    key = (kind, cost, most, targets)
    option = _OPTIONS.get(key)
    if option is None:
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        option = _OPTIONS[key] = LegalAction(kind, cost, most, targets)
    return option


_CHAALS: dict[int, LegalAction] = {}
_RAISES: dict[int, LegalAction] = {}
"""The commonest legal moves with a cost (a chaal or a raise at one price), by their price."""


def _priced(known: dict[int, LegalAction], kind: ActionKind, cost: int) -> LegalAction:
    if len(known) >= 4096:
        known.clear()
    option = known[cost] = LegalAction(kind, cost, cost)
    return option


_RANGES: dict[tuple[int, int], LegalAction] = {}
"""Chaals under range bets, by their least and most cost."""


def _ranged(key: tuple[int, int]) -> LegalAction:
    if len(_RANGES) >= 4096:
        _RANGES.clear()
    option = _RANGES[key] = LegalAction(_K_CHAAL, *key)
    return option


_OUTCOMES: dict[tuple[int, int], Outcome] = {}
"""Outcomes without a side show's loser, made once and shared (they are frozen)."""


def _outcome(paid: int, stake: int) -> Outcome:
    if type(paid) is not int or type(stake) is not int:
        return Outcome(paid, stake)
    key = (paid, stake)
    outcome = _OUTCOMES.get(key)
    if outcome is None:
        if len(_OUTCOMES) >= 4096:
            _OUTCOMES.clear()
        outcome = _OUTCOMES[key] = Outcome(paid, stake)
    return outcome


def _NO_KEY(seat: int) -> int:
    """Every seat alike (the last player in takes the pot: there is nothing to compare)."""
    return 0


class EndedBy(StrEnum):
    """How a hand ended."""

    LAST_PLAYER = "last_player"
    SHOW = "show"
    POT_LIMIT = "pot_limit"
    ALL_IN = "all_in"


@dataclass(frozen=True, slots=True)
class HandResult:
    """Where a hand stands, as a history's ``result`` holds it and ``teenpatti replay`` prints
    it: a finished hand's chips, its pots and how it ended; an unfinished one's chips, pot, the
    seat to act, the stake and the seat asked for a side show (if one is asked).

    >>> HandResult(False, (990, 990), 20, to_act=1, stake=10).to_json()
    {'finished': False, 'chips': [990, 990], 'pot': 20, 'to_act': 1, 'stake': 10}
    """

    finished: bool
    chips: tuple[int, ...]
    pot: int
    pots: tuple[Pot, ...] = ()
    ended_by: EndedBy | None = None
    to_act: int | None = None
    stake: int | None = None
    waiting_for: int | None = None

    def to_json(self) -> dict[str, object]:
        """The result as JSON values, in the order a history writes them."""
        if self.finished:
            assert self.ended_by is not None
            return {
                "finished": True,
                "chips": list(self.chips),
                "pot": 0,
                "pots": [p.to_json() for p in self.pots],
                "ended_by": self.ended_by.value,
            }
        out: dict[str, object] = {
            "finished": False,
            "chips": list(self.chips),
            "pot": self.pot,
            "to_act": self.to_act,
            "stake": self.stake,
        }
        if self.waiting_for is not None:
            out["waiting_for"] = self.waiting_for
        return out


class Hand:
    """The state of one hand, from the boot to the settlement.

    ``chips`` are what each seat holds before the boot; a seat with none sits the hand out. Give
    the dealt ``cards`` (three per seat with chips, ``None`` for the others) or a ``seed``: a
    :class:`~teenpatti.engine.deck.Shuffle` (the server's secret and the players' parts), or 32
    bytes read as a ``teenpatti-deck/1`` seed; the deck it decides is dealt one card at a time
    from the first to act, in the direction of play. Under ``wild_rank`` the card turned up after
    the deal is ``wild`` (the next card of the deck when a seed is given).
    """

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_cap",
        "_facts",
        "_limit",
        "_offered",
        "_offered_at",
        "_offered_seat",
        "_proofs",
        "_rest",
        "_tree",
        "dealt",
        "deck",
        "evaluator",
        "first",
        "order",
        "step",
        "strength",
    )
    # The state is in the instance's dictionary (``vars(hand)``): the rules, the seats, the deal
    # and everything play changes. What is worked out from it once and never changes (the rules'
    # facts, the order of play, the deck drawn from the shuffle, the strength of each hand, the
    # card tree and its proofs) and the legal moves last listed are in slots. Besides saving
    # their lookups, this keeps the dictionary under the 30 keys an instance's dictionary can
    # share with the others of its class: past them, every one is a whole dictionary of its own,
    # slower to make and to read.

    def __init__(
        self,
        rules: Rules,
        chips: Sequence[int],
        dealer: int,
        cards: Sequence[Sequence[int] | None] | None = None,
        *,
        seed: bytes | Shuffle | None = None,
        wild: int | None = None,
    ) -> None:
        n = len(chips)
        if not rules.min_players <= n <= rules.max_players:
            raise IllegalAction(
                "hand/players",
                f"the {rules.preset} table seats {rules.min_players} to {rules.max_players}"
                f" players, not {n}",
            )
        for c in chips:
            if type(c) is not int or c < 0:
                if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in chips):
                    raise IllegalAction(
                        "hand/chips", "chips must be whole numbers, none below zero"
                    )
                break
        if not 0 <= dealer < n:
            raise IllegalAction("hand/dealer", f"there is no seat {dealer} to deal")
        facts = self._facts = _facts(rules)
        self.rules = rules
        self.evaluator = facts.evaluator
        self._cap = facts.cap
        """The highest stake in chips, or ``None`` (worked out once: the rules never change)."""
        self._limit = facts.limit
        """The pot limit in chips, or ``None``."""
        self._offered_at = -1
        self._offered_seat = -1
        self._offered: list[LegalAction] = []
        """The legal moves last listed, for :attr:`_offered_seat` after :attr:`_offered_at`
        moves (a hand changes only by a logged move, so the list holds until the next one)."""
        self.seats = n
        self.dealer = dealer
        step = self.step = facts.step
        self.start_chips: list[int] = list(chips)
        dealt = self.dealt = [c > 0 for c in chips]
        order = self.order = [(dealer + step * k) % n for k in range(1, n + 1)]
        """Every seat in order of play, starting after the dealer."""
        deal_order = order if False not in dealt else [s for s in order if dealt[s]]
        players = len(deal_order)
        if players < 2:
            raise IllegalAction("hand/players", "a hand needs at least two players with chips")
        first = self.first = deal_order[0]
        if seed is not None and type(seed) is not Shuffle and isinstance(seed, bytes | bytearray):
            seed = Shuffle(bytes(seed), version=DECK_V1)
        self.shuffle: Shuffle | None = seed
        """How the deck was decided (``None`` when the cards were given)."""
        self.deck: list[int] = []
        """The cards dealt from the shuffle, in dealing order (the card turned up last)."""
        self._tree: CardTree | None = None
        self._proofs: dict[int, list[CardProof]] = {}
        self.cards: list[tuple[int, ...] | None] = self._deal(cards, seed, deal_order)
        if facts.wild_rank and wild is None:
            if not self._rest:
                raise IllegalAction(
                    "hand/wild", "under wild_rank, give the card turned up with the dealt cards"
                )
            wild = self._rest[0]
        if wild is not None:
            if not facts.wild_rank:
                raise IllegalAction("hand/cards", "a card is turned up only under wild_rank")
            if wild in self._all_cards() or not 0 <= wild < 52:
                raise IllegalAction("hand/cards", "the wild card must be another standard card")
        self.wild = wild
        table = self.evaluator.table(wild)
        sa, sb = CARD_COUNT * CARD_COUNT, CARD_COUNT  # the table's index (``table_index``)
        self.strength: list[int] = [
            table[c[0] * sa + c[1] * sb + c[2]] if c else -1 for c in self.cards
        ]
        self.live: list[bool] = list(dealt)
        self.in_count = players
        """How many seats are still in the hand."""
        self.seen: list[bool] = [False] * n
        self.blind_turns: list[int] = [0] * n
        self.has_bet: list[bool] = [False] * n
        """Who has bet this hand (a chaal, raise, all in or side show; the boot is no bet): only
        they can be asked for a side show."""
        boot = self.stake = rules.boot
        self.bet_made = False
        self.to_act: int | None = first
        self.side_show: tuple[int, int] | None = None
        """``(asker, asked)`` while a side show waits for its answer."""
        self.side_shows: list[tuple[int, int]] = []
        """Accepted side shows: each pair has seen both hands."""
        self.shown: list[bool] = [False] * n
        self.finished = False
        self.ended_by: EndedBy | None = None
        self.pots: list[Pot] = []
        self.won: list[int] = [0] * n
        self.log: list[Action] = []
        """Every move so far, as played (a side show names the seat it asked)."""
        self.outcomes: list[Outcome] = []
        """What each move in :attr:`log` did: chips paid, the stake after it, a side show's
        loser."""
        # The boot, from every seat dealt in (what ``_pay`` does, seat by seat; the whole boot
        # or every chip a seat has), and the end if that brings the showdown (``_stopped``).
        left: list[int] = list(chips)
        contributed: list[int] = [0] * n
        all_in: list[bool] = [False] * n
        in_pot = 0
        for seat, dealt_in in enumerate(dealt):
            if dealt_in:
                have = left[seat]
                if have > boot:
                    left[seat] = have - boot
                    contributed[seat] = boot
                    in_pot += boot
                else:
                    left[seat] = 0
                    contributed[seat] = have
                    in_pot += have
                    all_in[seat] = True
        self.chips: list[int] = left
        self.contributed: list[int] = contributed
        self.all_in: list[bool] = all_in
        self._in_pot = in_pot
        """The sum of :attr:`contributed`, kept as chips go in."""
        self._stopped()

    # ------------------------------------------------------------------ the deal
    @property
    def seed(self) -> bytes | None:
        """The deck's seed (``None`` when the cards were given)."""
        return None if self.shuffle is None else self.shuffle.seed

    @property
    def deal_order(self) -> list[int]:
        """The seats dealt in, in the order they receive cards (the first to act first)."""
        return [s for s in self.order if self.dealt[s]]

    def positions(self, seat: int) -> list[int]:
        """Where in the dealing order ``seat``'s three cards were dealt (empty if not dealt)."""
        order = self.deal_order
        if seat not in order:
            return []
        k = order.index(seat)
        return [k, k + len(order), k + 2 * len(order)]

    @property
    def tree(self) -> CardTree | None:
        """The commitment to each card dealt (``teenpatti-deck/2`` shuffles only), built once."""
        shuffle = self.shuffle
        if shuffle is None or shuffle.version == DECK_V1:
            return None
        if self._tree is None:
            self._tree = CardTree(shuffle.seed, self.deck)
        return self._tree

    def proofs(self, seat: int) -> list[CardProof] | None:
        """The proofs of ``seat``'s three cards against the published root (see
        :meth:`CardTree.proof`), or ``None`` without a ``teenpatti-deck/2`` shuffle."""
        tree = self.tree
        if tree is None or self.cards[seat] is None:
            return None
        proofs = self._proofs.get(seat)
        if proofs is None:
            proofs = self._proofs[seat] = [tree.proof(p) for p in self.positions(seat)]
        return proofs

    def wild_proof(self) -> CardProof | None:
        """The proof of the card turned up under ``wild_rank``, or ``None``."""
        tree = self.tree
        if tree is None or self.wild is None or len(self.deck) <= 3 * len(self.deal_order):
            return None
        return tree.proof(3 * len(self.deal_order))

    # ------------------------------------------------------------------ set-up
    def _all_cards(self) -> list[int]:
        return [c for hand in self.cards if hand for c in hand]

    def _deal(
        self,
        cards: Sequence[Sequence[int] | None] | None,
        seed: Shuffle | None,
        order: list[int],
    ) -> list[tuple[int, ...] | None]:
        """The cards of each seat: given, or dealt from ``seed`` to the seats in ``order`` (the
        :attr:`deal_order`)."""
        n = self.seats
        self._rest: list[int] = []
        jokers = self._facts.jokers
        if cards is None:
            if seed is None:
                raise IllegalAction("hand/cards", "give the dealt cards or a seed to deal from")
            players = len(order)
            count = 3 * players + self._facts.wild_rank
            self.deck = deck = seed.cards(count, jokers=jokers)
            # (as deal() gives them: card k to order[k % players]; the seats are distinct)
            hands: list[tuple[int, ...] | None] = [None] * n
            for k, s in enumerate(order):
                hands[s] = (deck[k], deck[k + players], deck[k + 2 * players])
            self._rest = deck[3 * players :]
            return hands
        if len(cards) != n:
            raise IllegalAction("hand/cards", f"{len(cards)} hands given for {n} seats")
        out: list[tuple[int, ...] | None] = []
        seen_cards: set[int] = set()
        for seat, hand in enumerate(cards):
            if not self.dealt[seat]:
                if hand:
                    raise IllegalAction(
                        "hand/cards", f"seat {seat} has no chips and is dealt no cards"
                    )
                out.append(None)
                continue
            if hand is None or len(hand) != 3:
                raise IllegalAction("hand/cards", f"seat {seat} must have exactly three cards")
            for card in hand:
                if not 0 <= card < 54 or (is_joker(card) and not jokers):
                    raise IllegalAction("hand/cards", f"seat {seat} holds a card not in this pack")
                if card in seen_cards:
                    try:
                        name = cards_str([card])
                    except CardError:
                        name = str(card)
                    raise IllegalAction("hand/cards", f"{name} is dealt twice")
                seen_cards.add(card)
            out.append(tuple(hand))
        return out

    # ------------------------------------------------------------------ reading the state
    @property
    def pot(self) -> int:
        """Chips in the pot now (0 once the hand is settled)."""
        return 0 if self.finished else self._in_pot

    @property
    def players_in(self) -> list[int]:
        """Seats still in the hand (dealt and not packed), in seat order."""
        return [s for s in range(self.seats) if self.live[s]]

    @property
    def actor(self) -> int | None:
        """The seat the hand waits for: the seat asked for a side show, else the seat to act
        (``None`` once the hand is over)."""
        return self.to_act if self.side_show is None else self.side_show[1]

    @property
    def waiting_for(self) -> int | None:
        """The seat asked for a side show, while it has not answered."""
        return None if self.side_show is None else self.side_show[1]

    def next_in(self, seat: int) -> int:
        """The next seat after ``seat`` in the direction of play that is still in the hand."""
        n, step = self.seats, self.step
        s = (seat + step) % n
        while not self.live[s]:
            s = (s + step) % n
        return s

    def previous_in(self, seat: int) -> int:
        """The seat still in the hand that plays just before ``seat``."""
        n, step = self.seats, self.step
        s = (seat - step) % n
        while not self.live[s]:
            s = (s - step) % n
        return s

    def chaal_cost(self, seat: int) -> int:
        """What a chaal costs ``seat`` now: the stake blind, twice the stake seen (the least,
        under range bets)."""
        return prices.chaal_cost(self.stake, self.seen[seat])

    def show_cost(self, seat: int) -> int:
        """What asking for a show costs ``seat`` now (where the rules allow it)."""
        seen = self.seen
        other = seen[self.next_in(seat)]
        cost = prices.show_cost(self.rules, self.stake, seen[seat], other)
        if cost is None:  # forbidden (``_show`` refuses it first): what it would cost allowed
            cost = prices.show_cost(self.rules, self.stake, seen[seat], True)
            assert cost is not None
        return cost

    def _max_chaal(self, seat: int) -> int:
        """:func:`prices.max_chaal`, from the rules' numbers worked out once."""
        facts = self._facts
        return chaal_top(self.stake, self.seen[seat], facts.range_stakes, facts.cap)

    def _all_seen(self) -> bool:
        """Whether every player still in has seen their cards."""
        return True not in map(gt, self.live, self.seen)  # (live > seen: in and blind)

    def can_see(self, seat: int) -> bool:
        """Whether ``seat`` may look at its cards now."""
        return self._check_seat(seat) is None and type(self._see(seat)) is int

    def legal_actions(self, seat: int | None = None) -> list[LegalAction]:
        """What ``seat`` (default: the seat to act, or the seat asked for a side show) may do
        now, each with its cost, in the order buttons show them.

        Each option is one whose check passes (the same checks :meth:`verify` and the
        ``verify_*`` methods raise from), so this list and :meth:`verify` cannot disagree. The
        checks share their first stages (the seat is in, it is its turn, it may bet): each stage
        is run once here, and an option is tried only when its stages have passed. The list is
        kept until the next move: asking again costs a copy. It offers moves and never lets one
        in: :meth:`apply` checks every move through the gate.
        """
        if self.finished:
            return []
        if seat is None:  # (actor)
            pending = self.side_show
            seat = self.to_act if pending is None else pending[1]
            assert seat is not None
        moves = len(self.log)
        if moves == self._offered_at and seat == self._offered_seat and type(seat) is int:
            return list(self._offered)
        out = self._options(seat)
        if type(seat) is int:
            self._offered_at, self._offered_seat, self._offered = moves, seat, out
        return list(out)

    def _options(self, seat: int) -> list[LegalAction]:
        """The options of :meth:`legal_actions`, worked out through the checks that refuse a
        move: a move is listed only where its stages and its own check pass, so nothing here
        restates a rule. A stage that refuses (not the seat's turn, past the blind-turn limit)
        is run once and closes every move behind it."""
        if self._check_seat(seat) is not None:
            return []
        out: list[LegalAction] = []
        if type(self._see(seat)) is int:
            out.append(_SEE)
        if self._check_turn(seat) is not None:
            if type(self._answer(seat)) is int:
                out += (_ACCEPT, _DECLINE)
            return out
        if self._check_bet(seat) is None:  # the moves that put chips in
            facts = self._facts
            cost = self._chaal(seat, None)
            if type(cost) is int:
                if facts.range_bets:  # anything from the chaal to its top, as chips allow
                    most = self._max_chaal(seat)
                    chips = self.chips[seat]
                    if chips < most:
                        most = chips
                    key = (cost, most)
                    out.append(_RANGES.get(key) or _ranged(key))
                else:
                    out.append(_CHAALS.get(cost) or _priced(_CHAALS, _K_CHAAL, cost))
            cost = self._raise(seat)
            if type(cost) is int:
                out.append(_RAISES.get(cost) or _priced(_RAISES, _K_RAISE, cost))
            cost = self._show(seat)
            if type(cost) is int:
                out.append(_option(_K_SHOW, cost, cost, (self.next_in(seat),)))
            if self._side_show_asker(seat) is None:
                side_show = self._side_show_target
                if facts.sideshow_previous:  # the one seat it may ask: the check's default
                    cost = side_show(seat, None)
                    if type(cost) is int:
                        out.append(_option(_K_SIDESHOW, cost, cost, (self.previous_in(seat),)))
                else:
                    targets, paid = [], 0
                    for t in self.order:
                        checked = side_show(seat, t)
                        if type(checked) is int:
                            paid = checked
                            targets.append(t)
                    if targets:
                        out.append(_option(_K_SIDESHOW, paid, paid, tuple(targets)))
            cost = self._all_in(seat)
            if type(cost) is int:
                out.append(_option(_K_ALLIN, cost, cost))
        if type(self._pack(seat)) is int:
            out.append(_PACK)
        return out

    # ------------------------------------------------------------------ checking a move
    def verify(self, action: Action) -> int:
        """Raise :class:`IllegalAction` unless ``action`` is legal now; return what it costs.

        Nothing changes, whatever the outcome. Each kind of move has its own check
        (:meth:`verify_see`, :meth:`verify_chaal`, ...), the same ones :meth:`legal_actions`
        lists the options from.
        """
        return _passed(self._check(action))

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return type(self._check(action)) is int

    def _check(self, action: Action) -> int | Refusal:
        """What ``action`` costs if it is legal now, else why not (the gate of :meth:`verify`)."""
        seat, kind = action.seat, action.kind
        refused = self._check_seat(seat)
        if refused is not None:
            return refused
        if action.target is not None and kind is not _K_SIDESHOW:
            return ("action/malformed", "{} does not take a seat to ask", (kind,))
        if action.amount is not None and kind is not _K_CHAAL:
            return ("action/malformed", "{} does not take an amount", (kind,))
        if kind is _K_SEE:
            return self._see(seat)
        if kind is _K_ACCEPT or kind is _K_DECLINE:
            return self._answer(seat)
        refused = self._check_turn(seat)
        if refused is not None:
            return refused
        if kind is _K_PACK:
            return self._pack(seat)
        refused = self._check_bet(seat)
        if refused is not None:
            return refused
        if kind is _K_CHAAL:
            return self._chaal(seat, action.amount)
        if kind is _K_RAISE:
            return self._raise(seat)
        if kind is _K_ALLIN:
            return self._all_in(seat)
        if kind is _K_SHOW:
            return self._show(seat)
        return self._side_show(seat, action.target)

    # The checks come in stages: ``_check_seat`` (the hand is on and the seat in it), then
    # ``_check_turn`` (its turn, no side show waiting), then ``_check_bet`` (it may put chips
    # in); each returns ``None`` when it passes, else the :data:`Refusal`. A move's own check
    # (``_see``, ``_chaal``, ...) runs once its stages have passed and returns the cost or the
    # refusal. The public ``verify_*`` methods run the stages and the move's check and raise.

    def _check_seat(self, seat: int) -> Refusal | None:
        """The hand is on and ``seat`` is still in it."""
        if self.finished:
            return ("hand/over", "the hand is over", ())
        if type(seat) is not int or not 0 <= seat < self.seats:  # a bool is no seat
            return ("seat/unknown", "there is no seat {}", (seat,))
        if not self.live[seat]:
            why = "has packed" if self.dealt[seat] else "is not in this hand"
            return ("seat/out", "seat {} {}", (seat, why))
        return None

    def _check_turn(self, seat: int) -> Refusal | None:
        """(After :meth:`_check_seat`.) It is ``seat``'s turn and no side show waits."""
        pending = self.side_show
        if pending is not None:
            if seat == pending[1]:
                return (
                    "sideshow/pending",
                    "you were asked for a side show: accept or decline it",
                    (),
                )
            return (
                "sideshow/pending",
                "waiting for seat {} to answer the side show",
                (pending[1],),
            )
        if seat != self.to_act:
            return self._not_your_turn(seat, "act")
        return None

    def _check_bet(self, seat: int) -> Refusal | None:
        """(After :meth:`_check_turn`.) ``seat`` is not past the blind-turn limit."""
        limit = self._facts.blind_turns_max
        if limit is not None and not self.seen[seat] and self.blind_turns[seat] >= limit:
            return (
                "blind/limit",
                "you have played {} blind turns: see your cards (or pack) first",
                (limit,),
            )
        return None

    def _not_your_turn(self, seat: int, what: str) -> Refusal:
        return (
            "turn/not_yours",
            "it is seat {}'s turn, not seat {}'s: you cannot {} now",
            (self.to_act, seat, what),
        )

    def _see(self, seat: int) -> int | Refusal:
        if self.seen[seat]:
            return _ALREADY_SEEN
        if not (self._facts.see_anytime or (seat == self.to_act and self.side_show is None)):
            return self._not_your_turn(seat, "see your cards")
        return 0

    def _answer(self, seat: int) -> int | Refusal:
        pending = self.side_show
        if pending is None:
            return ("sideshow/not_asked", "nobody has asked you for a side show", ())
        if seat != pending[1]:
            return (
                "sideshow/not_asked",
                "the side show was asked of seat {}, not you",
                (pending[1],),
            )
        return 0

    def _pack(self, seat: int) -> int | Refusal:
        return 0  # whoever's turn it is may pack

    def _chaal(self, seat: int, amount: int | None) -> int | Refusal:
        chips = self.chips[seat]
        cost = self.stake * 2 if self.seen[seat] else self.stake  # (chaal_cost)
        if amount is None or amount == cost:
            if chips < cost:
                return (
                    "chaal/cannot_afford",
                    "you cannot afford your chaal of {}: go all in or pack",
                    (cost,),
                )
            return cost
        if not self._facts.range_bets:
            return ("chaal/amount", "a chaal costs exactly {} now", (cost,))
        top = self._max_chaal(seat)
        if not cost <= amount <= top:
            return (
                "chaal/amount",
                "your chaal must be from {} to {}, not {}",
                (cost, top, amount),
            )
        if amount > chips:
            return ("chaal/cannot_afford", "you have only {} chips, not {}", (chips, amount))
        return amount

    def _raise(self, seat: int) -> int | Refusal:
        cap = self._cap
        if cap is not None and self.stake * 2 > cap:
            return (
                "raise/stake_cap",
                "the stake cannot go above {}, so there is no raise",
                (self.rules.stake_cap,),
            )
        cost = self.stake * 4 if self.seen[seat] else self.stake * 2  # twice the chaal
        if self.chips[seat] < cost:
            return ("raise/cannot_afford", "you cannot afford a raise of {}", (cost,))
        return cost

    def _all_in(self, seat: int) -> int | Refusal:
        cost = self.stake * 2 if self.seen[seat] else self.stake  # (chaal_cost)
        chips = self.chips[seat]
        if chips >= cost:
            return (
                "allin/can_afford",
                "you can afford your chaal of {}: all in is only for a player who cannot",
                (cost,),
            )
        if not self._may_go_all_in():
            return (
                "allin/players",
                "there is no showdown among three or more at this table: with three or more"
                " still in, a player short of their chaal can only pack",
                (),
            )
        return chips

    def _show(self, seat: int) -> int | Refusal:
        if self.in_count != 2:
            return _SHOW_PLAYERS
        if self._facts.show_after_bet and not self.bet_made:
            return (
                "show/after_bet",
                "a show can be asked only once someone has paid a chaal or a raise this hand",
                (),
            )
        seen = self.seen
        if self._facts.seen_vs_blind_forbidden and seen[seat] and not seen[self.next_in(seat)]:
            return ("show/seen_vs_blind", "a seen player cannot ask a blind player for a show", ())
        cost = self.show_cost(seat)
        if self.chips[seat] < cost:
            return ("show/cannot_afford", "you cannot afford a show of {}", (cost,))
        return cost

    def _side_show(self, seat: int, target: int | None) -> int | Refusal:
        return self._side_show_asker(seat) or self._side_show_target(seat, target)

    def _side_show_asker(self, seat: int) -> Refusal | None:
        """The part of a side show's check that does not depend on the seat asked."""
        facts = self._facts
        if facts.sideshow_off:
            return ("sideshow/off", "this table plays without side shows", ())
        if self.in_count < 3:
            return _SIDE_SHOW_PLAYERS
        if not self.seen[seat]:
            return _SIDE_SHOW_BLIND
        if facts.sideshow_all_seen and not self._all_seen():
            return _SIDE_SHOW_ALL_SEEN
        return None

    def _side_show_target(self, seat: int, target: int | None) -> int | Refusal:
        """(After :meth:`_side_show_asker`.) ``target`` may be asked; the cost."""
        if self._facts.sideshow_previous:
            prev = self.previous_in(seat)
            if target is not None and target != prev:
                return (
                    "sideshow/not_previous",
                    "you can ask only the player before you (seat {}) for a side show",
                    (prev,),
                )
            target = prev
            if not self.has_bet[prev]:
                return (
                    "sideshow/not_bet",
                    "seat {}, the player before you, has not bet yet this hand: you can ask"
                    " only the player whose bet came just before your turn",
                    (prev,),
                )
        elif (
            target is None
            or not 0 <= target < self.seats
            or target == seat
            or not self.live[target]
        ):
            return (
                "sideshow/target",
                "name another player still in the hand to ask for a side show",
                (),
            )
        if not self.has_bet[target]:
            return (
                "sideshow/not_bet",
                "seat {} has not bet yet this hand and cannot be asked for a side show",
                (target,),
            )
        if not self.seen[target]:
            return (
                "sideshow/target_blind",
                "seat {} is blind and cannot be asked for a side show",
                (target,),
            )
        cost = self.stake * 2
        if self.chips[seat] < cost:
            return ("sideshow/cannot_afford", "you cannot afford a side show of {}", (cost,))
        return cost

    def verify_see(self, seat: int) -> int:
        """Check that ``seat`` may look at its cards now (free: returns 0)."""
        return _passed(self._check_seat(seat) or self._see(seat))

    def verify_answer(self, seat: int) -> int:
        """Check that ``seat`` may accept or decline a side show now (free: returns 0)."""
        return _passed(self._check_seat(seat) or self._answer(seat))

    def verify_pack(self, seat: int) -> int:
        """Check that ``seat`` may pack now (free: returns 0)."""
        return _passed(self._check_seat(seat) or self._check_turn(seat) or self._pack(seat))

    def _stages_to_bet(self, seat: int) -> Refusal | None:
        return self._check_seat(seat) or self._check_turn(seat) or self._check_bet(seat)

    def verify_chaal(self, seat: int, amount: int | None = None) -> int:
        """Check ``seat``'s chaal (of ``amount``, under range bets); return what it pays."""
        return _passed(self._stages_to_bet(seat) or self._chaal(seat, amount))

    def verify_raise(self, seat: int) -> int:
        """Check ``seat``'s raise; return what it pays (twice its chaal)."""
        return _passed(self._stages_to_bet(seat) or self._raise(seat))

    def verify_all_in(self, seat: int) -> int:
        """Check that ``seat``, short of its chaal, may go all in; return its chips."""
        return _passed(self._stages_to_bet(seat) or self._all_in(seat))

    def verify_show(self, seat: int) -> int:
        """Check ``seat``'s request for a show; return what it pays."""
        return _passed(self._stages_to_bet(seat) or self._show(seat))

    def verify_side_show(self, seat: int, target: int | None = None) -> int:
        """Check ``seat``'s request for a side show with ``target`` (default: the previous
        player, under ``sideshow: previous``); return what it pays."""
        return _passed(self._stages_to_bet(seat) or self._side_show(seat, target))

    # ------------------------------------------------------------------ playing a move
    def apply(self, action: Action) -> Action:
        """Play ``action`` if it is legal (else raise :class:`IllegalAction`, changing nothing);
        return it as recorded in :attr:`log` (a side show records the seat it asked).

        Every move goes through the gate (:meth:`_check`, what :meth:`verify` runs), whether or
        not it was taken from :meth:`legal_actions`: the list offers moves, it never lets one
        in."""
        log = self.log
        cost = self._check(action)
        if type(cost) is not int:
            assert isinstance(cost, tuple)
            raise _error(cost)
        seat, kind = action.seat, action.kind
        if kind is _K_SIDESHOW and action.target is None:
            action = Action(seat, kind, None, self.previous_in(seat))
        log.append(action)
        loser: int | None = None
        if kind is _K_CHAAL or kind is _K_RAISE or kind is _K_ALLIN:
            self._bet(seat, kind, cost)
        elif kind is _K_SEE:
            self.seen[seat] = True
        elif kind is _K_PACK:
            self.live[seat] = False
            self.in_count -= 1
            self._next_turn(seat)
        elif kind is _K_SHOW:
            self._pay(seat, cost)
            if self._facts.limit_settles_shows and self._pot_limit_reached():
                # The same chips as a chaal that reaches the limit: the pot limit's showdown
                # decides, equal best hands share (asking to see is never worse than betting).
                self._showdown(EndedBy.POT_LIMIT)
            else:
                self._showdown(EndedBy.SHOW, asker=seat)
        elif kind is _K_SIDESHOW:
            self._pay(seat, cost)
            self.bet_made = True
            self.has_bet[seat] = True
            if not self._stopped():
                assert action.target is not None
                self.side_show = (seat, action.target)
        else:
            loser = self._answer_side_show(kind is _K_ACCEPT)
        if loser is None:
            key = (cost, self.stake)
            self.outcomes.append(_OUTCOMES.get(key) or _outcome(*key))
        else:
            self.outcomes.append(Outcome(cost, self.stake, loser))
        return action

    def _bet(self, seat: int, kind: ActionKind, cost: int) -> None:
        seen = self.seen[seat]
        if not seen:
            self.blind_turns[seat] += 1
        left = self.chips[seat] - cost  # (_pay)
        self.chips[seat] = left
        self.contributed[seat] += cost
        self._in_pot += cost
        if left == 0:
            self.all_in[seat] = True
        self.bet_made = True
        self.has_bet[seat] = True
        if kind is not _K_ALLIN:
            new_stake = cost // 2 if seen else cost
            cap = self._cap
            if cap is not None and new_stake > cap:
                new_stake = cap
            if new_stake > self.stake:
                self.stake = new_stake
        if not self._stopped():
            # (_next_turn: a bet leaves everyone in, and no all in brought the showdown)
            self.to_act = self.next_in(seat)

    def _answer_side_show(self, accepted: bool) -> int | None:
        """Settle the side show waiting for its answer; return the seat it knocked out."""
        assert self.side_show is not None
        asker, asked = self.side_show
        self.side_show = None
        loser: int | None = None
        if accepted:
            self.side_shows.append((asker, asked))
            loser = asked if self.strength[asker] > self.strength[asked] else asker
            self.live[loser] = False
            self.in_count -= 1
        self._next_turn(asker)
        return loser

    def _pay(self, seat: int, amount: int) -> None:
        left = self.chips[seat] - amount
        self.chips[seat] = left
        self.contributed[seat] += amount
        self._in_pot += amount
        if left == 0:
            self.all_in[seat] = True

    def _pot_limit_reached(self) -> bool:
        limit = self._limit
        return limit is not None and self._in_pot >= limit

    def _may_go_all_in(self) -> bool:
        """Whether a player short of their chaal may go all in now: always, except that with
        ``all_in: two_left`` there is no showdown among three or more."""
        return self._facts.all_in_showdown or self.in_count == 2

    def _all_in_shows(self) -> bool:
        """Whether a player still in is all in and that brings the showdown now."""
        if True not in self.all_in:
            return False
        live = self.live
        for seat, out_of_chips in enumerate(self.all_in):
            if out_of_chips and live[seat]:
                return self._may_go_all_in()
        return False

    def _stopped(self) -> bool:
        """After a payment: end the hand if an all in brings the showdown or the pot limit is
        reached."""
        limit = self._limit
        if True in self.all_in and self._all_in_shows():
            self._showdown(EndedBy.ALL_IN)
        elif limit is not None and self._in_pot >= limit:  # (_pot_limit_reached)
            self._showdown(EndedBy.POT_LIMIT)
        else:
            return False
        return True

    def _next_turn(self, seat: int) -> None:
        if self.in_count == 1:
            self._settle(EndedBy.LAST_PLAYER, _NO_KEY)
        elif True in self.all_in and self._all_in_shows():  # two_left: the last two, one out
            self._showdown(EndedBy.ALL_IN)
        else:
            self.to_act = self.next_in(seat)

    # ------------------------------------------------------------------ the end
    def _showdown(self, ended_by: EndedBy, asker: int | None = None) -> None:
        shown = self.shown
        for s in compress(range(self.seats), self.live):
            shown[s] = True
        strength = self.strength
        if asker is not None and self._facts.asker_loses:
            self._settle(ended_by, lambda s: strength[s] * 2 + (s != asker))
        else:
            self._settle(ended_by, strength.__getitem__)

    def _settle(self, ended_by: EndedBy, key: Callable[[int], int]) -> None:
        live, all_in = self.live, self.all_in
        pots: list[Pot] | None = None
        if True in all_in:
            pots = cut_pots(self.contributed, live, all_in)
            amount, eligible = (pots[0].amount, pots[0].eligible) if len(pots) == 1 else (0, ())
        else:  # one pot, for everyone still in (what cut_pots gives when nobody is all in)
            amount, eligible = self._in_pot, tuple(compress(range(self.seats), live))
        winner = None  # of the one pot, if it has one winner: what share gives, without odd chips
        if amount:
            if len(eligible) == 1:
                winner = eligible[0]
            else:
                keys = list(map(key, eligible))
                best = max(keys)
                if keys.count(best) == 1:
                    winner = eligible[keys.index(best)]
        won, chips = self.won, self.chips
        if winner is not None:
            won[winner] += amount
            chips[winner] += amount
            self.pots = [Pot(amount, eligible, (winner,))]
        else:
            if pots is None:
                pots = [Pot(amount, eligible)] if amount else []
            self.pots = []
            for pot, amounts in share(pots, key, self.order):
                self.pots.append(pot)
                for seat, paid in amounts.items():
                    won[seat] += paid
                    chips[seat] += paid
        self.finished = True
        self.ended_by = ended_by
        self.to_act = None
        self.side_show = None

    # ------------------------------------------------------------------ shortcuts
    def see(self, seat: int) -> Action:
        """``seat`` looks at its cards."""
        return self.apply(Action(seat, ActionKind.SEE))

    def chaal(self, seat: int, amount: int | None = None) -> Action:
        """``seat`` pays its chaal (``amount``, under range bets)."""
        return self.apply(Action(seat, ActionKind.CHAAL, amount))

    def raise_(self, seat: int) -> Action:
        """``seat`` raises: pays twice its chaal and doubles the stake."""
        return self.apply(Action(seat, ActionKind.RAISE))

    def pack(self, seat: int) -> Action:
        """``seat`` gives up the hand."""
        return self.apply(Action(seat, ActionKind.PACK))

    def show(self, seat: int) -> Action:
        """``seat`` pays and asks for a show."""
        return self.apply(Action(seat, ActionKind.SHOW))

    def side_show_ask(self, seat: int, target: int | None = None) -> Action:
        """``seat`` pays a seen chaal and asks ``target`` (default: the previous player) for a
        side show."""
        return self.apply(Action(seat, ActionKind.SIDESHOW, None, target))

    def accept(self, seat: int) -> Action:
        """The asked seat accepts the side show."""
        return self.apply(Action(seat, ActionKind.ACCEPT))

    def decline(self, seat: int) -> Action:
        """The asked seat declines the side show."""
        return self.apply(Action(seat, ActionKind.DECLINE))

    def go_all_in(self, seat: int) -> Action:
        """``seat``, short of its chaal, puts in every chip it has."""
        return self.apply(Action(seat, ActionKind.ALLIN))

    def result(self) -> HandResult:
        """Where the hand stands: how it ended, or whose turn it is (see :class:`HandResult`)."""
        if self.finished:
            assert self.ended_by is not None
            return HandResult(True, tuple(self.chips), 0, tuple(self.pots), self.ended_by)
        asked = None if self.side_show is None else self.side_show[1]
        return HandResult(
            False,
            tuple(self.chips),
            self.pot,
            to_act=self.to_act,
            stake=self.stake,
            waiting_for=asked,
        )
