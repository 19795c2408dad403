"""The board scene driven like a player: real mouse and key events, headless."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.ui.boardkit import post_click, post_key, run_until
from ttr_desktop.rules import Phase
from ttr_desktop.ui.app import App
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import (
    HandOverOverlay, PaymentOverlay, TicketChoiceOverlay,
)
from ttr_desktop.ui.session import GameSession, SeatConfig


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def start(app, seats, variant="usa", seed=3) -> BoardScene:
    session = GameSession.new(variant, seats, seed=seed)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def keep_tickets_by_clicking(app) -> None:
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    post_click(app, overlay.ok.rect.center)


def human_vs_bot(app, **kw) -> BoardScene:
    return start(app, [SeatConfig("Ann", "human", color="red"),
                       SeatConfig("Bot", "bot", "greedy", "blue")], **kw)


def wait_for_ann(app, board) -> None:
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase is Phase.TURN)


def give_cards(board, seat, **cards) -> None:
    g = board.game
    for name, n in cards.items():
        g.state.hands[seat][g.board.card_index[name]] = n
    g._version += 1


def test_starting_tickets_are_kept_by_clicking_the_button(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    assert len(board.game.state.tickets[0]) == 3
    wait_for_ann(app, board)


def test_a_ticket_clicked_in_the_chooser_is_returned(app):
    board = human_vs_bot(app)
    overlay = app.top
    post_click(app, overlay.cards[0].center)   # return the first ticket
    first = overlay.pending[0].id
    post_click(app, overlay.ok.rect.center)
    kept = [board.game.board.ticket_ids[t] for t in board.game.state.tickets[0]]
    assert first not in kept and len(kept) == 2


def test_claim_a_route_by_clicking_its_polyline(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    route = "chicago-duluth"  # 3 red
    give_cards(board, 0, red=3, locomotive=0)
    x, y = board.map_view.space_centers(route)[1]
    post_click(app, (int(x), int(y)))
    assert board.game.state.owner[board.game.board.route_index[route]] == 0
    assert board.game.state.hands[0][board.game.board.card_index["red"]] == 0


def test_several_payments_open_the_payment_choice(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=3, locomotive=2)
    x, y = board.map_view.space_centers("chicago-duluth")[0]
    post_click(app, (int(x), int(y)))
    overlay = app.top
    assert isinstance(overlay, PaymentOverlay)
    assert len(overlay.actions) >= 3
    post_click(app, overlay.rows[0].center)
    assert board.game.state.owner[board.game.board.route_index["chicago-duluth"]] == 0


def test_an_impossible_claim_says_why(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=1, locomotive=0)
    x, y = board.map_view.space_centers("chicago-duluth")[0]
    post_click(app, (int(x), int(y)))
    assert board.game.state.owner[board.game.board.route_index["chicago-duluth"]] == -1
    assert any("Chicago" in t.message and "red" in t.message for t in app.toasts)
    assert "error" in app.sound.played


def test_hover_tooltip_tells_whether_the_route_can_be_paid(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=3, locomotive=0)
    x, y = board.map_view.space_centers("chicago-duluth")[1]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(x), int(y)), rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 60)
    lines = [text for text, _, _ in board.tooltip_lines()]
    assert lines[0].startswith("Chicago") and "3 spaces" in lines[1]
    assert any("Click to claim" in t for t in lines)


def test_draw_two_cards_from_the_deck_by_clicking(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    before = sum(board.game.state.hands[0])
    turn = board.game.state.turn
    post_click(app, board.lay.deck.center)
    assert board.game.phase is Phase.SECOND_CARD
    post_click(app, board.lay.deck.center, frames=0)
    assert sum(board.game.state.hands[0]) == before + 2
    assert board.game.state.turn == turn + 1 and board.game.current_seat == 1


def test_second_card_face_up_locomotive_is_refused_and_explained(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_click(app, board.lay.deck.center)
    g = board.game
    g.state.face_up[2] = g.board.card_index["locomotive"]
    g._version += 1
    post_click(app, board.lay.face_up[2].center)
    assert g.phase is Phase.SECOND_CARD
    assert any("locomotive" in t.message for t in app.toasts)


def test_keys_d_and_t(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_key(app, pygame.K_d)
    assert board.game.phase is Phase.SECOND_CARD
    post_key(app, pygame.K_d)
    wait_for_ann(app, board)
    post_key(app, pygame.K_t)
    assert board.game.phase is Phase.KEEP_TICKETS
    assert isinstance(app.top, TicketChoiceOverlay)
    keep_tickets_by_clicking(app)
    assert len(board.game.state.tickets[0]) == 6


def test_ctrl_z_takes_back_a_claim_but_not_a_draw(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=3, locomotive=0)
    board.session.undo_stack.clear()
    x, y = board.map_view.space_centers("chicago-duluth")[1]
    post_click(app, (int(x), int(y)), frames=1)
    rid = board.game.board.route_index["chicago-duluth"]
    assert board.game.state.owner[rid] == 0
    post_key(app, pygame.K_z, pygame.KMOD_CTRL, frames=1)
    assert board.game.state.owner[rid] == -1
    assert board.game.current_seat == 0
    post_click(app, board.lay.deck.center, frames=1)      # a blind draw reveals a card
    post_key(app, pygame.K_z, pygame.KMOD_CTRL, frames=1)
    assert board.game.phase is Phase.SECOND_CARD
    assert any("Nothing to take back" in t.message for t in app.toasts)


def test_hot_seat_hides_hands_until_the_next_player_clicks(app):
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bea", "human", color="blue")])
    assert isinstance(app.top, HandOverOverlay)
    assert board.viewer is None
    post_click(app, app.top.buttons[0].rect.center)
    assert board.viewer == 0
    keep_tickets_by_clicking(app)
    app.step(1 / 60)
    assert isinstance(app.top, HandOverOverlay) and app.top.seat == 1
    assert board.viewer is None                      # Ann's hand is hidden now
    data = board._view_data()
    assert "hand" not in data and "tickets" not in data
    post_click(app, app.top.buttons[0].rect.center)
    assert board.viewer == 1


def test_autosave_after_every_turn_and_continue_resumes_it(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_click(app, board.lay.deck.center)
    post_click(app, board.lay.deck.center)
    wait_for_ann(app, board)
    board.session.wait_for_autosave()
    path = app.paths.autosave_file
    resumed = GameSession.load(path)
    assert resumed.game.state.to_dict() == board.game.state.to_dict()
    assert [s.name for s in resumed.seats] == ["Ann", "Bot"]
    assert resumed.seats[1].is_bot


def test_two_bots_play_a_whole_game_to_the_scoring_scene(app):
    board = start(app, [SeatConfig("B1", "bot", "greedy", "red"),
                        SeatConfig("B2", "bot", "random", "blue")], seed=11)
    assert run_until(app, lambda: board.game.is_over, seconds=3000, dt=0.05)
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    assert run_until(app, lambda: isinstance(app.top, ScoringScene), seconds=30)


@pytest.mark.parametrize("map_id", ["usa", "europe"])
@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1920, 1080)])
def test_every_route_has_a_clickable_spot_that_no_other_route_covers(map_id, size):
    from ttr_desktop.maps import get_map
    from ttr_desktop.ui import style
    pygame.init()
    style.reset_caches()
    from ttr_desktop.ui.map_view import MapView
    from ttr_desktop.ui.scenes.board_panels import compute_layout
    lay = compute_layout(size, 4)
    view = MapView(get_map(map_id), lay.map)
    for rid in view.route_ids:
        spots = [(round(x), round(y)) for x, y in view.space_centers(rid)]
        assert any(view.route_at(p) == rid for p in spots), rid
