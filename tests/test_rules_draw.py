"""rules.md §1.4 (and §8.1–§8.3, §8.5): drawing train cards."""

import pytest

from tests.helpers import (
    LOCO, empty_deck_and_discard, event_kinds, face_up, face_up_picks, hand,
    leave_tickets_in_deck, set_face_up, set_hand, stack_deck, started,
)
from ttr_desktop.rules import DrawBlind, DrawFaceUp, IllegalAction, Pass
from ttr_desktop.rules.state import Phase

COLOURS5 = ["red", "blue", "green", "yellow", "black"]


@pytest.fixture
def game():
    g = started("usa", 2, seed=21)
    set_hand(g, 0)
    set_face_up(g, COLOURS5)
    return g


def pick(game, slot):
    """The face-up pick of ``slot`` as the display shows it now."""
    return DrawFaceUp(slot, face_up(game)[slot])


def face_up_cards_offered(game):
    return sorted(a.card for a in face_up_picks(game))


# §1.4.1 Basic draw -------------------------------------------------------
def test_a_draw_is_two_cards_taken_one_at_a_time(game):
    stack_deck(game, ["white", "orange"])
    game.apply(DrawBlind())
    assert game.phase == Phase.SECOND_CARD and game.current_seat == 0
    assert hand(game, 0) == {"white": 1}
    game.apply(DrawBlind())
    assert hand(game, 0) == {"white": 1, "orange": 1}
    assert game.phase == Phase.TURN and game.current_seat == 1


def test_each_pick_may_be_blind_or_face_up(game):
    stack_deck(game, ["white", "orange"])
    game.apply(pick(game, 1))
    game.apply(DrawBlind())
    assert hand(game, 0) == {"blue": 1, "orange": 1}
    assert game.current_seat == 1


def test_a_taken_face_up_card_is_replaced_before_the_second_pick(game):
    stack_deck(game, ["white"])
    game.apply(pick(game, 0))
    assert face_up(game) == ["white", "blue", "green", "yellow", "black"]
    assert DrawFaceUp(0, "white") in game.legal_actions()


def test_the_second_pick_offers_every_card_but_a_face_up_locomotive(game):
    set_face_up(game, [LOCO, "red", "blue", "green", "yellow"])
    game.apply(DrawBlind())
    assert face_up_cards_offered(game) == ["blue", "green", "red", "yellow"]
    assert DrawBlind() in game.legal_actions()
    assert {a.kind for a in game.legal_actions()} == {"draw_blind", "draw_face_up"}


# §1.4.2 Locomotives ------------------------------------------------------
def test_a_face_up_locomotive_as_the_first_pick_is_the_only_card(game):
    set_face_up(game, [LOCO, "red", "blue", "green", "yellow"])
    game.apply(DrawFaceUp(0, LOCO))
    assert hand(game, 0) == {LOCO: 1}
    assert game.phase == Phase.TURN and game.current_seat == 1


def test_a_face_up_locomotive_already_showing_is_never_a_second_card(game):
    set_face_up(game, [LOCO, "red", "blue", "green", "yellow"])
    game.apply(DrawFaceUp(1, "red"))
    assert DrawFaceUp(0, LOCO) not in game.legal_actions()
    before = game.state.to_dict()
    with pytest.raises(IllegalAction, match="first and only card"):
        game.apply(DrawFaceUp(0, LOCO))
    assert game.state.to_dict() == before


def test_a_locomotive_revealed_as_the_replacement_is_never_a_second_card(game):
    stack_deck(game, [LOCO])
    game.apply(DrawFaceUp(0, "red"))
    assert face_up(game)[0] == LOCO
    assert game.phase == Phase.SECOND_CARD
    assert LOCO not in face_up_cards_offered(game)


def test_a_blind_locomotive_is_a_normal_first_card(game):
    stack_deck(game, [LOCO, "red"])
    game.apply(DrawBlind())
    assert game.phase == Phase.SECOND_CARD and game.current_seat == 0
    game.apply(DrawBlind())
    assert hand(game, 0) == {LOCO: 1, "red": 1}


def test_a_blind_locomotive_may_be_the_second_card(game):
    stack_deck(game, ["red", LOCO])
    game.apply(DrawBlind())
    game.apply(DrawBlind())
    assert hand(game, 0) == {LOCO: 1, "red": 1}
    assert game.current_seat == 1


# §1.4.3 Three-locomotive refresh ------------------------------------------
def test_three_face_up_locomotives_after_a_pick_are_refreshed(game):
    set_face_up(game, [LOCO, LOCO, "red", "blue", "green"])
    stack_deck(game, ["yellow", LOCO, "black", "white", "orange", "pink", "red"])
    game.apply(DrawBlind())                      # yellow
    events = game.apply(DrawFaceUp(2, "red"))    # the replacement is a third locomotive
    assert "face_up_refreshed" in event_kinds(events)
    assert face_up(game) == ["black", "white", "orange", "pink", "red"]
    assert sorted(game.board.card_names[c] for c in game.state.discard) == sorted(
        [LOCO, LOCO, LOCO, "blue", "green"])
    assert game.current_seat == 1


def test_three_locomotives_in_the_middle_of_a_draw_refresh_then_the_second_pick_is_not_a_locomotive(
        game):
    set_face_up(game, [LOCO, LOCO, "red", "blue", "green"])
    stack_deck(game, [LOCO, LOCO, "black", "white", "orange", "pink"])
    events = game.apply(DrawFaceUp(2, "red"))
    assert "face_up_refreshed" in event_kinds(events)
    assert face_up(game) == [LOCO, "black", "white", "orange", "pink"]
    assert game.phase == Phase.SECOND_CARD and game.current_seat == 0
    assert face_up_cards_offered(game) == ["black", "orange", "pink", "white"]


def test_the_refresh_is_checked_again_after_each_refresh(game):
    set_face_up(game, [LOCO, LOCO, "red", "blue", "green"])
    stack_deck(game, [LOCO,
                      LOCO, LOCO, LOCO, "black", "white",
                      "orange", "pink", "red", "blue", "green"])
    events = game.apply(DrawFaceUp(2, "red"))
    assert event_kinds(events).count("face_up_refreshed") == 2
    assert face_up(game) == ["orange", "pink", "red", "blue", "green"]


def test_the_refresh_stops_after_three_in_a_row(game):
    # max_consecutive_refreshes = 3; the display is then left as it is.
    set_face_up(game, [LOCO, LOCO, "red", "blue", "green"])
    stack_deck(game, [LOCO,
                      LOCO, LOCO, LOCO, "black", "white",
                      LOCO, LOCO, LOCO, "orange", "pink",
                      LOCO, LOCO, LOCO, "yellow", "red",
                      "white", "white", "white", "white", "white"])
    events = game.apply(DrawFaceUp(2, "red"))
    assert event_kinds(events).count("face_up_refreshed") == 3
    assert face_up(game) == [LOCO, LOCO, LOCO, "yellow", "red"]
    assert face_up_cards_offered(game) == ["red", "yellow"]


def test_no_refresh_when_the_deck_and_discard_are_empty(game):
    # refresh only if deck + discard > 0.
    set_face_up(game, [LOCO, LOCO, LOCO, "red", "blue"])
    empty_deck_and_discard(game)
    events = game.apply(DrawFaceUp(3, "red"))
    assert "face_up_refreshed" not in event_kinds(events)
    assert face_up(game) == [LOCO, LOCO, LOCO, None, "blue"]
    assert face_up_cards_offered(game) == ["blue"]


# §1.4.4 Deck exhaustion and reshuffle -------------------------------------
def test_the_discard_is_reshuffled_into_the_deck_when_a_card_must_be_drawn(game):
    empty_deck_and_discard(game, keep_in_discard=["red", "red", "red"])
    events = game.apply(DrawBlind())
    assert "deck_reshuffled" in event_kinds(events)
    assert hand(game, 0) == {"red": 1}
    assert len(game.state.deck) == 2 and game.state.discard == []


def test_the_discard_is_reshuffled_only_on_demand(game):
    # taking the last deck card does not reshuffle yet.
    empty_deck_and_discard(game, keep_in_deck=["white", "orange"], keep_in_discard=["red"])
    game.apply(DrawBlind())
    events = game.apply(DrawBlind())
    assert "deck_reshuffled" not in event_kinds(events)
    assert game.state.deck == [] and len(game.state.discard) == 1
    assert hand(game, 0) == {"white": 1, "orange": 1}


def test_a_face_up_replacement_reshuffles_the_discard_on_demand(game):
    empty_deck_and_discard(game, keep_in_discard=["pink"])
    events = game.apply(DrawFaceUp(0, "red"))
    assert "deck_reshuffled" in event_kinds(events)
    assert face_up(game)[0] == "pink"


def test_with_deck_and_discard_empty_face_up_cards_may_still_be_taken(game):
    # the draw is allowed, limited to the display; no blind draw.
    empty_deck_and_discard(game)
    actions = game.legal_actions()
    assert DrawBlind() not in actions
    assert face_up_cards_offered(game) == sorted(COLOURS5)
    game.apply(DrawFaceUp(0, "red"))
    assert face_up(game)[0] is None
    assert game.phase == Phase.SECOND_CARD
    assert DrawBlind() not in game.legal_actions()
    game.apply(DrawFaceUp(1, "blue"))
    assert hand(game, 0) == {"red": 1, "blue": 1}


def test_a_blind_draw_from_an_empty_deck_and_discard_is_illegal(game):
    empty_deck_and_discard(game)
    with pytest.raises(IllegalAction, match="empty"):
        game.apply(DrawBlind())


def test_with_no_card_anywhere_train_cards_cannot_be_drawn(game):
    set_face_up(game, [None] * 5)
    empty_deck_and_discard(game)
    assert not {"draw_blind", "draw_face_up"} & {a.kind for a in game.legal_actions()}


def test_the_draw_ends_after_one_card_when_only_locomotives_are_left_face_up(game):
    set_face_up(game, [LOCO, LOCO, "red", None, None])
    empty_deck_and_discard(game)
    game.apply(DrawFaceUp(2, "red"))
    assert hand(game, 0) == {"red": 1}
    assert game.phase == Phase.TURN and game.current_seat == 1


def test_the_draw_ends_after_one_card_when_no_card_is_left(game):
    set_face_up(game, ["red", None, None, None, None])
    empty_deck_and_discard(game)
    game.apply(DrawFaceUp(0, "red"))
    assert game.current_seat == 1


def test_empty_display_slots_refill_when_cards_return_to_the_discard(game):
    set_face_up(game, ["red", None, None, None, None])
    set_hand(game, 0, blue=2)
    empty_deck_and_discard(game)
    game.apply(next(a for a in game.legal_actions()
                    if a.kind == "claim_route" and a.route_id == "kansas-city-saint-louis-1"))
    assert sorted(c for c in face_up(game) if c) == ["blue", "blue", "red"]
    assert game.total_cards() == 110


# §1.3 / A-01 ---------------------------------------------------------------------
def test_a_seat_with_no_possible_action_passes(game):
    set_face_up(game, [None] * 5)
    empty_deck_and_discard(game)
    leave_tickets_in_deck(game, 0)
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.current_seat == 1


def test_passing_is_illegal_while_another_action_is_possible(game):
    with pytest.raises(IllegalAction, match="only pass"):
        game.apply(Pass())
