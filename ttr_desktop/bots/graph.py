"""Route planning for bots: planning weights over the shared route graph.

The static part (``MapGraph``) is the engine's route graph of the map
(``rules/graph.py``: one place for connectivity, cheapest paths and the
double-route rule) plus the bots' planning weights; it is built once per map.
The per-decision part (``Situation``) says, for the seat a view belongs to,
what each route costs to use: 0 for its own routes (and, with stations, the
opponent routes it can borrow), the planning weight for an open route,
nothing for a route it can no longer claim.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ttr_desktop.rules.graph import (
    RouteGraph, cheapest_path, components, parallel_block, ticket_status,
)

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap, Ticket
    from ttr_desktop.rules.view import PlayerView

#: Extra planning cost of an uncertain tunnel and of each locomotive a ferry demands.
TUNNEL_PENALTY = 0.6
FERRY_PENALTY = 0.8
#: Planning cost of each claim on top of its trains. A claim takes a whole turn, so a
#: path of fewer, longer routes is built in fewer turns, and long routes score more
#: points per train. With it, Normal beat the length-only planner in every family
#: (2-player, seat-rotated: USA 55%, Europe 62%, County Durham 60%, Märklin 67%,
#: Legacy 55%, Old West 56%, where the same planner against itself won 46-55%).
CLAIM_COST = 3.0
#: Least planning cost of an open route whatever its points (``Situation``'s ``lean``): a
#: cost of 0 means the seat's own route.
LEAN_FLOOR = 0.5
#: Most open tickets whose every planning order ``Situation(orders=True)`` tries (4 tickets
#: are 24 orders of a few cheapest-path searches each: about 2 ms on USA).
ORDERED_TICKETS = 4


class MapGraph(RouteGraph):
    """The map's route graph plus planning weights."""

    def __init__(self, game_map: GameMap) -> None:
        super().__init__(game_map)
        #: Planning weight of an open route: its length, the turn its claim takes, and the
        #: risk of tunnels and ferries.
        self.r_weight = [r.length + CLAIM_COST + (TUNNEL_PENALTY if r.tunnel else 0.0)
                         + FERRY_PENALTY * r.ferry_locomotives for r in self.routes]
        #: The group number of each route; parallel routes share it (one link).
        self.r_link = self.r_group
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
    """Route costs for one seat at one moment, read from a PlayerView (by default the
    view's own seat).

    ``lean`` makes routes that score more than a point a train cheaper to plan through:
    an open route's cost drops by ``lean`` times its points beyond its length (in USA a
    6-train route's 15 points are 9 beyond), so a ticket's path runs over long routes
    where they cost a few more trains, and the trains a seat has left go where they
    score. 0 plans by trains and turns alone (``MapGraph.r_weight``).

    ``orders`` makes ``plan`` try every order of the tickets (up to ``ORDERED_TICKETS``)
    rather than biggest first alone: a route planned for one ticket is free for the
    next, so the order decides how much the paths share. The plan kept drops the fewest
    ticket points, then costs least."""

    def __init__(self, view: PlayerView, graph: MapGraph | None = None,
                 seat: int | None = None, lean: float = 0.0, orders: bool = False) -> None:
        g = graph or graph_for(view.map)
        self.graph = g
        self.orders = orders
        # Another seat's situation as far as the view shows it (its routes, trains and
        # stations are public): what a bot reasons about an opponent.
        seat = view.seat if seat is None else seat
        self.seat = seat
        self.trains = view.trains_left[seat]
        owner = view.owner_list
        self.owner = owner
        stations = view.extra.get("stations") or {}
        self.station_cities = {g.city_index[c] for c, o in stations.items() if o == seat}
        self.taken_cities = {g.city_index[c] for c in stations}
        group_open = view.parallel_open
        #: Opponent route -> the seat's station cities it may be borrowed through. A station
        #: borrows one route only (the final scoring's choice): a station the scoring
        #: already has borrow a route for the seat's tickets lends that route alone, the
        #: others lend every route into their city (one of which a plan may take).
        self.lent: dict[int, list[int]] = {}
        if self.station_cities:
            used: dict[int, int] = {}
            if seat == view.seat:
                for r in view.ticket_status().borrowed:
                    for c in (g.r_a[r], g.r_b[r]):
                        if c in self.station_cities and c not in used:
                            used[c] = r
                            break
            for c in self.station_cities:
                for r in ((used[c],) if c in used else g.city_routes[c]):
                    if owner[r] >= 0 and owner[r] != seat:
                        self.lent.setdefault(r, []).append(c)
        cost: list[float | None] = [None] * g.n_routes
        for r in range(g.n_routes):
            o = owner[r]
            if o == seat:
                cost[r] = 0.0
                continue
            if o >= 0:
                if r in self.lent:
                    cost[r] = 0.0  # borrowable through a station
                continue
            sib = g.r_siblings[r]
            if sib:
                for o in sib:
                    if owner[o] >= 0:
                        break
                else:
                    o = -1
                if o >= 0 and parallel_block(owner, sib, seat, group_open[r]):
                    continue
            if g.r_len[r] > self.trains:
                continue
            cost[r] = g.r_weight[r]
        if lean:
            points = view.route_points or {}
            r_len = g.r_len
            for r, c in enumerate(cost):
                if c:
                    extra = points.get(r_len[r], r_len[r]) - r_len[r]
                    if extra > 0:
                        cost[r] = max(LEAN_FLOOR, c - lean * extra)
        self.cost = cost
        self.own = {r for r in range(g.n_routes) if owner[r] == seat}
        # Ticket status asks the view (``PlayerView.ticket_status``): own routes plus
        # the routes the stations would borrow, as the final scoring chooses.
        self._view = view
        self._borrow = view.borrow_choices(seat)
        self._held = tuple((t.a, t.b) for t in view.tickets) if seat == view.seat else ()
        self._status: dict[tuple[int, ...], tuple[bool, ...]] = {}

    def open(self, r: int) -> bool:
        """Whether ``r`` can still be claimed by this seat."""
        return self.owner[r] < 0 and self.cost[r] is not None

    def shortest_path(self, a: str, b: str, cost: list[float | None] | None = None,
                      ) -> tuple[float, list[int]] | None:
        """(cost, routes) of the cheapest path between places ``a`` and ``b`` (city or
        country ids), or None."""
        g = self.graph
        return cheapest_path(g, self.cost if cost is None else cost, g.places[a], g.places[b])

    def plan(self, tickets: Iterable[Ticket], budget: int | None = None,
             extra_free: Iterable[int] = ()) -> Plan:
        """Paths for ``tickets`` in the given order; a route planned once is free after.

        A ticket whose path does not fit in ``budget`` trains (default: the trains
        left) after the earlier ones, or that cannot be reached, is dropped. With
        ``orders`` (and at most ``ORDERED_TICKETS`` tickets), every order is planned and
        the one that drops the fewest ticket points, then costs least, is kept (the given
        order on a tie).

        Hand-written rather than networkx's Steiner-tree approximation: tickets need
        each pair of ends joined, not one tree through every end, and the orders reuse
        the cheapest-path search every plan runs.
        """
        tickets = list(tickets)
        extra_free = list(extra_free)
        best = self._plan_in_order(tickets, budget, extra_free)
        if not self.orders or not 2 <= len(tickets) <= ORDERED_TICKETS:
            return best
        best_key = self._plan_key(best)
        for order in itertools.permutations(tickets):
            if list(order) == tickets:
                continue
            plan = self._plan_in_order(order, budget, extra_free)
            key = self._plan_key(plan)
            if key < best_key:
                best, best_key = plan, key
        return best

    def _plan_key(self, plan: Plan) -> tuple[int, float]:
        """A plan's rank among orders: ticket points dropped, then planning cost."""
        cost = self.cost
        return (sum(t.points for t in plan.dropped),
                round(sum(cost[r] or 0.0 for r in plan.routes), 9))

    def _plan_in_order(self, tickets: Iterable[Ticket], budget: int | None,
                       extra_free: Iterable[int]) -> Plan:
        """``plan`` for one order of the tickets."""
        g = self.graph
        budget = self.trains if budget is None else budget
        cost = self.cost[:]
        for r in extra_free:
            cost[r] = 0.0
        out = Plan()
        chosen: set[int] = set()
        for t in tickets:
            found = self._station_path(t, cost)
            if found is None:
                out.dropped.append(t)
                continue
            new = [r for r in found[1] if cost[r] != 0.0 and r not in chosen]
            need = sum(g.r_len[r] for r in new)
            if not new:
                (out.done if not any(r in chosen for r in found[1]) else out.planned).append(t)
                self._lend(found[1], cost)
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
            self._lend(found[1], cost)
        return out

    def _station_path(self, t: Ticket, cost: list[float | None],
                      ) -> tuple[float, list[int]] | None:
        """The cheapest path for ``t`` on ``cost`` that borrows at most one route through
        each station (a path through two routes of one station's city is searched again
        without the later one; ``cost`` keeps that)."""
        found = self.shortest_path(t.a, t.b, cost)
        if not self.lent:
            return found
        for _ in range(3):
            if found is None:
                return None
            by_station: dict[int, int] = {}
            extra = None
            for r in found[1]:
                cities = self.lent.get(r)
                if cities is None or len(cities) != 1 or cost[r] != 0.0 or r in self.own:
                    continue
                if cities[0] in by_station:
                    extra = r
                    break
                by_station[cities[0]] = r
            if extra is None:
                return found
            cost[extra] = None
            found = self.shortest_path(t.a, t.b, cost)
        return found

    def _lend(self, path: list[int], cost: list[float | None]) -> None:
        """A path borrows its stations' routes: each station lends only the route the path
        takes from now on (its other routes into its city are gone from ``cost``)."""
        lent = self.lent
        if not lent:
            return
        g, owner, seat = self.graph, self.owner, self.seat
        for r in path:
            cities = lent.get(r)
            if cities is None or len(cities) != 1:
                continue      # not borrowed, or between two own stations: either may lend it
            c = cities[0]
            for q in g.city_routes[c]:
                if q != r and q in lent and len(lent[q]) == 1 and owner[q] != seat:
                    cost[q] = None

    def connected(self, a: str, b: str, extra: Iterable[int] = ()) -> bool:
        """Whether places ``a`` and ``b`` are joined by the seat's own routes plus
        ``extra`` (routes it considers claiming), with its stations borrowing what the
        final scoring would have them borrow (``PlayerView.ticket_status``)."""
        g = self.graph
        if not self._borrow:
            return components(g, list(self.own) + list(extra)).joined(g, a, b)
        extra = tuple(extra)
        view = self._view
        if (a, b) in self._held:
            done = self._status.get(extra)
            if done is None:
                done = self._status[extra] = view.ticket_status(
                    view.tickets, extra, self.seat).done
            return done[self._held.index((a, b))]
        held = view.tickets if self.seat == view.seat else ()
        want = [(t.a, t.b, t.points) for t in held] + [(a, b, 1)]
        status = ticket_status(g, sorted(self.own) + list(extra), want, self._borrow)
        return status.done[-1]
