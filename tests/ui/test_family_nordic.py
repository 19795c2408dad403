"""Nordic Countries in the window, driven like a player (headless, real events): the setup
screen offers it with its description, a game started there plays the Nordic board, a
ferry is claimed with any 3 cards for its locomotive through the payment chooser, and the
rules page has the family."""

from __future__ import annotations

import pygame

from tests.ui.boardkit import post_click, post_key, run_until
from tests.ui.conftest import click, find_button, key, step
from ttr_desktop.rules import Phase
from ttr_desktop.ui.families import NOTES
from ttr_desktop.ui.scenes.board_overlays import ActionChooser, TicketChoiceOverlay
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.rules import load_rules_text
from ttr_desktop.ui.session import VARIANT_CHOICES
from tests.helpers import set_hand  # noqa: E402

FERRY = "helsinki-tallinn"          # pink, 2 spaces, 1 locomotive


def start_from_setup(app, board_cls):
    app.push(MenuScene(app))
    step(app, 2)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, setup.variant_menu.rect.center)
    click(app, find_button(setup, "Nordic Countries"))
    assert setup.variant_key == "nordic"
    click(app, find_button(setup, "Start game"))
    board = app.find(board_cls)
    assert run_until(app, lambda: isinstance(app.top, TicketChoiceOverlay), 10)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    return board


def give_cards(board, seat, **cards) -> None:
    """Give ``seat`` exactly these cards (taken from the deck: nothing is made up)."""
    set_hand(board.game, seat, **cards)


def test_setup_offers_nordic_countries_with_its_description():
    assert VARIANT_CHOICES["nordic"] == ("nordic", {}, "Nordic Countries")
    assert "any 3 cards" in NOTES["nordic"] and "2 or 3 players" in NOTES["nordic"]


def test_a_game_from_the_setup_screen_claims_a_ferry_with_three_cards_for_the_locomotive(
        app, board_cls):
    board = start_from_setup(app, board_cls)
    game = board.game
    assert game.variant == "nordic" and game.map.id == "nordic"
    assert game.state.trains[0] == 40
    seat = game.current_seat
    give_cards(board, seat, pink=1, red=2, blue=1)
    x, y = board.map_view.space_centers(FERRY)[0]
    post_click(app, (int(x), int(y)))
    chooser = app.top
    assert isinstance(chooser, ActionChooser)
    assert [a.cards for a in chooser.actions] == [(("blue", 1), ("pink", 1), ("red", 2))]
    post_key(app, pygame.K_RETURN)
    assert game.state.owner[game.board.route_index[FERRY]] == seat
    assert sum(game.state.hands[seat]) == 0


def test_the_rules_page_has_the_nordic_rules():
    text = load_rules_text()
    page = text[text.index("## Nordic Countries"):]
    for words in ("Locomotives pay only for ferries and tunnels", "**Any 3 cards**",
                  "**any 4 cards**", "**never replaced**", "**leave the game**",
                  "+10", "**no longest-path bonus**"):
        assert words in page
    assert text.index("## Nordic Countries") < text.index("## Keys")
