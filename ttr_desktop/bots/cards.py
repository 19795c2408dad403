"""Card arithmetic for bots: what a set of planned routes still asks of a hand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ttr_desktop.bots.graph import MapGraph
from ttr_desktop.maps.model import CARD_COLORS
from ttr_desktop.rules.payment import ANY_COLOUR, PaySpec, Wild, affordable

LOCO = "locomotive"
#: The USA/Europe payment rule, for callers without a view.
DEFAULT_PAY = PaySpec(CARD_COLORS + (LOCO,), tuple(range(len(CARD_COLORS))),
                      (Wild(len(CARD_COLORS)),))
#: Spare cards a bot wants on top of a tunnel's length before it tries the tunnel:
#: with one spare, about 86% of tunnels can be paid.
TUNNEL_SPARE = 1


def colour_needs(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
                 ) -> tuple[dict[str, int], int]:
    """Cards of each colour the routes take, and the locomotives ferries demand.

    A gray route takes the colour the hand can best spare (the longest gray
    routes choose first). A tunnel asks for ``TUNNEL_SPARE`` more cards.
    """
    need = dict.fromkeys(CARD_COLORS, 0)
    ferry = 0
    grays = []
    r_len, r_ferry, r_color, r_tunnel = g.r_len, g.r_ferry, g.r_color, g.r_tunnel
    for r in routes:
        length, f, colour = r_len[r], r_ferry[r], r_color[r]
        if r_tunnel[r]:
            length += TUNNEL_SPARE
        ferry += f
        if colour == "gray":
            grays.append(length - f)
        else:
            need[colour] += length - f
    if grays:
        get = hand.get
        grays.sort(reverse=True)
        for length in grays:
            best, spare = None, None
            for c in CARD_COLORS:      # the colour the hand can best spare
                v = get(c, 0) - need[c]
                if spare is None or v > spare:
                    best, spare = c, v
            need[best] += length
    return need, ferry


def shortfall(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int]) -> int:
    """How many more cards the hand needs before it can pay for every route."""
    need, ferry = colour_needs(g, routes, hand)
    get = hand.get
    deficit = 0
    for c, n in need.items():
        short = n - get(c, 0)
        if short > 0:
            deficit += short
    locos = get(LOCO, 0)
    return max(0, deficit - max(0, locos - ferry)) + max(0, ferry - locos)


def can_pay(g: MapGraph, r: int, hand: Mapping[str, int], pay: PaySpec | None = None) -> bool:
    """Whether the hand alone pays for route ``r`` (ignoring trains and ownership), by the
    engine's payment rule (``pay``: the view's PaySpec; default USA's cards).

    For a tunnel the hand must also hold ``TUNNEL_SPARE`` cards for the extra cost.
    """
    spec = pay or DEFAULT_PAY
    length = g.r_len[r] + (TUNNEL_SPARE if g.r_tunnel[r] else 0)
    colour = g.r_color[r]
    c = ANY_COLOUR if colour == "gray" else spec.names.index(colour)
    return affordable(spec, length, c, hand, g.r_ferry[r], g.r_len[r])


def payable_count(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
                  pay: PaySpec | None = None) -> int:
    """How many of the routes the hand could pay for, each on its own."""
    return sum(1 for r in routes if can_pay(g, r, hand, pay))


def plus(hand: Mapping[str, int], card: str, n: int = 1) -> dict[str, int]:
    """A copy of ``hand`` with ``n`` more ``card`` (negative ``n`` removes)."""
    out = dict(hand)
    out[card] = out.get(card, 0) + n
    return out


def minus_cards(hand: Mapping[str, int], cards: Iterable[tuple[str, int]]) -> dict[str, int]:
    """A copy of ``hand`` without the (card, count) pairs of a payment."""
    out = dict(hand)
    for name, n in cards:
        out[name] = out.get(name, 0) - n
    return out


def locos_in(cards: Iterable[tuple[str, int]]) -> int:
    """Locomotives in a payment."""
    return sum(n for name, n in cards if name == LOCO)
