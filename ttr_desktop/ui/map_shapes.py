"""Plane geometry for placing things on the map: boxes, convex quads, segments, circles.

Boxes are ``(left, top, right, bottom)`` tuples; quads are four corners of a
convex train space. No drawing here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Quad = Sequence[Point]


def bbox(points: Iterable[Point]) -> tuple[float, float, float, float]:
    xs, ys = zip(*points)
    return min(xs), min(ys), max(xs), max(ys)


def box_hits_quad(box: tuple[float, float, float, float], quad: Quad) -> bool:
    """True when the axis-aligned box (left, top, right, bottom) overlaps the convex quad."""
    return Obstacle(quad).hits_box(box)


def box_hits_circle(box: tuple[float, float, float, float], cx: float, cy: float,
                    r: float) -> bool:
    """True when the box comes closer than ``r`` to the point (cx, cy)."""
    left, top, right, bottom = box
    nx = min(max(cx, left), right)
    ny = min(max(cy, top), bottom)
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


class Obstacle:
    """A convex quad with its bounding box and edge normals, ready for overlap tests."""

    __slots__ = ("axes", "box", "edges", "quad", "width")

    def __init__(self, quad: Quad) -> None:
        self.quad = quad
        self.box = bbox(quad)
        self.width = min(math.dist(quad[0], quad[1]), math.dist(quad[1], quad[2]))
        self.axes = []
        for i in range(2):
            nx, ny = quad[i][1] - quad[i + 1][1], quad[i + 1][0] - quad[i][0]
            proj = [nx * x + ny * y for x, y in quad]
            self.axes.append((nx, ny, min(proj), max(proj)))
        cx = sum(x for x, _ in quad) / 4
        cy = sum(y for _, y in quad) / 4
        self.edges = []
        for i in range(4):
            ax, ay = quad[i]
            bx, by = quad[(i + 1) % 4]
            nx, ny = by - ay, ax - bx                 # a normal of the edge ...
            if nx * (cx - ax) + ny * (cy - ay) > 0:   # ... turned to point outwards
                nx, ny = -nx, -ny
            self.edges.append((nx, ny, nx * ax + ny * ay))

    def inside_length(self, p: Point, q: Point) -> float:
        """How long a stretch of the segment p-q lies inside the quad (Cyrus-Beck)."""
        qx0, qy0, qx1, qy1 = self.box
        if (max(p[0], q[0]) <= qx0 or min(p[0], q[0]) >= qx1 or max(p[1], q[1]) <= qy0
                or min(p[1], q[1]) >= qy1):
            return 0.0
        t0, t1 = 0.0, 1.0
        dx, dy = q[0] - p[0], q[1] - p[1]
        for nx, ny, c in self.edges:
            num = nx * p[0] + ny * p[1] - c
            den = nx * dx + ny * dy
            if den == 0:
                if num > 0:
                    return 0.0
                continue
            t = -num / den
            if den < 0:
                t0 = max(t0, t)
            elif t < t1:
                t1 = t
            if t0 >= t1:
                return 0.0
        return (t1 - t0) * math.hypot(dx, dy)

    def hits_box(self, box) -> bool:
        left, top, right, bottom = box
        qx0, qy0, qx1, qy1 = self.box
        if qx1 <= left or qx0 >= right or qy1 <= top or qy0 >= bottom:
            return False
        for nx, ny, lo, hi in self.axes:
            a, b = nx * left, nx * right
            c, d = ny * top, ny * bottom
            bmin = min(a, b) + min(c, d)
            bmax = max(a, b) + max(c, d)
            if hi <= bmin or bmax <= lo:
                return False
        return True

    def hits_segment(self, p: Point, q: Point) -> bool:
        qx0, qy0, qx1, qy1 = self.box
        if (max(p[0], q[0]) <= qx0 or min(p[0], q[0]) >= qx1 or max(p[1], q[1]) <= qy0
                or min(p[1], q[1]) >= qy1):
            return False
        for nx, ny, lo, hi in self.axes:
            a, b = nx * p[0] + ny * p[1], nx * q[0] + ny * q[1]
            if hi <= min(a, b) or max(a, b) <= lo:
                return False
        ax, ay = p[1] - q[1], q[0] - p[0]
        proj = [ax * x + ay * y for x, y in self.quad]
        s = ax * p[0] + ay * p[1]
        return min(proj) < s < max(proj)


def inside_length(p: Point, q: Point, quad: Quad) -> float:
    """How long a stretch of the segment p-q lies inside the convex quad."""
    return Obstacle(quad).inside_length(p, q)


def segment_hits_quad(p: Point, q: Point, quad: Quad) -> bool:
    """True when the segment p-q crosses the convex quad."""
    return Obstacle(quad).hits_segment(p, q)


class Grid:
    """A coarse bucket grid over boxes, for quick 'what is near here' queries."""

    def __init__(self, cell: float = 40.0) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[int]] = {}

    def add(self, index: int, box) -> None:
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                self.cells.setdefault((i, j), []).append(index)

    def near(self, box) -> set[int]:
        c = self.cell
        found: set[int] = set()
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                cell = self.cells.get((i, j))
                if cell:
                    found.update(cell)
        return found
