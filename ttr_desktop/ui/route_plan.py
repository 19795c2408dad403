"""The player's best path for a ticket: own routes are free, and so are the routes its
stations borrow (the final scoring's choice, ``PlayerView.ticket_status``); open routes
cost their length.

Asks the engine's route graph (``rules/graph.py``), so countries, doubles and
triples follow the same rules as the engine's.
"""

from __future__ import annotations

from ttr_desktop.rules.graph import cheapest_path, parallel_block
from ttr_desktop.rules.view import PlayerView


def best_path(view: PlayerView, a: str, b: str, ticket=None) -> list[str]:
    """Route ids of the cheapest path from place ``a`` to place ``b`` for ``view``'s seat
    ([] if none): its own routes and the routes its stations borrow cost nothing, routes
    it may still claim their length. ``ticket`` (one being chosen, not yet held) joins the
    held tickets when deciding what the stations borrow."""
    g = view.graph
    owner = view.owner_list
    seat = view.seat
    group_open = view.parallel_open
    free = set(borrowed_for(view, ticket))
    cost: list[float | None] = []
    for r in range(g.n_routes):
        o = owner[r]
        if o == seat or r in free:
            cost.append(0.0)
        elif o >= 0 or (g.r_siblings[r] and parallel_block(owner, g.r_siblings[r], seat,
                                                             group_open[r])):
            cost.append(None)
        else:
            cost.append(float(g.r_len[r]))
    found = cheapest_path(g, cost, g.places[a], g.places[b])
    return [] if found is None else [g.route_ids[r] for r in found[1]]


def borrowed_for(view: PlayerView, ticket=None) -> tuple[int, ...]:
    """Route indices ``view``'s seat's stations borrow for its tickets (plus ``ticket``,
    when it is not held yet) if the game ended now."""
    if not view.borrow_choices():
        return ()
    if ticket is None or ticket in view.tickets:
        return view.ticket_status().borrowed
    return view.ticket_status(view.tickets + (ticket,)).borrowed
