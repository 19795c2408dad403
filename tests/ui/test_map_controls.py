"""Zoom and pan as a player finds them: the zoom buttons on the map's corner, a left
drag on an empty spot of the map, and a click that stays a click. Real events only."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.ui.boardkit import anns_turn, post_click
from ttr_desktop.rules import Phase
from ttr_desktop.ui import map_zoom


@pytest.fixture
def app(instant_app):
    return instant_app


def move(app, pos, rel=(0, 0), buttons=(0, 0, 0)) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons))
    app.step(1 / 60)


def press(app, pos, button=1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.step(1 / 60)


def release(app, pos, button=1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.step(1 / 60)


def empty_spot(board, near=None):
    """A point of the visible board with no city, route or track on it (nearest to
    ``near``, the board's centre by default)."""
    mv = board.map_view
    cx, cy = near or mv.board_rect.center
    spots = [(cx + dx, cy + dy) for dx in range(-200, 201, 7) for dy in range(-150, 151, 7)]
    spots.sort(key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
    for p in spots:
        if (mv.board_rect.inflate(-80, -80).collidepoint(p) and mv.city_at(p) is None
                and mv.route_at(p) is None and mv.stub_at(p) is None
                and all(mv.route_at((p[0] + dx, p[1] + dy)) is None
                        for dx in (-6, 6) for dy in (-6, 6))):
            return p
    raise AssertionError("no empty spot on the board")


def test_the_zoom_buttons_are_on_the_map_and_zoom_in_out_and_back(app):
    board = anns_turn(app)
    mv = board.map_view
    rects = map_zoom.button_rects(mv)
    for rect in rects.values():
        assert board.lay.map.contains(rect)
    # They are drawn: the plus sign's ink is in the middle of the first button.
    ink = app.screen.get_at(rects["in"].center)[:3]
    assert sum(abs(a - b) for a, b in zip(ink, (43, 36, 28))) < 60, ink
    # Hovering one names its key.
    move(app, rects["in"].center)
    assert board.tooltip_lines()[0][0] == "Zoom in"
    post_click(app, rects["in"].center)
    assert mv.zoom == pytest.approx(1.25)
    post_click(app, rects["in"].center)
    assert mv.zoom == pytest.approx(1.25 ** 2)
    post_click(app, rects["out"].center)
    assert mv.zoom == pytest.approx(1.25)
    post_click(app, rects["fit"].center)
    assert not mv.is_zoomed
    # A click on a button never reaches what lies under it, and takes no turn.
    assert board.game.current_seat == 0 and board.game.phase == Phase.TURN


def test_a_left_drag_on_an_empty_spot_pans_the_zoomed_map(app):
    board = anns_turn(app)
    mv = board.map_view
    post_click(app, map_zoom.button_rects(mv)["in"].center)
    post_click(app, map_zoom.button_rects(mv)["in"].center)
    version = board.game.version
    start = empty_spot(board)
    before = (mv.ox, mv.oy)
    grabbed = mv.to_board(*start)
    press(app, start)
    x, y = start
    for step in range(1, 5):
        move(app, (x - 10 * step, y - 8 * step), rel=(-10, -8), buttons=(1, 0, 0))
    release(app, (x - 40, y - 32))
    assert (mv.ox, mv.oy) == (before[0] - 40, before[1] - 32)
    assert board.game.version == version          # panning is no move
    # The board point under the hand stayed under it.
    assert mv.to_screen(*grabbed) == pytest.approx((x - 40, y - 32))
    # Another motion without the button does not pan any more.
    move(app, (x - 80, y - 80), rel=(-40, -48))
    assert (mv.ox, mv.oy) == (before[0] - 40, before[1] - 32)


def test_a_press_that_barely_moves_is_still_a_click(app):
    board = anns_turn(app, "legacy")
    mv = board.map_view
    post_click(app, map_zoom.button_rects(mv)["in"].center)
    # A track leading off the board (a stub): a click on it explains it.
    stub = next(s for s in board.game.map.stubs)
    spot = None
    for sid, polys in mv.stub_polys.items():
        for poly in polys:
            cx = sum(p[0] for p in poly) / 4
            cy = sum(p[1] for p in poly) / 4
            p = (round(cx), round(cy))
            if mv.board_rect.inflate(-20, -20).collidepoint(p) and mv.stub_at(p) == sid \
                    and mv.city_at(p) is None and map_zoom.button_at(mv, p) is None:
                spot, stub = p, next(s for s in board.game.map.stubs if s.id == sid)
                break
        if spot:
            break
    assert spot is not None
    before = (mv.ox, mv.oy)
    app.toasts.clear()
    press(app, spot)
    move(app, (spot[0] + 2, spot[1] + 1), rel=(2, 1), buttons=(1, 0, 0))
    assert not app.toasts                      # nothing yet: it might become a drag
    release(app, (spot[0] + 2, spot[1] + 1))
    assert (mv.ox, mv.oy) == before
    assert app.toasts and stub.to in app.toasts[-1].message
    # At zoom 1 a press on a route claims at once, as always.
    post_click(app, map_zoom.button_rects(mv)["fit"].center)
    assert not mv.is_zoomed


def test_at_zoom_1_a_left_drag_leaves_the_whole_map_in_place(app):
    board = anns_turn(app)
    mv = board.map_view
    assert not mv.begin_left_drag(mv.board_rect.center)
    before = (mv.ox, mv.oy)
    spot = empty_spot(board)
    press(app, spot)
    move(app, (spot[0] + 30, spot[1]), rel=(30, 0), buttons=(1, 0, 0))
    release(app, (spot[0] + 30, spot[1]))
    assert (mv.ox, mv.oy) == before and not mv.left_pressed


def test_the_keys_page_lists_every_key_and_the_mouse_moves_of_the_board():
    from ttr_desktop.ui.scenes.rules import load_rules_text, parse_rules
    blocks = parse_rules(load_rules_text())
    at = next(i for i, b in enumerate(blocks) if b.kind == "h2" and b.text == "Keys")
    table = next(b for b in blocks[at:] if b.kind == "table")
    keys = {row[0].replace("`", "").strip(): row[1] for row in table.rows[1:]}
    for key in ("Esc", "D", "T", "H", "Ctrl S", "Ctrl Z", "+ −", "0", "Mouse wheel", "Drag",
                "1 … 9", "Enter", "Tab"):
        assert key in keys, key
    assert "zoom" in keys["Mouse wheel"].lower() and "move" in keys["Drag"].lower()
    assert "whole map" in keys["0"].lower() and "Home" in keys["0"]


@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1920, 1080)])
def test_the_zoom_buttons_hide_no_city_name_or_route_of_the_whole_map(size):
    from ttr_desktop.maps import available_maps, get_map
    from ttr_desktop.ui.map_view import MapView
    from ttr_desktop.ui.scenes.board_panels import compute_layout
    pygame.init()
    for map_id in available_maps():
        game_map = get_map(map_id)
        view = MapView(game_map, compute_layout(size, 4, 9,
                                                (game_map.width, game_map.height)).map)
        buttons = list(map_zoom.button_rects(view).values())
        for cid, (x, y) in view.city_pos.items():
            r = view.marker_radius(cid)
            assert not any(b.inflate(2 * r, 2 * r).collidepoint(x, y) for b in buttons), cid
        for cid, (_, rect) in view.labels.items():
            assert not rect.collidelistall(buttons), cid
        for rid, polys in view.polys.items():
            for poly in polys:
                for x, y in poly:
                    assert not any(b.collidepoint(x, y) for b in buttons), (map_id, rid)
