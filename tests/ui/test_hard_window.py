"""The Hard bot in the window: offered at setup, thinking on a worker, and the H hint."""

from __future__ import annotations

import time
from dataclasses import replace

import pygame
import pytest

from tests.ui.boardkit import post_click, post_key, run_until
from ttr_desktop.persistence.settings import HARD_BUDGETS, Settings
from ttr_desktop.rules import Phase
from ttr_desktop.ui.app import App
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
from ttr_desktop.ui.session import BOT_LEVELS, GameSession, SeatConfig


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant",
                                   hard_budget=0.5)
    yield application
    application.shutdown()


def start(app, seats, seed=3) -> BoardScene:
    session = GameSession.new("usa", seats, seed=seed, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def test_setup_offers_easy_normal_and_hard():
    labels = list(BOT_LEVELS.values())
    assert labels.index("Easy") < labels.index("Normal") < labels.index("Hard")


def test_the_hard_bots_thinking_time_is_a_setting():
    assert Settings().hard_budget == 1.0
    assert Settings(hard_budget=2.0).validated().hard_budget == 2.0
    with pytest.raises(ValueError, match="hard_budget"):
        Settings(hard_budget=0.3).validated()
    assert 1.0 in HARD_BUDGETS


def test_a_hard_bot_thinks_on_a_worker_while_the_window_keeps_drawing(app):
    board = start(app, [SeatConfig("Hal", "bot", "hard", "blue"),
                        SeatConfig("Ann", "human", color="red")])
    assert board.bots[0].budget == 0.5
    # The window keeps stepping frames while Hal thinks; his move lands by itself.
    frames = 0
    started = time.perf_counter()
    while board.game.current_seat == 0 and time.perf_counter() - started < 30:
        app.step(1 / 60)
        frames += 1
    assert board.game.current_seat != 0 or board.game.phase != Phase.CHOOSE_INITIAL_TICKETS
    assert frames > 5   # frames were drawn while the bot thought


def test_h_gives_a_hint_from_the_players_own_view(app):
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bot", "bot", "greedy", "blue")])
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    post_click(app, overlay.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    version = board.game.version
    post_key(app, pygame.K_h)
    assert board.hint_runner is not None
    board.hint_runner.join(10)
    app.step(1 / 60)
    hints = [t.message for t in app.toasts if t.message.startswith("Hint: ")]
    assert hints and ": " in hints[0][len("Hint: "):]
    assert board.game.version == version   # a hint never plays the move


def test_h_on_the_ticket_choice_names_the_tickets_to_keep_and_to_return(app):
    # The starting tickets are a decision like any other: H asks the Hard bot which to keep.
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bot", "bot", "greedy", "blue")])
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    post_key(app, pygame.K_h)
    assert board.hint_runner is not None
    board.hint_runner.join(10)
    app.step(1 / 60)
    assert app.top is overlay                  # the choice stays open; nothing is played
    hints = [t.message for t in app.toasts if t.message.startswith("Hint: keep ")]
    assert hints, [t.message for t in app.toasts]
    names = board.game.map.place_name
    pending = board.game.view(0).pending_tickets
    kept = [t for t in pending if f"{names(t.a)} – {names(t.b)}" in hints[0]]
    assert len(kept) == len(pending)           # every ticket is named, kept or returned
    assert board.game.phase == Phase.CHOOSE_INITIAL_TICKETS


def test_a_keep_hint_names_every_ticket_it_keeps_and_returns():
    from ttr_desktop.rules import new_game
    from ttr_desktop.ui.log_text import keep_words

    game = new_game("usa", ["Ann", "Bob"], seed=4)
    pending = game.view(0).pending_tickets
    name = [f"{game.map.place_name(t.a)} – {game.map.place_name(t.b)}" for t in pending]
    assert keep_words(game, pending, [t.id for t in pending]) == \
        f"keep all 3: {name[0]}, {name[1]} and {name[2]}"
    assert keep_words(game, pending, [pending[0].id, pending[2].id]) == \
        f"keep {name[0]} and {name[2]}, return {name[1]}"


def test_the_hint_goes_once_the_player_has_acted(app):
    # A hint is about one position: after the person's move it would point at a move
    # that may no longer be there.
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bot", "bot", "greedy", "blue")])
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    post_key(app, pygame.K_h)
    board.hint_runner.join(10)
    app.step(1 / 60)
    assert any(t.message.startswith("Hint: ") for t in app.toasts)
    post_key(app, pygame.K_d)                      # draws from the deck
    assert not any(t.message.startswith("Hint: ") for t in app.toasts)


def test_h_on_someone_elses_turn_explains_itself(app):
    board = start(app, [SeatConfig("Bot", "bot", "greedy", "blue"),
                        SeatConfig("Ann", "human", color="red")])
    board.ask_hint()
    assert any("your own turn" in t.message for t in app.toasts)


def test_a_hand_edited_thinking_time_is_named_and_nothing_else_is_lost(tmp_path):
    from ttr_desktop.persistence.settings import load_settings, save_settings

    path = tmp_path / "settings.toml"
    save_settings(Settings(hard_budget=2.0, volume=0.3), path)
    settings, message = load_settings(path)
    assert message is None and settings.hard_budget == 2.0 and settings.volume == 0.3
    path.write_text(path.read_text().replace("hard_budget = 2.0", "hard_budget = 600.0"))
    settings, message = load_settings(path)
    assert settings == Settings(volume=0.3)
    assert "hard_budget" in message and "settings.toml.damaged-" in message
    kept = list(tmp_path.glob("settings.toml.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text().count("hard_budget = 600.0") == 1
    assert load_settings(path) == (Settings(volume=0.3), None)   # the next start is quiet
