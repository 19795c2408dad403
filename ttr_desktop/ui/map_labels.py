"""City labels placed clear of train spaces, city markers and each other.

Each label tries many spots around its marker: sixteen directions at four
distances (the two far ones drawn with a thin leader line back to the marker),
then the same name one or two sizes smaller or on two lines, and only where
nothing near fits, spots farther out along 32 directions, always with a leader.
A spot is usable only when the label's visible pixels (text and halo) keep
``margin`` pixels from every train space, every marker and the board's edge.
The most crowded cities choose first, and a placed label may step aside to
another usable spot so that a neighbour fits.

Everything here works in one coordinate system given by the caller (the map
view passes zoomed-board pixels, so panning only shifts the result).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.map_label_choice import anneal, label_conflicts, touch
from ttr_desktop.ui.map_shapes import Grid, Obstacle, box_hits_circle

Point = tuple[float, float]
Quad = Sequence[Point]

#: Near spots: distances beyond the marker edge in label heights; from LEADER_FROM on a
#: leader line joins label and marker.
DISTANCES = (0.0, 0.3, 0.7, 1.15)
LEADER_FROM = 2
#: Far spots (always with a leader), tried only where no near spot is usable.
FAR_DISTANCES = (1.6, 2.0, 2.4, 2.9, 3.4, 4.0)
_CROPPED: dict[tuple[str, int], pygame.Surface] = {}


@dataclass(frozen=True, slots=True)
class LabelSite:
    """A city to label: its id, name, centre, marker radius and weight (how much it
    matters that its name shows: the map view passes the number of routes)."""

    id: str
    name: str
    x: float
    y: float
    radius: float
    weight: int = 0


@dataclass(slots=True)
class PlacedLabel:
    """Where a label went: its surface, its rectangle (exactly the visible pixels), an
    optional leader line (marker edge -> label) and the font size used."""

    surf: pygame.Surface
    rect: pygame.Rect
    leader: tuple[Point, Point] | None
    size: int


def two_lines(name: str) -> tuple[str, str] | None:
    """The name split at the space that best balances its two lines (None: one word)."""
    words = name.split(" ")
    if len(words) < 2:
        return None
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i]))
                                                       - len(" ".join(words[i:]))))
    return " ".join(words[:best]), " ".join(words[best:])


def label_surface(name: str, size: int, lines: int = 1) -> pygame.Surface:
    """The city name on its halo (on one or two lines), cropped to the visible pixels."""
    key = (name if lines == 1 else name + "\n", size)
    surf = _CROPPED.get(key)
    if surf is None:
        parts = two_lines(name) if lines == 2 else None
        if parts is None:
            full = style.halo_text(name, size, style.INK, bold=True)
        else:
            top, bottom = (style.halo_text(p, size, style.INK, bold=True) for p in parts)
            step = round(size * 1.12)
            w = max(top.get_width(), bottom.get_width())
            full = pygame.Surface((w, step + bottom.get_height()), pygame.SRCALPHA)
            full.blit(bottom, ((w - bottom.get_width()) // 2, step))
            full.blit(top, ((w - top.get_width()) // 2, 0))
        box = full.get_bounding_rect(min_alpha=1)
        surf = full.subsurface(box).copy()
        if len(_CROPPED) > 2000:
            _CROPPED.clear()
        _CROPPED[key] = surf
    return surf


# Geometry -----------------------------------------------------------------------
def _directions() -> list[tuple[float, float, float]]:
    """Sixteen directions on a square (so labels hug the marker) with a preference cost:
    right, left, above, below, then the diagonals and the rest."""
    cardinal = {0: 0.0, 8: 1.0, 12: 1.6, 4: 2.0}
    out = []
    for i in range(16):
        a = math.radians(i * 22.5)
        c, s = math.cos(a), math.sin(a)
        m = max(abs(c), abs(s))
        pref = cardinal.get(i, 2.6 if i % 2 == 0 else 3.2) + i * 0.001
        out.append((c / m, s / m, pref))
    return out


_DIRECTIONS = _directions()
_FAR_DIRECTIONS = [(math.cos(math.radians(i * 11.25)), math.sin(math.radians(i * 11.25)),
                    i * 0.001) for i in range(32)]


@lru_cache(maxsize=32)
def _ring_offsets(step: int, n: int) -> tuple[tuple[int, int], ...]:
    """Grid offsets within n steps of the centre, nearest first."""
    cells = [(i * step, j * step) for i in range(-n, n + 1) for j in range(-n, n + 1)]
    return tuple(sorted(cells, key=lambda c: (c[0] * c[0] + c[1] * c[1], c)))


def _leader(site: LabelSite, rect: pygame.Rect) -> tuple[Point, Point]:
    """A line from the marker's edge to the nearest point of the label."""
    end = (min(max(site.x, rect.left), rect.right - 1),
           min(max(site.y, rect.top), rect.bottom - 1))
    dist = math.hypot(end[0] - site.x, end[1] - site.y) or 1.0
    start = (site.x + (end[0] - site.x) * (site.radius + 1) / dist,
             site.y + (end[1] - site.y) * (site.radius + 1) / dist)
    return start, end


# Placement ----------------------------------------------------------------------
class _Candidate:
    __slots__ = ("box", "cost", "leader", "rect", "size", "surf")

    def __init__(self, cost, rect, leader, size, surf, margin) -> None:
        self.cost, self.rect, self.leader, self.size, self.surf = cost, rect, leader, size, surf
        self.box = (rect.left - margin, rect.top - margin, rect.right + margin,
                    rect.bottom + margin)


class _Placer:
    """One placement run (see the module docstring)."""

    def __init__(self, sites: Sequence[LabelSite], quads: Sequence[Quad], bounds: pygame.Rect,
                 size: int, min_size: int, margin: float, leader_grace: float) -> None:
        self.sites, self.bounds, self.size, self.min_size = sites, bounds, size, min_size
        self.margin, self.grace = margin, leader_grace
        self.obstacles = [Obstacle(q) for q in quads]
        self.grid = Grid()
        for i, ob in enumerate(self.obstacles):
            self.grid.add(i, ob.box)
        self.marker_grid = Grid()
        for i, s in enumerate(sites):
            self.marker_grid.add(i, (s.x - s.radius, s.y - s.radius, s.x + s.radius,
                                     s.y + s.radius))
        self.weight = {site.id: site.weight for site in sites}
        self.mask = self.obstacle_mask()
        self._box_masks: dict[tuple[int, int], pygame.mask.Mask] = {}

    def obstacle_mask(self) -> pygame.mask.Mask:
        """Every train space and marker, grown by a pixel or two, as a bit mask over
        ``bounds``: a quick first test before the exact geometry."""
        b = self.bounds
        mask = pygame.mask.Mask(b.size)
        pad = 2
        for ob in self.obstacles:
            x0, y0 = math.floor(ob.box[0]) - pad, math.floor(ob.box[1]) - pad
            w, h = math.ceil(ob.box[2]) + pad - x0, math.ceil(ob.box[3]) + pad - y0
            surf = pygame.Surface((w, h), pygame.SRCALPHA)
            pts = [(x - x0, y - y0) for x, y in ob.quad]
            pygame.draw.polygon(surf, (255, 255, 255, 255), pts)
            pygame.draw.polygon(surf, (255, 255, 255, 255), pts, 2)
            mask.draw(pygame.mask.from_surface(surf), (x0 - b.x, y0 - b.y))
        for site in self.sites:
            r = math.ceil(site.radius) + 1
            surf = pygame.Surface((2 * r + 1, 2 * r + 1), pygame.SRCALPHA)
            pygame.draw.circle(surf, (255, 255, 255, 255), (r, r), r)
            mask.draw(pygame.mask.from_surface(surf),
                      (math.floor(site.x) - r - b.x, math.floor(site.y) - r - b.y))
        return mask

    def blocked(self, rect: pygame.Rect) -> bool:
        """The quick test: True when the rectangle (grown by the margin) leaves the bounds
        or covers a masked pixel. A False still needs the exact test."""
        m = math.ceil(self.margin)
        b = self.bounds
        x, y = rect.x - m - b.x, rect.y - m - b.y
        w, h = rect.width + 2 * m, rect.height + 2 * m
        if x < 0 or y < 0 or x + w > b.width or y + h > b.height:
            return True
        box = self._box_masks.get((w, h))
        if box is None:
            box = self._box_masks[(w, h)] = pygame.mask.Mask((w, h), fill=True)
        return self.mask.overlap(box, (x, y)) is not None

    def variants(self, site: LabelSite) -> list[tuple[pygame.Surface, int, float]]:
        """(surface, font size, extra cost): smaller sizes, then two lines, cost more."""
        out = []
        split = two_lines(site.name) is not None
        for drop, sz in enumerate(range(self.size, self.min_size - 1, -1)):
            out.append((label_surface(site.name, sz), sz, drop * 12.0))
            if split:
                out.append((label_surface(site.name, sz, 2), sz, 7 + drop * 12.0))
        return out

    def candidates(self, site: LabelSite, far: bool) -> list[_Candidate]:
        """Spots around the marker, cheapest first: near ones, or the far ring."""
        out = []
        for surf, sz, extra_cost in self.variants(site):
            w, h = surf.get_size()
            h_line = min(h, sz * 1.4)
            for k, extra in enumerate(FAR_DISTANCES if far else DISTANCES):
                d = site.radius + self.margin + 1 + extra * h_line
                for c, s, pref in (_FAR_DIRECTIONS if far else _DIRECTIONS):
                    cx = site.x + c * (d + w / 2)
                    cy = site.y + s * (d + h / 2)
                    rect = pygame.Rect(round(cx - w / 2), round(cy - h / 2), w, h)
                    leader = _leader(site, rect) if far or k >= LEADER_FROM else None
                    cost = (40 + extra * 6 + pref if far else k * 9 + pref) + extra_cost
                    out.append(_Candidate(cost, rect, leader, sz, surf, self.margin))
        out.sort(key=lambda cand: cand.cost)
        return out

    def dense_candidates(self, site: LabelSite) -> Iterator[_Candidate]:
        """The last resort: the smallest label (on one or two lines) at every few pixels
        within six line heights of the marker, nearest first, always with a leader."""
        for surf, sz, extra_cost in self.variants(site)[-2:]:
            w, h = surf.get_size()
            reach = 6 * sz * 1.4
            step = max(2, round(sz / 4))
            for dx, dy in _ring_offsets(step, int(reach // step)):
                rect = pygame.Rect(round(site.x + dx - w / 2), round(site.y + dy - h / 2), w, h)
                if self.blocked(rect):
                    continue
                end = (min(max(site.x, rect.left), rect.right - 1),
                       min(max(site.y, rect.top), rect.bottom - 1))
                dist = math.hypot(end[0] - site.x, end[1] - site.y)
                if site.radius + 1 < dist <= reach:
                    yield _Candidate(60 + dist / sz * 4 + extra_cost, rect, _leader(site, rect),
                                     sz, surf, self.margin)

    def crossings(self, site: LabelSite, cand: _Candidate) -> int | None:
        """None when the spot touches the board's edge, a marker or a train space; else how
        many tracks its leader passes under (not counting those at the marker). A spot that
        would read as another city's label costs more."""
        box, b = cand.box, self.bounds
        if box[0] < b.left or box[1] < b.top or box[2] > b.right or box[3] > b.bottom:
            return None
        if self.blocked(cand.rect):
            return None
        for i in self.marker_grid.near(box):
            m = self.sites[i]
            if box_hits_circle(box, m.x, m.y, m.radius):
                return None
        obstacles = self.obstacles
        if any(obstacles[i].hits_box(box) for i in self.grid.near(box)):
            return None
        if self.closer_city(site, cand):
            cand.cost += 25
        if cand.leader is None:
            return 0
        (bx, by) = cand.leader[1]
        dist = math.hypot(bx - site.x, by - site.y) or 1.0
        grace = min(self.grace, dist - 1)
        ax, ay = site.x + (bx - site.x) * grace / dist, site.y + (by - site.y) * grace / dist
        near = self.grid.near((min(ax, bx) - 2, min(ay, by) - 2, max(ax, bx) + 2,
                               max(ay, by) + 2))
        # The drawn leader is a band about three pixels wide: it may cross a track
        # (counted), never run along one.
        nx, ny = ay - by, bx - ax
        n = math.hypot(nx, ny) or 1.0
        nx, ny = nx / n * 1.5, ny / n * 1.5
        crossed = 0
        for i in near:
            ob = obstacles[i]
            lengths = [ob.inside_length((ax + k * nx, ay + k * ny), (bx + k * nx, by + k * ny))
                       for k in (-1, 0, 1)]
            if max(lengths) > 0:
                if max(lengths) > 2.2 * ob.width:
                    return None
                crossed += 1
        return crossed

    def closer_city(self, site: LabelSite, cand: _Candidate) -> bool:
        """True when the label would read as another city's: another marker is nearer to
        its centre (to its nearest point, for a label with a leader)."""
        rect = cand.rect
        if cand.leader is None:
            px, py = rect.center
        else:
            px, py = (min(max(site.x, rect.left), rect.right),
                      min(max(site.y, rect.top), rect.bottom))
        own = math.hypot(px - site.x, py - site.y)
        if cand.leader is None:
            reach = (px - own, py - own, px + own, py + own)
            return any(math.hypot(px - self.sites[i].x, py - self.sites[i].y) < own
                       for i in self.marker_grid.near(reach) if self.sites[i] is not site)
        left, top, right, bottom = rect.left, rect.top, rect.right, rect.bottom
        reach = (left - own, top - own, right + own, bottom + own)
        for i in self.marker_grid.near(reach):
            m = self.sites[i]
            if m is not site:
                nx, ny = min(max(m.x, left), right), min(max(m.y, top), bottom)
                if math.hypot(nx - m.x, ny - m.y) < own:
                    return True
        return False

    def first_usable(self, site: LabelSite, far: bool, limit: int = 10,
                     dense: bool = False) -> list[_Candidate]:
        """Up to ``limit`` usable spots, best first. A near spot's leader must cross no
        track; a far one's may cross one or two (never run along one), at a price."""
        found = []
        pool = self.dense_candidates(site) if dense else self.candidates(site, far)
        for cand in pool:
            n = self.crossings(site, cand)
            if n is None or n > (2 if far else 0):
                continue
            if n:
                cand.cost += 40 * n
            found.append(cand)
            if len(found) >= limit * (3 if far else 2):
                break
        found.sort(key=lambda c: c.cost)
        return found[:limit]

    def pool(self, site: LabelSite) -> tuple[list[_Candidate], bool]:
        """The usable spots of a site, cheapest first, and whether it has any: near ones,
        a few far ones (more where near ones are scarce), the last resort where none is
        usable, and else the spot that covers the least."""
        found = self.first_usable(site, False, 16)
        found += self.first_usable(site, True, 10 if len(found) < 3 else 5)
        if not found:
            found = self.first_usable(site, True, 10, dense=True)
        if found:
            return sorted(found, key=lambda c: c.cost), True
        worst = min(self.candidates(site, False), key=lambda c: (
            sum(self.obstacles[i].hits_box(c.box) for i in self.grid.near(c.box)), c.cost))
        return [worst], False

    def run(self, seed: int = 7) -> dict[str, PlacedLabel]:
        ids = [site.id for site in self.sites]
        pools: dict[str, list[_Candidate]] = {}
        left_out: set[str] = set()
        for site in self.sites:
            pools[site.id], usable = self.pool(site)
            if not usable:
                left_out.add(site.id)
        live = [cid for cid in ids if cid not in left_out]
        conflicts = label_conflicts(live, pools)
        choice = anneal(live, pools, conflicts, random.Random(seed))
        self.repair(pools, conflicts, choice)
        # What still clashes: leave out the label in the most clashes (of a city with
        # few routes first), until none do; then give the others a second chance.
        removed = []
        while True:
            spots = {cid: pools[cid][i] for cid, i in choice.items()}
            clashes = {cid: sum(touch(spot, other) for o, other in spots.items() if o != cid)
                       for cid, spot in spots.items()}
            worst = max(clashes, key=lambda c: (clashes[c], -self.weight.get(c, 0),
                                                spots[c].cost), default=None)
            if worst is None or clashes[worst] == 0:
                break
            removed.append(worst)
            del choice[worst]
        for cid in removed:
            placed = [pools[o][j] for o, j in choice.items()]
            spot = next((c for c in pools[cid] if not any(touch(c, p) for p in placed)), None)
            if spot is not None:
                choice[cid] = pools[cid].index(spot)
        return {cid: PlacedLabel(c.surf, c.rect, c.leader, c.size)
                for cid in ids if cid in choice for c in (pools[cid][choice[cid]],)}

    def repair(self, pools, conflicts, choice: dict[str, int]) -> None:
        """Give a label still clashing a farther spot that clashes with nothing."""
        by_id = {site.id: site for site in self.sites}
        for cid in list(choice):
            if not any(choice.get(o) == j for o, j in conflicts[(cid, choice[cid])]):
                continue
            placed = [pools[o][j] for o, j in choice.items() if o != cid]
            site = by_id[cid]
            for dense in (False, True):
                spot = next((c for c in self.first_usable(site, True, 40, dense)
                             if not any(touch(c, p) for p in placed)), None)
                if spot is not None:
                    pools[cid].append(spot)
                    choice[cid] = len(pools[cid]) - 1
                    conflicts[(cid, choice[cid])] = []
                    break


def place_labels(sites: Sequence[LabelSite], quads: Sequence[Quad], bounds: pygame.Rect,
                 size: int, min_size: int | None = None, margin: float = 1.0,
                 leader_grace: float = 0.0) -> dict[str, PlacedLabel]:
    """Place one label per site clear of ``quads`` (train spaces), the markers and each
    other, inside ``bounds``. Sizes from ``size`` down to ``min_size`` are tried; a
    leader line may pass under tracks within ``leader_grace`` of the marker's centre.
    A site with no clear spot at all is left out of the result (the map view shows
    that name when zoomed in, and in the city's tooltip)."""
    min_size = size if min_size is None else min(size, min_size)
    return _Placer(sites, quads, bounds, size, min_size, margin, leader_grace).run()
