"""rules.md §1.9 (and §8.4, §8.7, A-08, A-09): the optional Stations rule on the USA map."""

import pytest

from tests.helpers import (
    empty_deck_and_discard, give_route, give_station, hand, owned_routes, set_face_up, set_hand,
    set_tickets, started, stations,
)
from ttr_desktop.rules import BuildStation, IllegalAction

TO_DENVER = ["duluth-sault-st-marie", "duluth-helena", "denver-helena", "denver-santa-fe"]


@pytest.fixture
def game():
    g = started("usa", 3, seed=4, stations=True)
    for seat in range(3):
        set_tickets(g, seat, [])
    return g


def build_costs(game):
    return {a.cards for a in stations(game)}


def test_stations_are_an_option_of_the_usa_game():
    assert not any(a.kind == "build_station"
                   for a in started("usa", 2, seed=4).legal_actions())


def test_each_player_has_3_stations(game):
    assert game.view(0).extra["stations_left"] == (3, 3, 3)


def test_the_first_station_costs_1_card_of_any_kind(game):
    set_hand(game, 0, red=1, locomotive=1)
    assert build_costs(game) == {(("red", 1),), (("locomotive", 1),)}


def test_a_station_may_be_built_on_any_city_without_a_station_even_without_routes(game):
    set_hand(game, 0, red=1)
    assert {a.city_id for a in stations(game)} == set(game.map.cities)


def test_building_a_station_pays_the_cards_and_ends_the_turn(game):
    set_hand(game, 0, red=2)
    game.apply(BuildStation("denver", (("red", 1),)))
    assert hand(game, 0) == {"red": 1}
    assert game.view(1).extra["stations"] == {"denver": 0}
    assert game.current_seat == 1


def test_the_second_station_costs_2_cards_of_one_colour(game):
    give_station(game, 0, "denver")
    set_hand(game, 0, red=1, blue=1)
    assert stations(game) == []
    with pytest.raises(IllegalAction, match="2 cards of one colour"):
        game.apply(BuildStation("omaha", (("blue", 1), ("red", 1))))
    set_hand(game, 0, red=2, blue=1, locomotive=1)
    assert build_costs(game) == {(("red", 2),), (("locomotive", 1), ("red", 1)),
                                 (("blue", 1), ("locomotive", 1))}


def test_the_third_station_costs_3_cards_of_one_colour(game):
    give_station(game, 0, "denver")
    give_station(game, 0, "omaha")
    set_hand(game, 0, red=2, blue=2)
    assert stations(game) == []
    set_hand(game, 0, red=3, locomotive=3)
    assert (("red", 3),) in build_costs(game)
    assert (("locomotive", 3),) in build_costs(game)
    assert (("locomotive", 1), ("red", 2)) in build_costs(game)


def test_no_more_than_3_stations(game):
    for city in ("denver", "omaha", "dallas"):
        give_station(game, 0, city)
    set_hand(game, 0, red=5, locomotive=5)
    assert stations(game) == []


def test_only_one_station_per_city(game):
    give_station(game, 1, "denver")
    set_hand(game, 0, red=1)
    assert "denver" not in {a.city_id for a in stations(game)}
    with pytest.raises(IllegalAction, match="already has"):
        game.apply(BuildStation("denver", (("red", 1),)))


def test_a_station_borrows_one_opponent_route_into_its_city(game):
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 1, "el-paso-santa-fe")
    assert game.scores()[0].parts["tickets"] == -4
    give_station(game, 0, "santa-fe")
    score = game.scores()[0]
    assert score.parts["tickets"] == 4
    assert score.borrowed_routes == ["el-paso-santa-fe"]


def test_a_station_borrows_the_route_that_helps_most(game):
    # One station, two opponent routes at it, each completing a different ticket:
    # only one of them can be used, and the engine picks the better one.
    set_tickets(game, 0, ["denver-el-paso", "sault-st-marie-oklahoma-city"])   # 4 and 9
    for rid in TO_DENVER:
        give_route(game, 0, rid)
    give_route(game, 1, "el-paso-santa-fe")
    give_route(game, 2, "oklahoma-city-santa-fe")
    give_station(game, 0, "santa-fe")
    score = game.scores()[0]
    assert score.borrowed_routes == ["oklahoma-city-santa-fe"]
    assert score.parts["tickets"] == 9 - 4


def test_the_borrowed_route_serves_every_ticket(game):
    set_tickets(game, 0, ["denver-el-paso", "duluth-el-paso"])                  # 4 and 10
    for rid in TO_DENVER:
        give_route(game, 0, rid)
    give_route(game, 1, "el-paso-santa-fe")
    give_station(game, 0, "santa-fe")
    assert game.scores()[0].parts["tickets"] == 4 + 10


def test_each_station_borrows_its_own_route(game):
    set_tickets(game, 0, ["denver-el-paso", "sault-st-marie-oklahoma-city"])
    for rid in TO_DENVER:
        give_route(game, 0, rid)
    give_route(game, 1, "el-paso-santa-fe")
    give_route(game, 2, "oklahoma-city-santa-fe")
    give_station(game, 0, "santa-fe")
    give_station(game, 0, "el-paso")
    score = game.scores()[0]
    assert score.parts["tickets"] == 9 + 4
    assert sorted(score.borrowed_routes) == ["el-paso-santa-fe", "oklahoma-city-santa-fe"]


def test_a_station_cannot_borrow_an_unclaimed_route(game):
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")
    give_station(game, 0, "santa-fe")
    give_station(game, 0, "el-paso")
    assert game.scores()[0].parts["tickets"] == -4


def test_a_station_does_not_reach_its_city_by_itself(game):
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 1, "el-paso-phoenix")            # into El Paso, but not from Santa Fe
    give_station(game, 0, "el-paso")
    assert game.scores()[0].parts["tickets"] == -4


def test_two_players_may_borrow_the_same_route(game):
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 1, "el-paso-santa-fe")
    give_station(game, 0, "santa-fe")
    set_tickets(game, 2, ["duluth-el-paso"])
    for rid in ["duluth-sault-st-marie", "duluth-helena"]:
        give_route(game, 2, rid)
    give_route(game, 2, "el-paso-phoenix")
    give_station(game, 2, "el-paso")
    scores = game.scores()
    assert scores[0].borrowed_routes == ["el-paso-santa-fe"]
    assert scores[0].parts["tickets"] == 4
    assert scores[2].parts["tickets"] == -10      # Helena-El Paso is still missing
    give_route(game, 2, "denver-helena")
    give_route(game, 2, "denver-phoenix")
    assert game.scores()[2].parts["tickets"] == 10


def test_stations_and_borrowed_routes_do_not_count_for_the_longest_path(game):
    give_route(game, 0, "denver-santa-fe")           # 2
    give_route(game, 1, "el-paso-santa-fe")          # 2
    give_route(game, 1, "el-paso-houston")           # 6
    give_station(game, 0, "santa-fe")
    assert game.longest_path(0)[0] == 2
    assert game.scores()[0].longest_path == 2


@pytest.mark.parametrize("built,points", [(0, 12), (1, 8), (2, 4), (3, 0)])
def test_each_unbuilt_station_scores_4(game, built, points):
    for city in ("denver", "omaha", "dallas")[:built]:
        give_station(game, 0, city)
    assert game.scores()[0].parts["stations"] == points


def test_a_built_station_that_borrows_nothing_still_scores_nothing(game):
    # points go per station not built, not per station not used.
    give_station(game, 0, "denver")
    assert game.scores()[0].parts["stations"] == 8


def test_a_tie_on_points_and_tickets_goes_to_the_fewest_stations(game):
    # tickets, then fewest stations built, then the longest path.
    give_station(game, 0, "denver")
    give_route(game, 0, "chicago-duluth")                          # 4 points, path 3
    give_station(game, 1, "omaha")
    give_station(game, 1, "dallas")
    give_route(game, 1, "calgary-vancouver")                       # 4 points, path 3
    give_route(game, 1, "little-rock-nashville")                   # 4 points, path 3
    give_station(game, 2, "miami")
    give_station(game, 2, "boston")
    give_station(game, 2, "seattle")
    scores = game.scores()
    assert scores[0].total == scores[1].total == 8 + 4 + 10
    result = game.result()
    assert result.winners == [0] and result.tie_break == "fewest_stations"


def test_with_deck_and_discard_empty_a_station_is_still_an_action():
    game = started("usa", 2, seed=3, stations=True)
    set_hand(game, 0, red=1)
    set_face_up(game, [None] * 5)
    empty_deck_and_discard(game)
    assert {a.kind for a in game.legal_actions()} >= {"build_station"}
    assert owned_routes(game, 0) == []
