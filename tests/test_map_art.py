"""Map background art: every shipped map has its PNG at the board size, and it is not blank;
plus the geometry of tools/build_map_art.py (clipping, triangulation, warp)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ttr_desktop.maps import available_maps, get_map  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"


@pytest.mark.parametrize("map_id", available_maps())
def test_background_is_shipped_at_board_size(map_id):
    game_map = get_map(map_id)
    assert game_map.background, f"maps/{map_id}.toml names no background"
    path = MAPS / game_map.background
    assert path.is_file(), f"{path} is missing (run tools/build_map_art.py)"
    image = pygame.image.load(str(path))
    assert image.get_size() == (game_map.width, game_map.height)


@pytest.mark.parametrize("map_id", available_maps())
def test_background_is_not_blank(map_id):
    image = pygame.image.load(str(MAPS / get_map(map_id).background))
    w, h = image.get_size()
    grid = [(x * w // 40, y * h // 30) for x in range(40) for y in range(30)]
    samples = {tuple(image.get_at(p))[:3] for p in grid}
    assert len(samples) >= 20
    # Both darker sea and lighter land/paper are present: real contrast, though low.
    brightness = sorted(sum(c) for c in samples)
    assert brightness[-1] - brightness[0] > 60


# The script's geometry (tools/ holds developer scripts, not a package).


@pytest.fixture(scope="module")
def art():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_map_art
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return build_map_art


def test_clip_polygon_keeps_inside_points_and_cuts_at_the_box(art):
    square = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)]
    cut = art.clip_polygon(square, (0.0, 0.0, 10.0, 10.0))
    assert (5.0, 5.0) in cut
    assert all(0.0 <= x <= 10.0 and 0.0 <= y <= 10.0 for x, y in cut)
    assert {(round(x, 9), round(y, 9)) for x, y in cut} == {(0, 0), (5, 0), (5, 5), (0, 5)}
    assert art.clip_polygon(square, (20.0, 20.0, 30.0, 30.0)) == []


def test_clip_polyline_splits_into_runs(art):
    line = [(-1.0, 1.0), (2.0, 1.0), (2.0, 5.0), (3.0, 5.0), (3.0, 2.0), (4.0, 2.0)]
    runs = art.clip_polyline(line, (0.0, 0.0, 10.0, 3.0))
    assert runs == [[(0.0, 1.0), (2.0, 1.0), (2.0, 3.0)], [(3.0, 3.0), (3.0, 2.0), (4.0, 2.0)]]


def test_delaunay_covers_the_hull_and_warp_moves_cities_exactly(art):
    ring = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    src = [(30.0, 40.0), (70.0, 60.0), (50.0, 20.0)] + ring
    dst = [(35.0, 42.0), (66.0, 58.0), (50.0, 25.0)] + ring
    tris = art.delaunay(src)
    area = sum(abs(art.cross(*(src[i] for i in t))) / 2 for t in tris)
    assert area == pytest.approx(100.0 * 100.0)
    warp, folds = art.make_warp(src, dst)
    assert folds == 0
    for p, q in zip(src, dst):
        assert warp(p) == pytest.approx(q)
    assert warp((150.0, 150.0)) == (150.0, 150.0)  # outside the anchors: unmoved
