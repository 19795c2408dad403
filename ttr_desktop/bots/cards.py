"""Card arithmetic for bots: what a set of planned routes still asks of a hand."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ttr_desktop.bots.graph import MapGraph
from ttr_desktop.maps.model import CARD_COLORS
from ttr_desktop.rules.claimrule import ClaimRule
from ttr_desktop.rules.determinize import determinize
from ttr_desktop.rules.payment import ANY_COLOUR, PaySpec, Wild, affordable

if TYPE_CHECKING:
    from ttr_desktop.rules.view import PlayerView

LOCO = "locomotive"
#: The USA/Europe payment rule, for callers without a view.
DEFAULT_PAY = PaySpec(CARD_COLORS + (LOCO,), tuple(range(len(CARD_COLORS))),
                      (Wild(len(CARD_COLORS)),))
#: Spare cards a bot wants on top of a tunnel's length before it tries the tunnel:
#: with one spare, about 86% of tunnels can be paid.
TUNNEL_SPARE = 1

_RULES: dict[tuple, ClaimRule] = {}


def claim_rule(view: "PlayerView") -> ClaimRule:
    """The claim rule of the view's game (public: the map and the ruleset's modules, with
    their ``claim_terms``): where locomotives pay, a ferry's 3-card sets... It is the
    engine's own board for (map, variant, options), the one a game sampled from the view
    plays on; cached per game kind."""
    key = (view.map.id, view.variant, tuple(sorted((k, repr(v)) for k, v in
                                                   view.options.items())))
    rule = _RULES.get(key)
    if rule is None or rule.board.map is not view.map:
        if len(_RULES) > 64:
            _RULES.clear()
        rule = _RULES[key] = determinize(view, random.Random(0)).board.claim_rule
    return rule


def _wild_ok(rule: ClaimRule | None, r: int) -> bool:
    """Whether a locomotive pays for route ``r`` under the rule (always without one)."""
    return rule is None or rule.plain or bool(rule.route_pay[r].wilds)


def colour_needs(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
                 rule: ClaimRule | None = None) -> tuple[dict[str, int], int]:
    """Cards of each colour the routes take, and the locomotives ferries demand.

    A gray route takes the colour the hand can best spare (the longest gray
    routes choose first). A tunnel asks for ``TUNNEL_SPARE`` more cards.
    """
    need, strict, ferry = _needs(g, routes, hand, rule)
    for c, n in strict.items():
        need[c] += n
    return need, ferry


def _needs(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
           rule: ClaimRule | None) -> tuple[dict[str, int], dict[str, int], int]:
    """Colour cards the routes take where a locomotive may stand in, those where none may
    (``rule``: Nordic's ordinary routes), and the locomotives ferries demand."""
    need = dict.fromkeys(CARD_COLORS, 0)
    strict = dict.fromkeys(CARD_COLORS, 0)
    ferry = 0
    grays = []
    r_len, r_ferry, r_color, r_tunnel = g.r_len, g.r_ferry, g.r_color, g.r_tunnel
    for r in routes:
        length, f, colour = r_len[r], r_ferry[r], r_color[r]
        if r_tunnel[r]:
            length += TUNNEL_SPARE
        ferry += f
        into = need if _wild_ok(rule, r) else strict
        if colour == "gray":
            grays.append((length - f, into))
        else:
            into[colour] += length - f
    if grays:
        get = hand.get
        grays.sort(key=lambda item: -item[0])
        for length, into in grays:
            best, spare = None, None
            for c in CARD_COLORS:      # the colour the hand can best spare
                v = get(c, 0) - need[c] - strict[c]
                if spare is None or v > spare:
                    best, spare = c, v
            into[best] += length
    return need, strict, ferry


def shortfall(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
              rule: ClaimRule | None = None) -> int:
    """How many more cards the hand needs before it can pay for every route. With the
    game's ``rule`` (``claim_rule(view)``), locomotives stand in only where they pay."""
    need, strict, ferry = _needs(g, routes, hand, rule)
    get = hand.get
    deficit = 0
    hard = 0
    for c in CARD_COLORS:
        have = get(c, 0)
        short = strict[c] - have
        if short > 0:
            hard += short
        short = need[c] - max(0, have - strict[c])
        if short > 0:
            deficit += short
    locos = get(LOCO, 0)
    return hard + max(0, deficit - max(0, locos - ferry)) + max(0, ferry - locos)


def can_pay(g: MapGraph, r: int, hand: Mapping[str, int],
            pay: PaySpec | ClaimRule | None = None) -> bool:
    """Whether the hand alone pays for route ``r`` (ignoring trains and ownership), by the
    engine's payment rule: ``pay`` is the game's ``ClaimRule`` (``claim_rule(view)``, which
    knows the modules' claim terms: where locomotives pay, substitutes), or a bare PaySpec
    (default USA's cards).

    For a tunnel the hand must also hold ``TUNNEL_SPARE`` cards for the extra cost.
    """
    rule = pay if isinstance(pay, ClaimRule) else None
    spec = rule.route_pay[r] if rule is not None else (pay or DEFAULT_PAY)
    length = g.r_len[r] + (TUNNEL_SPARE if g.r_tunnel[r] else 0)
    colour = g.r_color[r]
    c = ANY_COLOUR if colour == "gray" else spec.names.index(colour)
    if affordable(spec, length, c, hand, g.r_ferry[r], g.r_len[r]):
        return True
    if rule is None or not rule.substitutes:
        return False
    vec = [hand.get(name, 0) for name in rule.pay.names]
    if g.r_tunnel[r]:
        if sum(vec) < length:
            return False
    return rule.can_pay(r, vec)


def payable_count(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
                  pay: PaySpec | ClaimRule | None = None) -> int:
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
