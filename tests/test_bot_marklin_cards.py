"""Normal in Märklin counts its +4 locomotives where they pay (rules.md §2.3).

A +4 locomotive is wild on routes of 4 or more spaces and an ordinary pick face up (two
cards a turn still). Märklin's longest routes are 7 spaces of one colour: a +4 there is as
good as a card of that colour, so Normal takes one from the display for such a route, and
counts those in its hand toward it, as it does a plain locomotive. On a shorter route a
+4 pays nothing, and Normal does not count it there. The Hard bot's rollouts count them
the same way.

With more cards in hand than trains left to place them, Normal builds a ticket the way
its hand pays for rather than drawing on for a shorter way's colour.
"""

from __future__ import annotations

import random

import pytest

from ttr_desktop.bots import make_bot
from ttr_desktop.bots.cards import claim_rule, shortfall
from ttr_desktop.bots.graph import graph_for
from ttr_desktop.rules.scenario import Scenario
from tests.test_rules_marklin import started

PLUS4 = "locomotive_plus4"
#: Dresden–Augsburg (12): Normal owns München–Regensburg and Augsburg–München, so the one
#: route left is Dresden–Regensburg, 7 red spaces.
TICKET = "dresden-augsburg"
BUILT = ("munchen-regensburg", "augsburg-munchen-1")
LONG = "dresden-regensburg"
#: Cards no route of the plan takes.
OTHERS = ["green", "pink", "white", "yellow"]


def _game(hand: dict[str, int], display: list[str], ticket: str = TICKET,
          built=BUILT):
    """Seat 0 of a 3-player Märklin game to play, with ``ticket`` (its ``built`` routes
    its own), ``hand`` and ``display``; the opponents far from the end."""
    game = started(3, seed=3)
    sc = Scenario(game).tickets(0, [ticket]).hand(0, hand).face_up(display)
    for route_id in built:
        sc.route(0, route_id)
    sc.turn(0)
    return game


def _normal_choice(game):
    legal = game.legal_actions()
    choice = make_bot("greedy", seed=1).choose(game.view(0), legal)
    assert any(choice is a for a in legal)
    return choice


def test_normal_takes_a_face_up_plus4_locomotive_for_its_seven_space_route():
    # Five red of the seven: a +4 brings the red route one card closer; the rest of the
    # display brings nothing.
    game = _game({"red": 5}, OTHERS + [PLUS4])
    choice = _normal_choice(game)
    assert choice.kind == "draw_face_up"
    assert choice.card == PLUS4


def test_normal_leaves_a_plus4_locomotive_that_cannot_pay_for_its_short_route():
    # The route left is München–Regensburg, 3 orange spaces: a +4 pays nothing there, and
    # no orange card is face up.
    game = _game({}, OTHERS + [PLUS4], built=(LONG, "augsburg-munchen-1"))
    assert _normal_choice(game).kind == "draw_blind"


def test_plus4_locomotives_count_toward_a_long_route_only():
    game = _game({}, OTHERS + ["blue"])
    view = game.view(0)
    g, rule = graph_for(view.map), claim_rule(view)
    long, short = g.route_index[LONG], g.route_index["augsburg-munchen-1"]
    assert shortfall(g, [long], {"red": 5, PLUS4: 2}, rule) == 0
    assert shortfall(g, [long], {"red": 5, PLUS4: 1}, rule) == 1
    # Red goes first to the short route (gray, 2 spaces), the +4s to the long one.
    assert shortfall(g, [long, short], {"red": 4, PLUS4: 5}, rule) == 0
    assert shortfall(g, [long, short], {"red": 1, PLUS4: 7}, rule) == 1
    # Plain locomotives pay anywhere.
    assert shortfall(g, [long, short], {"red": 1, "locomotive": 8}, rule) == 0


def test_the_hint_for_a_face_up_plus4_names_a_long_route_of_the_plan_or_none():
    from ttr_desktop.bots.hard import PLAYOUT_REASON, hint_reason
    from ttr_desktop.rules import DrawFaceUp

    game = _game({"red": 5}, OTHERS + [PLUS4])
    assert hint_reason(game.view(0), DrawFaceUp(4, PLUS4)) == (
        "a +4 locomotive is wild on routes of 4 or more spaces: your plan has "
        "Dresden–Regensburg")
    # Only München–Regensburg (3 spaces) is left: a +4 pays for none of the plan.
    game = _game({}, OTHERS + [PLUS4], built=(LONG, "augsburg-munchen-1"))
    assert hint_reason(game.view(0), DrawFaceUp(4, PLUS4)) == PLAYOUT_REASON


# The Hard bot's rollouts (the games it plays out to weigh a move) -------------------
def _rollout_choice(game):
    from ttr_desktop.bots.rollout import RolloutPolicy
    policy = RolloutPolicy(game, random.Random(1))
    return policy.choose(game)


def test_rollouts_take_a_face_up_plus4_locomotive_for_a_seven_space_route():
    # As Normal does: no red face up, and a +4 is a red card on Dresden–Regensburg.
    game = _game({"red": 5}, OTHERS + [PLUS4])
    choice = _rollout_choice(game)
    assert choice.kind == "draw_face_up"
    assert choice.card == PLUS4


def _near_the_end(hand: dict[str, int], built=BUILT):
    """Seat 0 with 30 trains, ``hand`` (six pink cards its plan never uses: Berlin–Rostock
    takes them) and ``built``; both opponents 8 trains from the end, so seat 0 has this
    turn and one more."""
    game = _game(hand, OTHERS + ["blue"], built=built)
    Scenario(game).trains(0, 30).trains(1, 8).trains(2, 8).turn(0)
    return game


@pytest.mark.parametrize("wilds", [{PLUS4: 2}, {PLUS4: 1, "locomotive": 1}],
                         ids=["two +4", "a +4 and a locomotive"])
def test_rollouts_keep_drawing_when_their_locomotives_leave_the_long_route_a_card_short(
        wilds):
    # Four red and two wild cards toward the 7 red spaces: one card short, so a draw now
    # and the claim next turn build the ticket. Spending the pink cards would give it up.
    choice = _rollout_choice(_near_the_end({"red": 4, "pink": 6, **wilds}))
    assert choice.kind in ("draw_face_up", "draw_blind")


def test_rollouts_spend_spare_cards_when_the_long_route_is_out_of_reach():
    # Four red alone: three cards short, two turns left: the pink cards buy Berlin–Rostock.
    choice = _rollout_choice(_near_the_end({"red": 4, "pink": 6}))
    assert choice.kind == "claim_route"
    assert choice.route_id == "berlin-rostock"


def test_rollouts_do_not_count_plus4_locomotives_toward_a_short_route():
    # München–Regensburg is 3 orange spaces: the +4s pay nothing there, the route stays
    # three cards away, and the pink cards are better spent.
    choice = _rollout_choice(_near_the_end({PLUS4: 2, "pink": 6},
                                           built=(LONG, "augsburg-munchen-1")))
    assert choice.kind == "claim_route"
    assert choice.route_id == "berlin-rostock"


# More cards than trains: the way the hand pays for -------------------------------
#: Six pink and a yellow pay for Dresden–Chemnitz–Regensburg (1 yellow, 6 pink): the same
#: seven trains as Dresden–Regensburg (7 red), one claim more; six other cards besides.
NO_RED = {"yellow": 1, "pink": 6, "green": 3, "white": 3}


def test_normal_with_more_cards_than_trains_builds_the_way_its_hand_pays_for():
    # Thirteen cards and twelve trains: drawing for seven red would leave most of the hand
    # unplaced at the end. The pink route is claimed now.
    game = _game(NO_RED, OTHERS + ["blue"])
    Scenario(game).trains(0, 12).turn(0)
    choice = _normal_choice(game)
    assert choice.kind == "claim_route"
    assert choice.route_id == "chemnitz-regensburg"


def test_normal_with_trains_to_spare_keeps_the_shorter_way_and_draws():
    # Twenty trains: the cards will find a use; one claim of 7 red is the cheaper way.
    game = _game(NO_RED, OTHERS + ["blue"])
    Scenario(game).trains(0, 20).turn(0)
    assert _normal_choice(game).kind == "draw_blind"
