"""Print the shape of each board and its tickets, for map authors (developer script).

Usage: .venv/bin/python tools/map_report.py [--all-tickets] [MAP_OR_SET_ID ...]

For every board in maps/ (or the ids named), on a networkx graph of its cities and routes
(``ttr_desktop/maps/structure.py``, the graph the loader checks):

* its connected parts (a path never passes through a country end point, rules.md §2.4);
* its bridges (city pairs whose route, single or double, is the only way between two parts
  of the board) and its articulation cities (a city every path between two parts of the
  board passes);
* how many other cities each city's routes reach (least / median / most), and the dead ends;
* for each ticket, its points against the fewest train spaces joining its places, with the
  tickets whose points differ (every ticket with ``--all-tickets``). Ticket sets
  (``maps/<id>.tickets.toml``) are reported on their board.

The figures are read from the map files as they are, so run it after tools/build_maps.py
(or after editing a file by hand) to see what a change did.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_desktop.maps.loader import load_map, load_ticket_set  # noqa: E402
from ttr_desktop.maps.model import GameMap, Ticket  # noqa: E402
from ttr_desktop.maps.structure import board_graph, board_parts  # noqa: E402

MAPS = ROOT / "maps"


def link_graph(board: GameMap) -> nx.Graph:
    """The board's ordinary cities, one edge per joined pair weighted by its fewest spaces
    (parallel tracks are one link)."""
    links = nx.Graph()
    links.add_nodes_from(c for c, city in board.cities.items() if not city.is_sink)
    for r in board.route_list():
        if board.cities[r.a].is_sink or board.cities[r.b].is_sink:
            continue
        old = links.get_edge_data(r.a, r.b)
        if old is None or r.length < old["spaces"]:
            links.add_edge(r.a, r.b, spaces=r.length)
    return links


def place_nodes(board: GameMap, place: str) -> list[str]:
    """The nodes of a place: a city, or every end point of a country."""
    if place in board.cities:
        return [place]
    return [c for c, city in board.cities.items() if city.country == place]


def fewest_spaces(board: GameMap, links: nx.Graph, ticket: Ticket) -> int | None:
    """Fewest train spaces joining the ticket's places (a country end point only ends a
    path), or None if nothing joins them."""
    net = links.copy()
    src, dst = ("from",), ("to",)
    net.add_nodes_from((src, dst))
    directed = net.to_directed()
    for end, node, outward in ((ticket.a, src, True), (ticket.b, dst, False)):
        for n in place_nodes(board, end):
            if not board.cities[n].is_sink:
                pairs = [(n, 0)]
            else:   # a country end point: the routes that reach it
                pairs = [(r.b if r.a == n else r.a, r.length) for r in board.route_list()
                         if n in (r.a, r.b)]
            for city, spaces in pairs:
                edge = (node, city) if outward else (city, node)
                old = directed.get_edge_data(*edge)
                if old is None or spaces < old["spaces"]:
                    directed.add_edge(*edge, spaces=spaces)
    try:
        return nx.dijkstra_path_length(directed, src, dst, weight="spaces")
    except nx.NetworkXNoPath:
        return None


def report(board: GameMap, sets: list[tuple[str, list[Ticket]]], all_tickets: bool) -> list[str]:
    """The report lines of one board and its ticket sets."""
    out = [f"{board.id}: {len(board.cities)} cities, {len(board.routes)} routes"]
    parts = board_parts(board_graph(board.cities, board.route_list()), board.cities)
    if len(parts) == 1:
        out.append("  one connected piece")
    else:
        out.append(f"  {len(parts)} connected parts: "
                   + "; ".join(", ".join(sorted(p)) for p in parts))
    links = link_graph(board)
    bridges = sorted(tuple(sorted(e)) for e in nx.bridges(links))
    out.append(f"  bridges ({len(bridges)}): "
               + (", ".join(f"{a}-{b}" for a, b in bridges) or "none"))
    cuts = sorted(nx.articulation_points(links))
    out.append(f"  articulation cities ({len(cuts)}): " + (", ".join(cuts) or "none"))
    degree = dict(links.degree())
    values = sorted(degree.values())
    out.append(f"  cities reached by a city's routes: least {values[0]}, median "
               f"{statistics.median(values):g}, most {values[-1]} "
               f"({', '.join(c for c, d in degree.items() if d == values[-1])})")
    ends = sorted(c for c, d in degree.items() if d <= 1)
    out.append(f"  dead ends ({len(ends)}): " + (", ".join(ends) or "none"))
    for name, tickets in sets:
        rows = [(t, fewest_spaces(board, links, t)) for t in tickets]
        differ = [(t, s) for t, s in rows if s != t.points]
        out.append(f"  tickets {name}: {len(tickets)}; points differ from the fewest spaces "
                   f"on {len(differ)}")
        for t, s in rows if all_tickets else differ:
            shown = "not joined" if s is None else f"{s} spaces"
            out.append(f"    {t.id}: {t.points} points, {shown}"
                       + (f" ({t.points - s:+d})" if s is not None and s != t.points else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="boards or ticket sets (default: every board)")
    parser.add_argument("--all-tickets", action="store_true",
                        help="list every ticket, not only those whose points differ")
    args = parser.parse_args(argv)
    boards = sorted(p for p in MAPS.glob("*.toml") if not p.name.endswith(".tickets.toml"))
    set_files = sorted(MAPS.glob("*.tickets.toml"))
    known = {p.stem for p in boards} | {p.name.removesuffix(".tickets.toml") for p in set_files}
    unknown = sorted(set(args.ids) - known)
    if unknown:
        parser.error(f"no board or ticket set {', '.join(unknown)} in {MAPS} "
                     f"(known: {', '.join(sorted(known))})")
    for path in boards:
        board = load_map(path)
        sets: list[tuple[str, list[Ticket]]] = []
        if not args.ids or board.id in args.ids:
            sets.append(("of the board", list(board.tickets)))
        for set_path in set_files:
            set_id = set_path.name.removesuffix(".tickets.toml")
            if args.ids and set_id not in args.ids:
                continue
            try:
                ticket_set = load_ticket_set(set_path, board)
            except ValueError:
                continue   # a set for another board
            if ticket_set.board == board.id:
                sets.append((ticket_set.id, list(ticket_set.tickets)))
        if args.ids and not sets:
            continue
        print("\n".join(report(board, sets, args.all_tickets)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
