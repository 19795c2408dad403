"""Final scoring (rules.md §1.8 and each family's scoring section).

The score track is a ledger of entries with reasons (``state.ledger``): a
route's points, an event's money, merchandise, Alvin... The final breakdown
sums the ledger into parts (``Ruleset.ledger_parts``), adds the tickets, the
ruleset's declared end bonuses, the modules' parts and, where the ruleset has
a floor, a visible ``floor`` part — so ``total == sum(parts)`` always.
The winner is decided by the total, then the ruleset's named tie-breaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ttr_desktop.rules.graph import components, longest_trail, owned, ticket_status

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
    #: The end bonuses this seat won (part name -> amount).
    bonuses: dict[str, int] = field(default_factory=dict)
    #: Every declared end bonus (part name) -> (the measure it is decided on, this seat's
    #: value of it): "most_coal" -> ("coal", 7), "globetrotter" -> ("completed_tickets",
    #: 5), "longest_path" -> ("longest_path", 23) — won or not.
    measures: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RouteTally:
    """Where a seat's route points came from, read from the score track (public).

    With Old West's city markers a claim's points may go to the seats marking its ends
    (rules.md §3): ``own`` are the points the seat's claims earned it (over
    ``own_routes`` of its ``claimed`` routes), ``income`` the points others' claims
    paid to its markers (over ``income_routes`` routes), ``given`` the points its
    claims paid to others' markers (over ``given_routes`` routes; not in its score).
    ``own + income`` is the seat's route points (the ``routes`` part)."""

    claimed: int = 0
    own: int = 0
    own_routes: int = 0
    income: int = 0
    income_routes: int = 0
    given: int = 0
    given_routes: int = 0

    @property
    def points(self) -> int:
        """Route points the seat holds: its claims' and its markers'."""
        return self.own + self.income


def route_tally(ledger, owners, seat: int, reason: str = "route") -> RouteTally:
    """``RouteTally`` of ``seat`` from score-track entries ``(seat, amount, reason, route
    id)`` and ``owners`` (route id -> seat)."""
    own = income = given = 0
    own_routes: set[str] = set()
    income_routes: set[str] = set()
    given_routes: set[str] = set()
    for who, amount, why, ref in ledger:
        if why != reason:
            continue
        claimant = owners.get(ref)
        if who == seat and claimant == seat:
            own += amount
            own_routes.add(ref)
        elif who == seat:
            income += amount
            income_routes.add(ref)
        elif claimant == seat:
            given += amount
            given_routes.add(ref)
    claimed = sum(1 for o in owners.values() if o == seat)
    return RouteTally(claimed, own, len(own_routes), income, len(income_routes), given,
                      len(given_routes))


@dataclass(slots=True)
class Result:
    """Who won: ``winners`` (several on a shared victory), the tie-break that decided,
    and the full ranking (``places[seat]``: 1 = first; tied seats share a place)."""

    winners: list[int]
    tie_break: str | None
    scores: list[ScoreBreakdown]
    ranking: list[int] = field(default_factory=list)
    places: list[int] = field(default_factory=list)


def ticket_results(game: "Game", seat: int, extra=(),
                   own: list[int] | None = None) -> list[TicketResult]:
    """Each kept ticket of ``seat``, done or not, counting exactly ``extra`` routes as its
    own besides ``own`` (the seat's routes, when the caller has them) — no station
    borrowing is chosen here: the final status is ``graph.ticket_status``'s."""
    b = game.board
    g = b.graph
    if own is None:
        own = owned(game.state.owner, seat)
    comp = components(g, own + list(extra) if extra else own)
    label = comp.label
    out = []
    for t in game.state.tickets[seat]:
        tk = b.tickets[t]
        done = (label[b.t_a[t]] == label[b.t_b[t]] if b.t_simple[t]
                else comp.joined(g, tk.a, tk.b))
        out.append(TicketResult(tk.id, tk.a, tk.b, tk.points, done))
    return out


def _needs_trails(game: "Game") -> bool:
    rs = game.ruleset
    return ("longest_path" in rs.tie_breaks
            or any(bn.measure == "longest_path" for bn in rs.bonuses))


def score_game(game: "Game") -> list[ScoreBreakdown]:
    """Final scoring of every seat as if the game ended now."""
    return _score_game(game, False)


def score_totals(game: "Game") -> list[int]:
    """Each seat's total as ``score_game`` gives it, without the breakdowns: what a
    search asks at the end of every rollout. The longest trails are measured only as
    far as the longest-path bonus needs: a seat whose routes cannot reach the longest
    trail measured so far is not searched (``longest_trail``'s ``floor``)."""
    return _score_game(game, True)


def _score_game(game: "Game", totals_only: bool):
    b, rs, s = game.board, game.ruleset, game.state
    g = b.graph
    n = game.num_players
    routes: list[list[int]] = [[] for _ in range(n)]     # each seat's, in index order
    for r, o in enumerate(s.owner):
        if o >= 0:
            routes[o].append(r)
    if not _needs_trails(game):
        trails = [(0, [])] * n
    elif totals_only and all(bn.best == "max" for bn in rs.bonuses
                             if bn.measure == "longest_path"):
        trails = _bonus_trails(g, routes)
    else:
        trails = [longest_trail(g, routes[seat]) for seat in range(n)]
    # Parts from the score track, in the ruleset's order.
    parts: list[dict[str, int]] = [{name: 0 for name in rs.score_parts} for _ in range(n)]
    part_of: dict[str, str] = {}     # reason -> part, asked once per reason
    for seat, amount, reason, _ in s.ledger:
        part = part_of.get(reason)
        if part is None:
            part = part_of[reason] = rs.part_for(reason)
        p = parts[seat]
        p[part] = p.get(part, 0) + amount
    # Tickets: the stations borrow the routes that score the tickets best
    # (``graph.ticket_status``, the one answer every ticket status comes from).
    results: list[list[TicketResult]] = []
    borrowed: list[tuple[int, ...]] = []
    tk = b.tickets
    done: list[int] = []
    for seat in range(n):
        held = s.tickets[seat]
        status = ticket_status(g, routes[seat], [(tk[t].a, tk[t].b, tk[t].points) for t in held],
                               game.borrow_choices(seat))
        if not totals_only:
            results.append([TicketResult(tk[t].id, tk[t].a, tk[t].b, tk[t].points, d)
                            for t, d in zip(held, status.done)])
            borrowed.append(status.borrowed)
        done.append(sum(status.done))
        parts[seat]["tickets"] = parts[seat].get("tickets", 0) + status.net
    # Declared end bonuses (every tie scores; A-07 zero guard where declared).
    won: list[dict[str, int]] = [{} for _ in range(n)]
    measured: list[dict[str, tuple[str, int]]] = [{} for _ in range(n)]
    for bonus in rs.bonuses:
        values = [_measure(game, seat, bonus.measure, trails, done) for seat in range(n)]
        for seat in range(n):
            measured[seat][bonus.part] = (bonus.measure, values[seat])
        best = max(values) if bonus.best == "max" else min(values)
        if bonus.needs_positive and rs.bonus_needs_positive and best <= 0:
            continue
        for seat in range(n):
            if values[seat] == best:
                parts[seat][bonus.part] = parts[seat].get(bonus.part, 0) + bonus.amount
                won[seat][bonus.part] = bonus.amount
    for module in game._hooks["score_parts"]:
        for seat in range(n):
            for name, value in module.score_parts(game.ctx, seat).items():
                parts[seat][name] = parts[seat].get(name, 0) + value
    out: list[ScoreBreakdown] = []
    totals: list[int] = []
    for seat in range(n):
        p = parts[seat]
        if rs.score_floor is not None:
            subtotal = sum(v for k, v in p.items() if k != "floor")
            p["floor"] = max(0, rs.score_floor - subtotal)
        if totals_only:
            totals.append(sum(p.values()))
            continue
        out.append(ScoreBreakdown(
            seat=seat, total=sum(p.values()), parts=p, tickets=results[seat],
            tickets_completed=done[seat], longest_path=trails[seat][0],
            longest_path_routes=[b.route_ids[r] for r in trails[seat][1]],
            longest_path_bonus="longest_path" in won[seat],
            borrowed_routes=[b.route_ids[r] for r in borrowed[seat]], bonuses=won[seat],
            measures=measured[seat]))
    return totals if totals_only else out


def _bonus_trails(g, routes: list[list[int]]) -> list[tuple[int, list[int]]]:
    """Per seat a longest trail, exact for every seat whose trail is the longest of all
    and shorter than that longest for the others (enough to give a longest-path bonus):
    seats with most trains on the board first; a seat whose trains cannot reach the
    longest trail found so far is not searched, and the others only for trails at least
    that long."""
    r_len = g.r_len
    laid = [sum(r_len[r] for r in own) for own in routes]
    trails: list[tuple[int, list[int]]] = [(0, [])] * len(routes)
    best = 0
    for seat in sorted(range(len(routes)), key=lambda i: -laid[i]):
        if best and laid[seat] < best:
            trails[seat] = (laid[seat], [])
            continue
        trail = longest_trail(g, routes[seat], best - 1 if best else 0)
        trails[seat] = trail
        if trail[0] > best:
            best = trail[0]
    return trails


def _measure(game: "Game", seat: int, name: str, trails, done) -> int:
    if name == "longest_path":
        return trails[seat][0]
    if name == "completed_tickets":
        return done[seat]
    for module in game._hooks["measure"]:
        value = module.measure(game.ctx, seat, name)
        if value is not None:
            return value
    raise ValueError(f"no rule module measures {name!r}")


def decide(game: "Game", scores: list[ScoreBreakdown]) -> Result:
    """The winners by total, then the ruleset's tie-breaks in order; and the ranking."""
    names = game.ruleset.tie_breaks
    keys = {sc.seat: (sc.total,) + tuple(_tie_value(game, sc, name) for name in names)
            for sc in scores}
    top = max(sc.total for sc in scores)
    group = [sc.seat for sc in scores if sc.total == top]
    winners, used = group, None
    if len(group) > 1:
        for k, name in enumerate(names, start=1):
            best = max(keys[seat][k] for seat in group)
            group = [seat for seat in group if keys[seat][k] == best]
            if len(group) == 1:
                winners, used = group, name
                break
        else:
            winners, used = group, "shared"
    ranking = sorted(keys, key=lambda seat: (tuple(-v for v in keys[seat]), seat))
    places = [0] * len(scores)
    for i, seat in enumerate(ranking):
        prev = ranking[i - 1] if i else None
        places[seat] = places[prev] if prev is not None and keys[prev] == keys[seat] else i + 1
    return Result(winners, used, scores, ranking, places)


def _tie_value(game: "Game", sc: ScoreBreakdown, name: str) -> int:
    if name == "tickets":
        return sc.tickets_completed
    if name == "longest_path":
        return 1 if sc.longest_path_bonus else 0
    if name == "later_in_turn_order":
        return (sc.seat - game.state.first_seat) % game.num_players
    for module in game._hooks["tie_break_value"]:
        value = module.tie_break_value(game.ctx, sc.seat, name)
        if value is not None:
            return value
    return 0
