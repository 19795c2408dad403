"""The player's best path for a ticket: own routes are free, open routes cost their length."""

from __future__ import annotations

import heapq

from ttr_desktop.maps.model import GameMap


def best_path(game_map: GameMap, seat: int, owners: dict[str, int], a: str, b: str,
              doubles_open: bool) -> list[str]:
    """Route ids of the cheapest path from ``a`` to ``b`` for ``seat`` ([] if none)."""
    blocked_groups = set()
    for rid, owner in owners.items():
        route = game_map.routes[rid]
        if owner == seat or not doubles_open:
            blocked_groups.add(route.group)
    adj: dict[str, list[tuple[str, str, int]]] = {}
    for rid, route in game_map.routes.items():
        owner = owners.get(rid)
        if owner is None:
            if route.group in blocked_groups:
                continue
            cost = route.length
        elif owner == seat:
            cost = 0
        else:
            continue
        adj.setdefault(route.a, []).append((route.b, rid, cost))
        adj.setdefault(route.b, []).append((route.a, rid, cost))
    dist = {a: 0}
    prev: dict[str, tuple[str, str]] = {}
    heap = [(0, a)]
    while heap:
        d, city = heapq.heappop(heap)
        if city == b:
            break
        if d > dist.get(city, 1 << 30):
            continue
        for other, rid, cost in adj.get(city, []):
            nd = d + cost
            if nd < dist.get(other, 1 << 30):
                dist[other] = nd
                prev[other] = (city, rid)
                heapq.heappush(heap, (nd, other))
    if b not in dist:
        return []
    path = []
    city = b
    while city != a:
        city, rid = prev[city]
        path.append(rid)
    return path[::-1]
