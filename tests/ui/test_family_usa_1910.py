"""USA 1910 in the window, driven like a player: the setup screen lists the family once,
with its three games (each with a line on what differs) and Stations on or off; every
combination starts its own game on the USA board; the choice is remembered, saved and
loaded again; two people play it at one screen; the Rules button opens its rules."""

from __future__ import annotations

import re

import pygame
import pytest

from tests.ui.conftest import click, find_button, key, step
from ttr_desktop.maps import get_map
from ttr_desktop.ui import style
from ttr_desktop.ui.families import NOTES
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.rules import RulesScene, load_rules_text
from ttr_desktop.ui.scenes.setup import SetupScene
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig

#: (game, its name in the setup screen, ticket sets, tickets dealt, keep at least, line)
GAMES = [("usa-1910", "1910", ("usa-1910",), 3, 2, "Deal 3, keep 2 · Globetrotter +15"),
         ("usa-1910-mega", "Mega Game", ("usa-1910", "usa-1910-mega"), 5, 3,
          "Deal 5, keep 3 · Globetrotter, longest path"),
         ("usa-1910-big-cities", "Big Cities", ("usa-bigcities",), 4, 2,
          "Deal 4, keep 2 · no bonus")]
TITLES = {"usa-1910": "USA 1910", "usa-1910-mega": "USA 1910: Mega Game",
          "usa-1910-big-cities": "USA 1910: Big Cities"}


def open_setup(app) -> SetupScene:
    app.push(MenuScene(app))
    step(app, 2)
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, SetupScene)
    return app.top


def map_list(app, setup) -> list[str]:
    """Open the map list; the entries it shows."""
    click(app, setup.variant_menu.rect.center)
    step(app, 2)
    listed = setup.variant_menu.current_state.options_selection_list
    return [item["text"] for item in listed.item_list]


def pick_map(app, setup, label: str) -> None:
    map_list(app, setup)
    click(app, find_button(setup, label))


def game_row(setup, variant: str):
    return next(rect for rect, v in setup.game_rects if v == variant).center


def stations_row(setup):
    return next(rect for rect, option in setup.switch_rects if option == "stations").center


def choose(app, setup, variant: str, stations: bool) -> None:
    """USA 1910 from the list, the game's row, and the Stations row when wanted."""
    pick_map(app, setup, "USA 1910")
    click(app, game_row(setup, variant))
    if stations:
        click(app, stations_row(setup))


# The setup screen ----------------------------------------------------------------------
def test_setup_lists_usa_1910_once_with_its_three_games_and_stations(app):
    setup = open_setup(app)
    shown = map_list(app, setup)
    assert shown.count("USA 1910") == 1
    assert not [s for s in shown if "Mega Game" in s or "Big Cities" in s]
    click(app, find_button(setup, "USA 1910"))
    assert setup.variant_key == "usa-1910"            # its first game, stations off
    assert [v for _, v in setup.game_rects] == [g[0] for g in GAMES]
    assert [o for _, o in setup.switch_rects] == ["stations"]
    family = setup.variant_menu.selected_option
    assert "USA 1910" in (family if isinstance(family, str) else family[0])


def test_each_game_says_what_differs_and_every_row_fits_at_1280x720(app):
    from ttr_desktop.ui.families.usa_1910 import GAMES as ROWS, STATIONS
    setup = open_setup(app)
    pick_map(app, setup, "USA 1910")
    assert app.size == (1280, 720)
    assert [(g.variant, g.label, g.line) for g in ROWS] == [(v, n, line)
                                                            for v, n, _, _, _, line in GAMES]
    rects = [r for r, _ in setup.game_rects + setup.switch_rects]
    for rect, words in zip(rects, [*ROWS, STATIONS]):
        assert setup.left.contains(rect) and rect.bottom <= setup.seed_y
        room = rect.right - 6 - (rect.x + 34)
        assert style.text(words.line, 14, style.INK_SOFT).get_width() <= room, words.line
        head = style.text(words.label, 16, style.INK, bold=True).get_width()
        assert head + 8 + style.text(words.aside, 14, style.INK_SOFT).get_width() <= room
    for a, b in zip(rects, rects[1:]):
        assert not a.colliderect(b)
    # The seed's block and the buttons stay inside the window.
    assert setup.seed_entry.rect.bottom < setup.left.bottom
    assert setup.start_button.rect.bottom <= 720


@pytest.mark.parametrize("stations", [False, True], ids=["plain", "stations"])
@pytest.mark.parametrize("variant, name, sets, dealt, keep, line", GAMES,
                         ids=[g[0] for g in GAMES])
def test_every_game_starts_from_setup_with_or_without_stations(app, board_cls, variant, name,
                                                              sets, dealt, keep, line,
                                                              stations):
    setup = open_setup(app)
    choose(app, setup, variant, stations)
    key_ = variant + ("+stations" if stations else "")
    assert setup.variant_key == key_
    assert VARIANT_CHOICES[key_] == (variant, {"stations": True} if stations else {},
                                     TITLES[variant] + (" with Stations" if stations else ""))
    assert NOTES[key_].startswith("The USA map") and ("station" in NOTES[key_]) == stations
    click(app, find_button(setup, "Start game"))
    session = app.find(board_cls).session
    game = session.game
    assert session.variant_key == key_
    assert game.variant == variant and game.map is get_map("usa", sets)
    assert len(game.state.pending[game.current_seat]) == dealt
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert min(len(a.tickets) for a in keeps) == keep
    assert game.options.get("stations", False) is stations
    if stations:                                      # 3 stations each, worth 4 unbuilt
        assert game.view(0).extra["stations_left"] == (3, 3)
        assert [sc.parts["stations"] for sc in game.scores()] == [12, 12]
    else:
        assert "stations_left" not in game.view(0).extra


def test_the_game_and_stations_stay_chosen_across_the_list_and_the_next_setup(app, board_cls):
    setup = open_setup(app)
    choose(app, setup, "usa-1910-mega", stations=True)
    pick_map(app, setup, "Europe")
    assert setup.variant_key == "europe" and not setup.game_rects
    pick_map(app, setup, "USA 1910")                  # back: the same game and Stations
    assert setup.variant_key == "usa-1910-mega+stations"
    click(app, stations_row(setup))                   # Stations off again, same game
    assert setup.variant_key == "usa-1910-mega"
    click(app, stations_row(setup))
    click(app, game_row(setup, "usa-1910-big-cities"))  # another game keeps Stations
    assert setup.variant_key == "usa-1910-big-cities+stations"
    click(app, find_button(setup, "Start game"))
    assert app.find(board_cls).session.game.variant == "usa-1910-big-cities"

    again = app.push(SetupScene(app))                 # the next game's setup remembers it
    step(app, 2)
    assert again.variant_key == "usa-1910-big-cities+stations" and again.remembered
    assert [v for _, v in again.game_rects][2] == "usa-1910-big-cities"
    pick_map(app, again, "Old West")
    pick_map(app, again, "USA 1910")
    assert again.variant_key == "usa-1910-big-cities+stations"


def test_a_saved_game_with_stations_loads_with_its_game_and_stations(app, board_cls):
    setup = open_setup(app)
    choose(app, setup, "usa-1910-big-cities", stations=True)
    click(app, find_button(setup, "Start game"))
    session = app.find(board_cls).session
    game = session.game
    game_keep = next(a for a in game.legal_actions() if a.kind == "keep_tickets")
    session.apply(game_keep)
    path = session.save(app.paths.saves_dir / "Big cities.toml")

    loaded = GameSession.load(path)
    assert loaded.variant_key == "usa-1910-big-cities+stations" and not loaded.load_notes
    assert loaded.game.variant == "usa-1910-big-cities"
    assert loaded.game.options["stations"] is True
    assert loaded.game.view(0).extra["stations_left"] == game.view(0).extra["stations_left"]
    assert loaded.game.state.to_dict() == game.state.to_dict()

    # The load screen names it as the setup screen did.
    from ttr_desktop.ui.scenes.load import LoadOverlay
    app.push(MenuScene(app))
    step(app, 2)
    click(app, find_button(app.top, "Load"))
    overlay = app.top
    assert isinstance(overlay, LoadOverlay)
    row = next(s for s in overlay.saves if s.title == "Big cities")
    assert row.variant == "USA 1910: Big Cities with Stations"


def test_two_people_play_the_mega_game_with_stations_at_one_screen(instant_app):
    from tests.ui.boardkit import post_click, run_until
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.board_overlays import HandOverOverlay, TicketChoiceOverlay

    app = instant_app
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Ben", "human", color="blue")]
    session = GameSession.new("usa-1910-mega+stations", seats, seed=4,
                              autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    for seat in (0, 1):
        assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), 10)
        assert app.top.seat == seat
        post_click(app, app.top.buttons[0].rect.center)        # "I am ..."
        assert run_until(app, lambda: isinstance(app.top, TicketChoiceOverlay), 10)
        assert app.top.seat == seat and len(board.game.view(seat).pending_tickets) == 5
        post_click(app, app.top.ok.rect.center)                # keep all five
    assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), 10)
    assert app.top.seat == 0 and board.status_text().startswith("Pass the screen")
    post_click(app, app.top.buttons[0].rect.center)
    assert run_until(app, lambda: board.is_human_turn() and app.top is board, 10)
    game = board.game
    assert [len(t) for t in game.state.tickets] == [5, 5]
    assert any(a.kind == "build_station" for a in game.legal_actions())
    post_click(app, board.lay.deck.center)                     # two blind draws
    post_click(app, board.lay.deck.center)
    assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), 10)
    assert app.top.seat == 1


# The rules ------------------------------------------------------------------------------
def test_the_rules_page_explains_the_three_games_and_stations():
    text = load_rules_text()
    page = text[text.index("## USA 1910"):]
    page = page[:page.index("\n## ", 4)]
    for words in ("Globetrotter:** +15", "Mega Game", "Big Cities",
                  "| 3, keep 2+ | 3, keep 1+ |", "| 5, keep 3+ | 4, keep 1+ |",
                  "| 4, keep 2+ | 4, keep 1+ | none |", "Stations"):
        assert words in page
    assert re.search(r"3 stations", page) and "4 points" in page
    assert text.index("## USA 1910") < text.index("## Keys")


@pytest.mark.parametrize("variant", [g[0] for g in GAMES])
def test_setups_rules_button_opens_at_usa_1910_whichever_game(app, variant):
    setup = open_setup(app)
    choose(app, setup, variant, stations=True)
    click(app, find_button(setup, "Rules"))
    rules = app.top
    assert isinstance(rules, RulesScene) and rules.variant == variant
    anchor = dict(rules.anchors)["USA 1910"]
    assert rules.scroll > 0 and abs(rules.scroll - min(anchor - 8, rules.max_scroll)) < 1
    key(app, pygame.K_ESCAPE)                          # back to the same choice
    assert app.top is setup and setup.variant_key == variant + "+stations"
