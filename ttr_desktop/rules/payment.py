"""The one payment enumerator: every way to pay N cards of one colour, wilds allowed.

Route claims ask it through the board's claim rule (``rules/claimrule.py``:
move generation, its one-wild tables, the legality check, explanations,
tunnels); stations, city markers and the bots' estimates ask it directly.

A payment is a vector of counts over the *pay items* of a board: its card
kinds in index order, then extra sources a module adds (County Durham's
coal). The rule (rules.md §1.5, §2.3, §5.3):

- ``k`` >= 1 cards of one colour (the route's colour, or any one colour on a
  gray route), the rest in wild units; or wild units only;
- a wild kind may only pay for routes of at least its minimum length
  (Märklin's +4 locomotive: 4);
- a source may be worth one wild per ``per_unit`` items (2 coal = 1
  locomotive), so only whole units are spent — a single coal never is;
- at least ``min_wilds`` of the units are wild (a ferry's locomotives).

Payments are explicit: each multiset appears once (no near-duplicates).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ttr_desktop.rules.words import card_count

#: colour argument: any one colour (a gray route, a station, a city marker).
ANY_COLOUR = -1
#: colour argument: wild units only (a tunnel after an all-locomotive payment).
WILDS_ONLY = -2


@dataclass(frozen=True)
class Wild:
    """A wild pay item: ``index`` in the pay vector, ``per_unit`` items per wild,
    usable only on routes of at least ``min_length`` spaces."""

    index: int
    per_unit: int = 1
    min_length: int = 1


@dataclass(frozen=True)
class PaySpec:
    """The pay items of a board: names, which are colours, which are wild."""

    names: tuple[str, ...]
    colours: tuple[int, ...]
    wilds: tuple[Wild, ...]

    @property
    def size(self) -> int:
        """Length of a pay vector."""
        return len(self.names)

    def usable_wilds(self, length: int) -> tuple[Wild, ...]:
        """The wild items that may pay for a route of ``length`` spaces."""
        return tuple(w for w in self.wilds if length >= w.min_length)

    def wild_units(self, hand: Sequence[int], length: int) -> int:
        """How many wild units the hand offers toward a route of ``length`` spaces."""
        return sum(hand[w.index] // w.per_unit for w in self.wilds if length >= w.min_length)

    def is_simple(self) -> bool:
        """One wild card kind, usable everywhere, one item per unit (USA, Europe)."""
        return (len(self.wilds) == 1 and self.wilds[0].per_unit == 1
                and self.wilds[0].min_length <= 1)


def payments(spec: PaySpec, length: int, colour: int, hand: Sequence[int],
             min_wilds: int = 0, wild_length: int | None = None) -> list[tuple[int, ...]]:
    """Every way ``hand`` pays ``length`` cards, in canonical order.

    ``colour`` is a colour index, ANY_COLOUR or WILDS_ONLY. ``wild_length`` is
    the route length that decides which wilds may be used (default ``length``;
    a tunnel's extra cards use the tunnel's length). Order: colours in index
    order, fewest wilds last (colour count ascending), then wilds only.
    """
    wl = length if wild_length is None else wild_length
    wilds = spec.usable_wilds(wl)
    avail = [hand[w.index] // w.per_unit for w in wilds]
    total = sum(avail)
    if total < min_wilds or length <= 0:
        return [] if length > 0 else [tuple([0] * spec.size)]
    out: list[tuple[int, ...]] = []
    if colour != WILDS_ONLY:
        lo = max(1, length - total)
        top = length - min_wilds
        for c in (spec.colours if colour == ANY_COLOUR else (colour,)):
            hi = min(hand[c], top)
            for k in range(lo, hi + 1):
                for units in _spread(length - k, avail):
                    vec = [0] * spec.size
                    vec[c] = k
                    for w, u in zip(wilds, units):
                        vec[w.index] += u * w.per_unit
                    out.append(tuple(vec))
    if total >= length:
        for units in _spread(length, avail):
            vec = [0] * spec.size
            for w, u in zip(wilds, units):
                vec[w.index] += u * w.per_unit
            out.append(tuple(vec))
    return out


def affordable(spec: PaySpec, length: int, colour: int, hand,
               min_wilds: int = 0, wild_length: int | None = None) -> bool:
    """Whether ``payments`` would offer at least one way (without listing them).

    ``hand`` is a pay vector, or a mapping from pay-item name to count (a view's hand)."""
    wl = length if wild_length is None else wild_length
    names = spec.names
    if isinstance(hand, dict):
        get = hand.get
        units = 0
        for w in spec.wilds:
            if wl >= w.min_length:
                units += get(names[w.index], 0) // w.per_unit
    else:
        units = spec.wild_units(hand, wl)
    if units < min_wilds:
        return False
    if units >= length:
        return True
    if colour == WILDS_ONLY:
        return False
    if isinstance(hand, dict):
        best = (max(get(names[c], 0) for c in spec.colours) if colour == ANY_COLOUR
                else get(names[colour], 0))
    else:
        best = (max((hand[c] for c in spec.colours), default=0) if colour == ANY_COLOUR
                else hand[colour])
    return min(best, length - min_wilds) + units >= length and best >= 1


def _spread(n: int, avail: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``n`` units from kinds with ``avail`` units each (first kind most)."""
    if not avail:
        if n == 0:
            yield ()
        return
    rest = sum(avail[1:])
    for first in range(min(n, avail[0]), max(0, n - rest) - 1, -1):
        for tail in _spread(n - first, avail[1:]):
            yield (first,) + tail


def wild_count(spec: PaySpec, vec: Sequence[int]) -> int:
    """Wild units in a payment."""
    return sum(vec[w.index] // w.per_unit for w in spec.wilds)


def colour_of(spec: PaySpec, vec: Sequence[int]) -> int:
    """The colour a payment uses, or -1 when it is wilds only."""
    for c in spec.colours:
        if vec[c]:
            return c
    return -1


def player_order(spec: PaySpec, vectors: Sequence[Sequence[int]],
                 hand: Sequence[int]) -> list[int]:
    """Indices of ``vectors`` ordered as a player wants them offered: fewest wild cards
    first, then the colour the player holds most of, then plain locomotives before
    other wilds."""
    def key(i: int):
        vec = vectors[i]
        c = colour_of(spec, vec)
        others = tuple(-vec[w.index] for w in spec.wilds)
        return (wild_count(spec, vec), -(hand[c] if c >= 0 else -1), c, others)

    return sorted(range(len(vectors)), key=key)


def cards_of(spec: PaySpec, vec: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """A payment vector as sorted (name, count) pairs."""
    return tuple(sorted((spec.names[i], n) for i, n in enumerate(vec) if n))


def words(cards: Sequence[tuple[str, int]], spec: PaySpec | None = None) -> str:
    """'3 red + 2 locomotives' for a payment: colours first ('3 red'), then wilds, each
    counted by ``words.card_count``."""
    if not cards:
        return "nothing"
    wild_names = set()
    if spec is not None:
        wild_names = {spec.names[w.index] for w in spec.wilds}
    ordered = sorted(cards, key=lambda p: (p[0] in wild_names or p[0] in _WILD_WORDS, p[0]))
    return " + ".join(card_count(n, name, cards=False) for name, n in ordered)


_WILD_WORDS = {"locomotive", "locomotive_plus4", "coal"}
