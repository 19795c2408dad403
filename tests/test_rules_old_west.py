"""Old West (rules.md §4) as the rulebook reads: each scenario one rule.

Home cities chosen last seat first, claims that must grow a network from the home city,
city markers bought with a pair after a claim, route points redirected to marked ends
(every line of §4.3's table), doubles and triples by player count, Globetrotter with its
ties, no longest path, the tie-break, Alvin the Alien's capture chain — and random games
at 2 to 6 players that finish with everything accounted for, save and load included.
"""

from __future__ import annotations

import random

import pytest

from tests.helpers import (
    add_points, claims, give_route, hand, owned_routes, set_current, set_hand, set_module,
    set_tickets,
    skip_setup,
)
from ttr_desktop.persistence import load_game, save_game
from ttr_desktop.rules import ClaimRoute, Decline, IllegalAction, determinize, new_game
from ttr_desktop.rules.modules.old_west import (
    CHOOSE_HOME, MOVE_ALVIN, NO_MARKER, PLACE_MARKER, ChooseHomeCity, MoveAlvin,
    PlaceCityMarker,
)
from ttr_desktop.rules.ruleset import get_ruleset

VARIANT = "old-west"


# Positions --------------------------------------------------------------------
def at_home_choice(players: int = 2, seed: int = 1, **options):
    """A new game past the ticket choice: the first home city is asked for."""
    game = new_game(VARIANT, players, seed=seed, options=options or None)
    skip_setup(game)
    return game


def with_homes(homes: list[str], seed: int = 1, **options):
    """A game where seat i chose ``homes[i]``; seat 0 to play its first turn."""
    game = at_home_choice(len(homes), seed, **options)
    while game.phase == CHOOSE_HOME:
        game.apply(ChooseHomeCity(homes[game.current_seat]))
    assert game.phase == "turn" and game.current_seat == 0
    return game


def give_marker(game, seat: int, city: str) -> None:
    """Let ``seat`` have placed a city marker on ``city`` (no cards paid)."""
    st = game.state.ext["old_west"]
    c = game.board.city_index[city]
    assert st.marker[c] == -1
    set_module(game, "old_west", marker={c: seat}, placed={seat: st.placed[seat] + 1})


def claim(game, route_id: str, **cards):
    """The current seat claims ``route_id`` paying exactly ``cards`` (a legal claim)."""
    action = ClaimRoute(route_id, tuple(cards.items()))
    assert action in game.legal_actions(), game.claim_problem(route_id)
    return game.apply(action)


def points_from(events, route_id: str) -> list[list[int]]:
    ev = next(e for e in events if e.kind == "route_claimed" and e.data["route"] == route_id)
    return ev.data.get("scorers") or [[ev.seat, ev.data["points"]]]


def markers(game) -> dict[str, int]:
    return game.view(0).extra["city_markers"]


# Components and setup (§4.1, §4.2) -------------------------------------------------
def test_two_to_six_players_with_forty_trains_and_the_ordinary_deck():
    for n in range(2, 7):
        game = new_game(VARIANT, n, seed=n)
        assert game.state.trains == [40] * n
        assert game.total_cards() == 110
        assert all(sum(h) == 4 for h in game.state.hands)
    for n in (1, 7):
        with pytest.raises(ValueError):
            new_game(VARIANT, n)


def test_five_tickets_are_dealt_and_at_least_three_are_kept():
    game = new_game(VARIANT, 3, seed=4)
    assert [len(p) for p in game.state.pending] == [5, 5, 5]
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert min(len(a.tickets) for a in keeps) == 3
    assert max(len(a.tickets) for a in keeps) == 5
    assert len(game.map.tickets) == 51


def test_unkept_starting_tickets_are_shuffled_together_under_the_deck():
    game = new_game(VARIANT, 3, seed=9)
    returned = []
    while game.phase == "choose_initial_tickets":
        act = next(a for a in game.legal_actions()
                   if a.kind == "keep_tickets" and len(a.tickets) == 3)
        returned.extend(act.returned)
        game.apply(act)
    deck = game.state.ticket_decks["regular"]
    bottom = [game.board.ticket_ids[t] for t in deck[:len(returned)]]
    assert sorted(bottom) == sorted(returned)          # under the deck (the top is the end)
    assert len(deck) == 51 - 9 - 6 + 6


def test_home_cities_are_chosen_from_the_last_seat_backwards():
    game = at_home_choice(4)
    order = []
    while game.phase == CHOOSE_HOME:
        order.append(game.current_seat)
        game.apply(game.legal_actions()[len(order)])
    assert order == [3, 2, 1, 0]
    assert game.phase == "turn" and game.current_seat == 0


def test_with_another_first_player_that_player_chooses_last():
    game = at_home_choice(3, first_player=1)
    order = []
    while game.phase == CHOOSE_HOME:
        order.append(game.current_seat)
        game.apply(game.legal_actions()[len(order)])
    assert order == [0, 2, 1]
    assert game.current_seat == 1


def test_one_marker_per_city_so_home_cities_differ():
    game = at_home_choice(2)
    game.apply(ChooseHomeCity("salt-lake-city"))          # seat 1
    assert ChooseHomeCity("salt-lake-city") not in game.legal_actions()
    with pytest.raises(IllegalAction, match="Salt Lake City is already Player 2's"):
        game.apply(ChooseHomeCity("salt-lake-city"))
    game.apply(ChooseHomeCity("boise"))
    assert game.view(0).extra["home_cities"] == ("boise", "salt-lake-city")
    tokens = game.view(1).city_tokens
    assert [t.kind for t in tokens["boise"]] == ["home"] and tokens["boise"][0].seat == 0


def test_nobody_starts_in_roswell_with_alvin_but_may_without_him():
    with_alvin = at_home_choice(2, alvin=True)
    assert ChooseHomeCity("roswell") not in with_alvin.legal_actions()
    with pytest.raises(IllegalAction, match="Alvin"):
        with_alvin.apply(ChooseHomeCity("roswell"))
    plain = at_home_choice(2)
    assert ChooseHomeCity("roswell") in plain.legal_actions()


def test_a_ticket_draw_shows_four_and_keeps_at_least_one():
    game = with_homes(["boise", "denver"])
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_tickets"))
    assert len(game.state.pending[0]) == 4
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert min(len(a.tickets) for a in keeps) == 1


# The network (§4.3) -------------------------------------------------------------------
def test_the_first_route_must_start_at_the_home_city():
    game = with_homes(["salt-lake-city", "denver"])
    set_hand(game, 0, locomotive=4, red=4, pink=4, black=3)
    assert claims(game, "grand-junction-salt-lake-city")
    assert not claims(game, "bend-boise-1")
    problem = game.claim_problem("bend-boise-1")
    assert problem == ("Your first route must start at your home city, Salt Lake City: "
                       "Bend–Boise does not.")


def test_later_routes_must_touch_the_network():
    game = with_homes(["salt-lake-city", "denver"])
    set_hand(game, 0, locomotive=8, black=8, orange=4)
    claim(game, "grand-junction-salt-lake-city", black=3)
    game.apply(NO_MARKER)
    set_current(game, 0)
    grown = [a.route_id for a in game.legal_actions() if a.kind == "claim_route"]
    assert any("grand-junction" in r and "salt-lake-city" not in r for r in grown)
    problem = game.claim_problem("boise-missoula")
    assert problem == ("Boise–Missoula is not connected to your network from Salt Lake City: "
                       "claim a route that touches a city your trains already reach.")
    with pytest.raises(IllegalAction, match="not connected to your network"):
        game.apply(ClaimRoute("boise-missoula", (("orange", 4),)))


def test_every_claimable_route_touches_the_home_city_or_an_own_route():
    game = with_homes(["salt-lake-city", "denver"])
    give_route(game, 0, "green-river-salt-lake-city-1")
    set_hand(game, 0, locomotive=8, red=6, yellow=6, black=6)
    b = game.board
    for a in game.legal_actions():
        if a.kind == "claim_route":
            r = game.map.routes[a.route_id]
            assert {r.a, r.b} & {"salt-lake-city", "green-river"}


def test_the_quick_network_check_agrees_with_the_reason_a_player_reads():
    # Move generation asks may_claim (no message); a player's refusal reads veto_claim.
    game = with_homes(["salt-lake-city", "denver"])
    give_route(game, 0, "green-river-salt-lake-city-1")
    module = next(m for m in game.modules if m.name == "old_west")
    for seat in (0, 1):
        for r in range(game.board.n_routes):
            quick = module.may_claim(game.ctx, seat, r)
            assert quick == (module.veto_claim(game.ctx, seat, r) is None), (seat, r)


# City markers (§4.3) -----------------------------------------------------------------
def test_after_a_claim_a_marker_is_offered_on_either_end_for_a_pair():
    game = with_homes(["denver", "boise"])
    set_hand(game, 0, blue=6, red=1, green=1, locomotive=1)
    claim(game, "denver-salt-lake-city-1", blue=6)
    assert game.phase == PLACE_MARKER and game.current_seat == 0
    assert game.prompt() == "Place a city marker on Salt Lake City for a pair?"
    offers = game.legal_actions()
    assert offers[-1] == NO_MARKER
    pays = sorted(a.cards for a in offers if a.kind == "place_city_marker")
    # One colour, locomotives wild: red+loco, green+loco; never red+green, never a single.
    assert pays == [(("green", 1), ("locomotive", 1)), (("locomotive", 1), ("red", 1))]
    assert {a.city_id for a in offers if a.kind == "place_city_marker"} == {"salt-lake-city"}


def test_both_free_ends_are_offered():
    game = with_homes(["denver", "boise"])
    give_route(game, 0, "denver-salt-lake-city-1")
    set_hand(game, 0, black=5)
    claim(game, "grand-junction-salt-lake-city", black=3)
    assert game.prompt() == "Place a city marker on Grand Junction or Salt Lake City for a pair?"
    cities = {a.city_id for a in game.legal_actions() if a.kind == "place_city_marker"}
    assert cities == {"grand-junction", "salt-lake-city"}


def test_a_placed_marker_costs_the_pair_and_the_turn_ends():
    game = with_homes(["denver", "boise"])
    set_hand(game, 0, blue=6, red=2)
    claim(game, "denver-salt-lake-city-1", blue=6)
    discard = len(game.state.discard)
    events = game.apply(PlaceCityMarker("salt-lake-city", (("red", 2),)))
    assert hand(game, 0) == {}
    assert len(game.state.discard) == discard + 2
    assert [e.kind for e in events][0] == "city_marker_placed"
    assert events[-1].kind == "turn_started" and game.current_seat == 1
    assert markers(game)["salt-lake-city"] == 0
    assert game.view(1).extra["markers_left"] == (1, 2)
    tokens = game.view(1).city_tokens["salt-lake-city"]
    assert [(t.kind, t.seat) for t in tokens] == [("marker", 0)]


def test_the_marker_can_be_declined():
    game = with_homes(["denver", "boise"])
    set_hand(game, 0, blue=6, red=2)
    claim(game, "denver-salt-lake-city-1", blue=6)
    game.apply(Decline("city_marker"))
    assert hand(game, 0) == {"red": 2}
    assert "salt-lake-city" not in markers(game)
    assert game.current_seat == 1 and game.phase == "turn"


def test_no_marker_step_without_a_pair():
    game = with_homes(["denver", "boise"])
    set_hand(game, 0, blue=6, red=1, green=1)
    claim(game, "denver-salt-lake-city-1", blue=6)
    assert game.phase == "turn" and game.current_seat == 1


def test_at_most_three_markers_home_included():
    game = with_homes(["denver", "boise"])
    give_marker(game, 0, "cheyenne")
    give_marker(game, 0, "pueblo")
    assert game.view(0).extra["markers_left"] == (0, 2)
    set_hand(game, 0, blue=6, red=4)
    claim(game, "denver-salt-lake-city-1", blue=6)
    assert game.phase == "turn" and game.current_seat == 1    # no marker offered


def test_markers_never_move_and_one_city_holds_one_marker():
    game = with_homes(["denver", "boise"])
    give_marker(game, 1, "salt-lake-city")
    give_route(game, 0, "denver-salt-lake-city-1")
    set_hand(game, 0, black=5)
    claim(game, "grand-junction-salt-lake-city", black=3)
    cities = {a.city_id for a in game.legal_actions() if a.kind == "place_city_marker"}
    assert cities == {"grand-junction"}
    with pytest.raises(IllegalAction, match="already has Player 2's marker"):
        game.apply(PlaceCityMarker("salt-lake-city", (("black", 2),)))
    assert markers(game)["salt-lake-city"] == 1


def test_with_alvin_no_marker_goes_on_roswell():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    set_hand(game, 0, yellow=5)
    claim(game, "roswell-santa-fe", yellow=3)
    # Santa Fe is home already and Roswell is Alvin's: nothing to mark.
    assert game.phase != PLACE_MARKER
    plain = with_homes(["santa-fe", "boise"])
    set_hand(plain, 0, yellow=5)
    claim(plain, "roswell-santa-fe", yellow=3)
    assert plain.prompt() == "Place a city marker on Roswell for a pair?"


# Who scores a route (§4.3's table) -------------------------------------------------
def test_neither_end_marked_the_claimant_scores():
    game = with_homes(["denver", "boise"])
    give_route(game, 0, "denver-salt-lake-city-1")
    set_hand(game, 0, black=3)
    events = claim(game, "grand-junction-salt-lake-city", black=3)
    assert points_from(events, "grand-junction-salt-lake-city") == [[0, 4]]


def test_one_opponent_marker_only_that_opponent_scores():
    """The seed's example: a marker in Salt Lake City, St. George–Salt Lake City: 7 to you."""
    game = with_homes(["las-vegas", "boise"])
    give_route(game, 0, "las-vegas-st-george-1")
    give_marker(game, 1, "salt-lake-city")
    set_hand(game, 0, red=4)
    before = list(game.state.points)
    events = claim(game, "salt-lake-city-st-george-2", red=4)
    assert points_from(events, "salt-lake-city-st-george-2") == [[1, 7]]
    assert game.state.points[0] == before[0] and game.state.points[1] == before[1] + 7


def test_claimant_marker_and_opponent_marker_both_score_once():
    game = with_homes(["st-george", "boise"])
    give_marker(game, 1, "salt-lake-city")
    set_hand(game, 0, red=4)
    before = list(game.state.points)
    claim(game, "salt-lake-city-st-george-2", red=4)   # St. George is seat 0's home
    assert game.state.points[0] - before[0] == 7
    assert game.state.points[1] - before[1] == 7


def test_an_opponent_owning_both_ends_scores_twice():
    """The seed's example: markers in St. George and Salt Lake City: 14 points to you."""
    game = with_homes(["cheyenne", "salt-lake-city"])
    give_marker(game, 1, "st-george")
    give_route(game, 0, "cheyenne-green-river-1")
    give_route(game, 0, "green-river-salt-lake-city-1")
    set_hand(game, 0, red=4)
    before = list(game.state.points)
    events = claim(game, "salt-lake-city-st-george-2", red=4)
    assert game.state.points[1] - before[1] == 14
    assert game.state.points[0] == before[0]
    ev = next(e for e in events if e.kind == "route_claimed")
    assert ev.data["points"] == 0


def test_claimant_marker_on_one_end_other_unmarked_the_claimant_scores():
    game = with_homes(["st-george", "boise"])
    set_hand(game, 0, red=4)
    before = game.state.points[0]
    claim(game, "salt-lake-city-st-george-2", red=4)
    assert game.state.points[0] - before == 7


def test_claimant_owning_both_ends_scores_twice_by_default():
    game = with_homes(["st-george", "boise"])
    give_marker(game, 0, "salt-lake-city")
    set_hand(game, 0, red=4)
    before = game.state.points[0]
    claim(game, "salt-lake-city-st-george-2", red=4)
    assert game.state.points[0] - before == 14


def test_the_self_double_knob_scores_it_once():
    game = with_homes(["st-george", "boise"], oldwest_self_double=False)
    give_marker(game, 0, "salt-lake-city")
    set_hand(game, 0, red=4)
    before = game.state.points[0]
    claim(game, "salt-lake-city-st-george-2", red=4)
    assert game.state.points[0] - before == 7


def test_a_marker_placed_right_after_a_claim_does_not_rescore_it():
    game = with_homes(["st-george", "boise"])
    set_hand(game, 0, red=6)
    before = game.state.points[0]
    claim(game, "salt-lake-city-st-george-2", red=4)
    game.apply(PlaceCityMarker("salt-lake-city", (("red", 2),)))
    assert game.state.points[0] - before == 7          # not 14
    assert game.scores()[0].parts["routes"] == game.state.points[0]


def test_redirected_routes_still_belong_to_the_claimant():
    game = with_homes(["st-george", "boise"])
    give_marker(game, 1, "salt-lake-city")
    set_hand(game, 0, red=4)
    claim(game, "salt-lake-city-st-george-2", red=4)
    assert owned_routes(game, 0) == ["salt-lake-city-st-george-2"]
    assert game.state.trains[0] == 36


def test_a_seven_space_route_scores_eighteen():
    game = with_homes(["los-angeles", "boise"])
    set_hand(game, 0, green=7)
    before = game.state.points[0]
    claim(game, "los-angeles-san-francisco", green=7)
    assert game.state.points[0] - before == 18


# Doubles and triples (§4.3) ---------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_use_one_track_of_a_double_or_triple(players):
    homes = ["los-angeles", "boise", "denver"][:players]
    game = with_homes(homes)
    give_route(game, 1, "los-angeles-san-diego-1")
    set_hand(game, 0, red=2, yellow=2)
    assert not claims(game, "los-angeles-san-diego-2")
    assert not claims(game, "los-angeles-san-diego-3")
    assert "only one track of a triple" in game.claim_problem("los-angeles-san-diego-2")


@pytest.mark.parametrize("players", [4, 5, 6])
def test_four_to_six_players_use_every_track_but_never_two_for_one_seat(players):
    homes = ["los-angeles", "boise", "denver", "seattle", "phoenix", "helena"][:players]
    game = with_homes(homes)
    give_route(game, 1, "los-angeles-san-diego-1")
    set_hand(game, 0, red=2, yellow=2)
    assert claims(game, "los-angeles-san-diego-2")
    claim(game, "los-angeles-san-diego-2", red=1)
    if game.phase == PLACE_MARKER:
        game.apply(NO_MARKER)
    set_current(game, 0)
    assert not claims(game, "los-angeles-san-diego-3")
    assert "nobody may own both" in game.claim_problem("los-angeles-san-diego-3")


# The end (§4.4) ------------------------------------------------------------------------
def test_globetrotter_goes_to_the_most_completed_tickets():
    game = with_homes(["salt-lake-city", "denver", "los-angeles"])
    give_route(game, 0, "green-river-salt-lake-city-1")
    give_route(game, 0, "cheyenne-green-river-1")
    set_tickets(game, 0, ["salt-lake-city-cheyenne", "seattle-ashland"])
    set_tickets(game, 1, ["helena-salt-lake-city"])
    set_tickets(game, 2, [])
    assert [sc.parts["globetrotter"] for sc in game.scores()] == [15, 0, 0]
    assert game.scores()[0].bonuses == {"globetrotter": 15}


def test_globetrotter_ties_all_score():
    game = with_homes(["salt-lake-city", "denver", "los-angeles"])
    give_route(game, 0, "green-river-salt-lake-city-1")
    give_route(game, 0, "cheyenne-green-river-1")
    give_route(game, 2, "los-angeles-san-francisco")
    set_tickets(game, 0, ["salt-lake-city-cheyenne"])
    set_tickets(game, 1, [])
    set_tickets(game, 2, ["san-francisco-los-angeles"])
    assert [sc.parts["globetrotter"] for sc in game.scores()] == [15, 0, 15]


def test_nobody_takes_the_globetrotter_with_no_completed_ticket():
    game = with_homes(["salt-lake-city", "denver", "los-angeles"])
    set_tickets(game, 0, ["salt-lake-city-cheyenne"])
    set_tickets(game, 1, [])
    set_tickets(game, 2, [])
    assert [sc.parts["globetrotter"] for sc in game.scores()] == [0, 0, 0]


def test_no_longest_path_on_old_west():
    game = with_homes(["salt-lake-city", "denver"])
    give_route(game, 0, "green-river-salt-lake-city-1")
    give_route(game, 0, "cheyenne-green-river-1")
    parts = game.scores()[0].parts
    assert "longest_path" not in parts
    assert list(parts) == ["routes", "tickets", "globetrotter"]
    assert get_ruleset(VARIANT).tie_breaks == ("tickets",)


def test_a_tie_on_points_goes_to_more_tickets_then_is_shared():
    game = with_homes(["salt-lake-city", "denver"])
    give_route(game, 0, "green-river-salt-lake-city-1")
    give_route(game, 0, "cheyenne-green-river-1")
    set_tickets(game, 0, ["salt-lake-city-cheyenne"])   # 5 points, done: +15 globetrotter
    set_tickets(game, 1, [])
    sc = game.scores()
    gap = sc[0].total - sc[1].total
    # Give seat 1 exactly the same total through the score track.
    add_points(game, 1, gap, "route", "test")
    result = game.result()
    assert result.winners == [0] and result.tie_break == "tickets"
    set_tickets(game, 0, [])
    sc = game.scores()                                   # even the totals again
    add_points(game, 1, sc[0].total - sc[1].total, "route", "test")
    result = game.result()
    assert sorted(result.winners) == [0, 1] and result.tie_break == "shared"


# Alvin the Alien (§4.5) ---------------------------------------------------------------
def test_alvin_starts_in_roswell():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    assert game.view(0).extra["alvin"] == {"city": "roswell", "holder": -1, "captures": (0, 0)}
    assert [(t.kind, t.seat) for t in game.view(0).city_tokens["roswell"]] == [("alvin", None)]


def test_the_first_claim_into_roswell_captures_alvin_and_he_moves_to_a_city_of_the_captor():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    set_hand(game, 0, yellow=3)
    before = game.state.points[0]
    events = claim(game, "roswell-santa-fe", yellow=3)
    kinds = [e.kind for e in events]
    assert "alvin_captured" in kinds and "alvin_moved" in kinds   # one city: moved at once
    assert game.state.points[0] - before == 4 + 10
    assert game.view(0).extra["alvin"]["city"] == "santa-fe"
    assert game.view(0).extra["alvin"]["holder"] == 0


def test_with_several_cities_the_captor_chooses_where_alvin_goes():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    give_marker(game, 0, "albuquerque")
    set_hand(game, 0, yellow=3)
    claim(game, "roswell-santa-fe", yellow=3)
    assert game.phase == MOVE_ALVIN and game.current_seat == 0
    assert sorted(a.city_id for a in game.legal_actions()) == ["albuquerque", "santa-fe"]
    with pytest.raises(IllegalAction, match="city you control"):
        game.apply(MoveAlvin("boise"))
    game.apply(MoveAlvin("albuquerque"))
    assert game.view(1).extra["alvin"]["city"] == "albuquerque"
    assert game.current_seat == 1


def test_the_marker_comes_before_alvin_so_he_may_go_to_the_new_marker():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    give_route(game, 0, "roswell-santa-fe")
    set_hand(game, 0, green=4)
    # Alvin still on Roswell: Roswell–Las Cruces captures him; Las Cruces can be marked first.
    claim(game, "las-cruces-roswell", green=2)
    assert game.phase == PLACE_MARKER
    game.apply(PlaceCityMarker("las-cruces", (("green", 2),)))
    assert game.phase == MOVE_ALVIN
    assert sorted(a.city_id for a in game.legal_actions()) == ["las-cruces", "santa-fe"]


def test_another_player_claiming_into_alvins_city_captures_him():
    game = with_homes(["santa-fe", "albuquerque"], alvin=True)
    set_hand(game, 0, yellow=3)
    claim(game, "roswell-santa-fe", yellow=3)        # seat 0 takes him to Santa Fe
    assert game.current_seat == 1
    set_hand(game, 1, locomotive=2)
    events = claim(game, "albuquerque-santa-fe-1", locomotive=1)
    caught = next(e for e in events if e.kind == "alvin_captured")
    assert caught.seat == 1 and caught.data["city"] == "santa-fe"
    alvin = game.view(0).extra["alvin"]
    assert alvin["holder"] == 1 and alvin["city"] == "albuquerque"
    assert alvin["captures"] == (1, 1)
    # The route into Santa Fe scored for Santa Fe's owner, the capture for the claimant.
    assert sorted(points_from(events, "albuquerque-santa-fe-1")) == [[0, 1], [1, 1]]


def test_the_holder_does_not_recapture_alvin():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    give_marker(game, 0, "albuquerque")
    set_hand(game, 0, yellow=3, locomotive=2)
    claim(game, "roswell-santa-fe", yellow=3)
    game.apply(MoveAlvin("albuquerque"))
    set_current(game, 0)
    events = claim(game, "albuquerque-santa-fe-1", locomotive=1)
    assert "alvin_captured" not in [e.kind for e in events]
    assert game.view(0).extra["alvin"]["captures"] == (1, 0)


def test_alvins_holder_takes_ten_at_the_end_and_nobody_if_never_captured():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    parts = [sc.parts for sc in game.scores()]
    assert [p["alvin"] for p in parts] == [0, 0]
    assert list(parts[0]) == ["routes", "tickets", "globetrotter", "alvin"]
    set_hand(game, 0, yellow=3)
    claim(game, "roswell-santa-fe", yellow=3)
    parts = [sc.parts for sc in game.scores()]
    assert [p["alvin"] for p in parts] == [20, 0]     # +10 for the capture, +10 as holder
    assert parts[0]["routes"] == 4


def test_the_family_reports_markers_and_captures():
    game = with_homes(["santa-fe", "boise"], alvin=True)
    set_hand(game, 0, yellow=3)
    claim(game, "roswell-santa-fe", yellow=3)
    assert game.statistics(0) == {"markers_placed": 0, "marker_points": 0,
                                  "alvin_captures": 1}


# Whole games ------------------------------------------------------------------------
def check_invariants(game) -> None:
    s, b = game.state, game.board
    n = game.num_players
    st = s.ext["old_west"]
    assert game.total_cards() == 110
    scores = game.scores()
    homes = [h for h in st.home if h >= 0]
    assert len(homes) == len(set(homes))
    for seat in range(n):
        placed = sum(b.r_len[r] for r in range(b.n_routes) if s.owner[r] == seat)
        assert s.trains[seat] + placed == 40
        assert scores[seat].total == sum(scores[seat].parts.values())
        assert sum(1 for o in st.marker if o == seat) <= 3
        own = [r for r in range(b.n_routes) if s.owner[r] == seat]
        if own:  # one network, holding the home city
            comp = game.ctx.components(seat)
            label = comp.label[st.home[seat]]
            assert all(comp.label[b.r_a[r]] == label for r in own)
    # The score track is the routes part (redirected points included) plus Alvin.
    ledger_routes = sum(a for _, a, why, _ in s.ledger if why == "route")
    assert ledger_routes == sum(sc.parts["routes"] for sc in scores)
    alvin = s.ext.get("alvin")
    if alvin is not None:
        assert sum(sc.parts["alvin"] for sc in scores) == 10 * sum(alvin.captures) + (
            10 if alvin.holder >= 0 else 0)
        assert alvin.holder < 0 or st.marker[alvin.city] == alvin.holder


@pytest.mark.parametrize("players,alvin", [(2, False), (3, True), (4, False), (5, True),
                                           (6, False), (6, True)])
def test_random_games_finish_with_everything_accounted_for(players, alvin):
    rng = random.Random(players * 10 + alvin)
    for seed in range(3):
        game = new_game(VARIANT, players, seed=seed, options={"alvin": True} if alvin else None)
        steps = 0
        while not game.is_over and steps < 6000:
            seat = game.current_seat
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
            if steps % 40 == 0:
                check_invariants(game)
                clone = determinize(game.view(seat), random.Random(steps))
                assert clone.view(seat).extra == game.view(seat).extra
                assert clone.legal_actions() == game.legal_actions() or \
                    clone.current_seat != seat
        assert game.is_over
        check_invariants(game)


@pytest.mark.parametrize("moves", [0, 3, 40, 120])
def test_save_load_continue_is_the_same_game(tmp_path, moves):
    game = new_game(VARIANT, 4, seed=8, options={"alvin": True})
    rng = random.Random(8)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    path = save_game(game, tmp_path / "ow.toml", meta={"seats": ["human"] * 4})
    loaded = load_game(path)
    assert loaded.state.to_dict() == game.state.to_dict()
    r1, r2 = random.Random(3), random.Random(3)
    while not game.is_over:
        a, b = r1.choice(game.legal_actions()), r2.choice(loaded.legal_actions())
        assert a == b
        assert game.apply(a) == loaded.apply(b)
    assert [s.total for s in loaded.scores()] == [s.total for s in game.scores()]


# Bots --------------------------------------------------------------------------------
def test_the_normal_bot_chooses_a_home_city_that_serves_its_tickets():
    from ttr_desktop.bots import make_bot
    game = at_home_choice(2, seed=3)
    seat = game.current_seat
    bot = make_bot("greedy", seed=1)
    choice = bot.choose(game.view(seat), game.legal_actions())
    assert choice.kind == "choose_home_city"
    # the chosen city is one of its tickets' cities or a neighbour of one
    g = game.board
    cities = {p for t in game.view(seat).tickets for p in (t.a, t.b)}
    near = set(cities)
    for cid in cities:
        for r, other in g.graph.adj[g.city_index[cid]]:
            near.add(g.city_ids[other])
    assert choice.city_id in near


def test_the_normal_bot_only_claims_routes_that_grow_its_network_and_beats_random():
    from ttr_desktop.sim import run_tournament
    report = run_tournament(VARIANT, "greedy,random", 6, seed=11, options={"alvin": True})
    greedy, rnd = report["bots"]
    assert greedy["wins"] == 6
    assert greedy["tickets_completed"] > 3 * max(greedy["tickets_failed"], 0.5)
    assert greedy["family"]["markers_placed"] >= 1
