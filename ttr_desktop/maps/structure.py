"""The loader's structural checks of a board, on a networkx graph of its cities and routes.

Run once per file read (never during play, where ``rules/graph.py`` and the bots
keep their hand-written, allocation-free code): whether every ticket's places are joined by
some chain of routes, whether a format-3 board is one connected piece, and whether the tracks
of each double or triple route can be told apart by their colours.

A country end point is a dead end (rules.md §2.4): a path may end there but never pass
through, so the parts of a board are those of its ordinary cities, and an end point belongs
to the part of each city it is joined to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from .model import City, Country, Route


def board_graph(cities: Mapping[str, City], routes: Iterable[Route]) -> nx.MultiGraph:
    """Every city a node, every route an edge keyed by its id (parallel tracks are
    parallel edges), with the route as the edge's ``route`` attribute."""
    graph = nx.MultiGraph()
    graph.add_nodes_from(cities)
    for route in routes:
        graph.add_edge(route.a, route.b, key=route.id, route=route)
    return graph


def board_parts(graph: nx.MultiGraph, cities: Mapping[str, City]) -> list[set[str]]:
    """The connected parts of the board's ordinary cities (a path never passes through a
    country end point), largest first, then in file order of their first city."""
    order = {c: n for n, c in enumerate(cities)}
    inner = graph.subgraph(c for c, city in cities.items() if not city.is_sink)
    parts = [set(p) for p in nx.connected_components(inner)]
    return sorted(parts, key=lambda p: (-len(p), min(order[c] for c in p)))


def place_parts(graph: nx.MultiGraph, cities: Mapping[str, City],
                countries: Mapping[str, Country]) -> dict[str, frozenset[int]]:
    """For each place (a city or a country), the board parts a path from it may use: a
    city's own part; for a country end point, the parts of the cities it is joined to; for
    a country, those of all its end points. Two places are joined by some chain of routes
    exactly when their parts meet."""
    part_of: dict[str, int] = {}
    for n, part in enumerate(board_parts(graph, cities)):
        for city in part:
            part_of[city] = n
    out: dict[str, frozenset[int]] = {}
    for ident, city in cities.items():
        if city.is_sink:
            out[ident] = frozenset(part_of[n] for n in graph.neighbors(ident) if n in part_of)
        else:
            out[ident] = frozenset((part_of[ident],))
    for country in countries:
        out[country] = frozenset().union(*(out[c] for c, city in cities.items()
                                           if city.country == country))
    return out


def group_problems(graph: nx.MultiGraph, routes: list[Route]) -> list[tuple[int, str, str]]:
    """(route index, field, reason) for each track of a double or triple route that repeats
    a colour of its group other than gray: a player must be able to tell the tracks apart
    by their colour. (Tracks of one group may differ in length, tunnel and ferry
    locomotives, as Nordic Countries' do; that a group joins one pair of cities, and has
    at most three tracks, the loader checks as it reads each route.)"""
    index = {r.id: n for n, r in enumerate(routes)}
    problems: list[tuple[int, str, str]] = []
    for a, b in {tuple(sorted(e)) for e in graph.edges() if graph.number_of_edges(*e) > 1}:
        groups: dict[str, list[Route]] = {}
        for data in graph.get_edge_data(a, b).values():
            groups.setdefault(data["route"].group, []).append(data["route"])
        for group, members in groups.items():
            members.sort(key=lambda r: index[r.id])
            colours: set[str] = set()
            for route in members:
                if route.color != "gray" and route.color in colours:
                    problems.append((index[route.id], "color", (
                        f"two tracks of group \"{group}\" are both {route.color} (the tracks "
                        "of a double route have different colours, or are gray)")))
                colours.add(route.color)
    return sorted(problems)


__all__ = ["board_graph", "board_parts", "group_problems", "place_parts"]
