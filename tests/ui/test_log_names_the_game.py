"""The board's log opens by naming the game being played, as the setup screen listed
it ("A game of USA 1910: Mega Game for …"), not the board it is played on."""

from __future__ import annotations

import pytest

from ttr_desktop.rules import new_game
from ttr_desktop.rules.family import SHIPPED
from ttr_desktop.ui.scenes.board import BoardScene, game_label
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig


def test_the_first_log_line_of_a_usa_1910_mega_game_names_that_game(app):
    seats = [SeatConfig("Ann", "human", "normal", "red"),
             SeatConfig("Bob", "human", "normal", "blue")]
    session = GameSession.new("usa-1910-mega", seats, 4)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    assert board.log_lines[0][0] == "A game of USA 1910: Mega Game for Ann, Bob."


# The shipped games only: other tests register toy variants the setup screen never lists.
@pytest.mark.parametrize("variant", [g.id for f in SHIPPED for g in f.each_game()])
def test_every_game_is_named_as_the_setup_screen_lists_it(variant):
    listed = [label for v, options, label in VARIANT_CHOICES.values()
              if v == variant and not options]
    game = new_game(variant, 2 if variant != "marklin" else 3, seed=1)
    assert game_label(game) == listed[0]
