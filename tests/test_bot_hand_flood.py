"""More train cards than trains: a way the hand pays for beats waiting for a colour.

Once the hand holds more cards than the trains left can place, every further draw is a
turn not spent building. A planned route the hand cannot pay for then costs the turns
its missing cards take to come, and those are many: two cards a turn, and only the
cards of its colour and the locomotives help (a fifth of a USA deck). The Hard bot's
default move plans again with that price on each such route and takes the way its hand
already pays for when that way still builds its tickets. Only the draws whose cards the
trains left cannot place are lost, so Hard charges those alone, and with trains to spare
it keeps the shorter way. Normal plans again only with more cards than trains, charging
a turn per two missing cards, and keeps the shorter way.
"""

from __future__ import annotations

import pytest

from ttr_desktop.bots import make_bot
from ttr_desktop.bots.hard import HardBot
from ttr_desktop.bots.cards import claim_rule, draw_turns, shortfall, unseen_cards
from ttr_desktop.bots.graph import graph_for
from ttr_desktop.rules.scenario import Scenario

#: Portland-Phoenix: the short way is Portland-San Francisco (green 5), Los Angeles-San
#: Francisco (pink 3) and Los Angeles-Phoenix (gray 3), 11 trains; the long way is
#: Portland-Salt Lake City (blue 6), Denver-Salt Lake City (red 3), Denver-Santa Fe
#: (gray 2) and Phoenix-Santa Fe (gray 3), 14 trains.
TICKET = "portland-phoenix"
HAND = {"red": 6, "blue": 6, "green": 6}          # no pink
LONG_WAY = {"portland-salt-lake-city", "denver-salt-lake-city-1", "denver-salt-lake-city-2",
            "denver-santa-fe", "phoenix-santa-fe"}
SHORT_WAY = {"portland-san-francisco-1", "portland-san-francisco-2",
             "los-angeles-san-francisco-1", "los-angeles-san-francisco-2",
             "los-angeles-phoenix"}


def scenario(trains: int, **hand: int) -> Scenario:
    sc = Scenario.start("usa", players=2, seed=3)
    sc.tickets(0, [TICKET]).hand(0, **hand).trains(0, trains)
    sc.turn(0)
    return sc


def default_move(trains: int, bot: str = "hard", **hand: int):
    """The move of the Hard bot's default (its Normal planner, as the search bot sets it
    up) or of Normal, as seat 0 with ``hand`` and ``trains``."""
    game = scenario(trains, **hand).game
    legal = game.legal_actions()
    planner = HardBot(seed=1).greedy if bot == "hard" else make_bot("greedy", seed=1)
    choice = planner.choose(game.view(0), legal)
    assert any(choice is a for a in legal)
    return choice


def test_with_more_cards_than_trains_hard_builds_the_way_its_hand_pays_for():
    # 18 cards, 16 trains: three pink cards would take many turns to come.
    choice = default_move(16, **HAND)
    assert choice.kind == "claim_route"
    assert choice.route_id in LONG_WAY


def test_with_trains_to_spare_hard_keeps_the_shorter_way():
    # The same hand with 30 trains: the five turns or so the pink cards take bring ten
    # cards, and the 12 trains beyond the hand will place them: no turn is lost.
    choice = default_move(30, **HAND)
    assert choice.kind == "claim_route"
    assert choice.route_id in SHORT_WAY


def test_hard_counts_only_the_draws_its_trains_cannot_place():
    # 20 trains: of the five turns the pink cards take, one brings cards the trains will
    # place; the other four bring cards that stay in hand, so the long way wins.
    choice = default_move(20, **HAND)
    assert choice.kind == "claim_route"
    assert choice.route_id in LONG_WAY


def test_normal_charges_a_turn_per_two_missing_cards_and_keeps_the_shorter_way():
    choice = default_move(16, bot="normal", **HAND)
    assert choice.kind == "claim_route"
    assert choice.route_id in SHORT_WAY


def turns_for(route_id: str, **hand: int) -> tuple[int, float]:
    """(cards missing, turns expected) of a USA route for seat 0 holding ``hand``."""
    view = scenario(16, **hand).game.view(0)
    g, rule = graph_for(view.map), claim_rule(view)
    r = g.route_ids.index(route_id)
    held = dict(view.hand)
    missing = shortfall(g, (r,), held, rule)
    return missing, draw_turns(g, r, held, rule, missing, unseen_cards(view))


def test_the_cards_a_draw_may_bring_are_the_deck_outside_the_hand():
    view = scenario(16, red=3, blue=2).game.view(0)
    unseen = unseen_cards(view)
    assert sum(unseen.values()) == 110 - 5           # USA: 8 colours x 12, 14 locomotives
    assert unseen["red"] == 9 and unseen["blue"] == 10 and unseen["locomotive"] == 14


def test_a_missing_card_takes_turns_by_how_few_cards_of_the_deck_help():
    # Helena-Omaha is red and 5 long. Holding 3 red cards, 2 are missing; of the 107
    # cards outside the hand, 9 red and 14 locomotives help, two cards a turn.
    missing, turns = turns_for("helena-omaha", red=3)
    assert missing == 2
    assert turns == pytest.approx(2 / (2 * 23 / 107))
    assert turns > 4                      # not the one turn that two cards a turn suggests


def test_a_gray_route_waits_less_when_several_colours_in_hand_could_fill_it():
    # Calgary-Helena is gray and 4 long. Holding 2 red and 2 blue, 2 cards are missing,
    # and a red, a blue or a locomotive brings either colour closer.
    missing, turns = turns_for("calgary-helena", red=2, blue=2)
    assert missing == 2
    assert turns == pytest.approx(2 / (2 * (10 + 10 + 14) / 106))
    assert turns < turns_for("helena-omaha", red=3)[1]


@pytest.mark.parametrize("variant", ["usa", "europe", "marklin", "nordic"])
def test_routes_of_one_kind_are_short_of_the_same_cards(variant):
    # The planner prices each kind of route once: every route of a kind must agree.
    from ttr_desktop.bots.cards import route_kind
    from ttr_desktop.rules import new_game

    view = new_game(variant, 2, seed=5).view(0)
    g, rule, hand = graph_for(view.map), claim_rule(view), dict(view.hand)
    unseen = unseen_cards(view)
    seen: dict[tuple, tuple] = {}
    for r in range(g.n_routes):
        miss = shortfall(g, (r,), hand, rule)
        figures = (miss, draw_turns(g, r, hand, rule, miss, unseen) if miss else 0.0)
        assert seen.setdefault(route_kind(g, r, rule), figures) == figures


def test_the_default_move_and_the_search_read_a_decision_once():
    game = scenario(16, **HAND).game
    view, legal = game.view(0), game.legal_actions()
    planner = HardBot(seed=1).greedy
    first = planner.turn(view, legal)
    assert planner.turn(view, legal) is first
    planner.route_lean = 0.5                       # another setting: read again
    assert planner.turn(view, legal) is not first
    again = planner.turn(view, legal)
    assert planner.turn(game.view(0), legal) is not again      # another view: read again
