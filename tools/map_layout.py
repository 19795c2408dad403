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


def fit(points: list[Point], width: float, height: float, margin: tuple[float, float]):
    """A function that scales uniformly and translates points into the board rectangle, centred."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    scale = min((width - 2 * margin[0]) / span_x, (height - 2 * margin[1]) / span_y)
    ox = (width - scale * span_x) / 2 - scale * min(xs)
    oy = (height - scale * span_y) / 2 - scale * min(ys)

    def transform(p: Point) -> Point:
        return (ox + scale * p[0], oy + scale * p[1])

    return transform


# Relaxation.


@dataclass
class Layout:
    """City positions (board pixels) and the unique city pairs joined by routes."""

    positions: list[Point]
    anchors: list[Point]
    edges: list[tuple[int, int, int]]  # (city index, city index, length)


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
) -> None:
    """Gradient descent on route-length error, geographic pull, city and route-city repulsion."""
    pos = [list(p) for p in layout.positions]
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
    pos: list[Point], pairs: list[tuple[int, int, int]], widths: list[float], names: list[str]
) -> tuple[list[list[Point]], list[str]]:
    """A centre polyline per city pair: straight, or gently bent.

    A line is bent when it passes too near a third city or crosses another
    route, and bowed when it is much shorter than its length asks for.
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

    def bent(e: int, h: float) -> list[Point]:
        a, b = pos[pairs[e][0]], pos[pairs[e][1]]
        d = math.dist(a, b)
        nx, ny = (a[1] - b[1]) / d, (b[0] - a[0]) / d
        mid = ((a[0] + b[0]) / 2 + nx * h, (a[1] + b[1]) / 2 + ny * h)
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
    return lines, notes


def route_polylines(centre: list[Point], members: int) -> list[list[Point]]:
    """Polylines for the ``members`` routes of one group, side by side around the centre line."""
    if members == 1:
        return [centre]
    return [offset(centre, (k - (members - 1) / 2) * TRACK_WIDTH) for k in range(members)]


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
