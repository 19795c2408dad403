"""rules.md §1.10 (and §8.15, §8.16): Europe's tunnels, ferries, setup and ties."""

from collections import Counter

import pytest

from tests.helpers import (
    LOCO, claims, disjoint_routes, empty_deck_and_discard, event_kinds, give_route,
    give_station, hand, owned_routes, set_hand, set_tickets, stack_deck, started, ticket_ids,
)
from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.rules import (
    ClaimRoute, DeclineTunnel, DrawTickets, IllegalAction, PayTunnel, new_game,
)
from ttr_desktop.rules.state import Phase

TUNNEL = "marseille-zurich"         # pink, 2 spaces, tunnel
GRAY_TUNNEL = "paris-zurich"        # gray, 3 spaces, tunnel
PINK_2 = ClaimRoute(TUNNEL, (("pink", 2),))
LOCOS_2 = ClaimRoute(TUNNEL, ((LOCO, 2),))


@pytest.fixture
def game():
    g = started("europe", 2, seed=6)
    set_hand(g, 0, pink=4, locomotive=3)
    return g


def names(game, cards):
    return [game.board.card_names[c] for c in cards]


def tunnel_payments(game):
    return {a.cards for a in game.legal_actions() if a.kind == "pay_tunnel"}


# Europe setup -------------------------------------------------------------------
def test_europe_components_45_trains_3_stations_110_cards_46_tickets():
    game = new_game("europe", 3, seed=1)
    assert game.state.trains == [45, 45, 45]
    assert game.view(0).extra["stations_left"] == (3, 3, 3)
    assert game.total_cards() == 110
    assert Counter(t.long for t in game.map.tickets) == {True: 6, False: 40}


def test_europe_deals_1_long_and_3_regular_tickets_to_each_player():
    game = new_game("europe", 4, seed=2)
    for seat in range(4):
        dealt = [game.board.tickets[t] for t in game.state.pending[seat]]
        assert sorted(t.long for t in dealt) == [False, False, False, True]


def test_europe_initial_tickets_keep_at_least_2():
    game = new_game("europe", 2, seed=2)
    assert {len(a.tickets) for a in game.legal_actions()} == {2, 3, 4}


def test_unkept_initial_europe_tickets_go_back_to_the_box():
    game = new_game("europe", 2, seed=2)
    offered = ticket_ids(game, game.state.pending[0])
    regular_before = list(game.state.ticket_decks["regular"])
    long_before = list(game.state.ticket_decks["long"])
    action = next(a for a in game.legal_actions() if len(a.tickets) == 2)
    game.apply(action)
    assert sorted(ticket_ids(game, game.state.boxed_tickets)) == sorted(action.returned)
    assert game.state.ticket_decks["regular"] == regular_before
    assert game.state.ticket_decks["long"] == long_before
    assert sorted(action.tickets + action.returned) == sorted(offered)


def test_returning_initial_europe_tickets_to_the_box_needs_no_order():
    game = new_game("europe", 2, seed=2)
    kept_sets = [a.tickets for a in game.legal_actions()]
    assert len(kept_sets) == len(set(kept_sets))


def test_later_europe_ticket_draws_take_3_regular_tickets_and_keep_at_least_1():
    game = started("europe", 2, seed=2)
    game.apply(DrawTickets())
    drawn = [game.board.tickets[t] for t in game.state.pending[0]]
    assert len(drawn) == 3 and not any(t.long for t in drawn)
    assert {len(a.tickets) for a in game.legal_actions()} == {1, 2, 3}


def test_europe_route_points_go_up_to_21_for_8_spaces():
    game = started("europe", 2, seed=2)
    give_route(game, 0, "petrograd-stockholm")
    assert game.state.points[0] == 21
    six = next(r.id for r in game.map.routes.values() if r.length == 6)
    give_route(game, 1, six)
    assert game.state.points[1] == 15


# Tunnels ------------------------------------------------------------------------
def test_a_tunnel_reveals_the_top_3_cards_and_without_a_match_is_claimed_at_once(game):
    stack_deck(game, ["red", "blue", "green"])
    discard = len(game.state.discard)
    events = game.apply(PINK_2)
    assert sorted(names(game, game.state.discard[discard:])) == [
        "blue", "green", "pink", "pink", "red"]
    revealed = next(e for e in events if e.kind == "tunnel_revealed")
    assert revealed.data["cards"] == ["red", "blue", "green"]
    assert owned_routes(game, 0) == [TUNNEL]
    assert hand(game, 0) == {"pink": 2, LOCO: 3}
    assert game.current_seat == 1


def test_each_revealed_card_of_the_played_colour_costs_one_more(game):
    stack_deck(game, ["pink", "red", "pink"])
    game.apply(PINK_2)
    assert game.phase == PAY_TUNNEL and game.current_seat == 0
    assert tunnel_payments(game) == {(("pink", 2),), ((LOCO, 1), ("pink", 1)), ((LOCO, 2),)}
    assert DeclineTunnel() in game.legal_actions()


def test_each_revealed_locomotive_costs_one_more(game):
    stack_deck(game, [LOCO, "red", "blue"])
    game.apply(PINK_2)
    assert tunnel_payments(game) == {(("pink", 1),), ((LOCO, 1),)}


def test_after_paying_the_tunnel_is_claimed_and_the_turn_ends(game):
    stack_deck(game, ["pink", LOCO, "red"])
    discard = len(game.state.discard)
    game.apply(PINK_2)
    events = game.apply(PayTunnel(((LOCO, 1), ("pink", 1))))
    assert "route_claimed" in event_kinds(events)
    assert owned_routes(game, 0) == [TUNNEL]
    assert hand(game, 0) == {"pink": 1, LOCO: 2}
    assert game.state.points[0] == 2
    assert game.current_seat == 1
    assert len(game.state.discard) == discard + 4 + 3


def test_a_tunnel_paid_with_locomotives_only_counts_only_revealed_locomotives(game):
    stack_deck(game, ["pink", LOCO, "pink"])
    game.apply(LOCOS_2)
    assert tunnel_payments(game) == {((LOCO, 1),)}


def test_a_tunnel_paid_with_locomotives_only_ignores_revealed_colours(game):
    stack_deck(game, ["pink", "pink", "pink"])
    game.apply(LOCOS_2)
    assert owned_routes(game, 0) == [TUNNEL]
    assert hand(game, 0) == {"pink": 4, LOCO: 1}


def test_a_gray_tunnel_counts_the_colour_actually_played():
    game = started("europe", 2, seed=6)
    set_hand(game, 0, red=4, blue=4)
    stack_deck(game, ["blue", "red", "green"])
    game.apply(ClaimRoute(GRAY_TUNNEL, (("red", 3),)))
    assert tunnel_payments(game) == {(("red", 1),)}


def test_declining_a_tunnel_takes_the_cards_back_and_ends_the_turn(game):
    stack_deck(game, ["pink", "red", "blue"])
    game.apply(PINK_2)
    events = game.apply(DeclineTunnel())
    assert "route_claimed" not in event_kinds(events)
    assert owned_routes(game, 0) == []
    assert hand(game, 0) == {"pink": 4, LOCO: 3}
    assert game.state.trains[0] == 45 and game.state.points[0] == 0
    assert game.current_seat == 1 and game.phase == Phase.TURN


def test_a_tunnel_that_cannot_be_paid_can_only_be_given_up():
    game = started("europe", 2, seed=6)
    set_hand(game, 0, pink=2)
    stack_deck(game, ["pink", "red", "blue"])
    game.apply(PINK_2)
    assert game.legal_actions() == [DeclineTunnel()]
    with pytest.raises(IllegalAction, match="1 more pink"):
        game.apply(PayTunnel((("pink", 1),)))


def test_the_revealed_tunnel_cards_are_discarded(game):
    stack_deck(game, ["pink", "red", "blue"])
    discard = list(game.state.discard)
    game.apply(PINK_2)
    game.apply(DeclineTunnel())
    added = names(game, game.state.discard[len(discard):])
    assert sorted(added) == ["blue", "pink", "red"]
    assert game.total_cards() == 110


def test_a_tunnel_reveals_only_what_deck_and_discard_still_hold(game):
    empty_deck_and_discard(game, keep_in_deck=[LOCO], keep_in_discard=["red"])
    events = game.apply(PINK_2)
    revealed = next(e for e in events if e.kind == "tunnel_revealed")
    assert sorted(revealed.data["cards"]) == [LOCO, "red"]
    assert tunnel_payments(game) == {(("pink", 1),), ((LOCO, 1),)}


def test_a_tunnel_with_no_card_left_to_reveal_is_claimed_without_risk(game):
    empty_deck_and_discard(game)
    events = game.apply(PINK_2)
    revealed = next(e for e in events if e.kind == "tunnel_revealed")
    assert revealed.data["cards"] == []
    assert owned_routes(game, 0) == [TUNNEL]


# Ferries ------------------------------------------------------------------------
def test_a_ferry_needs_one_locomotive_per_locomotive_icon():
    game = started("europe", 2, seed=6)
    assert game.map.routes["athina-brindisi"].ferry_locomotives == 1
    set_hand(game, 0, red=4)
    assert claims(game, "athina-brindisi") == []
    with pytest.raises(IllegalAction, match="ferry"):
        game.apply(ClaimRoute("athina-brindisi", (("red", 4),)))
    set_hand(game, 0, red=4, blue=3, locomotive=2)
    assert {a.cards for a in claims(game, "athina-brindisi")} == {
        ((LOCO, 1), ("red", 3)), ((LOCO, 2), ("red", 2)),
        (("blue", 3), (LOCO, 1)), (("blue", 2), (LOCO, 2))}


def test_a_ferry_with_two_icons_takes_two_locomotives():
    game = started("europe", 2, seed=6)
    assert game.map.routes["amsterdam-london"].ferry_locomotives == 2
    set_hand(game, 0, red=5, locomotive=1)
    assert claims(game, "amsterdam-london") == []
    set_hand(game, 0, red=5, locomotive=2)
    assert [a.cards for a in claims(game, "amsterdam-london")] == [((LOCO, 2),)]


# Europe ties --------------------------------------------------------------------
@pytest.fixture
def europe3():
    g = started("europe", 3, seed=6)
    for seat in range(3):
        set_tickets(g, seat, [])
    return g


def test_a_europe_tie_goes_first_to_the_most_completed_tickets(europe3):
    game = europe3
    set_tickets(game, 0, ["warszawa-smolensk"])                 # 6 points
    mine = ["warszawa-wilno", "smolensk-wilno"]
    for rid in mine:
        give_route(game, 0, rid)                              # 4 + 4 points, path 6, +10
    theirs = disjoint_routes(game, [6, 2, 1], avoid=mine)
    for rid in theirs:
        give_route(game, 1, rid)                              # 15 + 2 + 1 points, path 6, +10
    give_station(game, 1, "paris")                            # 8 station points, not 12
    scores = game.scores()
    assert scores[0].total == scores[1].total == 8 + 6 + 10 + 12
    result = game.result()
    assert result.winners == [0] and result.tie_break == "tickets"


def test_a_europe_tie_then_goes_to_the_fewest_stations_before_the_longest_path(europe3):
    game = europe3
    six = disjoint_routes(game, [6])[0]
    give_route(game, 1, six)                                  # 15 points, path 6, +10
    give_station(game, 1, "paris")                            # 8 points for stations
    for rid in disjoint_routes(game, [4, 4, 4], avoid=[six]):
        give_route(game, 0, rid)                              # 21 points, path 4
    for city in ("london", "berlin", "wien"):
        give_station(game, 2, city)                           # seat 2 far behind
    scores = game.scores()
    assert scores[0].total == scores[1].total == 33
    assert scores[1].longest_path_bonus and not scores[0].longest_path_bonus
    result = game.result()
    assert result.winners == [0] and result.tie_break == "fewest_stations"


def test_a_europe_tie_last_goes_to_the_european_express(europe3):
    game = europe3
    six = disjoint_routes(game, [6])[0]
    give_route(game, 1, six)                                  # 15 + 10
    for rid in disjoint_routes(game, [4, 4, 4, 2, 2], avoid=[six]):
        give_route(game, 0, rid)                              # 21 + 4 = 25, path 4
    scores = game.scores()
    assert scores[0].total == scores[1].total == 25 + 12
    result = game.result()
    assert result.winners == [1] and result.tie_break == "longest_path"
