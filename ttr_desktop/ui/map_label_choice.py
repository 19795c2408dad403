"""Choosing one spot per city label: which spots clash, and a search for the best set.

Every city has a few usable spots with a cost (see ``map_labels``). Two spots
of different cities clash when their labels overlap, a leader runs through the
other label, or two leaders cross. The choice starts greedy (crowded cities
first) and then anneals: a seeded random walk over spot changes that accepts a
worse set with a chance that shrinks as it cools, keeping the best set seen.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import pygame

from ttr_desktop.ui.map_shapes import Grid

if TYPE_CHECKING:
    from ttr_desktop.ui.map_labels import _Candidate

def touch(a: _Candidate, b: _Candidate) -> bool:
    """True when two labels (of different cities) would clash: their boxes overlap, or
    one's leader runs through the other label, or the two leaders cross."""
    if (a.rect.left < b.box[2] and a.rect.right > b.box[0] and a.rect.top < b.box[3]
            and a.rect.bottom > b.box[1]):
        return True
    for one, other in ((a, b), (b, a)):
        if one.leader is not None and pygame.Rect(other.rect).clipline(*one.leader):
            return True
    if a.leader is not None and b.leader is not None:
        return segments_cross(*a.leader, *b.leader)
    return False


def segments_cross(p, q, r, s) -> bool:
    def side(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    return (side(p, q, r) * side(p, q, s) < 0) and (side(r, s, p) * side(r, s, q) < 0)


def extent(c: _Candidate) -> tuple[float, float, float, float]:
    box = c.box
    if c.leader is None:
        return box
    (ax, ay), (bx, by) = c.leader
    return min(box[0], ax, bx), min(box[1], ay, by), max(box[2], ax, bx), max(box[3], ay, by)


def label_conflicts(ids: list[str], pools: dict[str, list[_Candidate]]
               ) -> dict[tuple[str, int], list[tuple[str, int]]]:
    """For every candidate, the candidates of other cities it clashes with."""
    grid = Grid(60.0)
    keys = [(cid, i) for cid in ids for i in range(len(pools[cid]))]
    for n, (cid, i) in enumerate(keys):
        grid.add(n, extent(pools[cid][i]))
    out: dict[tuple[str, int], list[tuple[str, int]]] = {key: [] for key in keys}
    for n, (cid, i) in enumerate(keys):
        cand = pools[cid][i]
        for m in grid.near(extent(cand)):
            if m <= n:
                continue
            other_id, j = keys[m]
            if other_id != cid and touch(cand, pools[other_id][j]):
                out[(cid, i)].append((other_id, j))
                out[(other_id, j)].append((cid, i))
    return out


#: What a clash between two labels costs in the search (far above any spot's own cost).
CLASH = 400.0


def anneal(ids: list[str], pools: dict[str, list[_Candidate]],
            conflicts: dict[tuple[str, int], list[tuple[str, int]]],
            rng: random.Random) -> dict[str, int]:
    """Pick one spot per city: greedy (crowded cities first), then simulated annealing
    over spot changes, minimising the spots' costs plus CLASH per clash."""
    choice: dict[str, int] = {}
    for cid in sorted(ids, key=lambda c: len(pools[c])):
        taken = {(o, j) for o, j in choice.items()}
        free = [i for i in range(len(pools[cid]))
                if not any(k in taken for k in conflicts[(cid, i)])]
        choice[cid] = free[0] if free else 0

    def clashes(cid: str, i: int) -> int:
        return sum(1 for o, j in conflicts[(cid, i)] if choice.get(o) == j)

    def energy() -> float:
        total = sum(pools[c][choice[c]].cost for c in ids)
        return total + CLASH * sum(clashes(c, choice[c]) for c in ids) / 2

    movable = [cid for cid in ids if len(pools[cid]) > 1]
    if not movable or all(i == 0 for i in choice.values()):
        return choice                      # every city has its best spot already
    current = energy()
    best, best_choice = current, dict(choice)
    steps = 15 * sum(len(pools[c]) for c in movable)
    temp, cool = 60.0, (0.2 / 60.0) ** (1.0 / steps)
    for _ in range(steps):
        cid = rng.choice(movable)
        old = choice[cid]
        new = rng.randrange(len(pools[cid]) - 1)
        new += new >= old
        delta = (pools[cid][new].cost - pools[cid][old].cost
                 + CLASH * (clashes(cid, new) - clashes(cid, old)))
        if delta <= 0 or rng.random() < math.exp(-delta / temp):
            choice[cid] = new
            current += delta
            if current < best - 1e-9:
                best, best_choice = current, dict(choice)
        temp *= cool
    return best_choice
