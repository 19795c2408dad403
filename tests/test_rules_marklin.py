"""rules.md §2 (Märklin) and A-10 to A-15, as a rulebook: one scenario per rule."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.helpers import (
    add_points, claims, event_kinds, face_up, give_route, hand, leave_tickets_in_deck,
    set_current, set_face_up, set_hand, set_module, set_tickets, set_trains, stack_deck,
)
from ttr_desktop.persistence import load_game, save_game
from ttr_desktop.rules import (
    ClaimRoute, Decline, DrawFaceUp, DrawTickets, IllegalAction, KeepTickets, determinize,
    new_game,
)
from ttr_desktop.rules.modules.marklin import (
    MOVE, PLACE, MovePassenger, PassengerStep, PlacePassenger, StopPassenger,
)
from ttr_desktop.rules.state import Phase

STOP = StopPassenger()
NO_PASSENGER = Decline("passenger")


# Helpers ---------------------------------------------------------------------------
def announce_and_keep_all(game, mix=(("short", 2), ("long", 2))) -> None:
    """Every seat announces ``mix`` and keeps every ticket it drew."""
    while game.phase == Phase.CHOOSE_INITIAL_TICKETS:
        seat = game.current_seat
        if not game.state.pending[seat]:
            game.apply(DrawTickets(tuple(mix)))
        pending = [game.board.ticket_ids[t] for t in game.state.pending[seat]]
        game.apply(KeepTickets(tuple(pending), ()))


def started(players: int = 2, seed: int = 1, **options):
    game = new_game("marklin", players, seed=seed, options=options or None)
    announce_and_keep_all(game)
    return game


def state(game):
    return game.state.ext["marklin"]


def city(game, cid: str) -> int:
    return game.board.city_index[cid]


def put_passenger(game, seat: int, cid: str) -> None:
    """``seat`` has placed a passenger on ``cid`` (taken from its supply)."""
    st = state(game)
    assert st.supply[seat] > 0
    set_module(game, "marklin", supply={seat: st.supply[seat] - 1},
               at={seat: st.at[seat] + [city(game, cid)]})


def top_token(game, cid: str) -> int:
    stack = state(game).stacks[city(game, cid)]
    return stack[0] if stack else 0


def kinds_of(game) -> Counter:
    return Counter(a.kind for a in game.legal_actions())


def steps(game) -> set[str]:
    return {a.route_id for a in game.legal_actions() if a.kind == "passenger_step"}


def claim_with(game, route_id: str, **cards) -> list:
    set_hand(game, game.current_seat, **cards)
    return game.apply(ClaimRoute(route_id, tuple(cards.items())))


def merchandise(game, seat: int) -> int:
    return sum(a for s, a, reason, _ in game.state.ledger if s == seat and reason == "merchandise")


# 2.1 Components ---------------------------------------------------------------------
def test_the_deck_is_118_cards_11_of_each_colour_14_locomotives_6_plus4_10_passengers():
    game = new_game("marklin", 3, seed=1)
    deck = game.ruleset.deck_composition(3)
    assert game.total_cards() == 118
    assert {deck[c] for c in ("red", "orange", "yellow", "green", "blue", "pink", "white",
                              "black")} == {11}
    assert (deck["locomotive"], deck["locomotive_plus4"], deck["passenger"]) == (14, 6, 10)


def test_each_seat_has_45_trains_and_3_passengers_in_supply():
    game = started(4)
    assert game.state.trains == [45] * 4
    assert game.view(0).extra["passengers"]["supply"] == (3, 3, 3, 3)


def test_merchandise_stacks_by_city_colour_74_tokens_berlin_black():
    game = new_game("marklin", 2, seed=1)
    stacks = game.view(0).extra["merchandise"]
    assert stacks["berlin"] == (7, 6, 5, 4)
    by_stack = Counter(stacks.values())
    assert by_stack == {(7, 6, 5, 4): 1, (4, 3, 2): 6, (3, 2, 1): 12, (2,): 16}
    assert sum(len(s) for s in stacks.values()) == 74
    assert not any(game.map.cities[c].is_sink for c in stacks)


def test_route_points_are_1_2_4_7_10_15_18():
    game = started()
    assert game.ruleset.route_points == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}
    events = claim_with(game, "berlin-hannover", black=7)     # 7 spaces
    assert next(e for e in events if e.kind == "route_claimed").data["points"] == 18


# 2.3 Drawing cards --------------------------------------------------------------------
def test_a_face_up_plain_locomotive_is_the_first_and_only_pick():
    game = started()
    set_face_up(game, ["locomotive", "red", "blue", "green", "black"])
    game.apply(DrawFaceUp(0, "locomotive"))
    assert game.current_seat == 1 and game.phase == Phase.TURN


def test_a_face_up_plus4_locomotive_is_an_ordinary_pick_also_as_the_second_card():
    game = started()
    set_face_up(game, ["locomotive_plus4", "red", "locomotive_plus4", "green", "black"])
    game.apply(DrawFaceUp(0, "locomotive_plus4"))
    assert game.phase == Phase.SECOND_CARD and game.current_seat == 0
    game.apply(DrawFaceUp(2, "locomotive_plus4"))
    assert hand(game, 0).get("locomotive_plus4", 0) >= 2 and game.current_seat == 1


def test_a_face_up_passenger_card_is_an_ordinary_pick():
    game = started()
    set_face_up(game, ["passenger", "red", "passenger", "green", "black"])
    game.apply(DrawFaceUp(0, "passenger"))
    assert game.phase == Phase.SECOND_CARD
    game.apply(DrawFaceUp(2, "passenger"))
    assert game.current_seat == 1


def test_three_face_up_passenger_cards_refresh_the_display():
    game = started()
    set_face_up(game, ["passenger", "passenger", "red", "blue", "green"])
    stack_deck(game, ["passenger", "white", "white", "white", "white", "white"])
    events = game.apply(DrawFaceUp(2, "red"))
    assert "face_up_refreshed" in event_kinds(events)
    assert face_up(game).count("passenger") < 3


def test_three_face_up_plain_locomotives_refresh_the_display():
    game = started()
    set_face_up(game, ["locomotive", "locomotive", "red", "blue", "green"])
    stack_deck(game, ["locomotive", "white", "white", "white", "white", "white"])
    assert "face_up_refreshed" in event_kinds(game.apply(DrawFaceUp(2, "red")))


def test_a10_plus4_locomotives_do_not_count_toward_the_locomotive_refresh():
    game = started()
    set_face_up(game, ["locomotive", "locomotive", "red", "blue", "green"])
    stack_deck(game, ["locomotive_plus4"])
    events = game.apply(DrawFaceUp(2, "red"))
    assert "face_up_refreshed" not in event_kinds(events)
    assert face_up(game)[2] == "locomotive_plus4"


def test_a11_mixed_locomotive_and_passenger_displays_trigger_nothing():
    game = started()
    set_face_up(game, ["locomotive", "locomotive", "passenger", "blue", "green"])
    stack_deck(game, ["passenger"])
    events = game.apply(DrawFaceUp(3, "blue"))
    assert "face_up_refreshed" not in event_kinds(events)
    assert sorted(c for c in face_up(game) if c in ("locomotive", "passenger")) == [
        "locomotive", "locomotive", "passenger", "passenger"]


# 2.3 Claiming -----------------------------------------------------------------------
def test_plus4_locomotives_are_wild_only_on_routes_of_four_or_more_spaces():
    game = started()
    set_hand(game, 0, locomotive_plus4=5)
    assert claims(game, "dortmund-kassel")                  # 4 spaces, green
    assert not claims(game, "berlin-magdeburg")             # 3 spaces, red
    assert not claims(game, "dusseldorf-koln-1")            # 1 space
    with pytest.raises(IllegalAction):
        game.apply(ClaimRoute("berlin-magdeburg", (("locomotive_plus4", 3),)))


def test_plus4_and_plain_locomotives_mix_on_a_long_route_but_not_on_a_short_one():
    game = started()
    set_hand(game, 0, locomotive=1, locomotive_plus4=2, green=1, red=2)
    paid = {a.cards for a in claims(game, "dortmund-kassel")}
    assert (("green", 1), ("locomotive", 1), ("locomotive_plus4", 2)) in paid
    assert (("locomotive", 1), ("locomotive_plus4", 2), ("red", 1)) not in paid
    # A 3-space red route: only the plain locomotive helps.
    assert {a.cards for a in claims(game, "berlin-magdeburg")} == {
        (("locomotive", 1), ("red", 2))}


def test_with_three_players_only_one_track_of_a_triple_can_be_claimed():
    game = started(3)
    give_route(game, 1, "dusseldorf-koln-1")
    set_hand(game, 0, locomotive=2)
    assert not claims(game, "dusseldorf-koln-2") and not claims(game, "dusseldorf-koln-3")


def test_with_four_players_the_other_tracks_open_but_never_two_for_one_seat():
    game = started(4)
    give_route(game, 1, "dusseldorf-koln-1")
    set_hand(game, 0, locomotive=2)
    assert claims(game, "dusseldorf-koln-2") and claims(game, "dusseldorf-koln-3")
    give_route(game, 0, "dusseldorf-koln-2")
    assert not claims(game, "dusseldorf-koln-3")


# 2.2 / 2.3 Tickets ----------------------------------------------------------------------
def test_at_the_start_each_seat_announces_a_mix_of_four_then_keeps_at_least_two():
    game = new_game("marklin", 2, seed=4)
    assert game.phase == Phase.CHOOSE_INITIAL_TICKETS
    mixes = {a.mix for a in game.legal_actions()}
    assert mixes == {(("short", 4),), (("short", 3), ("long", 1)), (("short", 2), ("long", 2)),
                     (("short", 1), ("long", 3)), (("long", 4),)}
    game.apply(DrawTickets((("short", 1), ("long", 3))))
    drawn = [game.board.tickets[t].deck for t in game.state.pending[0]]
    assert sorted(drawn) == ["long", "long", "long", "short"]
    assert {len(a.tickets) for a in game.legal_actions()} == {2, 3, 4}


def test_unkept_starting_tickets_go_back_into_their_own_decks_which_are_reshuffled():
    moved = False
    for seed in range(6):
        game = new_game("marklin", 2, seed=seed)
        returned = []
        before = None
        while game.phase == Phase.CHOOSE_INITIAL_TICKETS:
            seat = game.current_seat
            game.apply(DrawTickets((("short", 2), ("long", 2))))
            ids = [game.board.ticket_ids[t] for t in game.state.pending[seat]]
            returned += ids[2:]
            if before is None:
                before = {k: v[:] for k, v in game.state.ticket_decks.items()}
            game.apply(KeepTickets(tuple(ids[:2]), tuple(ids[2:])))
        decks = game.state.ticket_decks
        assert len(decks["short"]) + len(decks["long"]) == 46 - 4
        for tid in returned:
            t = game.board.ticket_index[tid]
            assert t in decks[game.board.tickets[t].deck]
        bottoms = {game.board.ticket_ids[d[0]] for d in decks.values()}
        moved |= not set(returned) <= bottoms and decks["short"][1:] != before["short"][:-2]
    assert moved   # returns are shuffled in, not just put under the decks


def test_a_ticket_draw_announces_a_mix_of_four_and_keeps_at_least_one():
    game = started()
    draws = [a for a in game.legal_actions() if a.kind == "draw_tickets"]
    assert {a.mix for a in draws} == {(("short", 4),), (("short", 3), ("long", 1)),
                                      (("short", 2), ("long", 2)), (("short", 1), ("long", 3)),
                                      (("long", 4),)}
    game.apply(DrawTickets((("short", 3), ("long", 1))))
    assert game.phase == Phase.KEEP_TICKETS
    assert {len(a.tickets) for a in game.legal_actions()} == {1, 2, 3, 4}


def test_tickets_returned_in_play_go_to_the_bottom_of_their_own_deck():
    game = started()
    game.apply(DrawTickets((("short", 2), ("long", 2))))
    pending = [game.board.ticket_ids[t] for t in game.state.pending[0]]
    short = [t for t in pending if game.board.tickets[game.board.ticket_index[t]].deck == "short"]
    long_ = [t for t in pending if t not in short]
    game.apply(KeepTickets((short[0],), (short[1], long_[0], long_[1])))
    decks = game.state.ticket_decks
    bottom_short = game.board.ticket_ids[decks["short"][0]]
    bottom_long = {game.board.ticket_ids[t] for t in decks["long"][:2]}
    assert bottom_short == short[1] and bottom_long == set(long_)


def test_a12_only_mixes_the_decks_can_serve_are_offered():
    game = started()
    leave_tickets_in_deck(game, 1, "long")
    assert {a.mix for a in game.legal_actions() if a.kind == "draw_tickets"} == {
        (("short", 4),), (("short", 3), ("long", 1))}
    leave_tickets_in_deck(game, 2, "short")
    assert {a.mix for a in game.legal_actions() if a.kind == "draw_tickets"} == {
        (("short", 2), ("long", 1))}
    leave_tickets_in_deck(game, 0, "short")
    leave_tickets_in_deck(game, 0, "long")
    assert not [a for a in game.legal_actions() if a.kind == "draw_tickets"]


def test_a_ticket_to_a_country_is_complete_through_any_route_into_that_country():
    game = started()
    set_tickets(game, 0, ["frankreich-munchen"])
    for rid in ("lindau-munchen", "konstanz-lindau", "freiburg-konstanz",
                "frankreich-freiburg-freiburg"):
        give_route(game, 0, rid)
    assert game.completed_tickets(0) == ["frankreich-munchen"]


def test_countries_are_dead_ends_a_ticket_never_joins_through_one():
    game = started()
    set_tickets(game, 0, ["frankreich-munchen"])
    # München reaches Switzerland at Lindau; Freiburg reaches Switzerland and France.
    for rid in ("lindau-munchen", "lindau-schweiz-lindau", "freiburg-schweiz-freiburg",
                "frankreich-freiburg-freiburg"):
        give_route(game, 0, rid)
    assert game.completed_tickets(0) == []
    score = game.scores()[0]
    assert score.parts["tickets"] == -8


# 2.3 Passengers: placement -------------------------------------------------------------
def test_after_a_claim_a_passenger_may_be_placed_on_either_end_city():
    game = started()
    claim_with(game, "dusseldorf-koln-1", locomotive=1)
    assert game.phase == PLACE and game.current_seat == 0
    assert game.prompt() == "Place a passenger on Düsseldorf or Köln?"
    assert set(game.legal_actions()) == {PlacePassenger("dusseldorf"), PlacePassenger("koln"),
                                         NO_PASSENGER}
    events = game.apply(PlacePassenger("koln"))
    assert "passenger_placed" in event_kinds(events)
    assert state(game).at[0] == [city(game, "koln")] and state(game).supply[0] == 2
    assert game.current_seat == 1 and game.phase == Phase.TURN
    assert game.view(1).extra["passengers"]["on_board"] == {"koln": 0}


def test_placing_a_passenger_is_optional():
    game = started()
    claim_with(game, "dusseldorf-koln-1", locomotive=1)
    events = game.apply(NO_PASSENGER)
    assert event_kinds(events)[-1] == "turn_started"
    assert state(game).supply[0] == 3 and state(game).at[0] == []


def test_a_passenger_is_never_placed_on_a_country():
    game = started()
    claim_with(game, "dusseldorf-niederlande-dusseldorf", pink=3)
    assert set(game.legal_actions()) == {PlacePassenger("dusseldorf"), NO_PASSENGER}
    assert game.prompt() == "Place a passenger on Düsseldorf?"


def test_one_passenger_per_city_counting_every_player():
    game = started()
    put_passenger(game, 1, "koln")
    claim_with(game, "dusseldorf-koln-1", locomotive=1)
    assert set(game.legal_actions()) == {PlacePassenger("dusseldorf"), NO_PASSENGER}
    problem = game.explain(PlacePassenger("koln"))
    assert problem and "Köln already has a passenger" in problem


def test_no_placement_is_asked_when_no_end_city_is_free():
    game = started()
    put_passenger(game, 1, "koln")
    put_passenger(game, 1, "dusseldorf")
    events = claim_with(game, "dusseldorf-koln-1", locomotive=1)
    assert event_kinds(events)[-1] == "turn_started" and game.current_seat == 1


def test_a_seat_places_at_most_three_passengers_in_the_whole_game():
    game = started()
    for cid in ("berlin", "hamburg", "munchen"):
        put_passenger(game, 0, cid)
    events = claim_with(game, "dusseldorf-koln-1", locomotive=1)
    assert game.current_seat == 1 and "turn_started" in event_kinds(events)
    assert state(game).supply[0] == 0 and PLACE not in game.phase


# 2.3 Passengers: moving -----------------------------------------------------------------
@pytest.fixture
def rhine():
    """Seat 0 owns Dortmund–Düsseldorf and Düsseldorf–Köln, seat 1 owns Köln–Koblenz;
    seat 0's passenger stands in Dortmund; 4 players so every track of a double is open."""
    game = started(4, seed=3)
    give_route(game, 0, "dortmund-dusseldorf-1")
    give_route(game, 0, "dusseldorf-koln-1")
    give_route(game, 1, "koblenz-koln-1")
    put_passenger(game, 0, "dortmund")
    set_hand(game, 0, passenger=1)
    return game


def test_moving_a_passenger_is_a_turn_action_for_each_passenger_with_somewhere_to_go(rhine):
    put_passenger(rhine, 0, "berlin")            # no claimed route at Berlin
    moves = [a for a in rhine.legal_actions() if a.kind == "move_passenger"]
    assert moves == [MovePassenger("dortmund")]
    assert "Berlin has nowhere to go" in rhine.explain(MovePassenger("berlin")).replace(
        "Your passenger in ", "")


def test_a_passenger_travels_one_claimed_route_at_a_time_and_takes_merchandise(rhine):
    dus, koln = top_token(rhine, "dusseldorf"), top_token(rhine, "koln")
    before = rhine.state.points[0]
    rhine.apply(MovePassenger("dortmund"))
    assert rhine.phase == MOVE and rhine.current_seat == 0
    assert steps(rhine) == {"dortmund-dusseldorf-1"}
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert rhine.state.points[0] == before + dus          # scored at once
    assert steps(rhine) == {"dusseldorf-koln-1"}
    rhine.apply(PassengerStep("dusseldorf-koln-1"))
    assert rhine.state.points[0] == before + dus + koln
    assert merchandise(rhine, 0) == dus + koln
    assert rhine.view(2).extra["merchandise_totals"][0] == dus + koln


def test_the_top_token_is_taken_and_the_stack_shrinks(rhine):
    stack = list(state(rhine).stacks[city(rhine, "dusseldorf")])
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert state(rhine).stacks[city(rhine, "dusseldorf")] == stack[1:]
    assert rhine.view(1).extra["merchandise"]["dusseldorf"] == tuple(stack[1:])


def test_own_routes_are_free_an_opponent_route_costs_one_passenger_card(rhine):
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    rhine.apply(PassengerStep("dusseldorf-koln-1"))
    assert hand(rhine, 0) == {"passenger": 1}
    discard = len(rhine.state.discard)
    events = rhine.apply(PassengerStep("koblenz-koln-1"))
    assert hand(rhine, 0) == {}
    assert len(rhine.state.discard) == discard + 1
    assert rhine.board.card_names[rhine.state.discard[-1]] == "passenger"
    step = next(e for e in events if e.kind == "passenger_step")
    assert step.data["fare"] == 1 and step.data["owner"] == 1


def test_an_opponent_route_is_not_offered_without_a_passenger_card(rhine):
    set_hand(rhine, 0, red=2)
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    rhine.apply(PassengerStep("dusseldorf-koln-1"))
    # Nothing else reachable: the move ended by itself in Köln.
    assert rhine.current_seat == 1
    assert state(rhine).at[0] == [] and state(rhine).mover == -1


def test_unclaimed_routes_are_never_used(rhine):
    rhine.apply(MovePassenger("dortmund"))
    assert "dortmund-kassel" not in steps(rhine) and "dortmund-munster-1" not in steps(rhine)
    with pytest.raises(IllegalAction, match="only on claimed routes"):
        rhine.apply(PassengerStep("dortmund-kassel"))


def test_a13_the_start_city_gives_nothing_even_when_the_passenger_returns(rhine):
    give_route(rhine, 0, "dortmund-dusseldorf-2")
    start = list(state(rhine).stacks[city(rhine, "dortmund")])
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    events = rhine.apply(PassengerStep("dortmund-dusseldorf-2"))   # back to Dortmund
    assert next(e for e in events if e.kind == "passenger_step").data["token"] == 0
    assert state(rhine).stacks[city(rhine, "dortmund")] == start


def test_a13_a_loop_takes_one_token_per_city_per_move(rhine):
    give_route(rhine, 2, "dusseldorf-koln-2")
    set_hand(rhine, 0, passenger=2)
    dus = list(state(rhine).stacks[city(rhine, "dusseldorf")])
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))   # Düsseldorf: token
    rhine.apply(PassengerStep("dusseldorf-koln-1"))       # Köln: token
    events = rhine.apply(PassengerStep("dusseldorf-koln-2"))   # Düsseldorf again
    assert next(e for e in events if e.kind == "passenger_step").data["token"] == 0
    assert state(rhine).stacks[city(rhine, "dusseldorf")] == dus[1:]


def test_a13_knob_a_token_on_every_arrival():
    game = started(4, seed=3, marklin_token_per_arrival=True)
    give_route(game, 0, "dortmund-dusseldorf-1")
    give_route(game, 0, "dortmund-dusseldorf-2")
    put_passenger(game, 0, "dortmund")
    start = list(state(game).stacks[city(game, "dortmund")])
    game.apply(MovePassenger("dortmund"))
    game.apply(PassengerStep("dortmund-dusseldorf-1"))
    game.apply(PassengerStep("dortmund-dusseldorf-2"))
    assert state(game).stacks[city(game, "dortmund")] == start[1:]


def test_a14_a_move_needs_at_least_one_route(rhine):
    rhine.apply(MovePassenger("dortmund"))
    assert STOP not in rhine.legal_actions()
    with pytest.raises(IllegalAction, match="at least one route"):
        rhine.apply(STOP)
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert STOP in rhine.legal_actions()
    events = rhine.apply(STOP)
    moved = next(e for e in events if e.kind == "passenger_moved")
    assert moved.data["from"] == "dortmund" and moved.data["to"] == "dusseldorf"
    assert rhine.current_seat == 1


def test_a15_both_tracks_of_a_double_may_be_used_in_one_move(rhine):
    give_route(rhine, 1, "dortmund-dusseldorf-2")
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert "dortmund-dusseldorf-2" in steps(rhine)


def test_a15_knob_off_forbids_the_second_track_of_a_double():
    game = started(4, seed=3, marklin_both_tracks=False)
    give_route(game, 0, "dortmund-dusseldorf-1")
    give_route(game, 1, "dortmund-dusseldorf-2")
    give_route(game, 0, "dusseldorf-koln-1")
    put_passenger(game, 0, "dortmund")
    set_hand(game, 0, passenger=1)
    game.apply(MovePassenger("dortmund"))
    game.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert steps(game) == {"dusseldorf-koln-1"}


def test_each_route_is_used_at_most_once_per_move(rhine):
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert "dortmund-dusseldorf-1" not in steps(rhine)
    with pytest.raises(IllegalAction, match="already used"):
        rhine.apply(PassengerStep("dortmund-dusseldorf-1"))


def test_a_passenger_never_goes_into_a_country(rhine):
    give_route(rhine, 0, "dusseldorf-niederlande-dusseldorf")
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert "dusseldorf-niederlande-dusseldorf" not in steps(rhine)


def test_a_passenger_may_pass_through_and_stop_in_cities_with_other_passengers(rhine):
    put_passenger(rhine, 1, "dusseldorf")
    put_passenger(rhine, 2, "koln")
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    rhine.apply(PassengerStep("dusseldorf-koln-1"))
    rhine.apply(STOP)
    assert rhine.current_seat == 1


def test_after_its_move_the_passenger_leaves_the_game(rhine):
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    rhine.apply(STOP)
    st = state(rhine)
    assert st.at[0] == [] and st.supply[0] == 2
    assert rhine.view(0).extra["passengers"]["in_play"][0] == 2
    assert "dusseldorf" not in rhine.view(0).extra["passengers"]["on_board"]
    set_current(rhine, 0)
    assert not [a for a in rhine.legal_actions() if a.kind == "move_passenger"]


def test_an_empty_stack_gives_nothing(rhine):
    set_module(rhine, "marklin", stacks={city(rhine, "dusseldorf"): []})
    before = rhine.state.points[0]
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert rhine.state.points[0] == before


def test_the_travelling_passenger_shows_where_it_is_and_what_it_collected(rhine):
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    move = rhine.view(1).extra["passenger_move"]
    assert move["seat"] == 0 and move["start"] == "dortmund" and move["at"] == "dusseldorf"
    assert move["used"] == ("dortmund-dusseldorf-1",) and move["gained"] > 0
    tokens = rhine.view(1).city_tokens["dusseldorf"]
    assert any(t.kind == "passenger" and t.seat == 0 for t in tokens)
    assert "Düsseldorf" in rhine.prompt()


# 2.5 Scoring ------------------------------------------------------------------------
def test_score_parts_are_routes_tickets_merchandise_and_most_tickets_without_longest_path():
    game = started()
    scores = game.scores()
    assert list(scores[0].parts) == ["routes", "tickets", "merchandise", "most_tickets"]
    assert all(sc.total == sum(sc.parts.values()) for sc in scores)


def test_merchandise_counts_in_its_own_score_part(rhine):
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    rhine.apply(STOP)
    assert rhine.scores()[0].parts["merchandise"] == merchandise(rhine, 0) > 0


def test_most_completed_tickets_scores_10_every_tie_and_nothing_at_zero():
    game = started(3)
    for seat in range(3):
        set_tickets(game, seat, ["berlin-chemnitz"] if seat < 2 else ["emden-hamburg"])
    parts = [sc.parts["most_tickets"] for sc in game.scores()]
    assert parts == [0, 0, 0]                        # nobody completed one
    for seat in (0, 1):
        set_tickets(game, seat, [])
    set_tickets(game, 0, ["berlin-chemnitz"])
    set_tickets(game, 1, ["dortmund-mannheim"])
    give_route(game, 0, "berlin-leipzig")
    give_route(game, 0, "chemnitz-leipzig")
    # seat 1 connects Dortmund to Mannheim: find a chain it can own
    for rid in ("dortmund-dusseldorf-1", "dusseldorf-koln-1", "frankfurt-koln-1",
                "frankfurt-mannheim-1"):
        give_route(game, 1, rid)
    parts = [sc.parts["most_tickets"] for sc in game.scores()]
    assert parts == [10, 10, 0]


def give_merchandise(game, seat: int, value: int) -> None:
    """``seat`` took a merchandise token worth ``value`` (scored at once)."""
    set_module(game, "marklin", taken={seat: state(game).taken[seat] + [value]})
    add_points(game, seat, value, "merchandise", "koln")


def test_equal_totals_are_decided_by_merchandise_when_tickets_tie():
    game = started()
    set_tickets(game, 0, [])
    set_tickets(game, 1, [])
    give_route(game, 0, "berlin-magdeburg")            # 3 spaces: 4 points
    give_merchandise(game, 1, 4)
    result = game.result()
    assert [sc.total for sc in result.scores] == [4, 4]
    assert result.winners == [1] and result.tie_break == "merchandise"


def test_equal_totals_are_decided_by_completed_tickets_first():
    game = started()
    set_tickets(game, 0, ["berlin-chemnitz"])
    set_tickets(game, 1, [])
    give_route(game, 0, "berlin-leipzig")
    give_route(game, 0, "chemnitz-leipzig")
    total0 = game.scores()[0].total
    give_merchandise(game, 1, total0)
    result = game.result()
    assert result.scores[0].total == result.scores[1].total
    assert result.winners == [0] and result.tie_break == "tickets"


# Views, determinize, saves, random games ------------------------------------------------
def test_the_view_shows_passengers_merchandise_both_ticket_decks_and_totals():
    game = started(3)
    put_passenger(game, 1, "berlin")
    view = game.view(0)
    extra = view.extra
    assert extra["passengers"]["on_board"] == {"berlin": 1}
    assert extra["passengers"]["supply"] == (3, 2, 3)
    assert extra["merchandise_totals"] == (0, 0, 0)
    assert set(view.ticket_deck_sizes) == {"short", "long"}
    assert len(extra["seat_stats"]) == 3
    kinds = {t.kind for tokens in view.city_tokens.values() for t in tokens}
    assert kinds == {"passenger", "merchandise"}
    berlin = {t.kind: t for t in view.city_tokens["berlin"]}
    assert berlin["merchandise"].value == 7 and berlin["merchandise"].count == 4


def test_determinize_rebuilds_a_move_in_progress(rhine):
    rhine.apply(MovePassenger("dortmund"))
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    clone = determinize(rhine.view(0), random.Random(5))
    assert clone.phase == MOVE
    assert set(clone.legal_actions()) == set(rhine.legal_actions())
    assert clone.view(0).extra["passenger_move"] == rhine.view(0).extra["passenger_move"]
    clone.apply(STOP)
    assert state(rhine).mover == 0          # the real game is untouched


def test_save_load_and_continue_in_the_middle_of_a_passenger_move(tmp_path):
    game = new_game("marklin", 3, seed=11)
    rng = random.Random(11)
    while not (game.phase == MOVE and state(game).used):
        acts = game.legal_actions()
        moves = [a for a in acts if a.kind in ("move_passenger", "passenger_step")]
        game.apply(rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(acts))
        assert not game.is_over
    loaded = load_game(save_game(game, tmp_path / "mid-move.toml"))
    assert loaded.phase == MOVE
    assert loaded.state.to_dict() == game.state.to_dict()
    r1, r2 = random.Random(2), random.Random(2)
    while not game.is_over:
        a, b = r1.choice(game.legal_actions()), r2.choice(loaded.legal_actions())
        assert a == b
        assert game.apply(a) == loaded.apply(b)
    assert [s.total for s in loaded.scores()] == [s.total for s in game.scores()]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_118_cards_are_conserved_in_random_games(players):
    rng = random.Random(players)
    for seed in range(3):
        game = new_game("marklin", players, seed=seed)
        tokens = sum(len(s) for s in state(game).stacks)
        steps_ = 0
        while not game.is_over and steps_ < 5000:
            acts = game.legal_actions()
            assert acts, game.phase
            moves = [a for a in acts if a.kind in ("move_passenger", "passenger_step",
                                                    "place_passenger")]
            game.apply(rng.choice(moves) if moves and rng.random() < 0.5 else rng.choice(acts))
            steps_ += 1
            assert game.total_cards() == 118
            if steps_ % 40 == 0:
                seat = game.current_seat
                clone = determinize(game.view(seat), random.Random(steps_))
                assert clone.view(seat).hand == game.view(seat).hand
                assert set(clone.legal_actions()) == set(game.legal_actions())
        assert game.is_over
        st = state(game)
        assert sum(len(s) for s in st.stacks) + sum(len(t) for t in st.taken) == tokens
        for seat in range(players):
            assert st.supply[seat] + len(st.at[seat]) + st.moves[seat] == 3
            sc = game.scores()[seat]
            assert sc.total == sum(sc.parts.values())
            assert sc.parts["merchandise"] == sum(st.taken[seat])


# Bots -------------------------------------------------------------------------------
def bot_choice(game, name: str = "greedy"):
    from ttr_desktop.bots import make_bot
    seat = game.current_seat
    return make_bot(name, seed=1).choose(game.view(seat), game.legal_actions())


@pytest.mark.parametrize("level", ["easy", "greedy"])
def test_bots_place_a_passenger_on_the_busier_end_of_a_claim(level):
    game = started(4, seed=3)
    set_current(game, 0)
    for rid in ("dortmund-dusseldorf-1", "dusseldorf-munster-1", "dortmund-munster-1"):
        if rid in game.map.routes:
            give_route(game, 0, rid)
    for s in range(4):
        set_trains(game, s, 12)                          # late: any busy city will do
    claim_with(game, "dusseldorf-koln-1", red=1)
    assert game.phase == PLACE
    assert bot_choice(game, level) == PlacePassenger("dusseldorf")


def test_bots_move_along_the_best_trail_and_stop_when_nothing_more_pays(rhine):
    for s in range(4):
        set_trains(rhine, s, 3)                           # the last turns: move now
    assert bot_choice(rhine) == MovePassenger("dortmund")
    rhine.apply(MovePassenger("dortmund"))
    assert bot_choice(rhine) == PassengerStep("dortmund-dusseldorf-1")
    rhine.apply(PassengerStep("dortmund-dusseldorf-1"))
    assert bot_choice(rhine) == PassengerStep("dusseldorf-koln-1")
    rhine.apply(PassengerStep("dusseldorf-koln-1"))
    # On to Koblenz costs the last passenger card for Koblenz's token: worth it.
    assert bot_choice(rhine) == PassengerStep("koblenz-koln-1")


def test_bots_announce_only_the_mixes_offered():
    from ttr_desktop.bots.families.marklin import choose_mix
    offered = [DrawTickets((("short", 1), ("long", 3))), DrawTickets((("long", 4),))]
    assert choose_mix(offered, 0) == offered[0]
    assert choose_mix(offered, 4) == offered[1]


def test_normal_beats_random_and_plays_plus4_locomotives_only_on_long_routes():
    from ttr_desktop.bots import make_bot
    for seed in range(4):
        game = new_game("marklin", 2, seed=seed)
        bots = [make_bot("greedy", seed=seed), make_bot("random", seed=seed)]
        while not game.is_over:
            seat = game.current_seat
            for ev in game.apply(bots[seat].choose(game.view(seat), game.legal_actions())):
                if ev.kind == "route_claimed" and "+4" in str(ev.data["cards"]):
                    assert game.map.routes[ev.data["route"]].length >= 4
        scores = [s.total for s in game.scores()]
        assert scores[0] > scores[1]
        assert game.scores()[0].parts["merchandise"] > 0
