"""Board layout for tools/build_maps.py: projections, fitting, relaxation and route polylines."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from itertools import pairwise

from ttr_desktop.maps.geometry import (
    CITY_RADIUS,
    TRACK_WIDTH,
    point_polyline_distance,
    point_segment_distance,
    polyline_length,
)

Point = tuple[float, float]

#: Routes must keep at least this far from the centre of any city but their ends.
CITY_CLEARANCE = 18.0
#: Two routes leaving one city should be a track apart this far from it (relax's spread).
SPREAD_REACH = 60.0


# Projections (spherical earth; units are earth radii).


def lambert_conformal_conic(lat1: float, lat2: float, lon0: float, lat0: float):
    """A function (lat, lon) -> (x, y), y pointing south, for a Lambert conformal conic."""
    p1, p2, p0 = (math.radians(v) for v in (lat1, lat2, lat0))

    def t(phi: float) -> float:
        return math.tan(math.pi / 4 + phi / 2)

    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(t(p2) / t(p1))
    f = math.cos(p1) * t(p1) ** n / n
    rho0 = f / t(p0) ** n

    def project(lat: float, lon: float) -> Point:
        rho = f / t(math.radians(lat)) ** n
        theta = n * math.radians(lon - lon0)
        return (rho * math.sin(theta), rho * math.cos(theta) - rho0)

    return project


def lambert_azimuthal_equal_area(lat0: float, lon0: float):
    """A function (lat, lon) -> (x, y), y pointing south, for a Lambert azimuthal equal-area."""
    p0 = math.radians(lat0)

    def project(lat: float, lon: float) -> Point:
        phi, dl = math.radians(lat), math.radians(lon - lon0)
        k = math.sqrt(
            2 / (1 + math.sin(p0) * math.sin(phi) + math.cos(p0) * math.cos(phi) * math.cos(dl))
        )
        return (
            k * math.cos(phi) * math.sin(dl),
            -k * (math.cos(p0) * math.sin(phi) - math.sin(p0) * math.cos(phi) * math.cos(dl)),
        )

    return project


def equirectangular(lat0: float, lon0: float):
    """A function (lat, lon) -> (x, y), y pointing south: longitude scaled by cos(lat0).

    Close enough to a transverse Mercator over a county-sized area."""
    k = math.cos(math.radians(lat0))

    def project(lat: float, lon: float) -> Point:
        return (math.radians(lon - lon0) * k, -math.radians(lat - lat0))

    return project


def fit(
    points: list[Point],
    width: float,
    height: float,
    margin: tuple[float, float],
    pad: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
    stretch: bool = False,
):
    """A function that scales and translates points into the board rectangle, centred.

    The scale is uniform unless ``stretch``: then x and y are scaled separately so the
    points fill the board. ``pad`` keeps extra room (left, top, right, bottom) beyond the
    margin, e.g. for track leading off the board."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    if pad == (0.0, 0.0, 0.0, 0.0) and not stretch:
        scale = min((width - 2 * margin[0]) / span_x, (height - 2 * margin[1]) / span_y)
        ox = (width - scale * span_x) / 2 - scale * min(xs)
        oy = (height - scale * span_y) / 2 - scale * min(ys)

        def transform(p: Point) -> Point:
            return (ox + scale * p[0], oy + scale * p[1])

        return transform
    room_x = width - 2 * margin[0] - pad[0] - pad[2]
    room_y = height - 2 * margin[1] - pad[1] - pad[3]
    sx, sy = room_x / span_x, room_y / span_y
    if not stretch:
        sx = sy = min(sx, sy)
    ox = pad[0] + (width - pad[0] - pad[2] - sx * span_x) / 2 - sx * min(xs)
    oy = pad[1] + (height - pad[1] - pad[3] - sy * span_y) / 2 - sy * min(ys)

    def transform_xy(p: Point) -> Point:
        return (ox + sx * p[0], oy + sy * p[1])

    return transform_xy


# Relaxation.


@dataclass
class Layout:
    """City positions (board pixels) and the unique city pairs joined by routes."""

    positions: list[Point]
    anchors: list[Point]
    edges: list[tuple[int, int, int]]  # (city index, city index, length)


def group_length(lengths: list[int]) -> float:
    """The length a parallel group is laid out for: its tracks' common length, or the mean
    where the group pairs tracks of different lengths."""
    if len(set(lengths)) == 1:
        return lengths[0]
    return sum(lengths) / len(lengths)


def space_lengths(pos: list[Point], edges: list[tuple[int, int, int]]) -> list[float]:
    """Straight-line train-space length of every edge."""
    return [(math.dist(pos[i], pos[j]) - 2 * CITY_RADIUS) / n for i, j, n in edges]


def relax(
    layout: Layout,
    lam: float,
    min_dist: float,
    clearance: float,
    iterations: int,
    push: float = 4.0,
    step: float = 0.02,
    widths: list[float] | None = None,
    spread: float = 0.0,
) -> None:
    """Gradient descent on route-length error, geographic pull, city and route-city repulsion.

    With ``widths`` (the track width of each edge) and ``spread`` > 0, two routes leaving a
    city at too small an angle are also pushed apart: far enough that their tracks part
    within SPREAD_REACH pixels of the city."""
    pos = [list(p) for p in layout.positions]
    fans: list[tuple[int, int, int, float]] = []
    if widths and spread:
        incident: dict[int, list[tuple[int, float]]] = {}
        for (i, j, _), w in zip(layout.edges, widths):
            incident.setdefault(i, []).append((j, w))
            incident.setdefault(j, []).append((i, w))
        for c, ends in sorted(incident.items()):
            for k, (u, wu) in enumerate(ends):
                for v, wv in ends[k + 1:]:
                    if u != v:
                        gap = min(1.0, ((wu + wv) / 2 + 2.0) / SPREAD_REACH)
                        fans.append((c, u, v, math.asin(gap)))
    s = statistics.median(space_lengths(layout.positions, layout.edges))
    m = len(pos)
    vel = [[0.0, 0.0] for _ in range(m)]
    for _ in range(iterations):
        grad = [[0.0, 0.0] for _ in range(m)]
        # Routes: relative error of the space length, squared.
        for i, j, n in layout.edges:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = math.hypot(dx, dy) or 1e-9
            e = (d - 2 * CITY_RADIUS) / (s * n) - 1.0
            g = 2 * e / (s * n) / d
            grad[i][0] += g * dx
            grad[i][1] += g * dy
            grad[j][0] -= g * dx
            grad[j][1] -= g * dy
        # Geography: keep each city near its projected place.
        for k in range(m):
            grad[k][0] += 2 * lam * (pos[k][0] - layout.anchors[k][0]) / (s * s)
            grad[k][1] += 2 * lam * (pos[k][1] - layout.anchors[k][1]) / (s * s)
        # Cities push each other apart below min_dist.
        for i in range(m):
            for j in range(i + 1, m):
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                d = math.hypot(dx, dy) or 1e-9
                if d < min_dist:
                    g = -2 * push * (min_dist - d) / (min_dist * min_dist * d)
                    grad[i][0] += g * dx
                    grad[i][1] += g * dy
                    grad[j][0] -= g * dx
                    grad[j][1] -= g * dy
        # A route and a third city push each other apart below clearance.
        for i, j, _ in layout.edges:
            ax, ay = pos[i]
            bx, by = pos[j]
            sx, sy = bx - ax, by - ay
            seg2 = sx * sx + sy * sy or 1e-9
            for k in range(m):
                if k == i or k == j:
                    continue
                px, py = pos[k]
                t = max(0.0, min(1.0, ((px - ax) * sx + (py - ay) * sy) / seg2))
                qx, qy = ax + t * sx, ay + t * sy
                dx, dy = px - qx, py - qy
                d = math.hypot(dx, dy) or 1e-9
                if d < clearance:
                    g = -2 * push * (clearance - d) / (clearance * clearance * d)
                    grad[k][0] += g * dx
                    grad[k][1] += g * dy
                    grad[i][0] -= (1 - t) * g * dx
                    grad[i][1] -= (1 - t) * g * dy
                    grad[j][0] -= t * g * dx
                    grad[j][1] -= t * g * dy
        # Routes fanning out of a city at too small an angle turn apart.
        for c, u, v, least in fans:
            ax, ay = pos[u][0] - pos[c][0], pos[u][1] - pos[c][1]
            bx, by = pos[v][0] - pos[c][0], pos[v][1] - pos[c][1]
            la, lb = math.hypot(ax, ay) or 1e-9, math.hypot(bx, by) or 1e-9
            turn = ax * by - ay * bx
            angle = math.acos(max(-1.0, min(1.0, (ax * bx + ay * by) / (la * lb))))
            if angle >= least:
                continue
            sign = 1.0 if turn >= 0 else -1.0
            # Unit vectors across each route, pointing away from the other.
            tu = (sign * ay / la, -sign * ax / la)
            tv = (-sign * by / lb, sign * bx / lb)
            g = -2 * spread * (least - angle)
            for k, t, ln in ((u, tu, la), (v, tv, lb)):
                grad[k][0] += g * t[0] / ln
                grad[k][1] += g * t[1] / ln
                grad[c][0] -= g * t[0] / ln
                grad[c][1] -= g * t[1] / ln
        for k in range(m):
            for c in (0, 1):
                vel[k][c] = 0.8 * vel[k][c] - step * s * s * grad[k][c]
                pos[k][c] += vel[k][c]
    layout.positions = [(p[0], p[1]) for p in pos]


# Polylines.


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True when the open segments a-b and c-d properly intersect."""

    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


def polylines_cross(p: list[Point], q: list[Point]) -> bool:
    """True when two polylines properly intersect somewhere."""
    return any(segments_cross(a, b, c, d) for a, b in pairwise(p) for c, d in pairwise(q))


def bezier(a: Point, c: Point, b: Point, pieces: int = 8) -> list[Point]:
    """Quadratic Bezier curve a-c-b sampled as a polyline."""
    out = []
    for k in range(pieces + 1):
        t = k / pieces
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
            )
        )
    return out


def offset(polyline: list[Point], amount: float) -> list[Point]:
    """The polyline shifted sideways (to the left of its direction) by ``amount`` pixels."""
    normals = []
    for a, b in pairwise(polyline):
        d = math.dist(a, b) or 1e-9
        normals.append(((a[1] - b[1]) / d, (b[0] - a[0]) / d))
    out = []
    for k, p in enumerate(polyline):
        ns = [normals[n] for n in (k - 1, k) if 0 <= n < len(normals)]
        nx, ny = sum(n[0] for n in ns), sum(n[1] for n in ns)
        norm = math.hypot(nx, ny) or 1e-9
        # Keep the offset exact at a bend by stretching along the bisector.
        cos_half = max(0.5, norm / len(ns))
        out.append((p[0] + amount * nx / norm / cos_half, p[1] + amount * ny / norm / cos_half))
    return out


def centre_lines(
    pos: list[Point],
    pairs: list[tuple[int, int, int]],
    widths: list[float],
    names: list[str],
    spacing: bool = False,
) -> tuple[list[list[Point]], list[str]]:
    """A centre polyline per city pair: straight, or gently bent.

    A line is bent when it passes too near a third city or crosses another
    route, and bowed when it is much shorter than its length asks for. With
    ``spacing``, a line is also bent where its track would touch another route's
    (away from the city they share).
    """
    lines: list[list[Point]] = [[pos[i], pos[j]] for i, j, _ in pairs]
    notes: list[str] = []
    target = statistics.median(space_lengths(pos, pairs))

    def clearance(e: int, line: list[Point]) -> float:
        i, j, _ = pairs[e]
        return min(
            point_polyline_distance(p[0], p[1], line) for k, p in enumerate(pos) if k not in (i, j)
        )

    def crossings(e: int, line: list[Point]) -> int:
        i, j, _ = pairs[e]
        return sum(
            polylines_cross(line, lines[f])
            for f, (p, q, _) in enumerate(pairs)
            if f != e and not {p, q} & {i, j}
        )

    def bent(e: int, h: float, at: float = 0.5) -> list[Point]:
        """The line bent sideways by h, its control point at ``at`` of the way from a."""
        a, b = pos[pairs[e][0]], pos[pairs[e][1]]
        d = math.dist(a, b)
        nx, ny = (a[1] - b[1]) / d, (b[0] - a[0]) / d
        if at == 0.5:
            mid = ((a[0] + b[0]) / 2 + nx * h, (a[1] + b[1]) / 2 + ny * h)
        else:
            mid = (a[0] + (b[0] - a[0]) * at + nx * h, a[1] + (b[1] - a[1]) * at + ny * h)
        return bezier(a, mid, b)

    def label(e: int) -> str:
        return f"{names[pairs[e][0]]}-{names[pairs[e][1]]}"

    # Clear third cities and crossings with the smallest bend that works.
    for e in range(len(pairs)):
        need = CITY_CLEARANCE + widths[e] / 2 + 4.0
        crossed = crossings(e, lines[e])
        if clearance(e, lines[e]) >= need and crossed == 0:
            continue
        best = None
        limit = 0.45 * math.dist(pos[pairs[e][0]], pos[pairs[e][1]])
        for h in (side * k * 3.0 for k in range(1, int(limit / 3.0) + 1) for side in (1, -1)):
            line = bent(e, h)
            if clearance(e, line) >= need:
                score = crossings(e, line)
                if best is None or score < best[0]:
                    best = (score, line, h)
                if score == 0:
                    break
        if best is None or best[0] >= crossed and clearance(e, lines[e]) >= need:
            notes.append(f"could not improve route {label(e)}")
            continue
        lines[e] = best[1]
        notes.append(f"bent {label(e)} by {best[2]:+.0f} px ({best[0]} crossings left)")
    # Bow routes that are much too short, where that harms nothing.
    for e, (i, j, n) in enumerate(pairs):
        if len(lines[e]) > 2 or polyline_length(lines[e]) - 2 * CITY_RADIUS >= 0.85 * target * n:
            continue
        need = CITY_CLEARANCE + widths[e] / 2 + 4.0
        want = 0.9 * target * n + 2 * CITY_RADIUS
        limit = 0.4 * math.dist(pos[i], pos[j])
        for k in range(1, int(limit / 3.0) + 1):
            options = [bent(e, side * k * 3.0) for side in (1, -1)]
            options = [o for o in options if clearance(e, o) >= need and crossings(e, o) == 0]
            if not options:
                break
            lines[e] = max(options, key=lambda o: clearance(e, o))
            if polyline_length(lines[e]) >= want:
                break
        if len(lines[e]) > 2:
            notes.append(
                f"bowed {label(e)} to "
                f"{(polyline_length(lines[e]) - 2 * CITY_RADIUS) / n:.1f} px a space"
            )
    if spacing:
        notes += spread(lines, pos, pairs, widths, names, target, clearance, crossings, bent)
    return lines, notes


#: Near a city two routes that meet there may touch; beyond this distance they may not.
SHARED_CITY_REACH = 36.0


def _samples(line: list[Point], step: float = 8.0) -> list[Point]:
    """Points every ``step`` pixels or so along a polyline (ends included)."""
    out = [line[0]]
    for a, b in pairwise(line):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
                for k in range(1, n + 1)]
    return out


def line_gap(
    p: list[Point], q: list[Point], shared: list[Point], reach: float = SHARED_CITY_REACH
) -> float:
    """Closest approach of two polylines, leaving out what lies within ``reach`` of a city
    both end at."""
    best = math.inf
    for line, other in ((p, q), (q, p)):
        for x, y in _samples(line):
            if any(math.hypot(x - c[0], y - c[1]) < reach for c in shared):
                continue
            best = min(best, point_polyline_distance(x, y, other))
    return best


def spread(lines, pos, pairs, widths, names, target, clearance, crossings, bent) -> list[str]:
    """Bend lines whose tracks would touch another route's (beyond a shared city), choosing
    the smallest bend that parts them without nearing a city, adding a crossing or making
    the route's spaces much longer. Changes ``lines`` in place; returns notes."""
    notes: list[str] = []

    def box(line: list[Point]) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in line], [p[1] for p in line]
        return min(xs), min(ys), max(xs), max(ys)

    def shortfall(e: int, line: list[Point]) -> float:
        i, j, _ = pairs[e]
        x0, y0, x1, y1 = box(line)
        total = 0.0
        for f, (p, q, _) in enumerate(pairs):
            if f == e or {p, q} == {i, j}:
                continue
            need = (widths[e] + widths[f]) / 2 + 2.0
            u0, v0, u1, v1 = box(lines[f])
            if u0 > x1 + need or u1 < x0 - need or v0 > y1 + need or v1 < y0 - need:
                continue
            shared = [pos[c] for c in {p, q} & {i, j}]
            total += max(0.0, need - line_gap(line, lines[f], shared))
        return total

    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    inside = (min(xs) - 25.0, min(ys) - 25.0, max(xs) + 25.0, max(ys) + 25.0)
    for _ in range(2):
        changed = False
        worst = sorted(range(len(pairs)), key=lambda e: -shortfall(e, lines[e]))
        for e in worst:
            i, j, n = pairs[e]
            now = shortfall(e, lines[e])
            if now < 2.0:
                continue
            need = CITY_CLEARANCE + widths[e] / 2 + 4.0
            crossed = crossings(e, lines[e])
            longest = max(polyline_length(lines[e]), 1.15 * target * n + 2 * CITY_RADIUS)
            best = (now / 2, 0.0, lines[e])  # a bend must at least halve the shortfall
            limit = 0.3 * math.dist(pos[i], pos[j])
            options = [(side * k * 6.0, at) for k in range(1, int(limit / 6.0) + 1)
                       for at in (0.5, 0.25, 0.75) for side in (1, -1)]
            for h, at in options:
                line = bent(e, h, at)
                x0, y0, x1, y1 = box(line)
                if x0 < inside[0] or y0 < inside[1] or x1 > inside[2] or y1 > inside[3]:
                    continue
                if polyline_length(line) > longest or clearance(e, line) < need:
                    continue
                if crossings(e, line) > crossed:
                    continue
                left = shortfall(e, line)
                if left < best[0]:
                    best = (left, h, line)
                if left <= 0.0:
                    break
            if best[2] is not lines[e]:
                lines[e] = best[2]
                changed = True
                notes.append(f"parted {names[i]}-{names[j]} from its neighbours: bent by "
                             f"{best[1]:+.0f} px ({now:.1f} -> {best[0]:.1f} px short)")
        if not changed:
            break
    return notes


def route_polylines(centre: list[Point], members: int) -> list[list[Point]]:
    """Polylines for the ``members`` routes of one group, side by side around the centre line."""
    if members == 1:
        return [centre]
    lines = [offset(centre, (k - (members - 1) / 2) * TRACK_WIDTH) for k in range(members)]
    # The outer tracks of a triple start a whisker inside a track width of the city, so
    # every track still starts at its city.
    reach = TRACK_WIDTH - 0.5
    for line in lines:
        for end, c in ((0, centre[0]), (-1, centre[-1])):
            d = math.dist(line[end], c)
            if d > reach:
                line[end] = (c[0] + (line[end][0] - c[0]) * reach / d,
                             c[1] + (line[end][1] - c[1]) * reach / d)
    return lines


def quality(
    pos: list[Point], polylines: list[tuple[int, int, int, list[Point]]]
) -> dict[str, float]:
    """Figures of merit: space lengths, closest cities, closest route-city pass, crossings."""
    spaces = [(polyline_length(pl) - 2 * CITY_RADIUS) / n for _, _, n, pl in polylines]
    closest = min(math.dist(p, q) for k, p in enumerate(pos) for q in pos[k + 1 :])
    passes = min(
        point_polyline_distance(pos[k][0], pos[k][1], pl)
        for i, j, _, pl in polylines
        for k in range(len(pos))
        if k not in (i, j)
    )
    crossings = sum(
        polylines_cross(p[3], q[3])
        for a, p in enumerate(polylines)
        for q in polylines[a + 1 :]
        if not {p[0], p[1]} & {q[0], q[1]}
    )
    return {
        "space_min": min(spaces),
        "space_median": statistics.median(spaces),
        "space_max": max(spaces),
        "ratio": max(spaces) / min(spaces),
        "city_min_distance": closest,
        "route_city_min": passes,
        "crossings": crossings,
    }


def straight_crossings(pos: list[Point], pairs: list[tuple[int, int, int]]) -> int:
    """Number of crossing pairs among straight city-to-city segments."""
    return sum(
        segments_cross(pos[a], pos[b], pos[c], pos[d])
        for e, (a, b, _) in enumerate(pairs)
        for c, d, _ in pairs[e + 1 :]
        if not {a, b} & {c, d}
    )


def nearest_pass(pos: list[Point], pairs: list[tuple[int, int, int]]) -> float:
    """Closest approach of a straight route to a third city."""
    return min(
        point_segment_distance(pos[k][0], pos[k][1], *pos[i], *pos[j])
        for i, j, _ in pairs
        for k in range(len(pos))
        if k not in (i, j)
    )


# The warp from projected geography onto the laid-out board (also used by the art script).


def similarity(src: list[Point], dst: list[Point], stretch: bool = False):
    """Least-squares scale + translation taking src onto dst (projected cities onto board
    cities: the fit of the unmoved layout), as a function. The scale is uniform, or per
    axis when ``stretch`` (a board whose cities were fitted with separate x and y scales)."""
    n = len(src)
    sx, sy = sum(p[0] for p in src) / n, sum(p[1] for p in src) / n
    dx, dy = sum(p[0] for p in dst) / n, sum(p[1] for p in dst) / n
    if stretch:
        kx = sum((p[0] - sx) * (q[0] - dx) for p, q in zip(src, dst)) / sum(
            (p[0] - sx) ** 2 for p in src)
        ky = sum((p[1] - sy) * (q[1] - dy) for p, q in zip(src, dst)) / sum(
            (p[1] - sy) ** 2 for p in src)
        return lambda p: (dx + kx * (p[0] - sx), dy + ky * (p[1] - sy))
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


def board_warp(geo: list[Point], final: list[Point], width: float, height: float,
               stretch: bool = False):
    """(projected point -> board point, folded triangles): the scale-and-shift fit of the
    projected cities onto their board places, then warped piecewise-affinely over a Delaunay
    triangulation of the cities plus a fixed ring of anchors around the board, so every city
    lands exactly on its board place and the land between follows."""
    to_board = similarity(geo, final, stretch)
    # Fixed anchors: an ellipse 80 px beyond the board corners (no three collinear).
    rx, ry, n = width / math.sqrt(2) + 80, height / math.sqrt(2) + 80, 40
    ring = [(width / 2 + rx * math.cos(2 * math.pi * i / n),
             height / 2 + ry * math.sin(2 * math.pi * i / n)) for i in range(n)]
    warp, folds = make_warp([to_board(p) for p in geo] + ring, list(final) + ring)
    return (lambda p: warp(to_board(p))), folds


# Routes that need more than a bend, and track leading off the board.


def detour(a: Point, b: Point, side: float, want: float, pieces: int = 12) -> list[Point]:
    """A smooth bulge from a to b on one side (+1 left of a->b, -1 right), about ``want``
    pixels long: a cubic Bezier whose two control points stand out by the same height."""
    d = math.dist(a, b)
    nx, ny = side * (a[1] - b[1]) / d, side * (b[0] - a[0]) / d

    def curve(h: float) -> list[Point]:
        c1 = (a[0] + nx * h + (b[0] - a[0]) * 0.1, a[1] + ny * h + (b[1] - a[1]) * 0.1)
        c2 = (b[0] + nx * h - (b[0] - a[0]) * 0.1, b[1] + ny * h - (b[1] - a[1]) * 0.1)
        out = []
        for k in range(pieces + 1):
            t = k / pieces
            u = 1 - t
            out.append((u ** 3 * a[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0]
                        + t ** 3 * b[0],
                        u ** 3 * a[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1]
                        + t ** 3 * b[1]))
        return out

    lo, hi = 0.0, 2.0 * d
    for _ in range(40):
        mid = (lo + hi) / 2
        if polyline_length(curve(mid)) < want:
            lo = mid
        else:
            hi = mid
    return curve(hi)


def ray_to_edge(start: Point, direction: Point, width: float, height: float) -> Point:
    """Where the ray from ``start`` (inside the board) along ``direction`` leaves the board,
    snapped exactly onto the edge."""
    dx, dy = direction
    best, end = math.inf, start
    for t, snap in (
        ((0.0 - start[0]) / dx if dx < 0 else math.inf, (0.0, None)),
        ((width - start[0]) / dx if dx > 0 else math.inf, (float(width), None)),
        ((0.0 - start[1]) / dy if dy < 0 else math.inf, (None, 0.0)),
        ((height - start[1]) / dy if dy > 0 else math.inf, (None, float(height))),
    ):
        if t < best:
            best = t
            x, y = start[0] + t * dx, start[1] + t * dy
            end = (snap[0] if snap[0] is not None else min(max(x, 0.0), width),
                   snap[1] if snap[1] is not None else min(max(y, 0.0), height))
    return end
