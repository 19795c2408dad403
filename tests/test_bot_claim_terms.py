"""The bots judge what a hand pays by the game's own claim rule, with its modules' claim
terms: in Nordic Countries a locomotive is no wild on an ordinary route, a ferry's
locomotive may be any 3 cards and Murmansk–Lieksa takes sets of any 4 cards. A bot that
counted locomotives everywhere would wait for routes it can never pay and skip ferries it
can pay now."""

from __future__ import annotations

import random

from tests.helpers import set_hand, set_tickets, started
from ttr_desktop.bots import make_bot
from ttr_desktop.bots.cards import can_pay, claim_rule, shortfall
from ttr_desktop.bots.graph import graph_for
from ttr_desktop.rules.actions import ClaimRoute

PLAIN_3 = "helsinki-imatra"         # red, 3 spaces
FERRY = "helsinki-tallinn"          # pink, 2 spaces, 1 locomotive


def test_a_bot_knows_a_locomotive_does_not_pay_for_an_ordinary_nordic_route():
    game = started("nordic", 2, seed=1)
    view = game.view(0)
    g, rule = graph_for(view.map), claim_rule(view)
    r = game.board.route_index[PLAIN_3]
    hand = {"red": 2, "locomotive": 3}
    assert not can_pay(g, r, hand, rule)
    assert shortfall(g, [r], hand, rule) == 1
    assert can_pay(g, r, {"red": 3}, rule)


def test_a_bot_knows_three_cards_pay_for_a_ferrys_locomotive():
    game = started("nordic", 2, seed=1)
    view = game.view(0)
    g, rule = graph_for(view.map), claim_rule(view)
    r = game.board.route_index[FERRY]
    assert can_pay(g, r, {"pink": 1, "red": 2, "blue": 1}, rule)
    assert not can_pay(g, r, {"pink": 1, "red": 2}, rule)


def test_what_the_bots_think_a_hand_pays_is_what_the_engine_offers():
    """Every route but the tunnels (a bot wants a spare card for those), random hands."""
    rng = random.Random(4)
    game = started("nordic", 2, seed=2)
    b = game.board
    names = b.card_names
    for _ in range(40):
        cards = {n: 0 for n in names}
        for _ in range(rng.randint(2, 12)):
            cards[rng.choice(names)] += 1
        set_hand(game, 0, **{n: k for n, k in cards.items() if k})
        view = game.view(0)
        g, rule = graph_for(view.map), claim_rule(view)
        for r in range(b.n_routes):
            if b.r_tunnel[r]:
                continue
            offered = bool(game.payments_for(b.route_ids[r]))
            assert can_pay(g, r, view.hand, rule) == offered, (b.route_ids[r], view.hand)


def test_normal_claims_a_ferry_it_needs_with_three_cards_for_the_locomotive():
    game = started("nordic", 2, seed=3)
    set_tickets(game, 0, ["tampere-tallinn"])
    set_hand(game, 0, pink=1, red=2, blue=1)
    action = make_bot("greedy").choose(game.view(0), game.legal_actions())
    assert action == ClaimRoute(FERRY, (("blue", 1), ("pink", 1), ("red", 2)))
