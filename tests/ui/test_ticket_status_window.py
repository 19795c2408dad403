"""The window shows a ticket finished through a station as finished (rules.md §1.9)."""

from __future__ import annotations

import pygame
import pytest

from tests.helpers import give_route, give_station, set_tickets
from tests.ui.boardkit import anns_turn
from ttr_desktop.ui.scenes import board_panels as panels


@pytest.fixture
def app(instant_app):
    return instant_app


def test_the_panel_ticks_and_the_hover_path_borrows_through_a_station(app):
    board = anns_turn(app, "usa-stations", seed=3)
    g = board.game
    set_tickets(g, 0, ["denver-el-paso"])
    for rid in ("denver-santa-fe", "el-paso-santa-fe"):
        if g.view(0).route_owners.get(rid) is not None:
            pytest.skip("the bot took a route this position needs")
    give_route(g, 0, "denver-santa-fe")
    give_route(g, 1, "el-paso-santa-fe")
    give_station(g, 0, "santa-fe")
    app.step(1 / 60)
    assert [t.id for t in g.scores()[0].tickets if t.done] == ["denver-el-paso"]
    # The panel counts it done.
    data = board._view_data()
    assert data["done"] == {"denver-el-paso"}
    # Hovering its chip draws a path over the borrowed route, with nothing left to build.
    (_, rect), = panels.ticket_rows(board.lay, 1, board.ticket_scroll)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 60)
    assert board.hover_ticket == 0
    path = board._path_cache[1]
    assert set(path) == {"denver-santa-fe", "el-paso-santa-fe"}
