"""City names stay readable over everything that glows on the map: a claim filling car by
car, and the rings Märklin draws round the passengers a player may move."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.helpers import give_route, set_hand, set_module
from tests.ui.boardkit import anns_turn, confirm_claim, post_click, run_until
from ttr_desktop.rules import Phase
from ttr_desktop.ui.animations import RouteFill
from ttr_desktop.ui.app import App
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.session import GameSession, SeatConfig


def covered_pixels(surface, label, rect) -> int:
    """How many of the label's fully opaque pixels (its letters and halo) are not on
    screen as the label has them: 0 when the name is drawn whole on top."""
    wrong = 0
    for y in range(rect.height):
        for x in range(rect.width):
            pixel = label.get_at((x, y))
            if pixel.a == 255 and tuple(surface.get_at((rect.x + x, rect.y + y)))[:3] != \
                    tuple(pixel)[:3]:
                wrong += 1
    return wrong


def labels_touching(map_view, area: pygame.Rect) -> list[str]:
    return [cid for cid, (_, rect) in map_view.labels.items() if rect.colliderect(area)]


def route_area(map_view, route_id: str) -> pygame.Rect:
    points = [p for poly in map_view.polys[route_id] for p in poly]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def runs_under(map_view, route_id: str, city_id: str) -> int:
    """How many of the city name's opaque pixels the route's spaces lie under."""
    label, rect = map_view.labels[city_id]
    track = pygame.Surface(rect.size, pygame.SRCALPHA)
    for poly in map_view.polys[route_id]:
        pygame.draw.polygon(track, (255, 255, 255), [(x - rect.x, y - rect.y) for x, y in poly])
    return pygame.mask.from_surface(label, 254).overlap_area(
        pygame.mask.from_surface(track, 254), (0, 0))


def test_a_claim_filling_its_route_leaves_the_name_it_passes_readable(app):
    # The window at its normal animation speed: the claim fills car by car. On the USA map
    # the El Paso - Oklahoma City route runs under the name of Oklahoma City.
    board = anns_turn(app, "usa", seed=3)
    g, mv = board.game, board.map_view
    rid, city = "el-paso-oklahoma-city", "oklahoma-city"
    assert runs_under(mv, rid, city) > 20
    set_hand(g, 0, locomotive=8)
    app.step(1 / 60)
    x, y = mv.space_centers(rid)[0]
    post_click(app, (int(x), int(y)), frames=1)
    confirm_claim(app, frames=1)
    fills = [a for a in board.anims if isinstance(a, RouteFill)]
    assert fills and fills[0].route_id == rid
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0),
                                         buttons=(0, 0, 0)))   # no tooltip over the map
    near = labels_touching(mv, route_area(mv, rid))
    checked = 0
    while True:
        app.step(1 / 60)
        if not any(isinstance(a, RouteFill) for a in board.anims):
            break
        for cid in near:
            label, rect = mv.labels[cid]
            assert covered_pixels(app.screen, label, rect) == 0, \
                (cid, [a.progress for a in board.anims if isinstance(a, RouteFill)])
        checked += 1
    assert checked >= 3 and city in near


@pytest.fixture
def marklin_app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def test_marklins_rings_round_movable_passengers_leave_the_names_readable(marklin_app):
    app = marklin_app
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new("marklin", seats, seed=3, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    overlay = app.top
    row = next(i for i, a in enumerate(overlay.actions) if "2 short, 2 long" in a.describe())
    post_click(app, overlay.rows[row].center)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    g, mv = board.game, board.map_view
    # Ann's passengers wait in Köln and Frankfurt, each with her route out of it.
    give_route(g, 0, "dusseldorf-koln-1")
    give_route(g, 0, "frankfurt-mainz-1")
    st = g.state.ext["marklin"]
    cities = ["koln", "frankfurt"]
    set_module(g, "marklin", supply={0: st.supply[0] - 2},
               at={0: st.at[0] + [g.board.city_index[c] for c in cities]})
    set_hand(g, 0, passenger=1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0),
                                         buttons=(0, 0, 0)))
    checked = 0
    for _ in range(20):            # the rings pulse: every size they take
        app.step(1 / 20)
        for cid in cities:
            x, y = mv.city_pos[cid]
            r = int(mv.marker_radius(cid)) + 10
            for name in labels_touching(mv, pygame.Rect(x - r, y - r, 2 * r, 2 * r)):
                label, rect = mv.labels[name]
                assert covered_pixels(app.screen, label, rect) == 0, (cid, name)
                checked += 1
    assert checked, "a ring should reach a name"
