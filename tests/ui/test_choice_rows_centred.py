"""The step panel's rows (Old West's home-city list, and every decision the board has no
special panel for) carry their words in the middle of the row, as the other lists do."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.ui.boardkit import post_click, run_until
from ttr_desktop.ui.app import App
from ttr_desktop.ui.families import load_all
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
from ttr_desktop.ui.session import GameSession, SeatConfig

load_all()
from ttr_desktop.ui.families.old_west import HomeCityOverlay  # noqa: E402


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def ink_rows(surface, rect: pygame.Rect) -> tuple[int, int]:
    """The first and last screen rows inside ``rect`` (its frame left out) where something
    darker than the row's paper is drawn: the words' top and bottom."""
    inner = rect.inflate(-6, -6)
    dark = [y for y in range(inner.top, inner.bottom)
            if any(sum(tuple(surface.get_at((x, y)))[:3]) < 450
                   for x in range(inner.left, inner.right))]
    assert dark, f"no words in the row at {rect}"
    return dark[0], dark[-1]


def test_the_home_city_rows_have_their_names_centred_top_to_bottom(app):
    seats = [SeatConfig("Ann", "human", color="red"),
             SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new("old-west", seats, seed=5, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    assert isinstance(app.top, TicketChoiceOverlay)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: isinstance(app.top, HomeCityOverlay), 30)
    overlay = app.top
    assert board.game.current_seat == 0 and len(overlay.rows) >= 3
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0),
                                         buttons=(0, 0, 0)))   # no row under the pointer
    app.step(1 / 60)
    for rect in overlay.rows:
        top, bottom = ink_rows(app.screen, rect)
        above, below = top - rect.top, rect.bottom - 1 - bottom
        # Letters have no descenders in most names: a pixel or three of slack.
        assert abs(above - below) <= 3, (rect, above, below)


def test_a_claim_panels_long_title_stays_inside_the_panel(app):
    # County Durham's panel beside the map is narrow and some of its names are long.
    from tests.helpers import set_hand
    from tests.ui.boardkit import anns_turn, post_click
    from ttr_desktop.ui import style
    from ttr_desktop.ui.log_text import route_name
    from ttr_desktop.ui.scenes.board_overlays import ActionChooser
    board = anns_turn(app, "county-durham", seed=5)
    g = board.game
    rid = next(r for r, route in g.map.routes.items()
               if {route.a, route.b} == {"barnard-castle", "middleton-in-teesdale"})
    route = g.map.routes[rid]
    colour = "red" if route.color == "gray" else route.color
    set_hand(g, 0, **{colour: route.length, "locomotive": 1})
    app.step(1 / 60)
    x, y = board.map_view.space_centers(rid)[0]
    post_click(app, (int(x), int(y)))
    chooser = app.top
    assert isinstance(chooser, ActionChooser)
    title = f"Claim {route_name(g, rid)}"
    assert chooser.title == title
    # Every line of the title is drawn, and each fits between the panel's margins.
    assert " ".join(chooser.title_lines) == title
    assert all(style.font(22, True).size(line)[0] <= chooser.panel.width - 40
               for line in chooser.title_lines)
    # Its words and the rows under them do not overlap.
    last_title_line = chooser.panel.y + 14 + 28 * (len(chooser.title_lines) - 1) + 28
    assert chooser.rows[0].top >= last_title_line
