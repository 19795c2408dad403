"""Final scoring (rules.md §1.8, §1.9): tickets, longest continuous path, module parts, winner."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ttr_desktop.maps.graph import city_labels

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game


@dataclass(frozen=True, slots=True)
class TicketResult:
    """One kept ticket at scoring time."""

    id: str
    a: str
    b: str
    points: int
    done: bool

    @property
    def value(self) -> int:
        """+points when done, -points when not."""
        return self.points if self.done else -self.points


@dataclass(slots=True)
class ScoreBreakdown:
    """A seat's score: ``total`` and named ``parts`` (routes, tickets, longest_path, ...)."""

    seat: int
    total: int
    parts: dict[str, int]
    tickets: list[TicketResult] = field(default_factory=list)
    tickets_completed: int = 0
    longest_path: int = 0
    longest_path_routes: list[str] = field(default_factory=list)
    longest_path_bonus: bool = False
    borrowed_routes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Result:
    """Who won: ``winners`` (several on a shared victory) and the tie-break that decided."""

    winners: list[int]
    tie_break: str | None
    scores: list[ScoreBreakdown]


def components(game: "Game", seat: int, extra: tuple[int, ...] | frozenset[int]) -> list[int]:
    """A component label per city over ``seat``'s routes plus the ``extra`` routes."""
    b = game.board
    owner = game.state.owner
    return city_labels(b.n_cities, ((b.r_a[r], b.r_b[r]) for r in range(b.n_routes)
                                    if owner[r] == seat or r in extra))


def reachable(game: "Game", seat: int, city: int) -> set[int]:
    """Cities connected to ``city`` through ``seat``'s own routes (including ``city``)."""
    b = game.board
    owner = game.state.owner
    seen = {city}
    stack = [city]
    city_routes, r_a, r_b = b.city_routes, b.r_a, b.r_b
    while stack:
        c = stack.pop()
        for r in city_routes[c]:
            if owner[r] == seat:
                other = r_b[r] if r_a[r] == c else r_a[r]
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    return seen


def ticket_results(game: "Game", seat: int, extra=()) -> list[TicketResult]:
    """Each kept ticket of ``seat``, done or not, counting ``extra`` routes as its own."""
    b = game.board
    labels = components(game, seat, extra)
    out = []
    for t in game.state.tickets[seat]:
        tk = b.tickets[t]
        out.append(TicketResult(tk.id, tk.a, tk.b, tk.points,
                                labels[b.t_a[t]] == labels[b.t_b[t]]))
    return out


def longest_trail(game: "Game", seat: int) -> tuple[int, list[int]]:
    """The longest trail (no route used twice, cities may repeat) over ``seat``'s routes.

    Exhaustive edge DFS with an upper-bound cut: a player owns at most 45 trains.
    """
    b = game.board
    owner = game.state.owner
    edges = [r for r in range(b.n_routes) if owner[r] == seat]
    if not edges:
        return 0, []
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, r in enumerate(edges):
        ln = b.r_len[r]
        adj.setdefault(b.r_a[r], []).append((i, b.r_b[r], ln))
        adj.setdefault(b.r_b[r], []).append((i, b.r_a[r], ln))
    used = [False] * len(edges)
    remaining = [sum(b.r_len[r] for r in edges)]
    best = [0, []]
    path: list[int] = []

    def dfs(city: int, total: int) -> None:
        if total > best[0]:
            best[0] = total
            best[1] = path[:]
        if total + remaining[0] <= best[0]:
            return
        for i, other, ln in adj[city]:
            if not used[i]:
                used[i] = True
                remaining[0] -= ln
                path.append(edges[i])
                dfs(other, total + ln)
                path.pop()
                remaining[0] += ln
                used[i] = False

    # A longest trail can always start at an odd-degree city when the component has one.
    odd = [c for c, nb in adj.items() if len(nb) % 2]
    starts = sorted(odd) if odd else sorted(adj)
    if odd:
        # Components without odd cities still need a start of their own.
        seen = _component_of(adj, odd)
        starts += [c for c in sorted(adj) if c not in seen]
    for start in starts:
        dfs(start, 0)
    return best[0], best[1]


def _component_of(adj: dict[int, list[tuple[int, int, int]]], cities: list[int]) -> set[int]:
    seen = set(cities)
    stack = list(cities)
    while stack:
        c = stack.pop()
        for _, other, _ in adj[c]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return seen


def score_game(game: "Game") -> list[ScoreBreakdown]:
    """Final scoring of every seat as if the game ended now."""
    b, rs, s = game.board, game.ruleset, game.state
    out: list[ScoreBreakdown] = []
    trails = [longest_trail(game, seat) for seat in range(game.num_players)]
    best_trail = max(t[0] for t in trails)
    give_bonus = rs.longest_path_bonus and (best_trail > 0 or not rs.bonus_needs_positive)
    for seat in range(game.num_players):
        routes = sum(b.r_points[r] for r in range(b.n_routes) if s.owner[r] == seat)
        # Tickets: pick the borrowed-route set (stations) that scores best.
        options: list[tuple[int, ...]] = [()]
        for module in game.modules:
            more = module.ticket_edge_options(game, seat)
            if more:
                options = more
        best_results, best_net, best_extra = None, None, ()
        for extra in options:
            results = ticket_results(game, seat, frozenset(extra))
            net = sum(t.value for t in results)
            if best_net is None or net > best_net:
                best_results, best_net, best_extra = results, net, extra
        parts = {"routes": routes, "tickets": best_net or 0}
        has_bonus = bool(give_bonus and trails[seat][0] == best_trail)
        parts["longest_path"] = rs.longest_path_bonus if has_bonus else 0
        for module in game.modules:
            parts.update(module.score_parts(game, seat))
        out.append(ScoreBreakdown(
            seat=seat, total=sum(parts.values()), parts=parts, tickets=best_results or [],
            tickets_completed=sum(1 for t in best_results or [] if t.done),
            longest_path=trails[seat][0],
            longest_path_routes=[b.route_ids[r] for r in trails[seat][1]],
            longest_path_bonus=has_bonus,
            borrowed_routes=[b.route_ids[r] for r in best_extra]))
    return out


def decide(game: "Game", scores: list[ScoreBreakdown]) -> Result:
    """The winners by points, then the ruleset's tie-breaks in order (§1.8, A-09)."""
    top = max(sc.total for sc in scores)
    group = [sc.seat for sc in scores if sc.total == top]
    if len(group) == 1:
        return Result(group, None, scores)
    for name in game.ruleset.tie_breaks:
        values = {seat: _tie_value(game, scores[seat], name) for seat in group}
        best = max(values.values())
        group = [seat for seat in group if values[seat] == best]
        if len(group) == 1:
            return Result(group, name, scores)
    return Result(group, "shared", scores)


def _tie_value(game: "Game", sc: ScoreBreakdown, name: str) -> int:
    if name == "tickets":
        return sc.tickets_completed
    if name == "longest_path":
        return 1 if sc.longest_path_bonus else 0
    for module in game.modules:
        value = module.tie_break_value(game, sc.seat, name)
        if value is not None:
            return value
    return 0
