"""rules.md §1.5 (and §8.8, §8.9, §8.11, §8.12): claiming a route."""

import pytest

from tests.helpers import (
    claims, give_route, hand, owned_routes, set_hand, set_trains, started,
)
from ttr_desktop.rules import ClaimRoute, IllegalAction
from ttr_desktop.rules.state import Phase


def paid(action):
    return dict(action.cards)


def test_a_coloured_route_takes_cards_of_its_colour():
    game = started("usa", 2)
    set_hand(game, 0, red=3, blue=3)
    assert [paid(a) for a in claims(game, "chicago-duluth")] == [{"red": 3}]


def test_claiming_discards_the_cards_places_trains_and_scores_the_route():
    game = started("usa", 2)
    set_hand(game, 0, red=4)
    discard = len(game.state.discard)
    game.apply(ClaimRoute("chicago-duluth", (("red", 3),)))
    assert owned_routes(game, 0) == ["chicago-duluth"]
    assert hand(game, 0) == {"red": 1}
    assert len(game.state.discard) == discard + 3
    assert game.state.trains[0] == 42
    assert game.state.points[0] == 4
    assert game.phase == Phase.TURN and game.current_seat == 1


@pytest.mark.parametrize("length,points", [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15)])
def test_route_points_follow_the_scoring_table(length, points):
    game = started("usa", 2)
    route = next(r for r in game.map.routes.values() if r.length == length)
    give_route(game, 0, route.id)
    assert game.state.points[0] == points


def test_a_gray_route_is_paid_in_any_one_colour():
    game = started("usa", 2)
    set_hand(game, 0, red=3, blue=3, green=2)
    assert sorted(a.cards for a in claims(game, "calgary-vancouver")) == [
        (("blue", 3),), (("red", 3),)]


def test_colours_are_never_mixed_on_a_gray_route():
    game = started("usa", 2)
    set_hand(game, 0, red=2, blue=2)
    assert claims(game, "calgary-helena") == []
    before = game.state.to_dict()
    with pytest.raises(IllegalAction, match="mixed"):
        game.apply(ClaimRoute("calgary-helena", (("blue", 2), ("red", 2))))
    assert game.state.to_dict() == before


def test_locomotives_are_wild_on_any_route():
    game = started("usa", 2)
    set_hand(game, 0, red=2, locomotive=1)
    assert [paid(a) for a in claims(game, "chicago-duluth")] == [{"red": 2, "locomotive": 1}]
    assert [paid(a) for a in claims(game, "calgary-vancouver")] == [
        {"red": 2, "locomotive": 1}]


def test_a_route_may_be_paid_with_locomotives_only():
    game = started("usa", 2)
    set_hand(game, 0, locomotive=3)
    assert ClaimRoute("chicago-duluth", (("locomotive", 3),)) in claims(game, "chicago-duluth")
    game.apply(ClaimRoute("chicago-duluth", (("locomotive", 3),)))
    assert owned_routes(game, 0) == ["chicago-duluth"]


def test_each_payment_is_listed_once_and_all_locomotives_once_per_route():
    game = started("usa", 2)
    set_hand(game, 0, red=4, blue=4, locomotive=4)
    listed = [a.cards for a in claims(game, "atlanta-charleston")]   # gray, length 2
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted([
        (("red", 2),), (("locomotive", 1), ("red", 1)),
        (("blue", 2),), (("blue", 1), ("locomotive", 1)),
        (("locomotive", 2),)])
    for action in game.legal_actions():
        if action.kind == "claim_route":
            assert list(action.cards) == sorted(action.cards)
            assert all(n > 0 for _, n in action.cards)
    per_route = {}
    for action in game.legal_actions():
        if action.kind == "claim_route" and set(dict(action.cards)) == {"locomotive"}:
            per_route[action.route_id] = per_route.get(action.route_id, 0) + 1
    assert per_route and set(per_route.values()) == {1}


def test_a_payment_must_have_exactly_the_route_length():
    game = started("usa", 2)
    set_hand(game, 0, red=4)
    with pytest.raises(IllegalAction, match="exactly 3"):
        game.apply(ClaimRoute("chicago-duluth", (("red", 4),)))


def test_a_coloured_route_refuses_another_colour():
    game = started("usa", 2)
    set_hand(game, 0, blue=3)
    with pytest.raises(IllegalAction, match="red"):
        game.apply(ClaimRoute("chicago-duluth", (("blue", 3),)))


def test_a_route_needs_as_many_trains_as_spaces():
    game = started("usa", 2)
    set_hand(game, 0, red=3, locomotive=3)
    set_trains(game, 0, 2)
    assert claims(game, "chicago-duluth") == []
    assert claims(game, "boston-new-york-1") != []
    with pytest.raises(IllegalAction, match="needs 3 trains; you have 2"):
        game.apply(ClaimRoute("chicago-duluth", (("red", 3),)))


def test_a_claimed_route_cannot_be_claimed_again():
    game = started("usa", 2)
    give_route(game, 1, "chicago-duluth")
    set_hand(game, 0, red=3)
    assert claims(game, "chicago-duluth") == []
    with pytest.raises(IllegalAction, match="already belongs"):
        game.apply(ClaimRoute("chicago-duluth", (("red", 3),)))


def test_a_route_need_not_connect_to_your_other_routes():
    game = started("usa", 2)
    give_route(game, 0, "seattle-vancouver-1")
    set_hand(game, 0, red=3)
    assert claims(game, "chicago-duluth")


def test_only_one_route_per_turn():
    game = started("usa", 2)
    set_hand(game, 0, red=6)
    game.apply(ClaimRoute("chicago-duluth", (("red", 3),)))
    assert game.current_seat == 1


@pytest.mark.parametrize("players", [2, 3])
def test_with_2_or_3_players_a_claimed_double_closes_the_other_track(players):
    game = started("usa", players)
    give_route(game, 1, "boston-new-york-1")
    set_hand(game, 0, yellow=2)
    assert claims(game, "boston-new-york-2") == []
    with pytest.raises(IllegalAction, match="only one track"):
        game.apply(ClaimRoute("boston-new-york-2", (("yellow", 2),)))


@pytest.mark.parametrize("players", [4, 5])
def test_with_4_or_5_players_both_tracks_of_a_double_are_open(players):
    game = started("usa", players)
    give_route(game, 1, "boston-new-york-1")
    set_hand(game, 0, yellow=2)
    game.apply(ClaimRoute("boston-new-york-2", (("yellow", 2),)))
    assert owned_routes(game, 0) == ["boston-new-york-2"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_one_seat_never_owns_both_tracks_of_a_double(players):
    game = started("usa", players)
    give_route(game, 0, "atlanta-raleigh-1")
    set_hand(game, 0, red=2)
    assert claims(game, "atlanta-raleigh-2") == []
    with pytest.raises(IllegalAction, match="nobody may own both"):
        game.apply(ClaimRoute("atlanta-raleigh-2", (("red", 2),)))


def test_parallel_routes_between_different_cities_are_not_doubles():
    game = started("usa", 2)
    for route in game.map.routes.values():
        siblings = [o for o in game.map.routes.values()
                    if o.group == route.group and o.id != route.id]
        assert all({o.a, o.b} == {route.a, route.b} for o in siblings)
