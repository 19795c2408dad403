"""The route network: one place for connectivity, reachability, the longest trail,
cheapest paths and the double-route rule.

Everything here works on a ``RouteGraph`` (the static map as index arrays,
built once per map from public data) plus a set of route indices, so the
engine's scoring, the claim events, the views, the bots and the window all
ask the same code.

Country end points are *sinks* (rules.md §2.4): a path may end in one but
never pass through it, so they never join two cities into one component.
A place — what a ticket names — is a city or a country (all its end points).

Why hand-written and not networkx: these graphs are small (at most ~60
cities, ~140 routes) and the engine and bots ask thousands of times a second,
each time over routes that change with every claim. Measured on positions from
games in every family (``tools/measure_planner.py``): whether a seat's tickets
are joined takes 3 µs here against 25 µs with networkx (7x), one cheapest
path 18 µs against 151 µs with the graph built for the question (8x; 1.7x on
a graph built beforehand). networkx serves where time does not matter: the
loader's checks of a map (``maps/structure.py``) and the map tools
(docs/architecture.md, "Graphs").
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ttr_desktop.maps.model import GameMap

_INF = float("inf")


class RouteGraph:
    """The static network of one map (public data only)."""

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.city_ids: list[str] = list(game_map.cities)
        self.city_index = {c: i for i, c in enumerate(self.city_ids)}
        self.n_cities = len(self.city_ids)
        self.sink: list[bool] = [c.is_sink for c in game_map.cities.values()]
        self.has_sinks = any(self.sink)
        routes = game_map.route_list()
        self.routes = routes
        self.route_ids = [r.id for r in routes]
        self.route_index = {r.id: i for i, r in enumerate(routes)}
        self.n_routes = len(routes)
        self.r_a = [self.city_index[r.a] for r in routes]
        self.r_b = [self.city_index[r.b] for r in routes]
        self.r_len = [r.length for r in routes]
        self.r_color = [r.color for r in routes]
        self.r_tunnel = [bool(r.tunnel) for r in routes]
        self.r_ferry = [r.ferry_locomotives for r in routes]
        #: A route touching a sink (it can only end a path).
        self.r_sink = [self.sink[a] or self.sink[b] for a, b in zip(self.r_a, self.r_b)]
        groups: dict[str, list[int]] = {}
        for i, r in enumerate(routes):
            groups.setdefault(r.group, []).append(i)
        #: Group number of each route (parallel tracks share it) and its other tracks.
        self.r_group = [0] * self.n_routes
        self.r_siblings: list[tuple[int, ...]] = [()] * self.n_routes
        self.r_group_size = [1] * self.n_routes
        for n, members in enumerate(groups.values()):
            for i in members:
                self.r_group[i] = n
                self.r_siblings[i] = tuple(j for j in members if j != i)
                self.r_group_size[i] = len(members)
        self.city_routes: list[list[int]] = [[] for _ in range(self.n_cities)]
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(self.n_cities)]
        for i in range(self.n_routes):
            a, b = self.r_a[i], self.r_b[i]
            self.city_routes[a].append(i)
            self.city_routes[b].append(i)
            self.adj[a].append((i, b))
            self.adj[b].append((i, a))
        #: Place id (city or country) -> its nodes.
        self.places: dict[str, tuple[int, ...]] = {c: (i,) for c, i in self.city_index.items()}
        for country in game_map.countries:
            self.places[country] = tuple(i for i, c in enumerate(game_map.cities.values())
                                         if c.country == country)

    def other_end(self, r: int, city: int) -> int:
        """The end of route ``r`` that is not ``city``."""
        return self.r_b[r] if self.r_a[r] == city else self.r_a[r]


_GRAPHS: dict[int, RouteGraph] = {}


def graph_for(game_map: GameMap) -> RouteGraph:
    """The RouteGraph of ``game_map`` (built once per map object)."""
    g = _GRAPHS.get(id(game_map))
    if g is None or g.map is not game_map:
        if len(_GRAPHS) > 64:
            _GRAPHS.clear()
        g = _GRAPHS[id(game_map)] = RouteGraph(game_map)
    return g


def owned(owner: Sequence[int], seat: int) -> list[int]:
    """Indices of the routes ``seat`` owns."""
    return [r for r, o in enumerate(owner) if o == seat]


# ----------------------------------------------------------------------
# Components and tickets
class Components:
    """Connected parts of a set of routes; sinks join nothing but are reached."""

    __slots__ = ("label", "sink_labels")

    def __init__(self, g: RouteGraph, routes: Iterable[int]) -> None:
        parent = list(range(g.n_cities))
        r_a, r_b = g.r_a, g.r_b
        sink_routes = []
        sink = g.sink if g.has_sinks else None
        # Union-find with path halving, written out: the calls of a ``find`` were most
        # of the time of scoring a seat's tickets.
        for r in routes:
            a, b = r_a[r], r_b[r]
            if sink is not None and (sink[a] or sink[b]):
                sink_routes.append(r)
                continue
            while parent[a] != a:
                p = parent[parent[a]]
                parent[a] = p
                a = p
            while parent[b] != b:
                p = parent[parent[b]]
                parent[b] = p
                b = p
            if a != b:
                parent[a] = b
        # Each city's root, in place: roots stay roots, so a city's walk ends at one.
        label = parent
        for c in range(g.n_cities):
            p = label[c]
            if label[p] != p:
                while label[p] != p:
                    p = label[p]
                label[c] = p
        self.label = label
        #: For each sink reached by a route: the labels of the cities it is reached from.
        self.sink_labels: dict[int, set[int]] = {}
        for r in sink_routes:
            a, b = r_a[r], r_b[r]
            s, c = (a, b) if g.sink[a] else (b, a)
            self.sink_labels.setdefault(s, set()).add(self.label[c])

    def labels_of(self, nodes: Iterable[int], g: RouteGraph) -> set[int]:
        """Component labels a place (its nodes) belongs to."""
        out: set[int] = set()
        for n in nodes:
            if g.sink[n]:
                out |= self.sink_labels.get(n, set())
            else:
                out.add(self.label[n])
        return out

    def joined(self, g: RouteGraph, a: str, b: str) -> bool:
        """Whether places ``a`` and ``b`` (city or country ids) are connected."""
        pa, pb = g.places[a], g.places[b]
        if len(pa) == 1 and len(pb) == 1 and not g.sink[pa[0]] and not g.sink[pb[0]]:
            return self.label[pa[0]] == self.label[pb[0]]
        return bool(self.labels_of(pa, g) & self.labels_of(pb, g))


def components(g: RouteGraph, routes: Iterable[int]) -> Components:
    """The connected parts of ``routes`` (countries as dead ends)."""
    return Components(g, routes)


def reachable(g: RouteGraph, owner: Sequence[int], seat: int, start: int) -> set[int]:
    """Cities joined to city ``start`` by ``seat``'s own routes (``start`` included).

    A sink is reached but never passed through."""
    seen = {start}
    if g.sink[start]:
        for r in g.city_routes[start]:
            if owner[r] == seat:
                seen.add(g.other_end(r, start))
        stack = [c for c in seen if c != start]
    else:
        stack = [start]
    city_routes, r_a, r_b, sink = g.city_routes, g.r_a, g.r_b, g.sink
    while stack:
        c = stack.pop()
        for r in city_routes[c]:
            if owner[r] == seat:
                other = r_b[r] if r_a[r] == c else r_a[r]
                if other not in seen:
                    seen.add(other)
                    if not sink[other]:
                        stack.append(other)
    return seen


def place_reached(g: RouteGraph, reach: set[int], place: str) -> bool:
    """Whether a reach set (from ``reachable``) touches a place."""
    return any(n in reach for n in g.places[place])


class TicketStatus(NamedTuple):
    """Which of a seat's tickets are done (in the order given), the routes its stations
    borrow for that, and the tickets' net points (+done, -open)."""

    done: tuple[bool, ...]
    borrowed: tuple[int, ...]
    net: int


def ticket_status(g: RouteGraph, own: Sequence[int],
                  tickets: Sequence[tuple[str, str, int]],
                  borrow: Sequence[Sequence[int]] = ()) -> TicketStatus:
    """THE answer to "which of these tickets are done for this seat": its ``own`` routes
    plus, for each of its stations, at most one route of ``borrow[i]`` (the opponent
    routes station ``i`` may borrow, rules.md §1.9), ``tickets`` as (place a, place b,
    points).

    The stations borrow the routes that score the tickets best (the first such choice
    in order, no borrowing first), exactly as the final scoring chooses. During play
    that is the choice the scoring would make if the game ended now, so a ticket shown
    done is worth its points at the end unless the network changes — the ticket panel,
    the hover path, the hint and the bots all ask this.

    Borrowed routes that join the same two parts of the own network are the same
    choice, so only distinct choices are tried (one, two or three stations of a few
    routes each)."""
    own = list(own)
    comp = components(g, own)
    done = tuple([comp.joined(g, a, b) for a, b, _ in tickets])
    net = sum(p if d else -p for d, (_, _, p) in zip(done, tickets))
    if not borrow or all(done):
        return TicketStatus(done, (), net)
    label = comp.label
    r_a, r_b, r_sink = g.r_a, g.r_b, g.r_sink
    choices: list[list[int | None]] = []
    for routes in borrow:
        seen: set[tuple[int, int]] = set()
        opts: list[int | None] = [None]
        for r in routes:
            if r_sink[r]:
                key = (-1, r)
            else:
                la, lb = label[r_a[r]], label[r_b[r]]
                if la == lb:
                    continue       # joins nothing the own network does not
                key = (la, lb) if la < lb else (lb, la)
            if key not in seen:
                seen.add(key)
                opts.append(r)
        if len(opts) > 1:
            choices.append(opts)
    best = TicketStatus(done, (), net)
    for combo in itertools.product(*choices):
        extra = [r for r in combo if r is not None]
        if not extra:
            continue
        c = components(g, own + extra)
        d = tuple([c.joined(g, a, b) for a, b, _ in tickets])
        n = sum(p if x else -p for x, (_, _, p) in zip(d, tickets))
        if n > best.net:
            best = TicketStatus(d, tuple(extra), n)
    return best


# ----------------------------------------------------------------------
# Longest trail (rules.md §1.8)
def longest_trail(g: RouteGraph, routes: Sequence[int],
                  floor: int = 0) -> tuple[int, list[int]]:
    """The longest trail (no route used twice, cities may repeat) over ``routes``.

    With a ``floor``, only a trail longer than ``floor`` is looked for: where there is
    none, ``(floor, [])`` (a final scoring that only needs the longest of all asks each
    seat for a trail at least as long as the longest found so far).

    Connected part by part: a part without a cycle or a sink (most networks a seat
    builds are trees) by two sweeps, any other by an exhaustive edge DFS cut where
    the routes left cannot beat the best trail so far (for a part with a cycle, first
    the sweeps' path through a spanning tree); a part no longer in all than the best
    trail so far is passed over. A trail may end in a sink, never pass through one.
    Returns (length, route indices in order)."""
    edges = list(routes)
    if not edges:
        return floor, []
    sink, r_a, r_b, r_len = g.sink, g.r_a, g.r_b, g.r_len
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, r in enumerate(edges):
        ln = r_len[r]
        a, b = r_a[r], r_b[r]
        if a in adj:
            adj[a].append((i, b, ln))
        else:
            adj[a] = [(i, b, ln)]
        if b in adj:
            adj[b].append((i, a, ln))
        else:
            adj[b] = [(i, a, ln)]
    best_len, best_path = floor, []
    seen: set[int] = set()
    for root in adj:
        if root in seen:
            continue
        # One sweep from ``root`` finds its part (its cities, its routes' count and total
        # length) and the city farthest from ``root`` along the sweep's tree.
        dist = {root: 0}
        stack = [root]
        far, far_d = root, 0
        ends = total = 0
        has_sink = False
        while stack:
            c = stack.pop()
            d = dist[c]
            nb = adj[c]
            ends += len(nb)
            if sink[c]:
                has_sink = True
            for _, other, ln in nb:
                total += ln
                if other not in dist:
                    nd = dist[other] = d + ln
                    if nd > far_d:
                        far, far_d = other, nd
                    stack.append(other)
        seen.update(dist)
        total //= 2
        if total <= best_len:
            continue
        if not has_sink:
            # In a tree a trail is a path: a second sweep, from the farthest city, finds
            # the longest. With a cycle its path (one of a spanning tree's) is a trail to
            # beat: a cut.
            length, path = _path_from(adj, edges, far)
            if ends // 2 == len(dist) - 1:
                if length > best_len:
                    best_len, best_path = length, path
                continue
        else:
            length, path = 0, []
        beat = length if length > best_len else best_len
        more = _part_trail(adj, edges, list(dist), sink, total, beat)
        if more[0] > beat:
            length, path = more
        if length > best_len:
            best_len, best_path = length, path
    return best_len, best_path


def _path_from(adj: dict[int, list[tuple[int, int, int]]], edges: list[int],
               far: int) -> tuple[int, list[int]]:
    """The longest path from ``far`` through a sweep's tree of its part. When ``far`` is
    the farthest city of a tree from any of its cities, that is the tree's longest path
    (and in a tree a trail is a path): linear, where the search is exponential."""
    end, length, via = _farthest(adj, far)
    path = []
    c = end
    while c != far:
        i, c = via[c]
        path.append(edges[i])
    path.reverse()
    return length, path


def _part_trail(adj: dict[int, list[tuple[int, int, int]]], edges: list[int],
                part: list[int], sink: Sequence[bool], total: int,
                beat: int) -> tuple[int, list[int]]:
    """The longest trail of one connected part (with a cycle or a sink), if longer than
    ``beat``: exhaustive edge DFS, cut where the routes left cannot beat the best."""
    used = [False] * len(edges)
    remaining = [total]
    best: list = [beat, []]
    path: list[int] = []

    def dfs(city: int, length: int) -> None:
        if length > best[0]:
            best[0] = length
            best[1] = path[:]
        if length + remaining[0] <= best[0] or (path and sink[city]):
            return
        for i, other, ln in adj[city]:
            if not used[i]:
                used[i] = True
                remaining[0] -= ln
                path.append(edges[i])
                dfs(other, length + ln)
                path.pop()
                remaining[0] += ln
                used[i] = False

    # A longest trail can always start at a city of odd degree when the part has one.
    odd = sorted(c for c in part if len(adj[c]) % 2)
    for start in odd or sorted(part):
        dfs(start, 0)
    return best[0], best[1]


def _farthest(adj: dict[int, list[tuple[int, int, int]]], start: int):
    """(the city farthest from ``start`` in its tree, its distance, city -> (edge, the
    city before it))."""
    dist = {start: 0}
    via: dict[int, tuple[int, int]] = {}
    stack = [start]
    far, far_d = start, 0
    while stack:
        c = stack.pop()
        d = dist[c]
        for i, other, ln in adj[c]:
            if other not in dist:
                nd = dist[other] = d + ln
                via[other] = (i, c)
                if nd > far_d:
                    far, far_d = other, nd
                stack.append(other)
    return far, far_d, via


# ----------------------------------------------------------------------
# Cheapest paths (planning, ticket hover, passengers)
def cheapest_path(g: RouteGraph, cost: Sequence[float | None], a: Iterable[int],
                  b: Iterable[int]) -> tuple[float, list[int]] | None:
    """(cost, routes) of the cheapest path from any node of ``a`` to any node of ``b``.

    ``cost[r]`` is the price of using route ``r`` (None: not usable) — e.g. 0 for
    one's own routes, the length for an open route, a passenger card for an
    opponent's. Paths never pass through a sink. None when no path exists."""
    n = g.n_cities
    is_target = [False] * n
    for c in b:
        is_target[c] = True
    is_start = [False] * n
    inf = _INF
    dist = [inf] * n
    via_r = [-1] * n
    via_c = [-1] * n
    heap: list[tuple[float, int]] = []
    for c in a:
        is_start[c] = True
        dist[c] = 0.0
        heap.append((0.0, c))
    heapq.heapify(heap)
    adj, sink = g.adj, g.sink
    pop, push = heapq.heappop, heapq.heappush
    found = -1
    while heap:
        d, c = pop(heap)
        if d > dist[c]:
            continue
        if is_target[c]:
            found = c
            break
        if sink[c] and not is_start[c]:
            continue
        for r, other in adj[c]:
            w = cost[r]
            if w is None:
                continue
            nd = d + w
            if nd < dist[other] - 1e-9:
                dist[other] = nd
                via_r[other] = r
                via_c[other] = c
                push(heap, (nd, other))
    if found < 0:
        return None
    path = []
    c = found
    while via_r[c] >= 0:
        path.append(via_r[c])
        c = via_c[c]
    path.reverse()
    return dist[found], path


# ----------------------------------------------------------------------
# The double-route rule (rules.md §1.5, §2.3, §3.3, §4.3, §5.3)
def parallel_block(owner: Sequence[int], siblings: Sequence[int], seat: int,
                   group_open: bool) -> str | None:
    """Why the other tracks of a route's group stop ``seat`` claiming it, or None.

    "own": the seat owns another track of the group (never allowed);
    "closed": another track is taken and the group is not open at this player count."""
    for o in siblings:
        w = owner[o]
        if w == seat:
            return "own"
        if w >= 0 and not group_open:
            return "closed"
    return None


def group_open_flags(g: RouteGraph, ruleset, players: int) -> list[bool]:
    """Per route: whether every track of its group is usable at this player count."""
    cache: dict[int, bool] = {}
    out = []
    for size in g.r_group_size:
        if size not in cache:
            cache[size] = ruleset.group_open(size, players)
        out.append(cache[size])
    return out
