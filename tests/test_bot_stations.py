"""Normal and stations: a station rescues a ticket an opponent's route has cut.

A station lets its owner use one route another player claimed into or out of its city, for
tickets only; each station not built is worth 4 points at the end (rules.md §1.9 and
Europe). Normal builds one next to the opponent's route its ticket needs when the ticket is
worth more than those 4 points and the cards the station costs: a ticket its plan would
otherwise fail (no way round, not enough trains or turns for the way round), and, in the
final round, a failing ticket the station completes at once when no claim scores more.
"""

from __future__ import annotations

import pytest

from ttr_desktop.bots import make_bot
from ttr_desktop.rules.scenario import Scenario

PLAYERS = ["Cleo", "Ann", "Bob"]


def normal_choice(game, seat: int = 0):
    """Normal's move for ``seat`` (the seat to play)."""
    assert game.current_seat == seat
    legal = game.legal_actions()
    choice = make_bot("greedy", seed=1).choose(game.view(seat), legal)
    assert any(choice is a for a in legal)
    return choice


def bob_ends_the_game(sc: Scenario, route_id: str, **cards: int):
    """Bob, before Cleo, claims ``route_id`` down to 2 trains: the final round begins and
    Cleo plays her last turn."""
    game = sc.game
    length = game.map.routes[route_id].length
    sc.trains(2, length + 2).hand(2, **cards).turn(2)
    game.apply(next(a for a in game.legal_actions()
                    if a.kind == "claim_route" and a.route_id == route_id))
    assert game.final_round and game.current_seat == 0
    return game


# Europe -----------------------------------------------------------------------------------
def europe_cleo_to_wien():
    """Europe, 3 players: Cleo holds Zürich–Budapest (6 points) and has built Zürich–München
    –Wien; Ann has claimed Wien–Budapest (its second track is closed at 3 players) and
    Zagreb–Budapest."""
    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["zurich-budapest"]).route(0, "munchen-zurich").route(0, "munchen-wien")
    sc.route(1, "budapest-wien-1").route(1, "budapest-zagrab")
    return sc


def test_normal_builds_a_station_in_wien_when_anns_wien_budapest_blocks_its_last_ticket_in_the_final_round():
    sc = europe_cleo_to_wien().trains(0, 12).hand(0, pink=1, red=2)
    game = bob_ends_the_game(sc, "amsterdam-bruxelles", black=1)
    choice = normal_choice(game)
    # Wien–Zagreb would score 2 points; the station turns -6 into +6 for 4 points.
    assert choice.kind == "build_station"
    assert choice.city_id == "wien"
    assert choice.cards == (("pink", 1),)      # the card no claim needs
    game.apply(choice)
    assert "zurich-budapest" in game.view(0).completed_tickets


def test_normal_claims_instead_when_the_claim_scores_more_than_the_rescued_ticket():
    # Six locomotives pay a 6-train route (15 points): more than the 8 a station gains
    # (12 for the ticket less the 4 it is worth unbuilt).
    sc = europe_cleo_to_wien().trains(0, 12).hand(0, locomotive=6)
    game = bob_ends_the_game(sc, "amsterdam-bruxelles", black=1)
    choice = normal_choice(game)
    assert choice.kind == "claim_route"
    assert game.map.routes[choice.route_id].length == 6


def test_normal_builds_a_station_for_a_cut_ticket_its_trains_cannot_reach_the_long_way():
    # Mid-game, 5 trains left: the way round Wien–Zagreb is cut too (Ann's Zagreb–Budapest)
    # and every other way is longer than 5 trains.
    sc = europe_cleo_to_wien().trains(0, 5).hand(0, pink=1).turn(0)
    choice = normal_choice(sc.game)
    assert choice.kind == "build_station"
    assert choice.city_id in ("wien", "budapest")


def test_normal_does_not_spend_a_station_on_a_5_point_ticket():
    # Rostov–Erzurum (5 points): Cleo has Rostov–Sochi, and every route into Erzurum is
    # taken (Ann's Sochi–Erzurum, Bob's Angora–Erzurum and Sevastopol–Erzurum). A station
    # would save the ticket's 5 points: no more than the 4 it is worth unbuilt and the
    # card it costs.
    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["rostov-erzurum"]).route(0, "rostov-sochi").route(1, "erzurum-sochi")
    sc.route(2, "angora-erzurum").route(2, "erzurum-sevastopol")
    sc.trains(0, 30).hand(0, pink=1).turn(0)
    choice = normal_choice(sc.game)
    assert choice.kind != "build_station"


def test_normal_builds_a_station_rather_than_a_detour_it_has_no_turns_left_for():
    # Ann's Wien–Budapest cut; the way round (Wien–Zagreb–Budapest, 2 claims) is open but
    # Bob is down to 6 trains: about three turns left, and the detour's cards are not in
    # Cleo's hand.
    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["zurich-budapest"]).route(0, "munchen-zurich").route(0, "munchen-wien")
    sc.route(1, "budapest-wien-1").trains(0, 20).trains(2, 6).hand(0, pink=1).turn(0)
    choice = normal_choice(sc.game)
    assert choice.kind == "build_station"
    assert choice.city_id == "wien"


def test_normal_takes_the_way_round_when_the_game_has_turns_to_spare():
    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["zurich-budapest"]).route(0, "munchen-zurich").route(0, "munchen-wien")
    sc.route(1, "budapest-wien-1").trains(0, 20).hand(0, pink=1).turn(0)
    choice = normal_choice(sc.game)
    assert choice.kind != "build_station"


# USA with the Stations option ---------------------------------------------------------------
#: variant -> (Cleo's 4-point ticket, her route to its middle, Ann's routes cutting it, the
#: cities a station may borrow Ann's first route from)
USA_CUTS = {
    "usa": ("denver-el-paso", "denver-santa-fe", ("el-paso-santa-fe",), {"santa-fe", "el-paso"}),
    "usa-1910": ("washington-atlanta", "raleigh-washington-1",
                 ("atlanta-raleigh-1", "atlanta-charleston", "atlanta-nashville"),
                 {"raleigh", "atlanta"}),
}
USA_FAMILIES = pytest.mark.parametrize("variant", list(USA_CUTS))


def usa_cut_ticket(variant: str, **hand: int):
    """USA (or USA 1910) with stations, 3 players: Cleo holds a 4-point ticket and has built
    the route to its middle city; Ann's routes cut the rest (USA: Denver–El Paso, Cleo's
    Denver–Santa Fe, Ann's Santa Fe–El Paso; USA 1910: Washington–Atlanta, Cleo's
    Washington–Raleigh, Ann's Raleigh–, Charleston– and Nashville–Atlanta)."""
    ticket, own, cuts, _ = USA_CUTS[variant]
    sc = Scenario.start(variant, players=PLAYERS, seed=1, options={"stations": True})
    sc.tickets(0, [ticket]).route(0, own)
    for route_id in cuts:
        sc.route(1, route_id)
    return sc.hand(0, **hand)


@USA_FAMILIES
def test_usa_normal_builds_a_station_in_the_final_round_for_a_ticket_it_completes(variant):
    # Even a 4-point ticket: -4 becomes +4 for the 4 points of the station, and Cleo's
    # cards pay for no claim worth more.
    sc = usa_cut_ticket(variant, pink=1).trains(0, 12)
    game = bob_ends_the_game(sc, "boston-new-york-2", yellow=2)
    choice = normal_choice(game)
    assert choice.kind == "build_station"
    assert choice.city_id in USA_CUTS[variant][3]
    game.apply(choice)
    assert USA_CUTS[variant][0] in game.view(0).completed_tickets


@USA_FAMILIES
def test_usa_normal_does_not_spend_a_station_on_a_4_point_ticket_mid_game(variant):
    # Cleo's 5 trains do not reach round Ann's routes; a station would, but the ticket's
    # 4 points are no more than the station's own.
    sc = usa_cut_ticket(variant, pink=1).trains(0, 5).turn(0)
    choice = normal_choice(sc.game)
    assert choice.kind != "build_station"


# Hard ------------------------------------------------------------------------------------
def test_hard_searches_the_station_that_rescues_its_ticket_in_the_final_round():
    from ttr_desktop.bots.hard import HardBot

    sc = europe_cleo_to_wien().trains(0, 12).hand(0, pink=1, red=2)
    game = bob_ends_the_game(sc, "amsterdam-bruxelles", black=1)
    view, legal = game.view(0), game.legal_actions()
    bot = HardBot(seed=1, rounds=3)
    choice = bot.choose(view, legal)
    assert choice.kind == "build_station" and choice.city_id == "wien"


def test_hard_weighs_the_station_against_a_claim_that_scores_more():
    from ttr_desktop.bots.hard import HardBot

    sc = europe_cleo_to_wien().trains(0, 12).hand(0, locomotive=6)
    game = bob_ends_the_game(sc, "amsterdam-bruxelles", black=1)
    view, legal = game.view(0), game.legal_actions()
    bot = HardBot(seed=1, rounds=3)
    greedy = bot.greedy.choose(view, legal)
    assert greedy.kind == "claim_route"
    assert any(a.kind == "build_station" for a in bot.candidates(view, legal, greedy))
    assert bot.choose(view, legal).kind == "claim_route"


def test_hard_rollouts_plan_through_the_seats_own_station():
    # The games Hard plays out to judge a move plan each seat's tickets: with Cleo's station
    # in Wien, Ann's Wien–Budapest completes Zürich–Budapest, so nothing is left to build
    # (no detour by Zagreb).
    import random

    from ttr_desktop.bots.rollout import RolloutPolicy
    from tests.helpers import give_station

    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["zurich-budapest"]).route(0, "munchen-zurich").route(0, "munchen-wien")
    sc.route(1, "budapest-wien-1").trains(0, 20).turn(0)
    game = sc.game
    policy = RolloutPolicy(game, random.Random(1))
    ids = game.board.route_ids
    assert {ids[r] for r in policy.plan(game, 0)} == {"wien-zagrab", "budapest-zagrab"}
    give_station(game, 0, "wien")
    policy.forget(0)
    assert policy.plan(game, 0) == []


# One route a station -------------------------------------------------------------------
def test_normal_builds_its_own_way_when_its_station_already_lends_its_route_to_another_ticket():
    # Cleo's station in Wien borrows Ann's Wien–Budapest for Zürich–Budapest. It cannot also
    # lend Ann's Berlin–Wien to Berlin–Roma: Cleo needs a way into Berlin of her own, and her
    # three red cards pay Frankfurt–Berlin.
    from tests.helpers import give_station

    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["zurich-budapest", "berlin-roma"])
    sc.route(0, "munchen-zurich").route(0, "munchen-wien")
    sc.route(1, "budapest-wien-1").route(1, "berlin-wien").trains(0, 30).hand(0, red=3)
    give_station(sc.game, 0, "wien")
    sc.turn(0)
    assert "zurich-budapest" in sc.game.view(0).completed_tickets
    choice = normal_choice(sc.game)
    assert choice.kind == "claim_route" and choice.route_id == "berlin-frankfurt-2"


def test_normal_does_not_borrow_two_routes_through_one_station_for_one_ticket():
    # Berlin–Bucuresti through Cleo's Wien station would need both Ann's Berlin–Wien and her
    # Wien–Budapest: one station lends one of them, so Cleo plans a way of her own.
    from ttr_desktop.bots.graph import Situation
    from tests.helpers import give_station

    sc = Scenario.start("europe", players=PLAYERS, seed=1)
    sc.tickets(0, ["berlin-bucuresti"]).route(1, "budapest-wien-1").route(1, "berlin-wien")
    sc.trains(0, 30)
    give_station(sc.game, 0, "wien")
    view = sc.game.view(0)
    plan = Situation(view).plan(view.tickets)
    # Budapest–Bucuresti (4 trains) alone would do with both borrowed: a plan of more trains
    # builds round one of them.
    assert [t.id for t in plan.planned] == ["berlin-bucuresti"]
    assert plan.trains > 4
