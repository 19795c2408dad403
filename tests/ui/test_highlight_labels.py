"""A highlighted route (a hovered ticket's path, a hovered route) never hides a city's
name: the names it runs through are drawn on top of the glow."""

from __future__ import annotations

import pygame
import pytest

from tests.helpers import set_tickets
from tests.ui.boardkit import anns_turn
from ttr_desktop.ui.scenes import board_panels as panels


@pytest.fixture
def app(instant_app):
    return instant_app


def opaque_pixels(surface, label, rect):
    """The screen's pixels where the label's text and halo are fully opaque."""
    return [tuple(surface.get_at((rect.x + x, rect.y + y)))[:3]
            for y in range(rect.height) for x in range(rect.width)
            if label.get_at((x, y)).a == 255]


@pytest.mark.parametrize("map_id, ticket", [("europe", "barcelona-bruxelles"),
                                            ("county-durham", "bowes-ferryhill")])
def test_a_hovered_tickets_path_leaves_every_city_name_readable(app, map_id, ticket):
    board = anns_turn(app, map_id, seed=5)
    g, seat = board.game, board.viewer
    set_tickets(g, seat, [ticket])
    app.step(1 / 60)
    mv = board.map_view
    plain = pygame.Surface(app.size)
    board.hover_ticket = None
    board.draw(plain)
    (_, rect), = panels.ticket_rows(board.lay, 1, board.ticket_scroll)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 60)
    assert board.hover_ticket == 0
    lit = pygame.Surface(app.size)
    board.draw(lit)
    path = board._path_cache[1]
    assert path
    crossed = [cid for cid, (label, lrect) in mv.labels.items()
               if any(lrect.colliderect(pygame.Rect(min(x for x, _ in p), min(y for _, y in p),
                                                    max(x for x, _ in p) - min(x for x, _ in p),
                                                    max(y for _, y in p) - min(y for _, y in p)
                                                    ).inflate(8, 8))
                      for rid in path for p in mv.polys[rid])]
    assert crossed, "the path should run past some names"
    for cid in crossed:
        label, lrect = mv.labels[cid]
        assert opaque_pixels(lit, label, lrect) == opaque_pixels(plain, label, lrect), cid
