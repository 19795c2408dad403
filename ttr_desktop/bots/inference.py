"""What a bot may infer about the other seats' hidden tickets from the public board.

Every seat's routes are public, and players build toward their tickets, so a ticket
whose ends the seat's routes reach and whose path the seat has mostly built is a far
likelier holding than one across the map from its network. ``ticket_weights(view)``
turns that into a weight per (seat, ticket) for ``rules.determinize``: the search bot
then plays its rollouts against opponents who want roughly what they really want,
instead of opponents who build toward (and fail) tickets nobody holds.

The weight is a conditional-logit model fitted on where bots' held tickets lie
(2- and 4-player USA games between Normal bots, a sample every third turn of each
seat, every unseen ticket a candidate). Its features, per seat and ticket:

- ``ends``: how many of the ticket's two ends the seat's routes touch (0–2);
- ``left``: the share of the ticket's shortest path (in trains, on the empty map)
  still to build, given the seat's routes and what is still open to it (1 when it
  cannot be built any more);
- ``done``: the seat's routes already join the ends;
- ``explains``: the share of the seat's trains on the board that lie on the
  ticket's cheapest remaining path;
- ``points``: the ticket's value (in tens).

Mean log-likelihood of a held ticket in the fitted samples (higher is better):
uniform −3.30, ends only (the earlier 1 + 2 × ends) −2.80, this model −2.40
(2-player) and −2.48 (4-player).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from ttr_desktop.bots.graph import MapGraph, Situation, graph_for
from ttr_desktop.rules.graph import cheapest_path

if TYPE_CHECKING:
    from ttr_desktop.maps.model import Ticket
    from ttr_desktop.rules.view import PlayerView

#: The model's coefficients (log-odds per unit of each feature).
W_ENDS = 1.4
W_LEFT = -1.0
W_DONE = 0.35
W_EXPLAINS = 0.3
W_POINTS = 0.35

#: map id -> (the map, ticket id -> trains of the ticket's shortest path on the empty map).
#: Kept with its map: one board may be played with several ticket sets.
_SHORTEST: dict[str, tuple[object, dict[str, float]]] = {}


def _shortest(g: MapGraph) -> dict[str, float]:
    cached = _SHORTEST.get(g.map.id)
    known = cached[1] if cached is not None and cached[0] is g.map else None
    if known is None:
        lengths = [float(n) for n in g.r_len]
        known = {}
        for t in g.map.tickets:
            found = cheapest_path(g, lengths, g.places[t.a], g.places[t.b])
            known[t.id] = found[0] if found is not None and found[0] > 0 else 1.0
        _SHORTEST[g.map.id] = (g.map, known)
    return known


def ticket_weights(view: PlayerView) -> Callable[[int, Ticket], float]:
    """weight(seat, ticket): how likely ``seat`` holds ``ticket``, from what ``view``
    shows (never the seat's hidden hand or tickets)."""
    g = graph_for(view.map)
    shortest = _shortest(g)
    owner = view.owner_list
    r_len = g.r_len
    places = g.places
    cache: dict[tuple[int, str], float] = {}
    seats: dict[int, tuple[list[float | None], set[int], int]] = {}

    def seat_state(seat: int) -> tuple[list[float | None], set[int], int]:
        known = seats.get(seat)
        if known is None:
            sit = Situation(view, g, seat=seat)
            # Trains, not planning weights: 0 for its own routes, the length of an open
            # route it can still claim, None for the rest.
            cost = [None if c is None else (0.0 if c == 0.0 else float(r_len[r]))
                    for r, c in enumerate(sit.cost)]
            touched: set[int] = set()
            built = 0
            for r, o in enumerate(owner):
                if o == seat:
                    touched.add(g.r_a[r])
                    touched.add(g.r_b[r])
                    built += r_len[r]
            known = seats[seat] = (cost, touched, built)
        return known

    def weight(seat: int, ticket: Ticket) -> float:
        key = (seat, ticket.id)
        w = cache.get(key)
        if w is not None:
            return w
        cost, touched, built = seat_state(seat)
        if not built:
            w = 1.0   # nothing on the board yet: every ticket alike
        else:
            pa, pb = places[ticket.a], places[ticket.b]
            ends = any(c in touched for c in pa) + any(c in touched for c in pb)
            found = cheapest_path(g, cost, pa, pb)
            if found is None:
                left, done, explains = 1.0, 0.0, 0.0
            else:
                left = min(found[0] / shortest[ticket.id], 1.0)
                done = 1.0 if found[0] == 0 else 0.0
                explains = sum(r_len[r] for r in found[1] if cost[r] == 0.0) / built
            w = math.exp(W_ENDS * ends + W_LEFT * left + W_DONE * done
                         + W_EXPLAINS * explains + W_POINTS * ticket.points / 10)
        cache[key] = w
        return w

    return weight
