"""USA 1910 in the window: the setup screen offers its three games with their descriptions,
a game started there deals its own tickets on the USA board, and the rules page has it."""

from __future__ import annotations

import pygame
import pytest

from tests.ui.conftest import click, find_button, key, step
from ttr_desktop.maps import get_map
from ttr_desktop.ui.families import NOTES
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.rules import load_rules_text
from ttr_desktop.ui.session import VARIANT_CHOICES

GAMES = [("usa-1910", "USA 1910", ("usa-1910",), 3),
         ("usa-1910-mega", "USA 1910: Mega Game", ("usa-1910", "usa-1910-mega"), 5),
         ("usa-1910-big-cities", "USA 1910: Big Cities", ("usa-bigcities",), 4)]


@pytest.mark.parametrize("key_, label, sets, dealt", GAMES)
def test_setup_offers_the_game_and_starts_it_with_its_tickets(app, board_cls, key_, label, sets,
                                                              dealt):
    app.push(MenuScene(app))
    step(app, 2)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, setup.variant_menu.rect.center)
    click(app, find_button(setup, label))
    assert setup.variant_key == key_ and VARIANT_CHOICES[key_] == (key_, {}, label)
    assert "USA map" in NOTES[key_]
    click(app, find_button(setup, "Start game"))
    game = app.find(board_cls).session.game
    assert game.variant == key_ and game.map is get_map("usa", sets)
    assert len(game.state.pending[game.current_seat]) == dealt


def test_the_rules_page_has_the_three_games():
    text = load_rules_text()
    assert "## USA 1910" in text
    page = text[text.index("## USA 1910"):]
    for words in ("Globetrotter:** +15", "Mega Game", "Big Cities", "| 3, keep 2+ | 3, keep 1+ |",
                  "| 5, keep 3+ | 4, keep 1+ |", "| 4, keep 2+ | 4, keep 1+ | none |"):
        assert words in page
    assert text.index("## USA 1910") < text.index("## Keys")
