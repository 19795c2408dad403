"""Route planning for bots: the map as index arrays, and shortest paths over it.

The static part (``MapGraph``) is built once per map and cached by map id.
The per-decision part (``Situation``) says, for the seat a view belongs to,
what each route costs to use: 0 for its own routes (and, with stations, the
opponent routes it can borrow), the length for an open route, nothing for a
route it can no longer claim.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap, Ticket
    from ttr_desktop.rules.view import PlayerView

#: Extra planning cost of an uncertain tunnel and of each locomotive a ferry demands.
TUNNEL_PENALTY = 0.6
FERRY_PENALTY = 0.8


class MapGraph:
    """Index arrays for one map: cities, routes, parallel groups, adjacency."""

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.city_ids: list[str] = list(game_map.cities)
        self.city_index = {c: i for i, c in enumerate(self.city_ids)}
        self.n_cities = len(self.city_ids)
        routes = game_map.route_list()
        self.routes = routes
        self.route_ids = [r.id for r in routes]
        self.route_index = {r.id: i for i, r in enumerate(routes)}
        self.n_routes = len(routes)
        self.r_a = [self.city_index[r.a] for r in routes]
        self.r_b = [self.city_index[r.b] for r in routes]
        self.r_len = [r.length for r in routes]
        self.r_color = [r.color for r in routes]
        self.r_ferry = [r.ferry_locomotives for r in routes]
        self.r_tunnel = [bool(r.tunnel) for r in routes]
        #: Planning weight of an open route: its length plus the risk of tunnels and ferries.
        self.r_weight = [r.length + (TUNNEL_PENALTY if r.tunnel else 0.0)
                         + FERRY_PENALTY * r.ferry_locomotives for r in routes]
        groups: dict[str, list[int]] = {}
        for i, r in enumerate(routes):
            groups.setdefault(r.group, []).append(i)
        #: The group number of each route; parallel routes share it (one link).
        self.r_link: list[int] = [0] * self.n_routes
        self.r_siblings: list[tuple[int, ...]] = [()] * self.n_routes
        for n, members in enumerate(groups.values()):
            for i in members:
                self.r_link[i] = n
                self.r_siblings[i] = tuple(j for j in members if j != i)
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n_cities)]
        for i in range(self.n_routes):
            self.adj[self.r_a[i]].append((i, self.r_b[i]))
            self.adj[self.r_b[i]].append((i, self.r_a[i]))
        self.tickets = {t.id: t for t in game_map.tickets}


_GRAPHS: dict[str, MapGraph] = {}


def graph_for(game_map: GameMap) -> MapGraph:
    """The cached MapGraph of ``game_map`` (keyed by map id; rebuilt if the map object changed)."""
    g = _GRAPHS.get(game_map.id)
    if g is None or g.map is not game_map:
        g = _GRAPHS[game_map.id] = MapGraph(game_map)
    return g


@dataclass
class Plan:
    """Routes to claim for a set of tickets, and which tickets fit in the trains left."""

    routes: list[int] = field(default_factory=list)      # open routes, in planning order
    trains: int = 0                                      # trains those routes take
    done: list[Ticket] = field(default_factory=list)   # already connected (cost 0)
    planned: list[Ticket] = field(default_factory=list)
    dropped: list[Ticket] = field(default_factory=list)  # unreachable or too long


class Situation:
    """Route costs for one seat at one moment, read from its PlayerView."""

    def __init__(self, view: PlayerView, graph: MapGraph | None = None) -> None:
        g = graph or graph_for(view.map)
        self.graph = g
        seat = view.seat
        self.seat = seat
        self.trains = view.trains_left[seat]
        owners = view.route_owners
        index = g.route_index
        owner = [-1] * g.n_routes
        for rid, o in owners.items():
            owner[index[rid]] = o
        self.owner = owner
        stations = view.extra.get("stations") or {}
        self.station_cities = {g.city_index[c] for c, o in stations.items() if o == seat}
        self.taken_cities = {g.city_index[c] for c in stations}
        doubles_open = view.doubles_open
        cost: list[float | None] = [None] * g.n_routes
        for r in range(g.n_routes):
            o = owner[r]
            if o == seat:
                cost[r] = 0.0
                continue
            if o >= 0:
                if g.r_a[r] in self.station_cities or g.r_b[r] in self.station_cities:
                    cost[r] = 0.0  # borrowable through a station (optimistic: one per station)
                continue
            blocked = False
            for s in g.r_siblings[r]:
                w = owner[s]
                if w == seat or (w >= 0 and not doubles_open):
                    blocked = True
                    break
            if blocked or g.r_len[r] > self.trains:
                continue
            cost[r] = g.r_weight[r]
        self.cost = cost
        self.own = {r for r in range(g.n_routes) if owner[r] == seat}

    def open(self, r: int) -> bool:
        """Whether ``r`` can still be claimed by this seat."""
        return self.owner[r] < 0 and self.cost[r] is not None

    def shortest_path(self, a: int, b: int, cost: list[float | None] | None = None,
                      ) -> tuple[float, list[int]] | None:
        """(cost, routes) of the cheapest path from city ``a`` to city ``b``, or None."""
        cost = self.cost if cost is None else cost
        if a == b:
            return 0.0, []
        g = self.graph
        dist = {a: 0.0}
        via: dict[int, tuple[int, int]] = {}
        heap = [(0.0, a)]
        adj = g.adj
        while heap:
            d, c = heapq.heappop(heap)
            if c == b:
                break
            if d > dist[c]:
                continue
            for r, other in adj[c]:
                w = cost[r]
                if w is None:
                    continue
                nd = d + w
                old = dist.get(other)
                if old is None or nd < old - 1e-9:
                    dist[other] = nd
                    via[other] = (r, c)
                    heapq.heappush(heap, (nd, other))
        if b not in dist:
            return None
        path = []
        c = b
        while c != a:
            r, c = via[c]
            path.append(r)
        path.reverse()
        return dist[b], path

    def plan(self, tickets: Iterable[Ticket], budget: int | None = None,
             extra_free: Iterable[int] = ()) -> Plan:
        """Paths for ``tickets`` in the given order; a route planned once is free after.

        A ticket whose path does not fit in ``budget`` trains (default: the trains
        left) after the earlier ones, or that cannot be reached, is dropped.
        """
        g = self.graph
        budget = self.trains if budget is None else budget
        cost = self.cost[:]
        for r in extra_free:
            cost[r] = 0.0
        out = Plan()
        chosen: set[int] = set()
        for t in tickets:
            found = self.shortest_path(g.city_index[t.a], g.city_index[t.b], cost)
            if found is None:
                out.dropped.append(t)
                continue
            new = [r for r in found[1] if cost[r] != 0.0 and r not in chosen]
            need = sum(g.r_len[r] for r in new)
            if not new:
                (out.done if not any(r in chosen for r in found[1]) else out.planned).append(t)
                continue
            if out.trains + need > budget:
                out.dropped.append(t)
                continue
            out.planned.append(t)
            out.trains += need
            for r in new:
                chosen.add(r)
                out.routes.append(r)
                cost[r] = 0.0
        return out

    def connected(self, a: int, b: int, extra: Iterable[int] = ()) -> bool:
        """Whether cities ``a`` and ``b`` are joined by zero-cost routes plus ``extra``."""
        free = {r for r in range(self.graph.n_routes) if self.cost[r] == 0.0}
        free.update(extra)
        seen = {a}
        stack = [a]
        adj = self.graph.adj
        while stack:
            c = stack.pop()
            if c == b:
                return True
            for r, other in adj[c]:
                if r in free and other not in seen:
                    seen.add(other)
                    stack.append(other)
        return False
