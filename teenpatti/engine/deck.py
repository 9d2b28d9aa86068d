"""The fair deck: a secret seed per hand, its published commitment, and the shuffle it decides.

Two versions exist. ``teenpatti-deck/1`` (below) shuffles the whole deck from the server's seed
alone; old histories name it and still verify. ``teenpatti-deck/2`` (:class:`Shuffle`,
:func:`deck_seed`, :func:`draw`, :class:`CardTree`) mixes every player's contribution into the
seed, draws only the cards dealt, and commits to each card apart; ``docs/protocol.md`` spells it
out for other programs.

``teenpatti-deck/1``:

Before the deal the server draws a fresh secret seed of 32 bytes (the engine draws none) and
publishes :func:`commitment`, the SHA-256 of the seed as lowercase hex. After the hand it reveals
the seed; anyone can then check the commitment and re-derive the deck exactly like this:

1. Start from the cards in ascending order: ``[0, 1, ..., 51]``, then ``52, 53`` when the pack has
   jokers. A card is ``rank_index * 4 + suit_index`` (rank 0 = two .. 12 = ace; suit 0 clubs,
   1 diamonds, 2 hearts, 3 spades); 52 and 53 are the jokers.
2. Random words: for ``counter = 0, 1, 2, ...`` compute
   ``block = HMAC-SHA256(key=seed, msg=b"teenpatti-deck/1" + counter.to_bytes(8, "big"))`` and
   cut each 32-byte block into eight 32-bit big-endian unsigned words, first bytes first. The words
   of block 0, then of block 1, and so on, form one stream, read in order.
3. Fisher-Yates: for ``i`` from ``n - 1`` down to ``1`` (``n`` the number of cards), let
   ``m = i + 1`` and ``limit = (2**32 // m) * m``; take the next word ``w`` of the stream; if
   ``w >= limit`` throw it away and take the next one (rejection sampling: no modulo bias);
   otherwise ``j = w % m``, and swap the cards at positions ``i`` and ``j``.
4. The result is the deck, top card first (position 0 is dealt first).

:func:`deal` then gives the cards out one at a time in the order of play.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "DECKS",
    "DECK_V1",
    "DECK_V2",
    "DOMAIN",
    "PART_BYTES",
    "SEED_BYTES",
    "CardProof",
    "CardTree",
    "Shuffle",
    "card_leaf",
    "card_salt",
    "check_card",
    "commitment",
    "deal",
    "deck_seed",
    "draw",
    "shuffled_deck",
]

SEED_BYTES = 32
"""Length of a deck seed in bytes."""
DOMAIN = b"teenpatti-deck/1"
"""The prefix of every HMAC message; it names this algorithm and its version."""

_BLOCK = struct.Struct(">8I")
_LIMITS = [0] + [(2**32 // m) * m for m in range(1, 55)]

_INNER_PAD = bytes(x ^ 0x36 for x in range(256))
_OUTER_PAD = bytes(x ^ 0x5C for x in range(256))
_SHA256_BLOCK = 64


class _Blocks:
    """``HMAC-SHA256(key=seed, msg=prefix + counter.to_bytes(8, "big"))`` for ``counter = 0, 1,
    ...``: the blocks of a deck's stream (``teenpatti-deck/1`` and ``/2``).

    HMAC as RFC 2104 defines it (and as :mod:`hmac` computes it): ``H((K ^ opad) + H((K ^ ipad)
    + msg))``, with the hashes of the padded key worked out once per seed rather than once per
    block (a deal reads 2 to 8 blocks). The key is a 32-byte seed: shorter than a SHA-256 block,
    so it is padded, never hashed first.

    >>> seed, message = bytes(range(32)), DOMAIN_V2 + (5).to_bytes(8, "big")
    >>> _Blocks(seed, DOMAIN_V2).words(5) == _BLOCK.unpack(hmac.digest(seed, message, "sha256"))
    True
    """

    __slots__ = ("_inner", "_outer", "_prefix")

    def __init__(self, seed: bytes, prefix: bytes) -> None:
        key = bytes(seed).ljust(_SHA256_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_INNER_PAD))
        self._outer = hashlib.sha256(key.translate(_OUTER_PAD))
        self._prefix = prefix

    def words(self, counter: int) -> tuple[int, ...]:
        """The eight 32-bit big-endian words of block ``counter``."""
        inner = self._inner.copy()
        inner.update(self._prefix + counter.to_bytes(8, "big"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return _BLOCK.unpack(outer.digest())


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        size = len(seed) if isinstance(seed, bytes | bytearray) else type(seed).__name__
        raise ValueError(f"a deck seed is {SEED_BYTES} bytes, not {size}")


def commitment(seed: bytes) -> str:
    """The SHA-256 of ``seed`` in lowercase hex: published before the deal, checked after it."""
    _check_seed(seed)
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """The endless stream of 32-bit big-endian words drawn from the HMAC-SHA256 counter blocks."""
    blocks = _Blocks(seed, DOMAIN)
    counter = 0
    while True:
        yield from blocks.words(counter)
        counter += 1


def shuffled_deck(seed: bytes, *, jokers: bool = False) -> list[int]:
    """The deck that ``seed`` decides, top card first (the algorithm is in the module docstring).

    >>> sorted(shuffled_deck(bytes(32))) == list(range(52))
    True

    Raises :class:`ValueError` if ``seed`` is not 32 bytes.
    """
    _check_seed(seed)
    deck = list(range(54 if jokers else 52))
    words = _words(bytes(seed))
    for i in range(len(deck) - 1, 0, -1):
        m = i + 1
        limit = _LIMITS[m]
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(
    deck: Sequence[int], order: Sequence[int]
) -> tuple[dict[int, tuple[int, int, int]], list[int]]:
    """Deal three cards each, one at a time: card ``k`` goes to seat ``order[k % len(order)]``.

    ``order`` lists the seats in the order they receive cards (the first to act first). Returns
    each seat's three cards in the order received, and the rest of the deck, whose first card is
    the one turned up under ``wild_rank``.

    >>> hands, rest = deal(list(range(10)), [2, 0])
    >>> hands
    {2: (0, 2, 4), 0: (1, 3, 5)}
    >>> rest
    [6, 7, 8, 9]
    """
    seats = len(order)
    if seats == 0:
        raise ValueError("nobody to deal to")
    if len(set(order)) != seats:
        raise ValueError(f"a seat appears twice in the order of the deal: {list(order)}")
    dealt = 3 * seats
    if len(deck) < dealt:
        raise ValueError(f"{seats} players need {dealt} cards; the deck has {len(deck)}")
    hands = {seat: (deck[s], deck[s + seats], deck[s + 2 * seats]) for s, seat in enumerate(order)}
    return hands, list(deck[dealt:])


# ---------------------------------------------------------------------- teenpatti-deck/2
DECK_V1 = "teenpatti-deck/1"
"""The first deck algorithm: the server's seed alone, a whole-deck shuffle (above)."""
DECK_V2 = "teenpatti-deck/2"
"""The deck algorithm of hands dealt with the players' contributions (see ``docs/protocol.md``)."""
DECKS = (DECK_V1, DECK_V2)
"""Every deck algorithm a history may name, oldest first."""
PART_BYTES = 32
"""Length in bytes of a player's contribution to a deal."""
DOMAIN_V2 = DECK_V2.encode()
_SEED_MSG = b"teenpatti-deck/2 seed"
_SALT_MSG = b"teenpatti-salt/2"
_LEAF_MSG = b"\x00teenpatti-card/2"
_NODE_MSG = b"\x01"


def _check_part(part: bytes | None) -> None:
    if part is not None and (not isinstance(part, bytes | bytearray) or len(part) != PART_BYTES):
        raise ValueError(f"a contribution is {PART_BYTES} bytes or none")


def deck_seed(secret: bytes, parts: Sequence[bytes | None]) -> bytes:
    """The ``teenpatti-deck/2`` seed of a hand: the server's committed ``secret`` mixed with one
    contribution per seat (``None`` where the server's part stood: a computer seat, an absent
    player, or a part that came too late).

    ``HMAC-SHA256(key=secret, msg=b"teenpatti-deck/2 seed" + P0 + P1 + ...)`` where ``Pk`` is
    ``b"\\x01"`` and the 32 bytes of seat ``k``'s part, or ``b"\\x00"`` when it has none.

    >>> deck_seed(bytes(32), [None, bytes(32)]).hex()[:16]
    'aa040410bbc33259'
    """
    _check_seed(secret)
    message = bytearray(_SEED_MSG)
    for part in parts:
        _check_part(part)
        message += b"\x00" if part is None else b"\x01" + bytes(part)
    return hmac.digest(bytes(secret), bytes(message), "sha256")


def draw(seed: bytes, count: int, *, jokers: bool = False) -> list[int]:
    """The first ``count`` cards of the ``teenpatti-deck/2`` deck of ``seed``, in dealing order:
    a Fisher-Yates shuffle run forwards and only as far as the cards dealt.

    With ``n`` cards (52, or 54 with jokers) in ascending order, for ``p = 0, 1, ..., count - 1``:
    ``m = n - p``; take the next word ``w`` of the stream (as in ``teenpatti-deck/1``, with the
    message prefix ``b"teenpatti-deck/2"``), throw it away while ``w >= (2**32 // m) * m``; then
    ``j = p + w % m``, swap positions ``p`` and ``j``; the card now at ``p`` is dealt ``p``-th.

    >>> cards = draw(bytes(32), 52)
    >>> sorted(cards) == list(range(52)) and draw(bytes(32), 7) == cards[:7]
    True
    """
    _check_seed(seed)
    n = 54 if jokers else 52
    if not 0 <= count <= n:
        raise ValueError(f"a pack of {n} cards cannot deal {count}")
    deck = list(range(n))
    blocks = _Blocks(seed, DOMAIN_V2)
    words: tuple[int, ...] = ()
    used = 8
    counter = 0
    for p in range(count):
        m = n - p
        limit = _LIMITS[m]
        while True:
            if used == 8:
                words = blocks.words(counter)
                counter += 1
                used = 0
            w = words[used]
            used += 1
            if w < limit:
                break
        j = p + w % m
        deck[p], deck[j] = deck[j], deck[p]
    return deck[:count]


def card_salt(seed: bytes, position: int) -> bytes:
    """The salt of the card dealt at ``position``:
    ``HMAC-SHA256(key=seed, msg=b"teenpatti-salt/2" + position as 2 bytes big-endian)``."""
    return hmac.digest(bytes(seed), _SALT_MSG + position.to_bytes(2, "big"), "sha256")


def card_leaf(position: int, card: int, salt: bytes) -> bytes:
    """A card's leaf in the commitment tree: ``SHA-256(b"\\x00teenpatti-card/2" + position
    (2 bytes) + card (1 byte) + salt)``."""
    return hashlib.sha256(
        _LEAF_MSG + position.to_bytes(2, "big") + bytes([card]) + bytes(salt)
    ).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_NODE_MSG + left + right).digest()


@dataclass(frozen=True, slots=True)
class CardProof:
    """What proves one card dealt against the published root without telling any other card: its
    dealing ``position``, its ``salt`` (hex) and the ``path`` of ``(side, sibling)`` from the
    leaf up, ``side`` ``"L"`` when the sibling is on the left.

    >>> CardProof(2, "ab", (("L", "cd"),)).to_json()
    {'position': 2, 'salt': 'ab', 'path': [['L', 'cd']]}
    """

    position: int
    salt: str
    path: tuple[tuple[Literal["L", "R"], str], ...]

    def to_json(self) -> dict[str, Any]:
        """As a hand history and a state hold it: ``{"position", "salt", "path"}``."""
        return {"position": self.position, "salt": self.salt, "path": [list(p) for p in self.path]}


class CardTree:
    """The commitment to every card dealt from a ``teenpatti-deck/2`` seed: a Merkle tree over
    the salted cards in dealing order, published (its :attr:`root`) at the deal, before anyone
    sees a card. Each level pairs neighbours (``SHA-256(b"\\x01" + left + right)``); an odd node
    out at the end of a level moves up unchanged.

    >>> tree = CardTree(bytes(32), draw(bytes(32), 7))
    >>> proof = tree.proof(3)
    >>> check_card(tree.root, tree.cards[3], proof), check_card(tree.root, tree.cards[4], proof)
    (True, False)
    """

    def __init__(self, seed: bytes, cards: Sequence[int]) -> None:
        self.seed = bytes(seed)
        self.cards = list(cards)
        self.salts = [card_salt(self.seed, p) for p in range(len(self.cards))]
        """Each card's salt, in dealing order (a proof tells its card's)."""
        level = [card_leaf(p, c, self.salts[p]) for p, c in enumerate(self.cards)]
        self.levels: list[list[bytes]] = [level]
        while len(level) > 1:
            up = [_node(level[k], level[k + 1]) for k in range(0, len(level) - 1, 2)]
            if len(level) % 2:
                up.append(level[-1])
            self.levels.append(up)
            level = up

    @property
    def root(self) -> str:
        """The root, as 64 lowercase hex digits."""
        return self.levels[-1][0].hex()

    def proof(self, position: int) -> CardProof:
        """What proves the card at ``position`` against :attr:`root` without telling any other
        card."""
        path: list[tuple[Literal["L", "R"], str]] = []
        k = position
        for level in self.levels[:-1]:
            sibling = k ^ 1
            if sibling < len(level):
                path.append(("L" if sibling < k else "R", level[sibling].hex()))
            k //= 2
        return CardProof(position, self.salts[position].hex(), tuple(path))


def check_card(root: str, card: int, proof: CardProof | Any) -> bool:
    """Whether ``proof`` (from :meth:`CardTree.proof`, or as a history holds it: its JSON)
    shows ``card`` dealt at its position under the published ``root``. A malformed proof is
    simply not a proof (``False``)."""
    if isinstance(proof, CardProof):
        proof = proof.to_json()
    try:
        position = proof["position"]
        h = card_leaf(position, card, bytes.fromhex(proof["salt"]))
        for side, sibling in proof["path"]:
            other = bytes.fromhex(sibling)
            if len(other) != 32 or side not in ("L", "R"):
                return False
            h = _node(other, h) if side == "L" else _node(h, other)
    except (KeyError, TypeError, ValueError, OverflowError):
        return False
    return isinstance(root, str) and h.hex() == root.lower()


@dataclass(frozen=True, slots=True)
class Shuffle:
    """How one hand's deck is decided: the server's ``secret`` (committed before the deal, its
    SHA-256 published) and, under ``teenpatti-deck/2``, one contribution per seat (``None``
    where the server's part stood). Under ``teenpatti-deck/1`` the secret is the deck's seed.

    >>> old = Shuffle(bytes(32), version=DECK_V1)
    >>> old.seed == bytes(32), old.commitment == commitment(bytes(32))
    (True, True)
    >>> Shuffle(bytes(32), (None, bytes(32))).seed == deck_seed(bytes(32), [None, bytes(32)])
    True
    """

    secret: bytes
    parts: tuple[bytes | None, ...] = ()
    version: str = DECK_V2
    seed: bytes = field(init=False, repr=False, compare=False)
    """The deck's seed: the secret itself (v1), or :func:`deck_seed` of the parts (v2), worked
    out once."""

    def __post_init__(self) -> None:
        _check_seed(self.secret)
        if self.version not in DECKS:
            raise ValueError(f"unknown deck algorithm {self.version!r}")
        for part in self.parts:
            _check_part(part)
        seed = self.secret if self.version == DECK_V1 else deck_seed(self.secret, self.parts)
        object.__setattr__(self, "seed", seed)

    @property
    def commitment(self) -> str:
        """The SHA-256 of the secret, published before the deal."""
        return commitment(self.secret)

    def cards(self, count: int, *, jokers: bool = False) -> list[int]:
        """The first ``count`` cards in dealing order."""
        if self.version == DECK_V1:
            # The whole pack is shuffled whatever is dealt: the last deck is kept, for the same
            # deal played again (the arena plays each deal once per rotation of its players).
            secret, pack, deck = _LAST_V1[0]
            if secret != self.secret or pack is not jokers:
                deck = tuple(shuffled_deck(self.secret, jokers=jokers))
                _LAST_V1[0] = (self.secret, jokers, deck)
            return list(deck[:count])
        return draw(self.seed, count, jokers=jokers)


_LAST_V1: list[tuple[bytes, bool, tuple[int, ...]]] = [(b"", False, ())]
"""The secret, the pack and the deck of the last ``teenpatti-deck/1`` shuffle."""
