"""Starting a game: building the board takes a moment (map layout, city names). The
window says so at once, and keys pressed meanwhile do not act on the board they were
not aimed at (a second Return must not keep every starting ticket unseen)."""

from __future__ import annotations

import pygame

from tests.ui.conftest import step
from tests.ui.test_setup_quick_input import open_setup, post
from ttr_desktop.ui import map_view as map_view_module
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
from ttr_desktop.ui.scenes.setup import SEED_FIXED


def press_return() -> None:
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)


def open_setup_you_first(app):
    """The setup screen with you (the first seat) to choose tickets first, seed 11."""
    setup = open_setup(app)
    assert not setup.seats[0].kind.startswith("bot")
    setup.first_player = 0
    setup.seed_mode, setup.seed_text = SEED_FIXED, "11"
    return setup


def still_choosing_tickets(app) -> None:
    board = app.find(BoardScene)
    assert board is not None, "the game did not start"
    assert isinstance(app.top, TicketChoiceOverlay), \
        f"the starting tickets were decided unseen; top is {type(app.top).__name__}"
    assert board.game.state.turn == 0


def test_a_return_pressed_while_the_board_is_built_does_not_keep_the_tickets(app, monkeypatch):
    setup = open_setup_you_first(app)
    assert setup.variant_key == "usa"
    seen = []
    build = map_view_module.MapView.__init__

    def slow_build(self, *args, **kwargs):
        seen.append(app.screen.copy())          # what the window shows while it builds
        press_return()                          # the impatient second Return
        build(self, *args, **kwargs)

    monkeypatch.setattr(map_view_module.MapView, "__init__", slow_build)
    before = app.screen.copy()
    press_return()
    step(app, 6)
    still_choosing_tickets(app)
    # The window said it was working before the heavy part began.
    assert seen and app.busy_note_shown == "Setting up the board…"
    centre = pygame.Rect(0, 0, 300, 60)
    centre.center = app.screen.get_rect().center
    assert any(seen[0].get_at(p) != before.get_at(p)
               for p in ((x, y) for x in range(centre.left, centre.right, 7)
                         for y in range(centre.top, centre.bottom, 7))), \
        "nothing on screen said the board was being set up"


def test_two_returns_in_one_frame_start_the_game_but_do_not_keep_the_tickets(app):
    open_setup_you_first(app)
    press_return()
    press_return()
    step(app, 6)
    still_choosing_tickets(app)
