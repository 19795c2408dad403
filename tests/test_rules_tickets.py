"""rules.md §1.6 (and §8.6, §8.13, §8.14): drawing destination tickets."""

import pytest

from tests.helpers import (
    give_route, leave_tickets_in_deck, set_hand, skip_setup, stack_tickets, started, ticket_ids,
)
from ttr_desktop.rules import ClaimRoute, DrawTickets, IllegalAction, KeepTickets, new_game
from ttr_desktop.rules.state import Phase

THREE = ["denver-el-paso", "kansas-city-houston", "boston-miami"]


@pytest.fixture
def game():
    g = started("usa", 2, seed=5)
    stack_tickets(g, THREE)
    return g


def regular_deck(game):
    return ticket_ids(game, game.state.ticket_decks["regular"])


def test_drawing_tickets_takes_the_top_3_at_once(game):
    size = len(game.state.ticket_decks["regular"])
    game.apply(DrawTickets())
    assert game.phase == Phase.KEEP_TICKETS and game.current_seat == 0
    assert ticket_ids(game, game.state.pending[0]) == THREE
    assert len(game.state.ticket_decks["regular"]) == size - 3
    assert {a.kind for a in game.legal_actions()} == {"keep_tickets"}


def test_after_a_ticket_draw_at_least_1_is_kept(game):
    game.apply(DrawTickets())
    assert {len(a.tickets) for a in game.legal_actions()} == {1, 2, 3}
    with pytest.raises(IllegalAction, match="at least 1"):
        game.apply(KeepTickets((), tuple(THREE)))


def test_returned_tickets_go_to_the_bottom_and_the_turn_ends(game):
    kept_before = len(game.state.tickets[0])
    game.apply(DrawTickets())
    game.apply(KeepTickets(("boston-miami",), ("denver-el-paso", "kansas-city-houston")))
    assert len(game.state.tickets[0]) == kept_before + 1
    assert set(regular_deck(game)[:2]) == {"denver-el-paso", "kansas-city-houston"}
    assert game.state.pending[0] == []
    assert game.phase == Phase.TURN and game.current_seat == 1


def test_all_drawn_tickets_may_be_kept_there_is_no_limit(game):
    before = len(game.state.tickets[0])
    game.apply(DrawTickets())
    game.apply(KeepTickets(tuple(THREE), ()))
    assert len(game.state.tickets[0]) == before + 3


def test_returned_tickets_go_under_the_deck_in_the_chosen_order():
    # the returning player chooses; both orders are offered, and the first
    # one listed goes under the deck first, so it ends up above the other.
    game = new_game("usa", 2, seed=9)
    skip_setup(game)
    game.apply(DrawTickets())
    x, y, z = ticket_ids(game, game.state.pending[0])
    offered = {a.returned for a in game.legal_actions() if a.tickets == (x,)}
    assert offered == {(y, z), (z, y)}
    game.apply(KeepTickets((x,), (z, y)))
    deck = regular_deck(game)
    assert deck[:2] == [y, z]  # the list's start is the bottom: z is drawn before y


def test_with_fewer_than_3_tickets_left_the_draw_takes_what_is_left(game):
    leave_tickets_in_deck(game, 2)
    game.apply(DrawTickets())
    assert len(game.state.pending[0]) == 2
    assert game.state.ticket_decks["regular"] == []
    assert {len(a.tickets) for a in game.legal_actions()} == {1, 2}


def test_the_last_single_ticket_must_be_kept(game):
    leave_tickets_in_deck(game, 1)
    game.apply(DrawTickets())
    assert [(len(a.tickets), len(a.returned)) for a in game.legal_actions()] == [(1, 0)]


def test_with_an_empty_ticket_deck_tickets_cannot_be_drawn(game):
    #
    leave_tickets_in_deck(game, 0)
    assert DrawTickets() not in game.legal_actions()
    before = game.state.to_dict()
    with pytest.raises(IllegalAction, match="ticket deck is empty"):
        game.apply(DrawTickets())
    assert game.state.to_dict() == before


def test_earlier_tickets_cannot_be_returned_in_a_later_draw(game):
    old = ticket_ids(game, game.state.tickets[0])[0]
    game.apply(DrawTickets())
    assert all(old not in a.returned and old not in a.tickets for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="exactly the tickets you drew"):
        game.apply(KeepTickets(tuple(THREE), (old,)))
    assert old in ticket_ids(game, game.state.tickets[0])


def test_a_ticket_that_is_already_complete_may_be_kept(game):
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 0, "el-paso-santa-fe")
    game.apply(DrawTickets())
    events = game.apply(KeepTickets(("denver-el-paso",), ("kansas-city-houston", "boston-miami")))
    assert "denver-el-paso" in game.completed_tickets(0)
    assert any(e.kind == "ticket_completed" for e in events)


def test_tickets_may_be_drawn_before_the_first_ones_are_complete(game):
    assert game.completed_tickets(0) == []
    assert DrawTickets() in game.legal_actions()


def _complete_a_ticket_by_a_claim(game):
    """Seat 0 keeps Denver-El Paso, then claims the route that completes it."""
    game.apply(DrawTickets())
    game.apply(KeepTickets(("denver-el-paso",), ("kansas-city-houston", "boston-miami")))
    game.apply(DrawTickets())
    game.apply(game.legal_actions()[0])
    give_route(game, 0, "denver-santa-fe")
    set_hand(game, 0, locomotive=2)
    return game.apply(ClaimRoute("el-paso-santa-fe", (("locomotive", 2),)))


def test_completing_a_ticket_with_a_claim_is_told_to_its_owner(game):
    events = _complete_a_ticket_by_a_claim(game)
    done = [e.visible_to(0) for e in events if e.kind == "ticket_completed"]
    assert [e.data.get("ticket") for e in done] == ["denver-el-paso"]


def test_other_seats_do_not_learn_that_a_ticket_was_completed(game):
    events = _complete_a_ticket_by_a_claim(game)
    seen = [e.visible_to(1) for e in events]
    assert not any(e is not None and e.kind == "ticket_completed" for e in seen)
