"""Compare the bots' ticket planner with networkx's Steiner-tree approximations.

Plays Normal-against-Normal games in every family, and at sampled turns (a seat with two or
more open tickets) plans that seat's open tickets three or four ways:

* ``ours``: ``Situation.plan`` as Normal runs it (cheapest path per ticket, biggest first,
  a route planned once free for the next ticket);
* ``ours+orders``: the same trying every order of up to four tickets (what Hard's search
  and rollouts use, ``Situation(orders=True)``);
* ``kou`` / ``mehlhorn``: ``networkx.algorithms.approximation.steiner_tree`` over the
  tickets' ends, on a graph of the same per-route planning costs (own routes 0, routes the
  seat can no longer claim left out), one tree per connected part of that graph;
* ``kou-grouped`` / ``mehlhorn-grouped``: one such tree per group of tickets that our plan
  joins into one piece (so a tree never joins tickets ours keeps apart; the time includes
  our plan, which makes the groups);
* ``orders+mehlhorn``: ``ours+orders``, replaced by the ``mehlhorn`` trees of the groups
  its plan joins where those cost less (networkx on top of the ordered planner).

Every planner sees the same costs and an unlimited train budget (so no ticket is dropped
for its length), and the same tickets (those the planner can reach at all). It prints, per
family and overall: trains the plan needs, planning cost, how often a Steiner tree is
cheaper or dearer than ours, and the time a plan takes (networkx's including building its
graph, which changes with every claim). A Steiner tree joins every ticket end into one
tree, a ticket set needs only each pair joined, so the tree may join tickets that needed no
joining; and a tree through a country (Märklin) may pass through it, which the rules forbid:
such plans are counted as invalid.

On the same positions it times the engine's hot questions (``rules/graph.py``) against
networkx: whether each ticket is joined by the seat's routes, and one ticket's cheapest path
(with networkx's graph built for the question, and built beforehand), checking that both
give the same answers.

Run: .venv/bin/python tools/measure_planner.py [--games 3] [--every 2] [--seed 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx  # noqa: E402
from networkx.algorithms.approximation import steiner_tree  # noqa: E402

from ttr_desktop.bots.graph import Situation  # noqa: E402
from ttr_desktop.bots.greedy import GreedyBot  # noqa: E402
from ttr_desktop.rules import VARIANTS, new_game  # noqa: E402
from ttr_desktop.rules.graph import cheapest_path, components  # noqa: E402

#: Every registered variant but the USA 1910 games that only change the ticket set again.
FAMILIES = [v for v in VARIANTS if v not in ("usa-1910-mega", "usa-1910-big-cities")]
METHODS = ["kou", "mehlhorn"]
BIG_BUDGET = 10_000


def timed(fn, repeat: int):
    """(result, best seconds of ``repeat`` calls)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return out, best


def nx_graph(sit: Situation, sinks: bool = True) -> nx.Graph:
    """The situation's usable routes as a weighted graph: the cheapest route of each city
    pair, and each country joined at cost 0 to its end points (without ``sinks``: no
    country end points, which a path between two cities never passes)."""
    g = sit.graph
    net = nx.Graph()
    for r, c in enumerate(sit.cost):
        if c is None or not sinks and g.r_sink[r]:
            continue
        a, b = g.r_a[r], g.r_b[r]
        old = net.get_edge_data(a, b)
        if old is None or c < old["weight"]:
            net.add_edge(a, b, weight=c, route=r)
    for place, nodes in g.places.items():
        if len(nodes) > 1:
            for n in nodes:
                if n in net:
                    net.add_edge(country_node(g, place), n, weight=0.0, route=None)
    return net


def terminal(sit: Situation, place: str):
    nodes = sit.graph.places[place]
    return country_node(sit.graph, place) if len(nodes) > 1 else nodes[0]


def country_node(g, place: str) -> int:
    """A node number for a country, after the cities' (a number, so that networkx's sets
    of nodes iterate alike in every run)."""
    return g.n_cities + sorted(g.places).index(place)


def steiner_plan(sit: Situation, groups, method: str) -> list[int]:
    """Open routes of Steiner trees, one joining the ends of each group of tickets (and
    within a group, one per part of the graph)."""
    net = nx_graph(sit)
    parts = list(nx.connected_components(net))
    routes: list[int] = []
    for tickets in groups:
        ends = sorted({terminal(sit, p) for t in tickets for p in (t.a, t.b)})
        for part in parts:
            terms = [e for e in ends if e in part]
            if len(terms) < 2:
                continue
            tree = steiner_tree(net.subgraph(part), terms, weight="weight", method=method)
            for _, _, r in tree.edges(data="route"):
                if r is not None and sit.cost[r]:
                    routes.append(r)
    return routes


def our_groups(sit: Situation, plan, tickets) -> list[list]:
    """The tickets grouped as our plan joins them: one group per connected part of the
    seat's routes plus the planned ones."""
    g = sit.graph
    comp = components(g, sorted(sit.own) + plan.routes)
    groups: dict[int, list] = {}
    for t in tickets:
        label = min(comp.labels_of(g.places[t.a], g) or {-1})
        groups.setdefault(label, []).append(t)
    return list(groups.values())


def measure(view, tickets, repeat: int) -> dict[str, tuple[int, float, float, bool]] | None:
    """Per planner: (trains, planning cost, seconds, valid)."""
    sit = Situation(view)
    g = sit.graph
    base = sit.plan(tickets, budget=BIG_BUDGET)
    reach = base.planned + base.done
    if len(reach) < 2:
        return None
    own = sorted(sit.own)

    def score(routes, seconds):
        routes = sorted(set(routes))
        comp = components(g, own + routes)
        valid = all(comp.joined(g, t.a, t.b) for t in reach)
        return (sum(g.r_len[r] for r in routes), sum(sit.cost[r] for r in routes), seconds,
                valid)

    out = {"hot": hot_paths(sit, reach, repeat)}
    plan, s = timed(lambda: sit.plan(reach, budget=BIG_BUDGET), repeat)
    out["ours"] = score(plan.routes, s)
    ordered = Situation(view, orders=True)
    ordered_plan, s = timed(lambda: ordered.plan(reach, budget=BIG_BUDGET), repeat)
    out["ours+orders"] = score(ordered_plan.routes, s)
    for method in METHODS:
        routes, s = timed(lambda: steiner_plan(sit, [reach], method), repeat)
        out[method] = score(routes, s)
    # Steiner trees only where our plan joins tickets anyway (the grouping comes from our
    # plan, so its time is ours plus the trees').
    groups = our_groups(sit, base, reach)
    for method in METHODS:
        routes, s = timed(lambda: steiner_plan(sit, groups, method), repeat)
        out[f"{method}-grouped"] = score(routes, s + out["ours"][2])
    # networkx on top of the ordered planner: Steiner trees for the groups its plan joins,
    # kept where they cost less than its plan.
    groups = our_groups(sit, ordered_plan, reach)
    routes, s = timed(lambda: steiner_plan(sit, groups, "mehlhorn"), repeat)
    tree = score(routes, s + out["ours+orders"][2])
    best = out["ours+orders"]
    out["orders+mehlhorn"] = (tree if tree[3] and tree[1] < best[1] - 1e-9
                              else best[:2] + (tree[2], True))
    return out


def hot_paths(sit: Situation, tickets, repeat: int) -> dict[str, float]:
    """Seconds of the engine's hot questions, hand-written and with networkx: whether each
    ticket is joined by the seat's routes, and one ticket's cheapest path. (City tickets
    only: networkx knows no countries that end a path but never pass it on.)"""
    g = sit.graph
    own = sorted(sit.own)
    cities = [t for t in tickets if len(g.places[t.a]) == len(g.places[t.b]) == 1]
    if not cities:
        return {}
    ends = [(g.places[t.a][0], g.places[t.b][0]) for t in cities]

    def ours_joined():
        comp = components(g, own)
        return [comp.label[a] == comp.label[b] for a, b in ends]

    def nx_joined():
        net = nx.MultiGraph()
        net.add_edges_from((g.r_a[r], g.r_b[r]) for r in own)
        return [a in net and b in net and nx.has_path(net, a, b) for a, b in ends]

    a, b = ends[0]
    net = nx_graph(sit, sinks=False)

    def nx_path(build: bool):
        graph = nx_graph(sit, sinks=False) if build else net
        try:
            return nx.dijkstra_path_length(graph, a, b)
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return None

    found = cheapest_path(g, sit.cost, [a], [b])
    assert ours_joined() == nx_joined()
    assert (found is None) == (nx_path(False) is None)
    assert found is None or abs(found[0] - nx_path(False)) < 1e-6
    return {
        "joined/ours": timed(ours_joined, repeat)[1],
        "joined/nx": timed(nx_joined, repeat)[1],
        "path/ours": timed(lambda: cheapest_path(g, sit.cost, [a], [b]), repeat)[1],
        "path/nx": timed(lambda: nx_path(True), repeat)[1],
        "path/nx-prebuilt": timed(lambda: nx_path(False), repeat)[1],
    }


def sample_family(variant: str, games: int, every: int, seed: int, repeat: int) -> list[dict]:
    rows = []
    for k in range(games):
        game = new_game(variant, 2, seed=seed + k)
        bots = [GreedyBot(seed * 7 + k * 2 + s) for s in range(2)]
        n = 0
        while not game.is_over:
            seat = game.current_seat
            view, legal = game.view(seat), game.legal_actions()
            if view.phase == "turn":
                done = set(view.completed_tickets)
                open_t = sorted((t for t in view.tickets if t.id not in done),
                                key=lambda t: (-t.points, t.id))
                if len(open_t) >= 2:
                    n += 1
                    if n % every == 0:
                        row = measure(view, open_t, repeat)
                        if row is not None:
                            rows.append(row)
            game.apply(bots[seat].choose(view, legal))
    return rows


def report(name: str, rows: list[dict]) -> None:
    ours = [r["ours"] for r in rows]
    line = [f"{name:<14}{len(rows):>5}"]
    keys = ["ours", "ours+orders"] + METHODS + [f"{m}-grouped" for m in METHODS]
    for key in keys + ["orders+mehlhorn"]:
        these = [r[key] for r in rows]
        valid = [(o, t) for o, t in zip(ours, these) if t[3]]
        trains = sum(t[0] for _, t in valid) / max(1, sum(o[0] for o, _ in valid))
        cost = sum(t[1] for _, t in valid) / max(1e-9, sum(o[1] for o, _ in valid))
        cheaper = sum(t[1] < o[1] - 1e-9 for o, t in valid)
        dearer = sum(t[1] > o[1] + 1e-9 for o, t in valid)
        us = statistics.median(t[2] for t in these) * 1e6
        line.append(f"  {key}: trains x{trains:.3f} cost x{cost:.3f} "
                    f"-{cheaper}/+{dearer} {us:.0f}us" + (
                        f" invalid {len(these) - len(valid)}" if len(valid) < len(these)
                        else ""))
    print(line[0] + line[1] + "\n" + "\n".join(" " * 19 + x.strip() for x in line[2:]))
    ordered = [r["ours+orders"][1] for r in rows]
    both = [r["orders+mehlhorn"][1] for r in rows]
    print(" " * 19 + f"orders+mehlhorn against ours+orders: cost x"
          f"{sum(both) / max(1e-9, sum(ordered)):.3f}, cheaper in "
          f"{sum(b < o - 1e-9 for o, b in zip(ordered, both))} of {len(rows)}")
    hot = [r["hot"] for r in rows if r["hot"]]
    if hot:
        med = {k: statistics.median(h[k] for h in hot) * 1e6 for k in hot[0]}
        print(" " * 19 + f"hot paths ({len(hot)}): tickets joined? ours {med['joined/ours']:.0f}us"
              f" nx {med['joined/nx']:.0f}us (x{med['joined/nx'] / med['joined/ours']:.0f});"
              f" cheapest path ours {med['path/ours']:.0f}us nx {med['path/nx']:.0f}us"
              f" (x{med['path/nx'] / med['path/ours']:.0f}), graph prebuilt"
              f" {med['path/nx-prebuilt']:.0f}us"
              f" (x{med['path/nx-prebuilt'] / med['path/ours']:.1f})")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3, help="2-player games per family")
    p.add_argument("--every", type=int, default=2, help="measure every n-th eligible turn")
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--repeat", type=int, default=3, help="timing: best of n calls")
    p.add_argument("--only", choices=FAMILIES)
    args = p.parse_args(argv)
    print("ratios are to ours (valid plans only); -n/+n: plans cheaper/dearer than ours;"
          " us: median time a plan")
    every_row: list[dict] = []
    for variant in FAMILIES:
        if args.only not in (None, variant):
            continue
        rows = sample_family(variant, args.games, args.every, args.seed, args.repeat)
        report(variant, rows)
        every_row += rows
    if len(every_row) > 0 and args.only is None:
        report("all", every_row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
