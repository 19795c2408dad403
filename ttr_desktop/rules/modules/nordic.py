"""Nordic Countries (rules.md §10; the table "Nordic Countries: rules for the engine" in
``shared/data/README.md``): 2–3 players on the ``nordic`` board.

Data (the ruleset): 40 trains; 110 cards, 12 of each of the 8 colours and 14
locomotives; a face-up locomotive is an ordinary pick (two may be taken) and the
display never flushes (the locomotive has no ``first_pick_only`` and no refresh group);
5 tickets dealt, keep at least 2; draw 3, keep at least 1; every returned ticket leaves
the game; route points up to 9 → 27; both tracks of a double open only with 3 players
(the two doubles that pair routes of different length and type too); the Globetrotter
+10 to every seat with the most completed tickets, no longest path; a tie on points goes
to the most completed tickets [D]. Tunnels and ferries are Europe's modules.

One rule module, ``NordicPayment``, changes how routes are paid, through the claim rule
(``rules/claimrule.py``, the ``claim_terms`` hook):

- locomotives pay only for ferries and tunnels (tunnels exactly as in Europe, §1.10);
- each locomotive a ferry requires may be replaced by any 3 cards (mixed colours,
  locomotives allowed);
- Murmansk–Lieksa (9 gray): choose a colour; any 4 cards replace each missing card of it;
  locomotives pay there only inside such a set of 4.

[D] A set that could only lose cards is not offered: a ferry's 3-card set never holds a
locomotive (the locomotive would pay for itself and the other 2 cards be spent for
nothing), and a 4-card set never holds a card of the chosen colour (it would fill a missing
space itself). Every payment left spends no card a smaller payment would keep. With a
big hand at most ``MAX_SET_PAYMENTS`` payments with sets are offered per route: the fewest
sets first, each set made of the cards held most.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ttr_desktop.rules.cards import CardKind, colour_cards
from ttr_desktop.rules.claimrule import ClaimTerms
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.payment import payments
from ttr_desktop.rules.ruleset import USA, Bonus
from ttr_desktop.rules.words import plural

if TYPE_CHECKING:
    from ttr_desktop.rules.board import Board
    from ttr_desktop.rules.payment import Wild

#: Cards that stand in for one locomotive a ferry requires.
FERRY_SET = 3
#: Cards that stand in for one missing card of the chosen colour on the routes below.
ANY_SET = 4
#: The routes paid with sets of any 4 cards (Murmansk–Lieksa).
ANY_SET_ROUTES = ("lieksa-murmansk",)
#: [D] The most payments with sets offered for one route: a hand of 30 cards has tens of
#: thousands of ways to make the sets, which no player reads and no search can list.
MAX_SET_PAYMENTS = 60

GLOBETROTTER = Bonus("globetrotter", "completed_tickets", 10)

#: The Nordic locomotive: wild (where the claim rule lets it pay), an ordinary face-up
#: pick, and no display flush.
NORDIC_LOCOMOTIVE = CardKind("locomotive", 14, color=False, wild=True)

NORDIC = replace(
    USA,
    name="nordic",
    map_id="nordic",
    min_players=2,
    max_players=3,
    trains_per_player=40,
    cards=colour_cards(12) + (NORDIC_LOCOMOTIVE,),
    initial_tickets=(("regular", 5),),
    initial_keep_min=2,
    initial_returns="box",
    later_returns="box",
    ticket_draw=3,
    ticket_keep_min=1,
    parallel_open_from=((2, 3), (3, 3)),
    bonuses=(GLOBETROTTER,),
    score_parts=("routes", "tickets", "globetrotter"),
    tie_breaks=("tickets",),
    modules=("tunnels", "ferries", "nordic_payment"),
    optional_modules=(),
)


def any_cards(rest: Sequence[int], n: int, kinds: Sequence[int]) -> Iterator[list[int]]:
    """Every multiset of ``n`` cards of ``kinds`` within the counts ``rest``, as vectors
    the length of ``rest`` (most of the first kind first)."""
    size = len(rest)
    room = [0] * (len(kinds) + 1)      # cards available from kinds[i:]
    for i in range(len(kinds) - 1, -1, -1):
        room[i] = room[i + 1] + rest[kinds[i]]
    if room[0] < n:
        return
    vec = [0] * size

    def walk(i: int, left: int) -> Iterator[list[int]]:
        if left == 0:
            yield vec[:]
            return
        if i == len(kinds):
            return
        k = kinds[i]
        for take in range(min(left, rest[k]), max(0, left - room[i + 1]) - 1, -1):
            vec[k] = take
            yield from walk(i + 1, left - take)
        vec[k] = 0

    yield from walk(0, n)


class NordicTerms(ClaimTerms):
    """The Nordic payment rule (see the module's docstring)."""

    def __init__(self, board: "Board") -> None:
        self.any_set = frozenset(board.route_index[r] for r in ANY_SET_ROUTES
                                 if r in board.route_index)
        colours = set(board.colors)
        #: What a ferry's 3-card set is made of: no locomotive (one would pay for the
        #: locomotive itself, and the other 2 cards would be spent for nothing).
        self.set_cards = tuple(i for i in range(board.n_cards) if i in colours)
        #: What a 4-card set on Murmansk–Lieksa is made of, per chosen colour: no card of
        #: that colour (it would fill a missing space itself).
        self.any_cards = {c: tuple(i for i in range(board.n_cards) if i != c)
                          for c in board.colors}

    def wild_allowed(self, board: "Board", route: int, wild: "Wild") -> bool:
        return ((board.r_min_locos[route] > 0 or bool(board.r_tunnel[route]))
                and route not in self.any_set)

    def wild_refusal(self, board: "Board", route: int, wild: "Wild") -> str | None:
        return "on this map locomotives pay only for ferries and tunnels"

    def more_payments(self, board: "Board", route: int,
                      hand: Sequence[int]) -> Iterator[Sequence[int]]:
        ferry = board.r_min_locos[route]
        found = ()
        if ferry:
            found = self._ferry_sets(board, route, hand, ferry)
        elif route in self.any_set:
            found = self._any_sets(board, route, hand)
        seen = set()
        for vec in found:
            key = tuple(vec)
            if key not in seen:
                seen.add(key)
                yield vec
                if len(seen) >= MAX_SET_PAYMENTS:
                    return

    def _ferry_sets(self, board: "Board", route: int, hand: Sequence[int],
                    ferry: int) -> Iterator[list[int]]:
        """Each of ``j`` required locomotives replaced by any 3 cards (1 <= j <= ferry)."""
        spec = board.claim_rule.route_pay[route]
        length, colour = board.r_len[route], board.r_color[route]
        total = sum(hand[: board.n_cards])
        for j in range(1, ferry + 1):
            if total < length - j + FERRY_SET * j:
                break
            for base in payments(spec, length - j, colour, hand, ferry - j):
                rest = [h - p for h, p in zip(hand, base)]
                kinds = sorted(self.set_cards, key=lambda i: -rest[i])
                for extra in any_cards(rest, FERRY_SET * j, kinds):
                    yield [p + e for p, e in zip(base, extra)]

    def _any_sets(self, board: "Board", route: int, hand: Sequence[int]) -> Iterator[list[int]]:
        """``k`` cards of one colour and any 4 cards for each of the ``length - k`` missing
        (k >= 1: the chosen colour is played)."""
        length = board.r_len[route]
        total = sum(hand[: board.n_cards])
        for c in board.colors:
            for k in range(min(hand[c], length - 1), 0, -1):
                if total < k + ANY_SET * (length - k):
                    break
                rest = list(hand)
                rest[c] -= k
                kinds = sorted(self.any_cards[c], key=lambda i: -rest[i])
                for extra in any_cards(rest, ANY_SET * (length - k), kinds):
                    extra[c] += k
                    yield extra

    def shortfall(self, board: "Board", route: int, hand: Sequence[int]) -> str | None:
        length = board.r_len[route]
        ferry = board.r_min_locos[route]
        colour = board.routes[route].color
        one = "cards of one colour" if colour == "gray" else f"{colour} cards"
        if ferry:
            rest = length - ferry
            plus = f", plus {plural(rest, 'card')} of one colour" if colour == "gray" and rest \
                else (f", plus {rest} {one}" if rest else "")
            return (f"This ferry needs {plural(ferry, 'locomotive')} (or any {FERRY_SET} "
                    f"cards for each){plus}; your hand cannot pay it.")
        if route in self.any_set:
            return (f"This route takes {length} cards of one colour, and any {ANY_SET} cards "
                    f"for each one missing; your hand cannot pay it.")
        return None


class NordicPayment(RuleModule):
    """Where locomotives pay, and the 3-card and 4-card substitutes."""

    name = "nordic_payment"

    def claim_terms(self, board: "Board") -> ClaimTerms:
        return NordicTerms(board)
