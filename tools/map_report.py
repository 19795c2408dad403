"""Print the shape of each board and its tickets, for map authors (developer script).

Usage: .venv/bin/python tools/map_report.py [--all-tickets] [--maps DIR] [BOARD_OR_SET_ID ...]

For every board in maps/ (or the ids named), on a networkx graph of its cities and routes
(``ttr_desktop/maps/structure.py``, the graph the loader checks):

* its connected parts (a path never passes through a country end point, rules.md §2.4);
* its bridges (city pairs whose route, single or double, is the only way between two parts
  of the board) and its articulation cities (a city every path between two parts of the
  board passes);
* how many other cities each city's routes reach (least / median / most), and the dead ends;
* for each ticket, its points against the fewest train spaces joining its places, with the
  tickets whose points differ (every ticket with ``--all-tickets``). Ticket sets
  (``maps/<id>.tickets.toml``, or in the board file) are reported on their board; naming a
  board reports it with all its sets, naming a set reports that set alone.

A file that cannot be read is named with the loader's message, and the others are still
reported.

The figures are read from the map files as they are, so run it after tools/build_maps.py
(or after editing a file by hand) to see what a change did.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tomllib
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_desktop.maps.errors import MapError  # noqa: E402
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


def set_board(path: Path) -> str:
    """The board a ticket-set file names ("" when the file cannot be read)."""
    try:
        board = tomllib.loads(path.read_text(encoding="utf-8")).get("board", "")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    return board if isinstance(board, str) else ""


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: 0, or 1 when a file could not be read (named on stderr;
    the other boards are still reported)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*",
                        help="boards (with their ticket sets) or ticket sets; default: all")
    parser.add_argument("--all-tickets", action="store_true",
                        help="list every ticket, not only those whose points differ")
    parser.add_argument("--maps", type=Path, default=MAPS, help="the folder of map files")
    args = parser.parse_args(argv)
    failed = False
    boards: list[GameMap] = []
    for path in sorted(p for p in args.maps.glob("*.toml")
                       if not p.name.endswith(".tickets.toml")):
        try:
            boards.append(load_map(path))
        except MapError as problem:
            print(f"cannot report {path.name}: {problem}", file=sys.stderr)
            failed = True
    set_files: dict[str, list[Path]] = {}
    for path in sorted(args.maps.glob("*.tickets.toml")):
        board = set_board(path)
        if not board:
            print(f"cannot report {path.name}: it names no board", file=sys.stderr)
            failed = True
        set_files.setdefault(board, []).append(path)
    known = ({b.id for b in boards} | {s for b in boards for s in b.inline_ticket_sets}
             | {p.name.removesuffix(".tickets.toml") for ps in set_files.values() for p in ps})
    unknown = sorted(set(args.ids) - known)
    if unknown:
        parser.error(f"no board or ticket set {', '.join(unknown)} in {args.maps} "
                     f"(known: {', '.join(sorted(known))})")
    for board in boards:
        whole = not args.ids or board.id in args.ids
        sets: list[tuple[str, list[Ticket]]] = []
        if whole:
            sets.append(("of the board", list(board.tickets)))
        for set_id, ticket_set in sorted(board.inline_ticket_sets.items()):
            if whole or set_id in args.ids:
                sets.append((set_id, list(ticket_set.tickets)))
        for path in set_files.get(board.id, []):
            if whole or path.name.removesuffix(".tickets.toml") in args.ids:
                try:
                    ticket_set = load_ticket_set(path, board)
                except MapError as problem:
                    print(f"cannot report {path.name}: {problem}", file=sys.stderr)
                    failed = True
                    continue
                sets.append((ticket_set.id, list(ticket_set.tickets)))
        if sets:
            print("\n".join(report(board, sets, args.all_tickets)))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
