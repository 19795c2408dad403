"""rules.md §1.7 (and §8.10): the end-game trigger and the final round."""

import pytest

from tests.helpers import event_kinds, set_hand, set_trains, started
from ttr_desktop.rules import ClaimRoute, DrawBlind, DrawTickets, IllegalAction
from ttr_desktop.rules.state import Phase

RED_2 = ClaimRoute("boston-new-york-1", (("red", 2),))


def draw_two(game):
    """A whole turn: two blind cards."""
    seat = game.current_seat
    events = game.apply(DrawBlind()) + (game.apply(DrawBlind()) if not game.is_over
                                        and game.phase == Phase.SECOND_CARD else [])
    return seat, events


def draw_tickets_turn(game):
    seat = game.current_seat
    events = game.apply(DrawTickets())
    events += game.apply(game.legal_actions()[0])
    return seat, events


@pytest.mark.parametrize("trains_before,trains_after", [(4, 2), (3, 1), (2, 0)])
def test_the_final_round_starts_when_a_turn_ends_with_2_or_fewer_trains(trains_before,
                                                                        trains_after):
    game = started("usa", 3)
    set_trains(game, 0, trains_before)
    set_hand(game, 0, red=2)
    events = game.apply(RED_2)
    assert game.state.trains[0] == trains_after
    assert "final_round" in event_kinds(events)
    assert game.final_round and not game.is_over


def test_3_trains_left_do_not_start_the_final_round():
    game = started("usa", 3)
    set_trains(game, 0, 5)
    set_hand(game, 0, red=2)
    events = game.apply(RED_2)
    assert "final_round" not in event_kinds(events)
    assert not game.final_round


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_seat_including_the_trigger_seat_gets_exactly_one_more_turn(players):
    game = started("usa", players)
    for _ in range(players - 1):                 # seat players-1 will trigger
        draw_two(game)
    trigger = game.current_seat
    set_trains(game, trigger, 4)
    set_hand(game, trigger, red=2)
    game.apply(RED_2)
    last_turns = []
    while not game.is_over:
        seat, _ = draw_tickets_turn(game) if len(last_turns) % 2 else draw_two(game)
        last_turns.append(seat)
    expected = [(trigger + 1 + i) % players for i in range(players)]
    assert last_turns == expected
    assert last_turns[-1] == trigger


def test_only_the_first_trigger_counts():
    game = started("usa", 3)
    set_trains(game, 0, 4)
    set_hand(game, 0, red=2)
    game.apply(RED_2)                            # seat 0 triggers
    set_trains(game, 1, 4)
    set_hand(game, 1, red=3)
    events = game.apply(ClaimRoute("chicago-duluth", (("red", 3),)))
    assert "final_round" not in event_kinds(events)   # seat 1 drops to 1 train
    seats = [draw_two(game)[0] for _ in range(2)]
    assert seats == [2, 0]
    assert game.is_over


def test_the_game_ends_right_after_the_trigger_seats_final_turn():
    game = started("usa", 2)
    set_trains(game, 0, 4)
    set_hand(game, 0, red=2)
    game.apply(RED_2)
    draw_two(game)
    assert not game.is_over
    _, events = draw_two(game)
    assert game.is_over
    assert game.phase == Phase.GAME_OVER
    assert events[-1].kind == "game_over"


def test_no_action_is_legal_once_the_game_is_over():
    game = started("usa", 2)
    set_trains(game, 0, 2)
    draw_two(game)
    draw_two(game)
    draw_two(game)
    assert game.is_over
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply(DrawBlind())
