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
    need, strict, ferry, _ = _needs_long(g, routes, hand, rule)
    return need, strict, ferry


def _needs_long(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
                rule: ClaimRule | None
                ) -> tuple[dict[str, int], dict[str, int], int, dict[str, int] | None]:
    """``_needs``, and of ``need`` the cards of routes where the rule's other wild cards
    pay too (``other_wilds``: Märklin's +4 locomotives on routes of 4 or more), None
    when the rule has no such cards."""
    need = dict.fromkeys(CARD_COLORS, 0)
    strict = dict.fromkeys(CARD_COLORS, 0)
    others = other_wilds(rule)
    wide = dict.fromkeys(CARD_COLORS, 0) if others is not None else None
    ferry = 0
    grays = []
    r_len, r_ferry, r_color, r_tunnel = g.r_len, g.r_ferry, g.r_color, g.r_tunnel
    for r in routes:
        length, f, colour = r_len[r], r_ferry[r], r_color[r]
        if r_tunnel[r]:
            length += TUNNEL_SPARE
        ferry += f
        into = need if _wild_ok(rule, r) else strict
        long = wide is not None and into is need and others[1][r]
        if colour == "gray":
            grays.append((length - f, into, long))
        else:
            into[colour] += length - f
            if long:
                wide[colour] += length - f
    if grays:
        get = hand.get
        # Other wild cards in hand free a colour's own cards on the long routes.
        extra = sum(get(name, 0) for name in others[0]) if wide is not None else 0
        grays.sort(key=lambda item: -item[0])
        for length, into, long in grays:
            best, spare = None, None
            for c in CARD_COLORS:      # the colour the hand can best spare
                v = get(c, 0) - need[c] - strict[c]
                if extra:
                    v += min(extra, wide[c])
                if spare is None or v > spare:
                    best, spare = c, v
            into[best] += length
            if long:
                wide[best] += length
    return need, strict, ferry, wide


#: Per claim rule: (the rule, names of its other wild cards, whether they pay per route).
_OTHER_WILDS: dict[int, tuple[ClaimRule, tuple[str, ...], list[bool]]] = {}


def other_wilds(rule: ClaimRule | None) -> tuple[tuple[str, ...], list[bool]] | None:
    """The wild train cards of ``rule`` besides the locomotive, each worth one card, and
    per route whether one of them pays there (Märklin's +4 locomotive, on routes of 4 or
    more spaces); None when there are none. A wild worth one card per several items
    (County Durham's coal) is left out: the family weighs its coal itself."""
    if rule is None:
        return None
    got = _OTHER_WILDS.get(id(rule))
    if got is None or got[0] is not rule:
        names = rule.pay.names
        kinds = [w for w in rule.pay.wilds if w.per_unit == 1 and names[w.index] != LOCO]
        eligible = [any(k in rule.route_pay[r].usable_wilds(rule.board.r_len[r])
                        for k in kinds) for r in range(rule.board.n_routes)]
        if len(_OTHER_WILDS) > 64:
            _OTHER_WILDS.clear()
        got = _OTHER_WILDS[id(rule)] = (rule, tuple(names[k.index] for k in kinds),
                                        eligible)
    if not got[1]:
        return None
    return got[1], got[2]


def shortfall(g: MapGraph, routes: Iterable[int], hand: Mapping[str, int],
              rule: ClaimRule | None = None) -> int:
    """How many more cards the hand needs before it can pay for every route. With the
    game's ``rule`` (``claim_rule(view)``), locomotives stand in only where they pay, and
    its other wild cards (Märklin's +4 locomotives) where they pay: a colour's own cards
    go first to the routes those cannot pay for."""
    need, strict, ferry, wide = _needs_long(g, routes, hand, rule)
    get = hand.get
    deficit = 0
    hard = 0
    long_short = 0
    for c in CARD_COLORS:
        have = get(c, 0)
        short = strict[c] - have
        if short > 0:
            hard += short
        short = need[c] - max(0, have - strict[c])
        if short > 0:
            deficit += short
            if wide is not None:
                long_short += min(short, wide[c])
    if long_short:
        extra = sum(get(name, 0) for name in other_wilds(rule)[0])
        deficit -= min(extra, long_short)
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


_DECKS: dict[tuple, dict[str, int]] = {}


def unseen_cards(view: "PlayerView") -> dict[str, int]:
    """Card name -> copies of the game's train deck outside the seat's own hand: what a
    draw may bring, as far as the seat knows without tracking the rest (the public
    ruleset's deck for the table's size)."""
    key = (view.variant, tuple(sorted((k, repr(v)) for k, v in view.options.items())),
           len(view.players))
    deck = _DECKS.get(key)
    if deck is None:
        from ttr_desktop.rules.ruleset import get_ruleset

        if len(_DECKS) > 64:
            _DECKS.clear()
        deck = _DECKS[key] = get_ruleset(view.variant, dict(view.options)) \
            .deck_composition(len(view.players))
    hand = dict(view.hand)
    return {name: n - hand.get(name, 0) for name, n in deck.items() if n > hand.get(name, 0)}


def route_kind(g: MapGraph, r: int, rule: ClaimRule | None) -> tuple:
    """What the cards route ``r`` alone takes depend on: its colour, length, ferry spaces
    and tunnel, and whether locomotives and the rule's other wild cards pay there. For one
    hand, routes of a kind are short of the same cards (``shortfall``, ``draw_turns``)."""
    others = other_wilds(rule)
    return (g.r_color[r], g.r_len[r], g.r_ferry[r], g.r_tunnel[r], _wild_ok(rule, r),
            others is not None and others[1][r])


#: Least chance that a drawn card helps a route (bounds the turns ``draw_turns`` expects).
MIN_HELP = 0.05


def draw_turns(g: MapGraph, r: int, hand: Mapping[str, int], rule: ClaimRule | None,
               missing: int, unseen: Mapping[str, int]) -> float:
    """Turns of drawing that the ``missing`` cards of route ``r`` are expected to take: two
    cards a turn, each helping with the chance that a card drawn from ``unseen`` is one of
    the kinds that would cut the route's shortfall (its colour, a wild card that pays
    there, any colour of a gray route's best...)."""
    total = sum(unseen.values())
    if total <= 0:
        return missing / (2 * MIN_HELP)
    helping = sum(n for name, n in unseen.items()
                  if shortfall(g, (r,), plus(hand, name), rule) < missing)
    return missing / (2 * max(MIN_HELP, helping / total))
