"""rules.md §3 (Legacy: Legends of the West, first game), §3.7 (our events), A-16..A-19.

Seat 0 runs the blue company and seat 1 the red one unless a test says otherwise.
"""

from __future__ import annotations

import random

import pytest

from tests.helpers import (
    LOCO, add_points, card_index, empty_deck_and_discard, event_kinds, face_up, face_up_picks,
    give_route, hand, set_current, set_discard, set_face_up, set_hand, set_module, set_tickets,
    set_trains, stack_deck, started,
)
from ttr_desktop.persistence import load_game, save_game
from ttr_desktop.rules import (
    ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, IllegalAction, determinize, get_ruleset,
    new_game,
)
from ttr_desktop.rules.modules.legacy import (
    EFFECTS, EVENTS, TRAINS_LEFT_TABLE, companies_for, trains_left_dollars,
)
from ttr_desktop.rules.state import Phase

NP = "newspaper"
COLOURS5 = ["black", "blue", "white", "green", "yellow"]


def legacy_state(game):
    return game.state.ext["legacy"]


def stack_events(game, ids):
    """Put these events on top of the event deck, the first listed turned up first."""
    st = legacy_state(game)
    set_module(game, "legacy", deck=[e for e in st.deck if e not in ids] + list(reversed(ids)))


def coins(game, seat):
    return game.state.points[seat]


def claim(game, route_id, **cards):
    """The claim of ``route_id`` paid exactly with ``cards`` (given to the player first)."""
    set_hand(game, game.current_seat, **cards)
    pay = tuple(sorted((k, v) for k, v in cards.items() if v))
    return game.apply(ClaimRoute(route_id, pay))


@pytest.fixture
def game():
    g = started("legacy", 2, seed=4)
    set_face_up(g, COLOURS5)
    return g


# §3.1 / §3.2 Components and setup --------------------------------------------
@pytest.mark.parametrize("players,papers", [(2, 6), (3, 4), (4, 3), (5, 3)])
def test_the_deck_is_72_colours_12_locomotives_and_newspapers_by_player_count(players, papers):
    rs = get_ruleset("legacy")
    deck = rs.deck_composition(players)
    assert deck == {"black": 12, "blue": 12, "white": 12, "green": 12, "yellow": 12,
                    "red": 12, "locomotive": 12, NP: papers}
    game = new_game("legacy", players, seed=players)
    assert game.total_cards() == 84 + papers
    assert NP not in rs.colours


@pytest.mark.parametrize("seed", range(12))
def test_newspapers_dealt_or_shown_at_setup_are_redealt_without_an_event(seed):
    game = new_game("legacy", 2, seed=seed)
    np = card_index(game, NP)
    assert all(h[np] == 0 for h in game.state.hands)
    assert np not in game.state.face_up
    assert all(sum(h) == 4 for h in game.state.hands)
    assert legacy_state(game).seen == [] and legacy_state(game).current == ""


def test_each_company_starts_with_five_dollars_and_twenty_trains():
    game = new_game("legacy", 3, seed=1)
    assert game.state.points == [5, 5, 5]
    assert game.state.trains == [20, 20, 20]
    assert [e[2] for e in game.state.ledger] == ["start"] * 3


def test_four_tickets_are_dealt_and_at_least_two_kept():
    game = new_game("legacy", 2, seed=2)
    assert len(game.state.pending[0]) == 4
    assert min(len(a.tickets) for a in game.legal_actions()) == 2


def test_seven_events_are_shuffled_face_down_with_no_current_event():
    game = new_game("legacy", 2, seed=3)
    st = legacy_state(game)
    assert sorted(st.deck) == sorted(e.id for e in EVENTS) and len(st.deck) == 7
    assert game.view(0).extra["legacy"]["current_event"] == ""


def test_every_event_is_data_with_a_text_and_a_known_effect():
    assert len(EVENTS) == 7
    for ev in EVENTS:
        assert ev.kind in ("instant", "ongoing") and ev.text and ev.title
        assert ev.effect in EFFECTS


# Companies -------------------------------------------------------------------
def test_seats_take_the_company_colours_in_order_by_default():
    assert companies_for("", 3) == ["blue", "red", "green"]


def test_the_companies_option_gives_each_seat_its_colour():
    game = new_game("legacy", 3, seed=1, options={"companies": ["black", "yellow", "red"]})
    assert game.view(1).extra["legacy"]["companies"] == ("black", "yellow", "red")
    game = new_game("legacy", 2, seed=1, options={"companies": "green/blue"})
    assert legacy_state(game).companies == ["green", "blue"]


@pytest.mark.parametrize("value,words", [
    (["blue"], "one per player"), (["blue", "white"], "not a company colour"),
    (["blue", "purple"], "not a company colour"), (["red", "red"], "same company"),
])
def test_unusable_company_choices_are_refused_with_a_reason(value, words):
    with pytest.raises(ValueError, match=words):
        new_game("legacy", 2, seed=1, options={"companies": value})


# §3.3 Newspapers (A-16) -------------------------------------------------------
def test_a_newspaper_drawn_blind_turns_up_an_event_is_discarded_and_replaced(game):
    stack_events(game, ["improvements"])
    set_hand(game, 0)
    stack_deck(game, [NP, "red"])
    events = game.apply(DrawBlind())
    assert hand(game, 0) == {"red": 1}
    assert legacy_state(game).current == "improvements"
    assert game.state.discard[-1] == card_index(game, NP)
    kinds = event_kinds(events)
    assert kinds.index("newspaper") < kinds.index("card_drawn")
    news = next(e for e in events if e.kind == "newspaper")
    assert news.data["reason"] == "blind" and news.data["event"] == "improvements"


def test_a_newspaper_as_the_replacement_of_a_face_up_card_turns_up_an_event(game):
    stack_events(game, ["right_of_way"])
    stack_deck(game, [NP, "red"])
    events = game.apply(DrawFaceUp(1, "blue"))
    assert face_up(game)[1] == "red"
    assert legacy_state(game).current == "right_of_way"
    assert next(e for e in events if e.kind == "newspaper").data["reason"] == "replace"


def test_a_newspaper_in_a_three_locomotive_refresh_turns_up_an_event(game):
    set_face_up(game, [LOCO, LOCO, "blue", "white", "green"])
    stack_events(game, ["mama_fee"])
    stack_deck(game, [LOCO, "red", NP, "black", "blue", "white", "green"])
    events = game.apply(DrawFaceUp(2, "blue"))
    assert "face_up_refreshed" in event_kinds(events)
    assert NP not in face_up(game)
    assert legacy_state(game).current == "mama_fee"
    assert next(e for e in events if e.kind == "newspaper").data["reason"] == "refresh"


def test_the_large_city_card_can_be_a_newspaper_which_brings_an_event(game):
    stack_events(game, ["right_of_way"])
    stack_deck(game, [NP, "green"])
    claim(game, "bangor-montreal", blue=2)
    assert hand(game, 0) == {"green": 1}
    assert legacy_state(game).current == "right_of_way"


def test_with_the_event_deck_empty_a_newspaper_brings_no_event_but_is_replaced(game):
    st = legacy_state(game)
    st.seen, st.deck = ["dividends", "reeves"], []
    stack_deck(game, [NP, "red"])
    events = game.apply(DrawBlind())
    assert st.seen == ["dividends", "reeves"] and st.current == "reeves"
    assert hand(game, 0).get("red", 0) >= 1
    assert next(e for e in events if e.kind == "newspaper").data["event"] == ""


def test_the_empty_event_deck_knob_can_reshuffle_the_event_discard_but_the_current():
    game = started("legacy", 2, seed=4, empty_event_deck="reshuffle")
    st = legacy_state(game)
    st.seen, st.deck = ["dividends", "reeves", "right_of_way"], []
    stack_deck(game, [NP, "red"])
    game.apply(DrawBlind())
    assert st.seen[0] == "right_of_way" and len(st.seen) == 2
    assert sorted(st.seen[1:] + st.deck) == ["dividends", "reeves"]


def test_the_reshuffled_deck_takes_the_newspapers_back(game):
    np = card_index(game, NP)
    s = game.state
    set_discard(game, ["red"] * 10)
    # The deck's newspapers to the discard, the rest to seat 1: the deck is empty.
    empty_deck_and_discard(game, keep_in_discard=["red"] * 10 + [NP] * s.deck.count(np),
                           into_seat=1)
    events = game.apply(DrawBlind())
    assert "deck_reshuffled" in event_kinds(events)
    assert (s.deck + s.discard).count(np) == 6
    assert game.total_cards() == 90


# §3.3 Draw lock-out and locomotives ---------------------------------------
def test_with_nine_cards_in_deck_and_discard_you_may_still_draw(game):
    empty_deck_and_discard(game, keep_in_deck=["red"] * 5, keep_in_discard=["blue"] * 4)
    assert DrawBlind() in game.legal_actions()


def test_with_eight_or_fewer_in_deck_and_discard_nobody_may_draw_train_cards(game):
    empty_deck_and_discard(game, keep_in_deck=["red"] * 4, keep_in_discard=[NP] * 4)
    acts = game.legal_actions()
    assert DrawBlind() not in acts and not face_up_picks(game)
    assert DrawTickets() in acts
    with pytest.raises(IllegalAction, match="8 or fewer"):
        game.apply(DrawFaceUp(0, "black"))


def test_the_lock_out_ends_a_draw_after_the_first_card(game):
    empty_deck_and_discard(game, keep_in_deck=["red"] * 9)
    game.apply(DrawBlind())
    assert game.phase == Phase.TURN and game.current_seat == 1


def test_a_face_up_locomotive_is_the_first_and_only_pick(game):
    set_face_up(game, [LOCO, "blue", "white", "green", "yellow"])
    game.apply(DrawFaceUp(0, LOCO))
    assert game.current_seat == 1
    set_current(game, 0)
    set_face_up(game, [LOCO, "blue", "white", "green", "yellow"])
    game.apply(DrawFaceUp(1, "blue"))
    assert all(a.card != LOCO for a in face_up_picks(game))


# §3.3 Claims: no points, the claim steps in order ----------------------------------
def test_claiming_scores_nothing(game):
    before = coins(game, 0)
    events = claim(game, "cincinnati-lewisburg", yellow=2)
    assert coins(game, 0) == before
    assert not any(e[2] == "route" for e in game.state.ledger)
    assert next(e for e in events if e.kind == "route_claimed").data["points"] == 0


def test_a_route_of_your_company_colour_pays_the_company_bonus(game):
    events = claim(game, "cincinnati-knoxville", blue=2)
    assert coins(game, 0) == 6
    assert game.state.ledger[-1][1:3] == (1, "company")
    bonus = next(e for e in events if e.kind == "company_bonus")
    assert bonus.data == {"route": "cincinnati-knoxville", "amount": 1, "company": "blue"}


def test_the_company_bonus_is_a_knob():
    game = started("legacy", 2, seed=4, company_bonus_dollars=3)
    claim(game, "cincinnati-knoxville", blue=2)
    assert coins(game, 0) == 8


def test_a_gray_route_never_matches_a_company_even_paid_in_its_colour(game):
    claim(game, "cincinnati-lewisburg", blue=2)
    assert coins(game, 0) == 5


def test_another_companys_colour_pays_nothing(game):
    claim(game, "atlanta-nashville", red=2)
    assert coins(game, 0) == 5


def test_company_bonus_comes_before_the_large_city_card(game):
    stack_deck(game, ["white"])
    events = claim(game, "baltimore-pittsburgh-1", blue=2)
    kinds = [k for k in event_kinds(events) if k in ("route_claimed", "company_bonus",
                                                      "large_city_card")]
    assert kinds == ["route_claimed", "company_bonus", "large_city_card"]
    assert hand(game, 0) == {"white": 1}


def test_two_large_cities_still_give_one_card(game):
    stack_deck(game, ["white", "green"])
    events = claim(game, "philadelphia-pittsburgh", red=2)
    assert hand(game, 0) == {"white": 1}
    card = next(e for e in events if e.kind == "large_city_card")
    assert card.data["cities"] == ["philadelphia", "pittsburgh"]
    assert card.visible_to(1).data.get("card") is None


def test_a_large_city_gives_its_card_again_on_every_claim_into_it(game):
    stack_deck(game, ["white"])
    claim(game, "buffalo-pittsburgh", yellow=2)
    set_current(game, 0)
    stack_deck(game, ["green"])
    claim(game, "lewisburg-pittsburgh", green=1)
    assert hand(game, 0) == {"green": 1}


def test_no_large_city_no_card(game):
    claim(game, "cincinnati-knoxville", blue=2)
    assert hand(game, 0) == {}


def test_triples_are_always_all_open_but_one_track_per_player(game):
    give_route(game, 1, "boston-new-york-1")
    set_hand(game, 0, green=1, black=1)
    ids = {a.route_id for a in game.legal_actions() if a.kind == "claim_route"}
    assert {"boston-new-york-2", "boston-new-york-3"} <= ids
    claim(game, "boston-new-york-2", green=1)
    set_current(game, 0)
    set_hand(game, 0, black=1)
    ids = {a.route_id for a in game.legal_actions() if a.kind == "claim_route"}
    assert "boston-new-york-3" not in ids


def test_doubles_are_one_only_at_two_and_three_players_both_at_four():
    for players, open_ in ((2, False), (3, False), (4, True)):
        game = started("legacy", players, seed=1)
        give_route(game, 1, "chicago-detroit-1")
        set_hand(game, 0, black=2)
        ids = {a.route_id for a in game.legal_actions() if a.kind == "claim_route"}
        assert ("chicago-detroit-2" in ids) == open_


def test_tracks_leading_off_the_board_cannot_be_claimed(game):
    stubs = {s.id for s in game.map.stubs}
    assert stubs and not stubs & set(game.map.routes)
    set_hand(game, 0, locomotive=12)
    ids = {a.route_id for a in game.legal_actions() if a.kind == "claim_route"}
    assert not ids & stubs


# §3.7 Events ---------------------------------------------------------------------
def turn_up(game, event_id, drawer=0):
    """Seat ``drawer`` draws a newspaper blind that turns up ``event_id``."""
    set_current(game, drawer)
    stack_events(game, [event_id])
    stack_deck(game, [NP, "white", "white"])
    return game.apply(DrawBlind())


def test_event_dividends_pays_a_dollar_per_route_at_most_five(game):
    for rid in ("bangor-quebec-1", "montreal-quebec-1", "bangor-montreal",
                "bangor-boston-1", "albany-boston", "albany-new-york"):
        give_route(game, 0, rid)
    give_route(game, 1, "atlanta-nashville")
    events = turn_up(game, "dividends")
    assert game.state.points == [10, 6]
    paid = next(e for e in events if e.kind == "event_paid")
    assert paid.data["payments"] == [[0, 5], [1, 1]]


def test_event_railway_improvements_pays_two_for_a_route_of_three_or_more(game):
    turn_up(game, "improvements")
    game.apply(DrawBlind())
    claim(game, "cincinnati-nashville-1", yellow=3)   # seat 1, gray, length 3
    assert coins(game, 1) == 7
    set_current(game, 1)
    claim(game, "charleston-savannah-1", red=1)       # length 1, red company: +1 only
    assert coins(game, 1) == 8


def test_event_right_of_way_doubles_the_company_bonus(game):
    turn_up(game, "right_of_way")
    set_current(game, 0)
    claim(game, "cincinnati-knoxville", blue=2)
    assert coins(game, 0) == 7


def test_event_mama_oconnell_charges_two_for_a_red_route(game):
    turn_up(game, "mama_fee")
    set_current(game, 0)
    claim(game, "atlanta-nashville", red=2)
    assert coins(game, 0) == 3
    assert game.state.ledger[-1][1:] == (-2, "event", "mama_fee")


def test_money_never_goes_below_zero_a_player_pays_what_they_have(game):
    turn_up(game, "mama_fee")
    set_current(game, 0)
    add_points(game, 0, 1 - game.state.points[0], "start", "")    # $1 left
    claim(game, "atlanta-nashville", red=2)
    assert coins(game, 0) == 0


def test_event_lewisburg_pays_four_to_every_owner_of_a_route_into_lewisburg(game):
    give_route(game, 0, "knoxville-lewisburg")
    give_route(game, 0, "cincinnati-lewisburg")
    give_route(game, 1, "atlanta-nashville")
    turn_up(game, "lewisburg")
    assert game.state.points == [9, 5]


def test_event_reeves_pays_three_to_every_owner_of_a_white_route(game):
    give_route(game, 1, "charleston-charlotte")
    give_route(game, 1, "charlotte-knoxville")
    give_route(game, 0, "cincinnati-knoxville")
    turn_up(game, "reeves")
    assert game.state.points == [5, 8]


def test_instant_events_stay_current_with_no_further_effect(game):
    give_route(game, 1, "charleston-charlotte")
    turn_up(game, "reeves")
    game.apply(DrawBlind())
    claim(game, "mobile-savannah-1", white=4)
    assert coins(game, 1) == 8 and legacy_state(game).current == "reeves"


def test_event_a_new_horizon_deals_a_card_to_everyone_from_the_current_player():
    game = started("legacy", 3, seed=9)
    set_face_up(game, COLOURS5)
    for seat in range(3):
        set_hand(game, seat)
    set_current(game, 1)
    stack_events(game, ["new_horizon", "dividends"])
    stack_deck(game, [NP, "red", "blue", NP, "green", "black", "white"])
    events = game.apply(DrawBlind())
    got = [(e.seat, e.data.get("card")) for e in events if e.kind == "event_card"]
    assert got == [(1, "red"), (2, "blue"), (0, "green")]
    assert hand(game, 1) == {"red": 1, "black": 1}
    assert legacy_state(game).current == "new_horizon"     # the second newspaper: no event
    quiet = [e for e in events if e.kind == "newspaper"][1]
    assert quiet.data["event"] == "" and quiet.data.get("quiet")
    assert next(e for e in events if e.kind == "event_card").visible_to(0).data.get(
        "card") is None


def test_an_ongoing_event_ends_when_the_next_one_turns_up(game):
    turn_up(game, "right_of_way")
    turn_up(game, "lewisburg")
    set_current(game, 0)
    claim(game, "cincinnati-knoxville", blue=2)
    assert coins(game, 0) == 6


# §3.4 / §3.5 End and the bank slip ----------------------------------------------------
def test_two_trains_left_start_the_final_round(game):
    set_trains(game, 0, 4)
    claim(game, "cincinnati-lewisburg", yellow=2)
    assert game.final_round


def test_the_trains_left_table():
    assert [trains_left_dollars(t) for t in range(13)] == [16, 12, 9, 7, 6, 4, 4, 4, 2, 2, 2,
                                                          0, 0]
    assert TRAINS_LEFT_TABLE[0] == 16


def test_the_bank_slip_is_coins_trains_left_and_tickets(game):
    set_tickets(game, 0, ["albany-bangor"])
    set_tickets(game, 1, ["montreal-quebec"])
    give_route(game, 1, "montreal-quebec-1")
    set_trains(game, 0, 3)
    sc = game.scores()
    assert sc[0].parts == {"coins": 5, "trains_left": 7, "tickets": -3, "floor": 0}
    assert sc[1].parts == {"coins": 5, "trains_left": 0, "tickets": 1, "floor": 0}
    assert sc[0].total == 9 and sc[1].total == 6


def test_a_bank_slip_never_goes_below_zero_and_the_floor_shows(game):
    set_tickets(game, 0, ["mobile-boston", "new-orleans-new-york"])
    sc = game.scores()[0]
    assert sc.parts["tickets"] == -22 and sc.parts["floor"] == 17
    assert sc.total == 0 == sum(sc.parts.values())


def test_ties_go_to_more_completed_tickets():
    game = started("legacy", 2, seed=4)
    set_tickets(game, 0, ["montreal-quebec"])
    set_tickets(game, 1, [])
    give_route(game, 0, "montreal-quebec-1")
    add_points(game, 1, 1, "event", "dividends")
    result = game.result()
    assert [sc.total for sc in result.scores] == [6, 6]
    assert result.winners == [0] and result.tie_break == "tickets"


def test_then_the_player_later_in_turn_order_ranks_ahead():
    game = new_game("legacy", 3, seed=4, options={"first_player": 1})
    while game.phase == Phase.CHOOSE_INITIAL_TICKETS:
        game.apply(game.legal_actions()[0])
    for seat in range(3):
        set_tickets(game, seat, [])
    result = game.result()
    assert result.winners == [0] and result.tie_break == "later_in_turn_order"
    assert result.ranking == [0, 2, 1]


# Views, search, saves, random games ----------------------------------------------------
def test_the_view_shows_coins_events_newspapers_and_companies(game):
    turn_up(game, "reeves")
    extra = game.view(1).extra
    info = extra["legacy"]
    assert info["current_event"] == "reeves" and info["events_seen"] == ("reeves",)
    assert info["events_left"] == 6 and info["coins"] == tuple(game.state.points)
    assert info["newspapers_left"] == 5 and info["companies"] == ("blue", "red")
    assert extra["seat_stats"] == ("blue company", "red company")


def test_determinize_keeps_what_is_public_and_resamples_the_event_deck(game):
    turn_up(game, "reeves")
    view = game.view(1)
    orders = set()
    for k in range(8):
        copy = determinize(view, random.Random(k))
        st = legacy_state(copy)
        assert st.seen == ["reeves"] and sorted(st.deck) == sorted(legacy_state(game).deck)
        np = card_index(copy, NP)
        assert all(h[np] == 0 for h in copy.state.hands)
        assert copy.total_cards() == 90
        orders.add(tuple(st.deck))
    assert len(orders) > 1


def test_save_load_continue_keeps_companies_and_events(tmp_path):
    game = new_game("legacy", 3, seed=11, options={"companies": ["black", "green", "blue"],
                                                    "retired_events": ["dividends"]})
    rng = random.Random(2)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    loaded = load_game(save_game(game, tmp_path / "legacy.toml"))
    assert loaded.state.to_dict() == game.state.to_dict()
    assert "dividends" not in legacy_state(loaded).deck + legacy_state(loaded).seen
    r1, r2 = random.Random(5), random.Random(5)
    while not game.is_over:
        a, b = r1.choice(game.legal_actions()), r2.choice(loaded.legal_actions())
        assert a == b
        assert event_kinds(game.apply(a)) == event_kinds(loaded.apply(b))
    assert [s.total for s in game.scores()] == [s.total for s in loaded.scores()]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_card_and_end_with_honest_bank_slips(players):
    papers = {2: 6, 3: 4, 4: 3, 5: 3}[players]
    for seed in range(6):
        game = new_game("legacy", players, seed=seed)
        np = card_index(game, NP)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and steps < 4000:
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
            assert game.total_cards() == 84 + papers
            assert all(h[np] == 0 for h in game.state.hands)
            assert np not in game.state.face_up
            assert min(game.state.points) >= 0
        assert game.is_over
        for sc in game.scores():
            assert sc.total == sum(sc.parts.values()) >= 0
            assert list(sc.parts) == ["coins", "trains_left", "tickets", "floor"]


# What a campaign game needs (module docstring) -------------------------------------------
def test_the_caboose_holder_goes_first():
    from ttr_desktop.rules.modules.legacy import campaign_options
    game = started("legacy", 3, seed=2, **campaign_options(["red", "black", "blue"], (), 2))
    assert game.state.first_seat == 2 and game.current_seat == 2


def test_a_campaign_game_takes_its_companies_and_leaves_retired_events_out():
    from ttr_desktop.rules.modules.legacy import campaign_options
    opts = campaign_options(["green", "yellow"], ["dividends", "reeves"], 1)
    game = new_game("legacy", 2, seed=3, options=opts)
    st = legacy_state(game)
    assert st.companies == ["green", "yellow"] and st.retired == ["dividends", "reeves"]
    assert sorted(st.deck) == sorted(e.id for e in EVENTS if e.id not in ("dividends", "reeves"))


def test_seat_colours_become_companies_and_purple_is_refused():
    from ttr_desktop.rules.modules.legacy import companies_of_seats
    assert companies_of_seats(["red", "blue", "black"]) == ["red", "blue", "black"]
    with pytest.raises(ValueError, match="purple"):
        companies_of_seats(["red", "purple"])


def test_after_a_game_the_slips_the_event_discard_pile_and_last_place_are_read(game):
    from ttr_desktop.rules.modules.legacy import (
        bank_slips, event_discard, last_place, slip_parts,
    )
    turn_up(game, "right_of_way")
    turn_up(game, "reeves")
    assert event_discard(game) == ["right_of_way", "reeves"]
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    slips, parts = bank_slips(game), slip_parts(game)
    assert slips == [sc.total for sc in game.scores()] and min(slips) >= 0
    assert [sum(p.values()) for p in parts] == slips
    result = game.result()
    assert last_place(game) == result.ranking[-1]
    assert result.places[last_place(game)] == max(result.places)


# Bots ----------------------------------------------------------------------------------
def test_the_bot_values_a_claim_in_dollars(game):
    from ttr_desktop.bots.families import policy_for
    policy = policy_for("legacy")
    view = game.view(0)
    g = view.graph
    blue = next(r for r in range(g.n_routes) if g.r_color[r] == "blue" and g.r_len[r] <= 2)
    red = next(r for r in range(g.n_routes) if g.r_color[r] == "red" and g.r_len[r] <= 2)
    from ttr_desktop.bots.families.legacy import company_dollars, table_dollars
    assert company_dollars(view, blue) == 1 and company_dollars(view, red) == 0
    assert table_dollars(view, blue) == 0          # 20 trains: far from the table
    set_trains(game, 0, 4)
    view = game.view(0)
    four = next(r for r in range(g.n_routes) if g.r_len[r] == 4)
    assert table_dollars(view, four) == 16 - 6     # 4 trains left -> 0 left
    assert policy.route_bonus(view, four) >= 10


def test_the_normal_bot_beats_random_moves_for_dollars():
    from ttr_desktop.bots import make_bot
    wins = 0
    for seed in range(10):
        game = new_game("legacy", 2, seed=seed)
        bots = [make_bot("greedy", seed=seed), make_bot("random", seed=seed)]
        while not game.is_over:
            seat = game.current_seat
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        wins += game.result().winners == [0]
    assert wins >= 8
