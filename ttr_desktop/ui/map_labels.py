"""City labels placed clear of city markers and each other, and of train spaces
wherever there is room.

Every city gets its name, close to its marker. Each label tries many spots
around its marker: sixteen directions at four distances (the two far ones
drawn with a thin leader line back to the marker), then the same name one or
two sizes smaller or on two lines, and only where nothing near fits, spots a
little farther out along 32 directions, always with a short leader. No spot
is farther than ``REACH`` font sizes from the marker's edge. A clear spot keeps
``margin`` pixels from every train space, every marker and the board's edge;
where a city has too few clear spots, spots that cover part of a train space
are offered too, priced by how much they cover (the halo keeps the name
readable over the track). Markers and other labels are never covered. The most
crowded cities choose first, and a placed label may step aside to another spot
so that a neighbour fits.

Several end points of one country close together share one label
(``LabelSite.shared``): the name is said once, next to any of them.

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
FAR_DISTANCES = (1.6, 1.9, 2.2)
#: No label's nearest pixel is farther than this many font sizes from its marker's edge.
REACH = 2.5
#: What a spot covering train spaces costs, plus so much per covered pixel (in font
#: sizes squared): above every clear spot, so such spots serve only where needed.
COVER_COST = 150.0
COVER_PER_AREA = 30.0
_CROPPED: dict[tuple[str, int], pygame.Surface] = {}


@dataclass(frozen=True, slots=True)
class LabelSite:
    """A city to label: its id, name, centre, marker radius and weight (how much it
    matters that its name shows: the map view passes the number of routes).

    ``shared`` names other sites (by id) that this label names too (end points of
    one country): the label may sit next to any of them, and they get none of their
    own."""

    id: str
    name: str
    x: float
    y: float
    radius: float
    weight: int = 0
    shared: tuple[str, ...] = ()


@dataclass(slots=True)
class PlacedLabel:
    """Where a label went: its surface, its rectangle (exactly the visible pixels), an
    optional leader line (marker edge -> label), the font size used, the site it sits
    next to (itself, or one it shares the label with) and whether it covers part of a
    train space."""

    surf: pygame.Surface
    rect: pygame.Rect
    leader: tuple[Point, Point] | None
    size: int
    anchor: str = ""
    covers: bool = False


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
    __slots__ = ("anchor", "box", "cost", "covers", "leader", "rect", "size", "surf")

    def __init__(self, cost, rect, leader, size, surf, margin, anchor: str) -> None:
        self.cost, self.rect, self.leader, self.size, self.surf = cost, rect, leader, size, surf
        self.anchor = anchor
        self.covers = False
        self.box = (rect.left - margin, rect.top - margin, rect.right + margin,
                    rect.bottom + margin)


def gap(site: LabelSite, rect: pygame.Rect) -> float:
    """How far the label's nearest pixel is from the marker's edge."""
    nx = min(max(site.x, rect.left), rect.right)
    ny = min(max(site.y, rect.top), rect.bottom)
    return math.hypot(nx - site.x, ny - site.y) - site.radius


class _Placer:
    """One placement run (see the module docstring)."""

    def __init__(self, sites: Sequence[LabelSite], quads: Sequence[Quad], bounds: pygame.Rect,
                 size: int, min_size: int, margin: float, leader_grace: float) -> None:
        self.sites, self.bounds, self.size, self.min_size = sites, bounds, size, min_size
        self.margin, self.grace = margin, leader_grace
        self.by_id = {site.id: site for site in sites}
        shared = {other for site in sites for other in site.shared}
        #: The sites that get a label (a shared label is said by its first site).
        self.labelled = [site for site in sites if site.id not in shared]
        self.group = {site.id: frozenset((site.id, *site.shared)) for site in self.labelled}
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

    def anchors(self, site: LabelSite) -> list[LabelSite]:
        """The markers a label may sit next to: its own, and those it names too."""
        return [site, *(self.by_id[i] for i in site.shared if i in self.by_id)]

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

    def _box_mask(self, w: int, h: int) -> pygame.mask.Mask:
        box = self._box_masks.get((w, h))
        if box is None:
            box = self._box_masks[(w, h)] = pygame.mask.Mask((w, h), fill=True)
        return box

    def blocked(self, rect: pygame.Rect) -> bool:
        """The quick test: True when the rectangle (grown by the margin) leaves the bounds
        or covers a masked pixel. A False still needs the exact test."""
        m = math.ceil(self.margin)
        b = self.bounds
        x, y = rect.x - m - b.x, rect.y - m - b.y
        w, h = rect.width + 2 * m, rect.height + 2 * m
        if x < 0 or y < 0 or x + w > b.width or y + h > b.height:
            return True
        return self.mask.overlap(self._box_mask(w, h), (x, y)) is not None

    def covered(self, rect: pygame.Rect) -> int:
        """How many masked pixels (train spaces, grown a little) the rectangle covers."""
        b = self.bounds
        return self.mask.overlap_area(self._box_mask(rect.width, rect.height),
                                      (rect.x - b.x, rect.y - b.y))

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
        """Spots around the marker(s), cheapest first: near ones, or the far ring (never
        beyond ``REACH``)."""
        out = []
        for anchor in self.anchors(site):
            for surf, sz, extra_cost in self.variants(site):
                w, h = surf.get_size()
                h_line = min(h, sz * 1.4)
                for k, extra in enumerate(FAR_DISTANCES if far else DISTANCES):
                    d = anchor.radius + self.margin + 1 + extra * h_line
                    for c, s, pref in (_FAR_DIRECTIONS if far else _DIRECTIONS):
                        cx = anchor.x + c * (d + w / 2)
                        cy = anchor.y + s * (d + h / 2)
                        rect = pygame.Rect(round(cx - w / 2), round(cy - h / 2), w, h)
                        if far and gap(anchor, rect) > REACH * sz:
                            continue
                        leader = _leader(anchor, rect) if far or k >= LEADER_FROM else None
                        cost = (40 + extra * 6 + pref if far else k * 9 + pref) + extra_cost
                        out.append(_Candidate(cost, rect, leader, sz, surf, self.margin,
                                              anchor.id))
        out.sort(key=lambda cand: cand.cost)
        return out

    def dense_candidates(self, site: LabelSite, covering: bool = False
                         ) -> Iterator[_Candidate]:
        """The last resort: the smallest label (on one or two lines) at every few pixels
        within ``REACH`` of the marker, nearest first, with a leader where it is not
        touching. ``covering``: spots over train spaces count too."""
        for anchor in self.anchors(site):
            for surf, sz, extra_cost in self.variants(site)[-2:]:
                w, h = surf.get_size()
                reach = REACH * sz + anchor.radius
                step = max(2, round(sz / 4))
                n = int((reach + max(w, h) / 2) // step)
                for dx, dy in _ring_offsets(step, n):
                    rect = pygame.Rect(round(anchor.x + dx - w / 2),
                                       round(anchor.y + dy - h / 2), w, h)
                    if not covering and self.blocked(rect):
                        continue
                    end = (min(max(anchor.x, rect.left), rect.right - 1),
                           min(max(anchor.y, rect.top), rect.bottom - 1))
                    dist = math.hypot(end[0] - anchor.x, end[1] - anchor.y)
                    if anchor.radius + 1 < dist <= reach:
                        leader = (_leader(anchor, rect)
                                  if dist > anchor.radius + self.margin + 0.7 * sz else None)
                        yield _Candidate(60 + dist / sz * 4 + extra_cost, rect, leader, sz,
                                         surf, self.margin, anchor.id)

    def clear_of_markers(self, site: LabelSite, cand: _Candidate) -> bool:
        """True when the spot stays inside the bounds and off every marker."""
        box, b = cand.box, self.bounds
        if box[0] < b.left or box[1] < b.top or box[2] > b.right or box[3] > b.bottom:
            return False
        for i in self.marker_grid.near(box):
            m = self.sites[i]
            if box_hits_circle(box, m.x, m.y, m.radius):
                return False
        return True

    def crossings(self, site: LabelSite, cand: _Candidate) -> int | None:
        """None when the spot touches the board's edge, a marker or a train space; else how
        many tracks its leader passes under (not counting those at the marker). A spot that
        would read as another city's label costs more."""
        if self.blocked(cand.rect) or not self.clear_of_markers(site, cand):
            return None
        obstacles = self.obstacles
        box = cand.box
        if any(obstacles[i].hits_box(box) for i in self.grid.near(box)):
            return None
        if self.closer_city(site, cand):
            cand.cost += 25
        self.lead_if_ambiguous(site, cand)
        return self.leader_crossings(cand)

    def lead_if_ambiguous(self, site: LabelSite, cand: _Candidate) -> None:
        """A spot without a leader whose nearest pixel is clearly nearer (by half a font
        size) to another city's marker than to its own would name the wrong city: it
        gets a leader line to its own marker."""
        if cand.leader is not None:
            return
        anchor = self.by_id[cand.anchor]
        own_group = self.group.get(site.id, frozenset((site.id,)))
        own = gap(anchor, cand.rect) - cand.size / 2
        r = cand.rect
        near = (r.left - own - 40, r.top - own - 40, r.right + own + 40, r.bottom + own + 40)
        if any(gap(self.sites[i], r) < own for i in self.marker_grid.near(near)
               if self.sites[i].id not in own_group):
            cand.leader = _leader(anchor, r)

    def leader_crossings(self, cand: _Candidate) -> int | None:
        """How many tracks a spot's leader passes under beyond the grace (None: it runs
        along one)."""
        if cand.leader is None:
            return 0
        anchor = self.by_id[cand.anchor]
        obstacles = self.obstacles
        (bx, by) = cand.leader[1]
        dist = math.hypot(bx - anchor.x, by - anchor.y) or 1.0
        grace = min(self.grace, dist - 1)
        ax = anchor.x + (bx - anchor.x) * grace / dist
        ay = anchor.y + (by - anchor.y) * grace / dist
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
        """True when the label would read as another city's: another marker (not one it
        names) is nearer to its centre (to its nearest point, for one with a leader)."""
        rect = cand.rect
        anchor = self.by_id[cand.anchor]
        own_group = self.group.get(site.id, frozenset((site.id,)))
        if cand.leader is None:
            px, py = rect.center
        else:
            px, py = (min(max(anchor.x, rect.left), rect.right),
                      min(max(anchor.y, rect.top), rect.bottom))
        own = math.hypot(px - anchor.x, py - anchor.y)
        if cand.leader is None:
            reach = (px - own, py - own, px + own, py + own)
            return any(math.hypot(px - self.sites[i].x, py - self.sites[i].y) < own
                       for i in self.marker_grid.near(reach)
                       if self.sites[i].id not in own_group)
        left, top, right, bottom = rect.left, rect.top, rect.right, rect.bottom
        reach = (left - own, top - own, right + own, bottom + own)
        for i in self.marker_grid.near(reach):
            m = self.sites[i]
            if m.id not in own_group:
                nx, ny = min(max(m.x, left), right), min(max(m.y, top), bottom)
                if math.hypot(nx - m.x, ny - m.y) < own:
                    return True
        return False

    def share_cost(self, site: LabelSite, cand: _Candidate) -> float:
        """A shared label should sit among the end points it names: it costs by how far
        the farthest of them is from it."""
        if not site.shared:
            return 0.0
        return max(gap(a, cand.rect) for a in self.anchors(site)) / cand.size * 4

    def first_usable(self, site: LabelSite, far: bool, limit: int = 10,
                     dense: bool = False) -> list[_Candidate]:
        """Up to ``limit`` clear spots, best first. A near spot's leader must cross no
        track; a far one's may cross one or two (never run along one), at a price."""
        found = []
        pool = self.dense_candidates(site) if dense else self.candidates(site, far)
        for cand in pool:
            n = self.crossings(site, cand)
            if n is None or n > (2 if far or dense else 0):
                continue
            if n:
                cand.cost += 40 * n
            cand.cost += self.share_cost(site, cand)
            found.append(cand)
            if len(found) >= limit * (3 if far else 2):
                break
        found.sort(key=lambda c: c.cost)
        return found[:limit]

    def covering(self, site: LabelSite, limit: int, dense: bool = False) -> list[_Candidate]:
        """Up to ``limit`` spots off every marker that may cover train spaces, priced by
        the pixels they cover (and their leader's crossings), cheapest first."""
        out = []
        pool = self.dense_candidates(site, True) if dense else self.candidates(site, False)
        for cand in pool:
            if not self.clear_of_markers(site, cand):
                continue
            self.lead_if_ambiguous(site, cand)
            crossed = self.leader_crossings(cand)
            if crossed is None:
                continue
            area = self.covered(cand.rect)
            cand.covers = area > 0
            cand.cost += COVER_COST + area / (cand.size * cand.size) * COVER_PER_AREA
            cand.cost += 40 * crossed + (25 if self.closer_city(site, cand) else 0)
            cand.cost += self.share_cost(site, cand)
            out.append(cand)
        out.sort(key=lambda c: c.cost)
        return out[:limit]

    def pool(self, site: LabelSite) -> list[_Candidate]:
        """The spots of a site, cheapest first: near clear ones, a few far ones (more
        where near ones are scarce), the last resort where none is clear, and where
        clear spots are few, some that cover part of a track."""
        found = self.first_usable(site, False, 16)
        found += self.first_usable(site, True, 10 if len(found) < 3 else 5)
        if not found:
            found = self.first_usable(site, True, 10, dense=True)
        if len(found) < 6:
            # Where every near spot covers a lot of track (a city against the frame),
            # the smaller name a little farther off may cover far less.
            found += self.covering(site, 12) + self.covering(site, 4, dense=True)
        return sorted(found, key=lambda c: c.cost)

    def run(self, seed: int = 7) -> dict[str, PlacedLabel]:
        ids = [site.id for site in self.labelled]
        by_id = self.by_id
        pools: dict[str, list[_Candidate]] = {}
        for site in self.labelled:
            pools[site.id] = self.pool(site)
        live = [cid for cid in ids if pools[cid]]
        conflicts = label_conflicts(live, pools)
        choice = anneal(live, pools, conflicts, random.Random(seed))
        self.repair(pools, conflicts, choice)
        # What still clashes: leave out the label in the most clashes (of a city with
        # few routes first), until none do; then give the others a second chance, over
        # a track if need be.
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
        removed += [cid for cid in ids if not pools[cid]]
        for cid in removed:
            placed = [pools[o][j] for o, j in choice.items()]
            site = by_id[cid]
            for more in (lambda: pools[cid], lambda: self.covering(site, 10 ** 6),
                         lambda: self.covering(site, 10 ** 6, dense=True)):
                spot = next((c for c in more() if not any(touch(c, p) for p in placed)),
                            None)
                if spot is not None:
                    pools[cid].append(spot)
                    choice[cid] = len(pools[cid]) - 1
                    break
        return {cid: PlacedLabel(c.surf, c.rect, c.leader, c.size, c.anchor, c.covers)
                for cid in ids if cid in choice for c in (pools[cid][choice[cid]],)}

    def repair(self, pools, conflicts, choice: dict[str, int]) -> None:
        """Give a label still clashing a farther spot that clashes with nothing."""
        by_id = self.by_id
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
    """Place one label per site (a shared label once, under its first site's id) clear
    of the markers and each other, inside ``bounds``, and clear of ``quads`` (train
    spaces) wherever a near spot allows. Sizes from ``size`` down to ``min_size`` are
    tried; a leader line may pass under tracks within ``leader_grace`` of the marker's
    centre. Only a site with no room at all off the markers is left out (the city's
    tooltip still names it)."""
    min_size = size if min_size is None else min(size, min_size)
    return _Placer(sites, quads, bounds, size, min_size, margin, leader_grace).run()
