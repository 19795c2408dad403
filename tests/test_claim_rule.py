"""One claim rule per (map, ruleset): move generation, the legality check, explanations
and tunnels all follow it, and a rule module changes it through one documented hook.

The hook is shown with "toy Nordic" on the Europe map, written here and nowhere in the
engine: locomotives pay only for ferries and tunnels; each of a ferry's locomotives may
be replaced by any 3 cards; Danzig–Warszawa (standing in for Murmansk–Lieksa) takes any
4 cards for each missing card of the colour chosen; tunnels as in Europe.

Then a property over every registered variant (the toy included): the legal claims
(the fast path where the rule is simple) are exactly the payments found the slow way,
one sub-multiset of the hand at a time; the canonical claim is the one a player is
offered first; and ``explain`` agrees with both.
"""

from __future__ import annotations

import itertools
import random

import pytest

from ttr_desktop.rules import IllegalAction, Ruleset, new_game, register_variant
from ttr_desktop.rules.actions import ClaimRoute
from ttr_desktop.rules.claimrule import ClaimTerms
from ttr_desktop.rules.explain import claim_problem
from ttr_desktop.rules.graph import group_open_flags, parallel_block
from ttr_desktop.rules.modules import register_module
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.payment import ANY_COLOUR, payments
from ttr_desktop.rules.ruleset import EUROPE, VARIANTS
from ttr_desktop.rules.scenario import Scenario
from ttr_desktop.rules.state import Phase

from tests.helpers import refresh, set_hand, skip_setup, stack_deck

ANY_FOUR_ROUTE = "danzig-warszawa"


def _any_cards(rest: list[int], n: int, kinds: list[int]):
    """Every multiset of ``n`` cards (of ``kinds``) within the counts ``rest``."""
    if n == 0:
        yield [0] * len(rest)
        return
    if not kinds:
        return
    k, tail = kinds[0], kinds[1:]
    for take in range(min(n, rest[k]), -1, -1):
        for vec in _any_cards(rest, n - take, tail):
            vec = vec[:]
            vec[k] += take
            yield vec


class ToyNordicTerms(ClaimTerms):
    """The Nordic payment rule, through the claim-rule hook only."""

    def wild_allowed(self, board, route, wild):
        return (board.r_min_locos[route] > 0 or board.r_tunnel[route]) \
            and board.route_ids[route] != ANY_FOUR_ROUTE

    def more_payments(self, board, route, hand):
        cards = list(range(board.n_cards))
        spec = board.claim_rule.route_pay[route]
        length, colour = board.r_len[route], board.r_color[route]
        ferry = board.r_min_locos[route]
        if ferry:       # each locomotive the ferry requires: any 3 cards instead
            for j in range(1, ferry + 1):
                for base in payments(spec, length - j, colour, hand, ferry - j):
                    rest = [h - p for h, p in zip(hand, base)]
                    for extra in _any_cards(rest, 3 * j, cards):
                        yield [p + e for p, e in zip(base, extra)]
        if board.route_ids[route] == ANY_FOUR_ROUTE:   # any 4 cards per missing card
            for c in board.colors:
                for k in range(1, min(hand[c], length - 1) + 1):
                    rest = list(hand)
                    rest[c] -= k
                    for extra in _any_cards(rest, 4 * (length - k), cards):
                        vec = list(extra)
                        vec[c] += k
                        yield vec

    def shortfall(self, board, route, hand):
        ferry = board.r_min_locos[route]
        if ferry:
            return (f"This ferry needs {ferry} locomotive(s), or any 3 cards for each, plus "
                    f"{board.r_len[route] - ferry} cards of one colour.")
        return None


@register_module
class ToyNordic(RuleModule):
    name = "toy_nordic_payment"

    def claim_terms(self, board):
        return ToyNordicTerms()


TOY = Ruleset(
    **{**{f: getattr(EUROPE, f) for f in EUROPE.__dataclass_fields__},
       "name": "toy-nordic-payment",
       "modules": ("tunnels", "ferries", "toy_nordic_payment")})


@pytest.fixture(autouse=True, scope="module")
def _toy_variant():
    """The toy is registered only while these tests run: the suites that play every
    registered family are collected before it and never see it (it is a test's payment
    rule, not a family, and playing it there cost minutes)."""
    register_variant(TOY)
    yield
    VARIANTS.pop(TOY.name, None)


def _game(seed: int = 3):
    game = new_game("toy-nordic-payment", 2, seed=seed)
    skip_setup(game)
    return game


def _claims(game, route_id: str) -> list[tuple]:
    return [a.cards for a in game.legal_actions()
            if a.kind == "claim_route" and a.route_id == route_id]


def _route(game, pred) -> str:
    b = game.board
    return next(b.route_ids[r] for r in range(b.n_routes) if not b.r_siblings[r] and pred(b, r))


def _plain_red_3(b, r):
    return b.routes[r].color == "red" and b.r_len[r] == 3 and not b.r_tunnel[r] \
        and not b.r_min_locos[r]


# The toy rule, as a player meets it --------------------------------------------------

def test_locomotives_do_not_pay_for_an_ordinary_route():
    game = _game()
    rid = _route(game, _plain_red_3)
    set_hand(game, 0, red=2, locomotive=3)
    assert _claims(game, rid) == []
    reason = game.claim_problem(rid)
    route = game.map.routes[rid]
    where = f"{game.map.place_name(route.a)}–{game.map.place_name(route.b)}"
    # Terms that keep locomotives off a route are named in the refusal, even without
    # words of their own for why.
    assert reason == (f"{where} needs 3 red cards; you have 2 red. "
                      f"Locomotives do not count on {where}.")
    with pytest.raises(IllegalAction, match="locomotive cannot pay for"):
        game.apply(ClaimRoute(rid, (("locomotive", 1), ("red", 2))))
    set_hand(game, 0, red=3, locomotive=3)
    assert _claims(game, rid) == [(("red", 3),)]


def test_a_ferrys_locomotive_may_be_paid_with_any_three_cards():
    game = _game()
    rid = "athina-brindisi"        # gray, 4 spaces, 1 locomotive
    set_hand(game, 0, red=3, blue=2, green=1)
    pays = _claims(game, rid)
    assert (("blue", 2), ("green", 1), ("red", 3)) in pays
    assert all(sum(n for _, n in p) == 6 for p in pays)
    rule, r = game.board.claim_rule, game.board.route_index[rid]
    assert rule.can_pay(r, game.state.hands[0])
    assert game.claim_problem(rid) is None
    game.apply(ClaimRoute(rid, (("blue", 2), ("green", 1), ("red", 3))))
    assert game.state.owner[game.board.route_index[rid]] == 0
    assert sum(game.state.hands[0]) == 0


def test_the_locomotive_is_offered_before_the_three_cards():
    game = _game()
    set_hand(game, 0, red=3, blue=3, locomotive=1)
    offered = [a.cards for a in game.payments_for("athina-brindisi")]
    assert offered[0] == (("locomotive", 1), ("red", 3))
    assert sum(n for _, n in offered[-1]) == 6      # substitutes come last
    canonical = [a for a in game.legal_actions(canonical=True)
                 if a.kind == "claim_route" and a.route_id == "athina-brindisi"]
    assert [a.cards for a in canonical] == [offered[0]]


def test_without_a_locomotive_or_three_spare_cards_the_ferry_says_what_it_needs():
    game = _game()
    set_hand(game, 0, red=3, blue=1)
    assert _claims(game, "athina-brindisi") == []
    r = game.board.route_index["athina-brindisi"]
    assert not game.board.claim_rule.can_pay(r, game.state.hands[0])
    assert game.claim_problem("athina-brindisi") == (
        "This ferry needs 1 locomotive(s), or any 3 cards for each, plus 3 cards of one "
        "colour.")
    with pytest.raises(IllegalAction, match="or any 3 cards for each"):
        game.apply(ClaimRoute("athina-brindisi", (("blue", 1), ("red", 3))))


def test_any_four_cards_replace_each_missing_card_of_the_chosen_colour():
    game = _game()
    set_hand(game, 0, red=1, blue=2, green=2, locomotive=1)
    pays = _claims(game, ANY_FOUR_ROUTE)
    assert (("blue", 2), ("green", 1), ("locomotive", 1), ("red", 1)) in pays
    assert all(("locomotive", 1) not in p or sum(n for _, n in p) == 5 for p in pays)
    set_hand(game, 0, red=1, locomotive=3)
    assert _claims(game, ANY_FOUR_ROUTE) == []      # locomotives only inside a set of 4


def test_tunnels_keep_europes_rule_locomotives_wild_and_pay_the_extra():
    game = _game()
    rid = "munchen-venezia"        # blue tunnel, 2 spaces
    set_hand(game, 0, blue=1, locomotive=2)
    assert (("blue", 1), ("locomotive", 1)) in _claims(game, rid)
    stack_deck(game, ["locomotive", "red", "red"])
    game.apply(ClaimRoute(rid, (("blue", 1), ("locomotive", 1))))
    assert game.phase == "pay_tunnel"
    pays = [a.cards for a in game.legal_actions() if a.kind == "pay_tunnel"]
    assert pays == [(("locomotive", 1),)]


def test_the_toy_rule_changes_no_other_variant():
    europe = new_game("europe", 2, seed=3)
    skip_setup(europe)
    rid = _route(europe, _plain_red_3)
    set_hand(europe, 0, red=2, locomotive=1)
    assert _claims(europe, rid) == [(("locomotive", 1), ("red", 2))]
    assert europe.board.simple and not _game().board.simple


# The property over every registered variant ----------------------------------------

def _open_to(game, r: int) -> bool:
    """Everything but the cards: free, trains enough, double routes, module vetoes."""
    s, b = game.state, game.board
    seat = s.current
    return (s.owner[r] < 0 and b.r_len[r] <= s.trains[seat]
            and not parallel_block(s.owner, b.r_siblings[r], seat,
                                   group_open_flags(b.graph, game.ruleset, game.num_players)[r])
            and all(m.may_claim(game.ctx, seat, r) for m in game.modules
                    if m.overrides("veto_claim")))


def _small_hand(game, rng: random.Random) -> None:
    """A random hand of 3 to 7 cards over a few kinds (the slow way stays quick)."""
    b = game.board
    hand: dict[str, int] = {}
    kinds = rng.sample(range(b.n_cards), min(b.n_cards, 4)) + [b.card_index.get(
        "locomotive", 0)]
    for _ in range(rng.randint(3, 7)):
        name = b.card_names[rng.choice(kinds)]
        hand[name] = hand.get(name, 0) + 1
    Scenario(game).hand(game.current_seat, hand)


def _positions(variant: str, seed: int, count: int):
    """TURN positions from a random game, each with a fresh small hand."""
    rng = random.Random(seed)
    ruleset = VARIANTS[variant]
    game = new_game(variant, max(2, ruleset.min_players), seed=seed)
    steps = 0
    while count and not game.is_over and steps < 400:
        if game.phase == Phase.TURN and steps % 7 == 0:
            pos = game.clone()
            _small_hand(pos, rng)
            yield pos
            count -= 1
        game.apply(rng.choice(game.legal_actions()))
        steps += 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_legal_claims_canonical_claims_and_explain_agree_with_the_slow_rule(variant):
    checked = 0
    for game in _positions(variant, seed=5, count=6):
        b, rule = game.board, game.board.claim_rule
        hand = game.pay_vector(game.current_seat)
        listed: dict[str, list] = {}
        for a in game.legal_actions():
            if a.kind == "claim_route":
                listed.setdefault(a.route_id, []).append(a.cards)
        canonical = {a.route_id: a.cards for a in game.legal_actions(canonical=True)
                     if a.kind == "claim_route"}
        for r in range(b.n_routes):
            rid = b.route_ids[r]
            slow = {b.cards_tuple(v) for v in rule.reference(r, hand)} if _open_to(game, r) \
                else set()
            fast = listed.get(rid, [])
            assert len(fast) == len(set(fast)), rid
            assert set(fast) == slow, (variant, rid, hand)
            if slow:
                offered = game.payments_for(rid)
                assert canonical[rid] == offered[0].cards
                assert b.cards_tuple(rule.first(r, hand)) == offered[0].cards
                assert claim_problem(game, rid, None) is None
                for cards in slow:
                    assert claim_problem(game, rid, cards) is None
                checked += 1
            else:
                assert rid not in canonical
                assert claim_problem(game, rid, None)
                assert game.claim_problem(rid)
            # Payments within the hand that the rule refuses: explain says why, and the
            # engine refuses them.
            if _open_to(game, r):
                for vec in itertools.islice(_refused(hand, b.r_len[r], slow, b), 3):
                    cards = b.cards_tuple(vec)
                    assert claim_problem(game, rid, cards), (rid, cards)
                    with pytest.raises(IllegalAction):
                        game.clone().apply(ClaimRoute(rid, cards))
    assert checked, f"no claimable route met in {variant}"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_payment_offered_first_is_the_first_of_the_full_offer(variant):
    """``ClaimRule.first`` (what a search's claims pay with) finds the first payment
    without listing them all: the same as the first of every payment in the offered
    order, for hands over every pay item (both Märklin locomotives, County Durham's coal)
    and every route, or None where nothing pays."""
    game = new_game(variant, max(2, VARIANTS[variant].min_players), seed=2)
    b, rule = game.board, game.board.claim_rule
    rng = random.Random(11)
    for _ in range(25):
        hand = tuple(rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(b.n_pay))
        for r in range(b.n_routes):
            offered = rule.offered(r, hand)
            assert rule.first(r, hand) == (offered[0] if offered else None), \
                (b.route_ids[r], hand)
            assert rule.can_pay(r, hand) == bool(offered), (b.route_ids[r], hand)


def _refused(hand, length, slow, b):
    """Sub-multisets of the hand near the route's length that are not payments."""
    for vec in itertools.product(*(range(min(n, length + 1) + 1) for n in hand)):
        if 0 < sum(vec) and b.cards_tuple(vec) not in slow:
            yield vec


def test_the_one_wild_tables_are_read_from_the_claim_rule():
    game = new_game("usa", 2, seed=1)
    b = game.board
    for r in range(b.n_routes):
        rich = [b.r_len[r]] * b.n_pay
        tabled = {a.cards for row in b.pay_table[r].values() for a in row if a} \
            | {b.all_locos[r].cards}
        assert tabled == {b.cards_tuple(v) for v in b.claim_rule.payments(r, rich)}


def test_a_gray_route_in_the_toy_rule_still_takes_any_one_colour():
    game = _game()
    set_hand(game, 0, yellow=2)
    spec = game.board.claim_rule.route_pay[game.board.route_index["kyiv-wilno"]]
    assert payments(spec, 2, ANY_COLOUR, game.state.hands[0])
    assert _claims(game, "kyiv-wilno") == [(("yellow", 2),)]
