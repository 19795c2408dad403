"""On the scoring screen's map, the city names a spotlighted longest path runs through stay
readable: the path's bands were drawn over them ("Consett" and "Newcastle upon Tyne" on
County Durham's map were half hidden), as no glow on the board's map may do."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from tests.ui.test_bonus_measures import app, scene_for  # noqa: E402,F401
from tests.ui.test_names_over_glows import covered_pixels, route_area  # noqa: E402
from tests.ui.test_scoring_scene import play_out  # noqa: E402


def test_the_longest_path_leaves_the_names_it_passes_readable(app):  # noqa: F811
    session = play_out(seed=7, variant="county-durham", names=["A", "B"])
    scene = scene_for(app, session)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0),
                                         buttons=(0, 0, 0)))   # nothing hovered
    scene.skip()
    for _ in range(40):
        app.step(1 / 30)
    sc = scene.scores[scene.focus]
    assert sc.longest_path_routes, "the focused seat has a longest path to show"
    mv = scene.map_view
    areas = [route_area(mv, rid).inflate(12, 12) for rid in sc.longest_path_routes]
    near = [cid for cid, (_, rect) in mv.labels.items() if rect.collidelist(areas) >= 0]
    assert near
    app.draw()
    hidden = {cid: covered_pixels(app.screen, *mv.labels[cid]) for cid in near}
    _shot(app, "scoring-names-over-path.png")
    assert not any(hidden.values()), hidden


def _shot(app, name):
    folder = os.environ.get("TTR_SHOTS")
    if folder:
        pygame.image.save(app.screen, os.path.join(folder, name))
