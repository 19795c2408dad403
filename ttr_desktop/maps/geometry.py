"""Board geometry for maps: distances, polylines, train spaces and hit-testing (no pygame)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from .model import GameMap, Route

#: Radius of a city marker in board pixels; train spaces start at its edge.
CITY_RADIUS = 12.0
#: Width of one track (a train space) in board pixels; parallel routes sit this far apart.
TRACK_WIDTH = 14.0

Point = tuple[float, float]


class Space(NamedTuple):
    """One train space: a rectangle centred on (x, y), ``angle`` degrees from +x towards +y."""

    x: float
    y: float
    angle: float
    length: float
    width: float


def point_segment_distance(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> float:
    """Distance from point p to the segment a-b."""
    dx, dy = bx - ax, by - ay
    seg2 = dx * dx + dy * dy
    t = 0.0 if seg2 == 0.0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / seg2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def point_polyline_distance(px: float, py: float, polyline: Sequence[Point]) -> float:
    """Distance from point p to the nearest segment of a polyline."""
    if len(polyline) == 1:
        return math.hypot(px - polyline[0][0], py - polyline[0][1])
    return min(
        point_segment_distance(px, py, a[0], a[1], b[0], b[1]) for a, b in pairwise(polyline)
    )


def polyline_length(polyline: Sequence[Point]) -> float:
    """Total length of a polyline."""
    return sum(math.dist(a, b) for a, b in pairwise(polyline))


def point_along(polyline: Sequence[Point], distance: float) -> Point:
    """The point ``distance`` pixels along the polyline (clamped to its ends)."""
    if distance <= 0.0:
        return (float(polyline[0][0]), float(polyline[0][1]))
    for a, b in pairwise(polyline):
        seg = math.dist(a, b)
        if distance <= seg and seg > 0.0:
            t = distance / seg
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        distance -= seg
    return (float(polyline[-1][0]), float(polyline[-1][1]))


def polyline_midpoint(polyline: Sequence[Point]) -> Point:
    """The point halfway along the polyline."""
    return point_along(polyline, polyline_length(polyline) / 2.0)


def space_length(route: Route, city_radius: float = CITY_RADIUS) -> float:
    """Length of one train space of a route: the track between the city markers over its length."""
    return (polyline_length(route.polyline) - 2.0 * city_radius) / route.length


def train_spaces(
    route: Route, city_radius: float = CITY_RADIUS, width: float = TRACK_WIDTH, gap: float = 2.0
) -> list[Space]:
    """``route.length`` equal spaces along the polyline between the two city marker edges.

    The track starts and ends ``city_radius`` pixels (along the polyline) from
    its ends; each space is that stretch divided by the length, less ``gap``.
    """
    start = city_radius
    step = (polyline_length(route.polyline) - 2.0 * city_radius) / route.length
    spaces = []
    for i in range(route.length):
        x0, y0 = point_along(route.polyline, start + i * step)
        x1, y1 = point_along(route.polyline, start + (i + 1) * step)
        cx, cy = point_along(route.polyline, start + (i + 0.5) * step)
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
        spaces.append(Space(cx, cy, angle, max(step - gap, 0.0), width))
    return spaces


def route_at(
    game_map: GameMap, x: float, y: float, tolerance: float = TRACK_WIDTH / 2
) -> str | None:
    """Id of the route whose polyline is nearest to (x, y) within ``tolerance``, else None."""
    best_id, best = None, tolerance
    for route in game_map.routes.values():
        d = point_polyline_distance(x, y, route.polyline)
        if d <= tolerance and (best_id is None or d < best):
            best_id, best = route.id, d
    return best_id
