"""Nordic Countries (rules.md §10; "Nordic Countries: rules for the engine" in the shared
data README): each rule of the table, as a player meets it.

2–3 players, 40 trains, 110 cards (12 of each colour, 14 locomotives); deal 5 tickets
keep at least 2, draw 3 keep at least 1, returned tickets leave the game; a face-up
locomotive is an ordinary pick and the display never flushes; locomotives pay only for
ferries and tunnels; each ferry locomotive may be replaced by any 3 cards; tunnels as in
Europe; Murmansk–Lieksa takes any 4 cards for each missing card of the chosen colour; a
9-space route scores 27; doubles open only with 3 players; Globetrotter +10, no longest
path; a tie goes to the most completed tickets; the last round starts at 2 trains.
"""

from __future__ import annotations

import pytest

from tests.helpers import (
    LOCO, claims, event_kinds, face_up, face_up_picks, give_route, hand, set_face_up,
    set_hand, set_tickets, set_trains, stack_deck, started,
)
from ttr_desktop.rules import ClaimRoute, IllegalAction, KeepTickets, new_game
from ttr_desktop.rules.state import Phase

FERRY = "helsinki-tallinn"          # pink, 2 spaces, 1 locomotive
TWO_LOCO_FERRY = "honningsvag-tromso"   # pink, 4 spaces, 2 locomotives
GRAY_FERRY_1 = "arhus-kobenhavn"    # gray, 1 space, 1 locomotive
TUNNEL = "lillehammer-oslo"         # pink, 2 spaces, tunnel
PLAIN = "boden-tornio"              # green, 1 space
PLAIN_3 = "helsinki-imatra"         # red, 3 spaces
LONG = "lieksa-murmansk"            # gray, 9 spaces


def cards_of(actions):
    return [a.cards for a in actions]


def claim(rid, **cards):
    return ClaimRoute(rid, tuple(sorted(cards.items())))


# The box ---------------------------------------------------------------------------

def test_two_or_three_players_on_the_nordic_board():
    for n in (2, 3):
        game = new_game("nordic", n, seed=1)
        assert game.map.id == "nordic"
    for n in (1, 4):
        with pytest.raises(ValueError, match="2-3 players"):
            new_game("nordic", n, seed=1)


def test_40_trains_110_cards_four_in_hand_five_face_up():
    game = new_game("nordic", 3, seed=1)
    assert game.state.trains == [40, 40, 40]
    assert game.total_cards() == 110
    deck = game.ruleset.deck_composition(3)
    assert deck.pop(LOCO) == 14
    assert set(deck.values()) == {12} and len(deck) == 8
    assert [sum(h) for h in game.state.hands] == [4, 4, 4]
    assert len(game.state.face_up) == 5


# Tickets -----------------------------------------------------------------------------

def test_five_tickets_dealt_keep_at_least_two_and_the_rest_leave_the_game():
    game = new_game("nordic", 2, seed=2)
    assert [len(p) for p in game.state.pending] == [5, 5]
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert {len(a.tickets) for a in keeps} == {2, 3, 4, 5}
    left = game.view(0).ticket_deck_size
    two = next(a for a in keeps if len(a.tickets) == 2)
    game.apply(two)
    assert game.view(0).ticket_deck_size == left           # nothing went back
    deck = {game.board.ticket_ids[t] for t in game.state.ticket_decks["regular"]}
    assert not deck & set(two.returned)


def test_a_ticket_draw_shows_three_keep_at_least_one_and_returned_ones_leave():
    game = started("nordic", 2, seed=3)
    left = game.view(0).ticket_deck_size
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_tickets"))
    assert len(game.state.pending[0]) == 3
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert {len(a.tickets) for a in keeps} == {1, 2, 3}
    one = next(a for a in keeps if len(a.tickets) == 1)
    game.apply(one)
    assert game.view(1).ticket_deck_size == left - 3
    deck = {game.board.ticket_ids[t] for t in game.state.ticket_decks["regular"]}
    assert not deck & set(one.returned)


# Train cards -------------------------------------------------------------------------

def test_a_face_up_locomotive_is_an_ordinary_pick_and_two_may_be_taken():
    game = started("nordic", 2, seed=4)
    set_hand(game, 0)
    set_face_up(game, [LOCO, LOCO, "red", "blue", "green"])
    stack_deck(game, ["yellow", "white"])
    game.apply(face_up_picks(game)[0])
    assert game.phase == Phase.SECOND_CARD and game.current_seat == 0
    second = [a for a in face_up_picks(game) if a.card == LOCO]
    assert second, "the other face-up locomotive may be the second card"
    game.apply(second[0])
    assert hand(game, 0) == {LOCO: 2}
    assert game.current_seat == 1


def test_the_display_never_flushes_however_many_locomotives_show():
    game = started("nordic", 2, seed=5)
    set_face_up(game, [LOCO, LOCO, "red", "blue", "green"])
    stack_deck(game, [LOCO, LOCO])
    events = game.apply(next(a for a in face_up_picks(game) if a.card == "red"))
    events += game.apply(next(a for a in face_up_picks(game) if a.card == "blue"))
    assert "face_up_refreshed" not in event_kinds(events)
    assert face_up(game).count(LOCO) == 4


# Paying for routes -------------------------------------------------------------------

def test_locomotives_do_not_pay_for_an_ordinary_route():
    game = started("nordic", 2, seed=6)
    set_hand(game, 0, red=2, locomotive=3)
    assert claims(game, PLAIN_3) == []
    assert "needs 3 red cards; you have 2 red." in game.claim_problem(PLAIN_3)
    with pytest.raises(IllegalAction, match="locomotive cannot pay for"):
        game.apply(claim(PLAIN_3, red=2, locomotive=1))
    set_hand(game, 0, red=3, locomotive=3)
    assert cards_of(claims(game, PLAIN_3)) == [(("red", 3),)]


GRAY_3 = "goteborg-norrkoping"      # gray, 3 spaces, neither ferry nor tunnel


def test_a_refusal_says_locomotives_pay_only_for_ferries_and_tunnels():
    # "Locomotives pay only for ferries and tunnels": a player holding locomotives is
    # told why they did not help, on a colour route and on a gray one alike.
    game = started("nordic", 2, seed=6)
    set_hand(game, 0, red=2, locomotive=3)
    why = "on this map locomotives pay only for ferries and tunnels."
    assert game.claim_problem(PLAIN_3) == (
        "Helsinki–Imatra needs 3 red cards; you have 2 red. Locomotives do not count on "
        "Helsinki–Imatra: " + why)
    set_hand(game, 0, blue=2, locomotive=1)
    assert game.claim_problem(GRAY_3) == (
        "Göteborg–Norrköping needs 3 cards of one colour; your best colour gives 2. "
        "Locomotives do not count on Göteborg–Norrköping: " + why)
    set_hand(game, 0, red=2, locomotive=3)
    with pytest.raises(IllegalAction, match="cannot pay for Helsinki–Imatra: " + why):
        game.apply(claim(PLAIN_3, red=2, locomotive=1))
    # Without locomotives in hand there is nothing to explain.
    set_hand(game, 0, red=2, blue=1)
    assert game.claim_problem(PLAIN_3) == "Helsinki–Imatra needs 3 red cards; you have 2 red."


def test_a_ferry_takes_a_locomotive_for_its_icon_and_extra_ones_stand_in_for_colours():
    game = started("nordic", 2, seed=7)
    set_hand(game, 0, pink=1, locomotive=2)
    pays = cards_of(game.payments_for(FERRY))
    assert pays[0] == ((LOCO, 1), ("pink", 1))
    assert ((LOCO, 2),) in pays


def test_a_ferrys_locomotive_may_be_paid_with_any_three_cards():
    game = started("nordic", 2, seed=8)
    set_hand(game, 0, pink=1, red=2, blue=1)
    assert game.claim_problem(FERRY) is None
    assert cards_of(claims(game, FERRY)) == [(("blue", 1), ("pink", 1), ("red", 2))]
    before = game.state.points[0]
    game.apply(claim(FERRY, pink=1, red=2, blue=1))
    assert game.state.owner[game.board.route_index[FERRY]] == 0
    assert hand(game, 0) == {}
    assert game.state.points[0] == before + 2


def test_a_one_space_gray_ferry_is_one_locomotive_or_any_three_cards():
    game = started("nordic", 2, seed=8)
    set_hand(game, 0, red=2, locomotive=1)
    # [D] A set holding a locomotive is not offered: the locomotive pays for itself, and
    # the other 2 cards would be spent for nothing.
    assert cards_of(game.payments_for(GRAY_FERRY_1)) == [((LOCO, 1),)]
    set_hand(game, 0, red=2, blue=1)
    assert cards_of(claims(game, GRAY_FERRY_1)) == [(("blue", 1), ("red", 2))]
    set_hand(game, 0, red=2)
    assert claims(game, GRAY_FERRY_1) == []


def test_each_of_a_two_locomotive_ferrys_locomotives_may_be_replaced():
    game = started("nordic", 2, seed=9)
    set_hand(game, 0, pink=2, locomotive=1, red=3)
    pays = cards_of(claims(game, TWO_LOCO_FERRY))
    assert ((LOCO, 1), ("pink", 2), ("red", 3)) in pays      # one locomotive, 3 for the other
    set_hand(game, 0, pink=2, red=3, blue=3)
    pays = cards_of(claims(game, TWO_LOCO_FERRY))
    assert (("blue", 3), ("pink", 2), ("red", 3)) in pays    # both locomotives replaced
    assert all(sum(n for _, n in p) == 8 for p in pays)


def test_without_a_locomotive_or_three_spare_cards_the_ferry_says_what_it_needs():
    game = started("nordic", 2, seed=10)
    set_hand(game, 0, pink=1, red=1)
    assert claims(game, FERRY) == []
    reason = game.claim_problem(FERRY)
    assert reason == ("This ferry needs 1 locomotive (or any 3 cards for each), plus 1 pink "
                      "cards; your hand cannot pay it.")
    with pytest.raises(IllegalAction, match="or any 3 cards for each"):
        game.apply(claim(FERRY, pink=1, red=1))


def test_tunnels_as_in_europe_locomotives_wild_and_each_match_costs_one_more():
    game = started("nordic", 2, seed=11)
    set_hand(game, 0, pink=1, locomotive=3)
    assert (("locomotive", 1), ("pink", 1)) in cards_of(claims(game, TUNNEL))
    stack_deck(game, ["pink", LOCO, "red"])
    game.apply(claim(TUNNEL, pink=1, locomotive=1))
    assert game.phase == "pay_tunnel"
    pays = [a.cards for a in game.legal_actions() if a.kind == "pay_tunnel"]
    assert pays == [((LOCO, 2),)]
    game.apply(next(a for a in game.legal_actions() if a.kind == "pay_tunnel"))
    assert game.state.owner[game.board.route_index[TUNNEL]] == 0


def test_a_tunnel_paid_with_locomotives_only_counts_only_revealed_locomotives():
    game = started("nordic", 2, seed=12)
    set_hand(game, 0, locomotive=3)
    stack_deck(game, ["pink", "pink", LOCO])
    game.apply(claim(TUNNEL, locomotive=2))
    assert game.view(0).extra["tunnel"]["extra"] == 1


def test_murmansk_lieksa_takes_any_four_cards_for_each_missing_card():
    game = started("nordic", 2, seed=13)
    set_hand(game, 0, red=8, blue=3, locomotive=1)
    pays = cards_of(claims(game, LONG))
    assert pays == [(("blue", 3), ("locomotive", 1), ("red", 8))]
    # [D] No set holds a red card: it would fill a missing space itself.
    assert all(sum(n for _, n in p) == 9 + 3 * (9 - dict(p)["red"]) for p in pays)
    set_hand(game, 0, red=8, locomotive=1)        # a locomotive alone is no wild here
    assert claims(game, LONG) == []
    assert "any 4 cards for each one missing" in game.claim_problem(LONG)


def test_a_nine_space_route_scores_27():
    game = started("nordic", 2, seed=14)
    set_hand(game, 0, red=9)
    before = game.state.points[0]
    game.apply(claim(LONG, red=9))
    assert game.state.points[0] == before + 27
    assert game.state.trains[0] == 31


# Double routes ---------------------------------------------------------------------

def test_with_two_players_one_track_of_a_double_closes_the_other_even_unequal_ones():
    game = started("nordic", 2, seed=15)
    set_hand(game, 0, orange=2, locomotive=1)
    game.apply(claim("kristiansand-stavanger-2", orange=2, locomotive=1))   # the ferry
    set_hand(game, 1, green=2, locomotive=2)
    assert claims(game, "kristiansand-stavanger-1") == []                   # the tunnel
    assert "kristiansand-stavanger-1" in game.view(1).closed_routes


def test_with_three_players_both_tracks_open_to_different_players():
    game = started("nordic", 3, seed=15)
    set_hand(game, 0, orange=2, locomotive=1)
    game.apply(claim("kristiansand-stavanger-2", orange=2, locomotive=1))
    set_hand(game, 1, green=2)
    assert claims(game, "kristiansand-stavanger-1")
    assert not game.view(1).closed_routes


# The end -----------------------------------------------------------------------------

def test_the_last_round_starts_when_a_player_ends_a_turn_with_two_trains():
    game = started("nordic", 2, seed=16)
    set_trains(game, 0, 3)
    set_hand(game, 0, green=1)
    game.apply(claim(PLAIN, green=1))
    assert game.state.trains[0] == 2
    assert game.view(1).final_round
    for _ in range(2):
        assert not game.is_over
        game.apply(next(a for a in game.legal_actions() if a.kind == "draw_blind"))
        if game.phase == Phase.SECOND_CARD:
            game.apply(next(a for a in game.legal_actions() if a.kind == "draw_blind"))
    assert game.is_over


def test_the_globetrotter_gives_10_to_every_player_tied_for_most_tickets_no_longest_path():
    game = started("nordic", 3, seed=17)
    give_route(game, 0, "helsinki-tampere")
    give_route(game, 0, "helsinki-tallinn")
    give_route(game, 1, "goteborg-oslo")
    give_route(game, 1, "goteborg-kobenhavn")
    give_route(game, 2, "kirkenes-rovaniemi")       # the longest path scores nothing
    set_tickets(game, 0, ["tampere-tallinn"])
    set_tickets(game, 1, ["oslo-kobenhavn"])
    set_tickets(game, 2, [])
    scores = game.scores()
    assert [sc.parts["globetrotter"] for sc in scores] == [10, 10, 0]
    assert all("longest_path" not in sc.parts for sc in scores)


def test_a_tie_on_points_goes_to_the_player_with_more_completed_tickets():
    game = started("nordic", 2, seed=18)
    give_route(game, 0, "helsinki-tampere")
    give_route(game, 0, "helsinki-tallinn")         # 3 points, ticket +3, Globetrotter +10
    for rid in ("kirkenes-rovaniemi", "oulu-vaasa", "rovaniemi-tornio", "tampere-turku"):
        give_route(game, 1, rid)                    # 10 + 4 + 1 + 1 = 16 points
    set_tickets(game, 0, ["tampere-tallinn"])
    set_tickets(game, 1, [])
    result = game.result()
    assert [sc.total for sc in result.scores] == [16, 16]
    assert (result.winners, result.tie_break) == ([0], "tickets")


def test_the_table_of_points_and_the_rest_of_the_rules_are_the_family_s():
    game = new_game("nordic", 2, seed=1)
    rs = game.ruleset
    assert {n: rs.route_points[n] for n in (1, 2, 3, 4, 5, 6, 9)} == {
        1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27}
    assert rs.end_trigger_trains == 2
    assert game.view(0).doubles_open is False
    assert new_game("nordic", 3, seed=1).view(0).doubles_open is True
    keep_all = KeepTickets(tuple(game.board.ticket_ids[t] for t in game.state.pending[0]), ())
    game.apply(keep_all)
    assert len(game.state.tickets[0]) == 5


def test_a_big_hand_is_offered_a_readable_number_of_ways_with_sets():
    """[D] At most 60 payments with sets per route, the fewest sets first."""
    from ttr_desktop.rules.modules.nordic import MAX_SET_PAYMENTS
    game = started("nordic", 2, seed=19)
    set_hand(game, 0, pink=2, red=5, blue=5, green=5, yellow=5, white=5, black=3)
    pays = cards_of(claims(game, TWO_LOCO_FERRY))
    assert 0 < len(pays) <= MAX_SET_PAYMENTS
    assert sum(n for _, n in game.payments_for(TWO_LOCO_FERRY)[0].cards) == 2 + 3 + 3
    set_hand(game, 0, red=5, blue=6, green=6, yellow=6, white=6, black=6, locomotive=3)
    assert 0 < len(claims(game, LONG)) <= MAX_SET_PAYMENTS
