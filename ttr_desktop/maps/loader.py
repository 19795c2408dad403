"""Load and validate map files (TOML, format 3; formats 1 and 2 are still read) and the
ticket sets beside them.

The format is described in ``maps/README.md``. In short, a board file is::

    format = 3
    id = "marklin"              # map id, also the file name: maps/<id>.toml
    name = "Germany"            # shown to players
    width = 1300                # board size in board pixels (1..20000)
    height = 1700
    background = "marklin.png"  # optional; an image beside the TOML
    credits = "..."             # optional: a credit line for the game's credits
    licence = '''...'''         # optional: licence text that must ship with the map

    [merchandise]               # optional: stacks by city colour, top token first
    black = [7, 6, 5, 4]

    [[countries]]               # optional: countries beyond the border (tickets may name them)
    id = "frankreich"
    name = "Frankreich"

    [[cities]]                  # at least one
    id = "koln"                 # unique among cities and countries
    name = "Köln"
    lat = 50.938                # real position, degrees
    lon = 6.96
    x = 210.0                   # board position, inside 0..width, 0..height
    y = 700.5
    kind = "city"               # optional: "city" or "country" (an end point of `country`)
    country = "frankreich"      # required for kind = "country", else not allowed
    large = false               # optional: a large city (Legacy)
    forbidden_start = false     # optional: nobody starts or marks here (Old West's Roswell)
    merchandise = "red"         # optional: a key of [merchandise] (Märklin)
    coal = true                 # optional: gets a coal token at setup (County Durham)

    [[routes]]                  # at least one; file order is the engine's route order
    id, a, b, length (1..9), color, group, tunnel, ferry_locomotives, polyline
                                # as in format 1; no route may end in two countries

    [[stubs]]                   # optional: track to the board's edge that is never claimable
    id = "savannah-jacksonville"
    city = "savannah"
    to = "Jacksonville"         # where it leads (shown to players)
    length = 2
    color = "gray"
    polyline = [[..., ...], [..., ...]]   # from the city to the edge, at least 2 points

    [[tickets]]                 # the board's own tickets, file order kept (format 1, 2:
    id, a, b (a city or a country id), points   # at least one; format 3: optional)
    deck = "regular"            # optional: the named ticket deck (format 1: long = true)
    set = "usa-1910"            # format 3, optional: the ticket belongs to this named
                                # set, not to the board's own tickets

A ticket set beside the board is ``maps/<set id>.tickets.toml``::

    format = 3
    id = "usa-1910"             # the set's id, also the file name
    board = "usa"               # the board it is for
    name = "USA 1910"           # shown to players
    [[tickets]]                 # at least one: id, a, b, points, deck as above

A ruleset names the ticket sets it plays with (``Ruleset.ticket_sets``); ``get_map(board,
sets)`` returns the board with those tickets, in order. A format-3 board must be one
connected piece, with no colour twice (other than gray) among the tracks of a double or
triple route (``structure.py``).

Unknown fields are errors (they are usually typos). Every problem raises
:class:`MapError`, which names the file, the line and the field.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import NoReturn

from ..resources import resource_path
from ..toml_reading import TomlFileError, read_toml, read_toml_text
from .errors import LineFinder, MapError, display, show
from .model import (
    CITY_KINDS,
    ROUTE_COLORS,
    City,
    Country,
    GameMap,
    Route,
    Stub,
    Ticket,
    TicketSet,
)

FORMATS = (1, 2, 3)
FORMAT = 3
#: A ticket-set file beside its board: maps/<set id>.tickets.toml.
TICKET_SET_SUFFIX = ".tickets.toml"
MAX_ROUTE_LENGTH = 9
MAX_GROUP_SIZE = 3
#: Largest board side in pixels, and largest coordinate magnitude read as a number.
MAX_BOARD_SIDE = 20000
MAX_NUMBER = 1e9
_MISSING = object()
_TOP_FIELDS = {
    1: ("format", "id", "name", "width", "height", "background", "cities", "routes", "tickets"),
    2: ("format", "id", "name", "width", "height", "background", "credits", "licence",
        "merchandise", "countries", "cities", "routes", "stubs", "tickets"),
}
_TOP_FIELDS[3] = _TOP_FIELDS[2]
_SET_FIELDS = ("format", "id", "board", "name", "tickets")
_CITY_FIELDS = {
    1: ("id", "name", "lat", "lon", "x", "y"),
    2: ("id", "name", "lat", "lon", "x", "y", "kind", "country", "large", "forbidden_start",
        "merchandise", "coal"),
}
_CITY_FIELDS[3] = _CITY_FIELDS[2]
_ROUTE_FIELDS = ("id", "a", "b", "length", "color", "group", "tunnel", "ferry_locomotives",
                 "polyline")
_STUB_FIELDS = ("id", "city", "to", "length", "color", "polyline")
_COUNTRY_FIELDS = ("id", "name")
_TICKET_FIELDS = {1: ("id", "a", "b", "points", "long"), 2: ("id", "a", "b", "points", "deck"),
                  3: ("id", "a", "b", "points", "deck", "set")}
_DECK_NAME = re.compile(r"[a-z][a-z0-9_]*")
#: Map ids and ticket-set ids: lowercase letters, digits, "-" and "_".
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")


def _is_number(value: object) -> bool:
    """A finite int or float of sane size (a number with hundreds of digits is not one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, int):
        return -MAX_NUMBER <= value <= MAX_NUMBER
    return math.isfinite(value) and abs(value) <= MAX_NUMBER


class _Reader:
    """Validates parsed TOML data and builds the GameMap."""

    def __init__(self, path: Path, text: str, data: dict):
        self.path, self.data, self.lines = path, data, LineFinder(text)
        self.version = FORMAT
        #: What the file is, for "the map has no tickets".
        self.noun = "map"

    def fail(
        self,
        reason: str,
        table: str | None = None,
        index: int | None = None,
        key: str | None = None,
    ) -> NoReturn:
        """Raise a MapError located at a top-level field or at a field of a table entry."""
        field = key if table is None else f"{table}[{index}]" + (f".{key}" if key else "")
        line = self.lines.find(table, index, key.split("[")[0] if key else None)
        raise MapError(self.path, reason, line, field)

    def get(self, entry: dict, kind: str, key: str, table=None, index=None, default=_MISSING):
        """A field of the right kind (str, text, int, number, bool), or ``default`` when absent.

        "str" is a non-empty single-line string, "text" any string."""
        if key not in entry:
            if default is _MISSING:
                self.fail(f"missing field {key!r}", table, index)
            return default
        value = entry[key]
        ok = {
            "str": isinstance(value, str) and value.strip() != "" and "\n" not in value,
            "text": isinstance(value, str),
            "int": isinstance(value, int) and not isinstance(value, bool)
            and -MAX_NUMBER <= value <= MAX_NUMBER,
            "number": _is_number(value),
            "bool": isinstance(value, bool),
        }[kind]
        if not ok:
            expected = {
                "str": "a non-empty one-line string",
                "text": "a string",
                "int": "a whole number",
                "number": "a number",
                "bool": "true or false",
            }[kind]
            shown = show(value)
            if len(shown) > 40:
                shown = shown[:37] + "..."
            self.fail(f"{shown} is not {expected}", table, index, key)
        return float(value) if kind == "number" else value

    def entries(self, table: str, allowed: tuple[str, ...], required: bool = True) -> list[dict]:
        """The entries of an array of tables, checked to be tables with known fields only."""
        items = self.data.get(table, _MISSING)
        if items is _MISSING or items == []:
            if required:
                self.fail(f"the {self.noun} has no {table}")
            return []
        if not isinstance(items, list) or not all(isinstance(e, dict) for e in items):
            self.fail(f"expected [[{table}]] tables", None, None, table)
        for index, entry in enumerate(items):
            for key in entry:
                if key not in allowed:
                    self.fail(
                        f"unknown field {key!r} (expected {', '.join(allowed)})", table, index, key
                    )
        return items

    def build(self) -> GameMap:
        """Check everything and return the map."""
        data = self.data
        version = self.get(data, "int", "format")
        if version not in FORMATS:
            self.fail(
                f"format {version} is not supported (this game reads formats "
                f"{', '.join(map(str, FORMATS))})", key="format"
            )
        self.version = version
        for key in data:
            if key not in _TOP_FIELDS[version]:
                self.fail(f"unknown field {key!r}", key=key)
        map_id = self.get(data, "str", "id")
        name = self.get(data, "str", "name")
        width, height = self.get(data, "int", "width"), self.get(data, "int", "height")
        for key, value in (("width", width), ("height", height)):
            if not 0 < value <= MAX_BOARD_SIDE:
                self.fail(f"{value} is not a board size (1..{MAX_BOARD_SIDE})", key=key)
        background = self.get(data, "str", "background", default="")
        credits = self.get(data, "text", "credits", default="")
        licence = self.get(data, "text", "licence", default="")
        merchandise = self.merchandise()
        countries = self.countries()
        cities = self.cities(width, height, countries, merchandise)
        routes = self.routes(cities)
        stubs = self.stubs(cities)
        from . import structure   # networkx: paid for when a map is read, not at start-up

        graph = structure.board_graph(cities, routes.values())
        if self.version >= 3:
            self.check_structure(structure, graph, cities, list(routes.values()))
        places = structure.place_parts(graph, cities, countries)
        own, sets = self.board_tickets(map_id, places)
        source = str(self.path)
        return GameMap(map_id, name, width, height, background, cities, routes,
                       list(own.tickets), source, countries, tuple(stubs), merchandise, credits,
                       licence, ticket_sources=tuple((source, n) for n, _ in own.entries),
                       inline_ticket_sets=sets)

    def check_structure(self, structure, graph, cities: dict[str, City],
                        routes: list[Route]) -> None:
        """Format 3: the board is one connected piece, every country end point has a route,
        and no double or triple route repeats a colour other than gray."""
        parts = structure.board_parts(graph, cities)
        if len(parts) > 1:
            order = list(cities)
            apart = sorted((c for part in parts[1:] for c in part), key=order.index)
            shown = ", ".join(show(c) for c in apart[:5]) + (", ..." if len(apart) > 5 else "")
            main = min(parts[0], key=order.index)
            self.fail(f"the board is not connected: no chain of routes joins {shown} to "
                      f"{show(main)} (a path never passes through a country end point)",
                      "cities", order.index(apart[0]))
        for city, data in cities.items():
            if data.is_sink and not graph.degree(city):
                self.fail("no route reaches this country end point", "cities",
                          list(cities).index(city))
        for n, key, reason in structure.group_problems(graph, routes):
            self.fail(reason, "routes", n, key)

    def merchandise(self) -> dict[str, tuple[int, ...]]:
        """Merchandise stacks by colour: lists of positive token values, top first."""
        table = self.data.get("merchandise", {})
        if not isinstance(table, dict):
            self.fail("expected a [merchandise] table", key="merchandise")
        out: dict[str, tuple[int, ...]] = {}
        for colour, stack in table.items():
            if not isinstance(stack, list) or not stack or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 1000
                    for v in stack):
                self.fail("a merchandise stack is a list of positive token values",
                          key=f"merchandise.{colour}")
            out[colour] = tuple(stack)
        return out

    def countries(self) -> dict[str, Country]:
        """Countries by id, in file order."""
        out: dict[str, Country] = {}
        seen: dict[str, int] = {}
        for n, e in enumerate(self.entries("countries", _COUNTRY_FIELDS, required=False)):
            ident = self.unique_id(e, "countries", n, seen)
            out[ident] = Country(ident, self.get(e, "str", "name", "countries", n))
        return out

    def unique_id(self, entry: dict, table: str, index: int, seen: dict[str, int]) -> str:
        """The entry's id, checked to be new."""
        ident = self.get(entry, "str", "id", table, index)
        if ident in seen:
            first = self.lines.find(table, seen[ident], "id")
            where = f" (first used at line {first})" if first else ""
            self.fail(f"duplicate id {show(ident)}{where}", table, index, "id")
        seen[ident] = index
        return ident

    def city_ref(
        self, entry: dict, key: str, table: str, index: int, cities: dict[str, City]
    ) -> str:
        """A field naming a city, checked to exist."""
        ident = self.get(entry, "str", key, table, index)
        if ident not in cities:
            self.fail(f"unknown city {show(ident)}", table, index, key)
        return ident

    def ends(self, e: dict, table: str, n: int, cities: dict,
             what: str) -> tuple[str, str]:
        """The two place ids of a route or ticket, which must exist and differ."""
        a = self.city_ref(e, "a", table, n, cities)
        b = self.city_ref(e, "b", table, n, cities)
        if a == b:
            self.fail(f"{what} two different places (both ends are {show(a)})", table, n, "b")
        return a, b

    def point(self, p: object, table: str, n: int, key: str, width: int,
              height: int) -> tuple[float, float]:
        """An [x, y] pair of numbers."""
        if not (isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p)):
            if isinstance(p, list) and len(p) <= 4:
                shown = "[" + ", ".join(show(v)[:20] for v in p) + "]"
            else:
                shown = "a list" if isinstance(p, list) else show(p)[:40]
            self.fail(f"{shown} is not an [x, y] pair of numbers", table, n, key)
        return float(p[0]), float(p[1])

    def cities(self, width: int, height: int, countries: dict[str, Country],
               merchandise: dict[str, tuple[int, ...]]) -> dict[str, City]:
        """All cities, keyed by id, in file order."""
        cities: dict[str, City] = {}
        seen: dict[str, int] = {}
        for n, e in enumerate(self.entries("cities", _CITY_FIELDS[self.version])):
            ident = self.unique_id(e, "cities", n, seen)
            if ident in countries:
                self.fail(f"{show(ident)} is already a country id", "cities", n, "id")
            name = self.get(e, "str", "name", "cities", n)
            lat, lon = (
                self.get(e, "number", "lat", "cities", n),
                self.get(e, "number", "lon", "cities", n),
            )
            if not -90 <= lat <= 90:
                self.fail(f"{lat} is not a latitude (-90..90)", "cities", n, "lat")
            if not -180 <= lon <= 180:
                self.fail(f"{lon} is not a longitude (-180..180)", "cities", n, "lon")
            x, y = self.get(e, "number", "x", "cities", n), self.get(e, "number", "y", "cities", n)
            for key, value, size in (("x", x, width), ("y", y, height)):
                if not 0 <= value <= size:
                    self.fail(f"{value} is outside the board (0..{size})", "cities", n, key)
            kind = self.get(e, "str", "kind", "cities", n, default="city")
            if kind not in CITY_KINDS:
                self.fail(f"{show(kind)} is not a city kind (expected {', '.join(CITY_KINDS)})",
                          "cities", n, "kind")
            country = self.get(e, "str", "country", "cities", n, default="")
            if kind == "country":
                if not country:
                    self.fail("an end point of a country names its country", "cities", n)
                if country not in countries:
                    self.fail(f"unknown country {show(country)} (declare it in [[countries]])",
                              "cities", n, "country")
            elif country:
                self.fail("only a city of kind \"country\" names a country", "cities", n,
                          "country")
            large = self.get(e, "bool", "large", "cities", n, default=False)
            forbidden = self.get(e, "bool", "forbidden_start", "cities", n, default=False)
            goods = self.get(e, "str", "merchandise", "cities", n, default="")
            if goods and goods not in merchandise:
                self.fail(f"{show(goods)} is not a merchandise colour of this map "
                          f"(expected one of {', '.join(merchandise) or 'none'})",
                          "cities", n, "merchandise")
            if goods and kind == "country":
                self.fail("a country end point carries no merchandise", "cities", n,
                          "merchandise")
            coal = self.get(e, "bool", "coal", "cities", n, default=kind == "city")
            if coal and kind == "country":
                self.fail("a country end point carries no coal", "cities", n, "coal")
            cities[ident] = City(ident, name, lat, lon, x, y, kind, country, large, forbidden,
                                 goods, coal)
        return cities

    def routes(self, cities: dict[str, City]) -> dict[str, Route]:
        """All routes, keyed by id, in file order, with their parallel groups checked."""
        routes: dict[str, Route] = {}
        ordered: list[Route] = []
        seen: dict[str, int] = {}
        groups: dict[str, list[int]] = {}
        for n, e in enumerate(self.entries("routes", _ROUTE_FIELDS)):
            ident = self.unique_id(e, "routes", n, seen)
            a, b = self.ends(e, "routes", n, cities, "a route must join")
            if cities[a].is_sink and cities[b].is_sink:
                self.fail("a route cannot join two country end points", "routes", n, "b")
            length = self.get(e, "int", "length", "routes", n)
            if not 1 <= length <= MAX_ROUTE_LENGTH:
                self.fail(
                    f"{length} is not a route length (1..{MAX_ROUTE_LENGTH})", "routes", n, "length"
                )
            color = self.colour(e, "routes", n)
            group = self.get(e, "str", "group", "routes", n, default=ident)
            tunnel = self.get(e, "bool", "tunnel", "routes", n, default=False)
            ferry = self.get(e, "int", "ferry_locomotives", "routes", n, default=0)
            if not 0 <= ferry <= length:
                self.fail(
                    f"{ferry} ferry locomotives on a route of length {length}"
                    f" (expected 0..{length})",
                    "routes",
                    n,
                    "ferry_locomotives",
                )
            polyline = self.polyline(e, "routes", n, (cities[a].x, cities[a].y),
                                     (cities[b].x, cities[b].y))
            members = groups.setdefault(group, [])
            if members:
                first = ordered[members[0]]
                if {first.a, first.b} != {a, b}:
                    self.fail(
                        f"group {show(group)} joins {first.a}-{first.b} (routes[{members[0]}]) "
                        f"but this route joins {a}-{b}",
                        "routes",
                        n,
                        "group",
                    )
                if len(members) == MAX_GROUP_SIZE:
                    self.fail(
                        f"group {show(group)} has more than {MAX_GROUP_SIZE} routes",
                        "routes",
                        n,
                        "group",
                    )
            members.append(n)
            routes[ident] = Route(ident, a, b, length, color, group, tunnel, ferry, polyline)
            ordered.append(routes[ident])
        return routes

    def colour(self, e: dict, table: str, n: int) -> str:
        """A route colour: a card colour or gray."""
        color = self.get(e, "str", "color", table, n)
        if color not in ROUTE_COLORS:
            self.fail(
                f"{show(color)} is not a colour (expected one of {', '.join(ROUTE_COLORS)})",
                table,
                n,
                "color",
            )
        return color

    def stubs(self, cities: dict[str, City]) -> list[Stub]:
        """Off-board track: drawn, never claimable."""
        out: list[Stub] = []
        seen: dict[str, int] = {}
        for n, e in enumerate(self.entries("stubs", _STUB_FIELDS, required=False)):
            ident = self.unique_id(e, "stubs", n, seen)
            city = self.city_ref(e, "city", "stubs", n, cities)
            to = self.get(e, "str", "to", "stubs", n)
            length = self.get(e, "int", "length", "stubs", n)
            if not 1 <= length <= MAX_ROUTE_LENGTH:
                self.fail(f"{length} is not a route length (1..{MAX_ROUTE_LENGTH})", "stubs", n,
                          "length")
            color = self.colour(e, "stubs", n)
            if "polyline" not in e:
                self.fail("a stub needs its polyline (from the city to the board's edge)",
                          "stubs", n)
            c = cities[city]
            polyline = self.polyline(e, "stubs", n, (c.x, c.y), (c.x, c.y))
            out.append(Stub(ident, city, to, length, color, polyline))
        return out

    def polyline(self, e: dict, table: str, n: int, a: tuple[float, float],
                 b: tuple[float, float]) -> tuple[tuple[float, float], ...]:
        """A route's board points (the straight line between its cities when absent)."""
        if "polyline" not in e:
            return (a, b)
        points = e["polyline"]
        if not isinstance(points, list) or len(points) < 2:
            count = f"{len(points)} point(s)" if isinstance(points, list) else show(points)[:40]
            self.fail(f"a polyline needs at least 2 [x, y] points, got {count}", table, n,
                      "polyline")
        return tuple(self.point(p, table, n, f"polyline[{k}]", 0, 0)
                     for k, p in enumerate(points))

    def ticket(self, e: dict, n: int, places: dict[str, frozenset[int]], seen: dict[str, int],
               version: int) -> Ticket:
        """One [[tickets]] entry: its places must be joined by some chain of routes."""
        ident = self.unique_id(e, "tickets", n, seen)
        a, b = self.ends(e, "tickets", n, places, "a ticket must name")
        points = self.get(e, "int", "points", "tickets", n)
        if not 0 < points <= 1000:
            self.fail(f"{points} is not a number of points (1..1000)", "tickets", n, "points")
        if version == 1:
            deck = "long" if self.get(e, "bool", "long", "tickets", n, default=False) \
                else "regular"
        else:
            deck = self.get(e, "str", "deck", "tickets", n, default="regular")
            if not _DECK_NAME.fullmatch(deck):
                self.fail(f"{show(deck)} is not a deck name (lowercase letters)", "tickets",
                          n, "deck")
        if not places[a] & places[b]:
            self.fail(f"no chain of routes connects {show(a)} and {show(b)}", "tickets", n)
        return Ticket(ident, a, b, points, deck)

    def board_tickets(self, map_id: str, places: dict[str, frozenset[int]]
                      ) -> tuple[TicketSet, dict[str, TicketSet]]:
        """The board's own tickets (those without ``set``), and the named sets written in
        the board file, in file order. Ids are unique within each set."""
        grouped: dict[str, list[tuple[int, Ticket]]] = {}
        seen: dict[str, dict[str, int]] = {}
        required = self.version < 3
        for n, e in enumerate(self.entries("tickets", _TICKET_FIELDS[self.version], required)):
            name = self.get(e, "str", "set", "tickets", n, default="")
            if name and not _ID.fullmatch(name):
                self.fail(f"{show(name)} is not a ticket-set id (lowercase letters, digits, "
                          "- and _)", "tickets", n, "set")
            ticket = self.ticket(e, n, places, seen.setdefault(name, {}), self.version)
            grouped.setdefault(name, []).append((n, ticket))
        source = str(self.path)

        def as_set(ident: str, items: list[tuple[int, Ticket]]) -> TicketSet:
            return TicketSet(ident or map_id, map_id, ident, tuple(t for _, t in items), source,
                             tuple((n, self.lines.find("tickets", n)) for n, _ in items))

        own = as_set("", grouped.pop("", []))
        return own, {ident: as_set(ident, items) for ident, items in grouped.items()}

    def ticket_set(self, board: GameMap) -> TicketSet:
        """A ticket-set file: its header, then its tickets checked against ``board``."""
        data = self.data
        version = self.get(data, "int", "format")
        if version != 3:
            self.fail(f"format {version} is not a ticket-set format (ticket sets are "
                      "format 3)", key="format")
        for key in data:
            if key not in _SET_FIELDS:
                self.fail(f"unknown field {key!r} (expected {', '.join(_SET_FIELDS)})", key=key)
        ident = self.get(data, "str", "id")
        expected = self.path.name[: -len(TICKET_SET_SUFFIX)] \
            if self.path.name.endswith(TICKET_SET_SUFFIX) else None
        if not _ID.fullmatch(ident):
            self.fail(f"{show(ident)} is not a ticket-set id (lowercase letters, digits, "
                      "- and _)", key="id")
        if expected is not None and ident != expected:
            self.fail(f"the set {show(ident)} must be in {ident}{TICKET_SET_SUFFIX}, not in "
                      f"{self.path.name}", key="id")
        board_id = self.get(data, "str", "board")
        if board_id != board.id:
            self.fail(f"this ticket set is for the board {show(board_id)}, not for "
                      f"{show(board.id)}", key="board")
        name = self.get(data, "str", "name")
        self.noun = "ticket set"
        from . import structure

        graph = structure.board_graph(board.cities, board.routes.values())
        places = structure.place_parts(graph, board.cities, board.countries)
        seen: dict[str, int] = {}
        tickets = [self.ticket(e, n, places, seen, 3)
                   for n, e in enumerate(self.entries("tickets", _TICKET_FIELDS[2]))]
        return TicketSet(ident, board.id, name, tuple(tickets), str(self.path),
                         tuple((n, self.lines.find("tickets", n)) for n in range(len(tickets))))


def load_map(path: str | Path) -> GameMap:
    """Read, validate and return the map in a TOML file (not cached)."""
    path = Path(path)
    text, data = read_toml_text(path, "map file", _file_error)
    try:
        return _Reader(path, text, data).build()
    except RecursionError:
        raise MapError(path, "the file nests tables or arrays too deeply to be a map") from None


def _file_error(problem: TomlFileError) -> MapError:
    """The shared reader's problem as a MapError naming the line, in the map loader's words."""
    path, code = problem.path, problem.code
    if code == "missing":
        return MapError(path, "file not found")
    if code in ("unreadable", "folder"):
        return MapError(path, f"cannot read the file ({problem.detail or 'Is a directory'})")
    if code == "binary":
        return MapError(path, "the file is not UTF-8 text", problem.line)
    if code == "empty":
        return MapError(path, "the file is empty")
    if code == "too_large":
        return MapError(path, "the file is far too large to be a map")
    if code == "too_deep":
        return MapError(path, "the file nests tables or arrays too deeply to be a map")
    if code == "bad_value":
        return MapError(path, f"a value cannot be read: {problem.detail}")
    message = problem.detail                     # a TOML syntax error
    if problem.column is not None:
        reason = f"TOML syntax error: {problem.reason_detail} (column {problem.column})"
        return MapError(path, reason, problem.line)
    if "(at end of document)" in message:
        reason = message.replace("(at end of document)", "at the end of the file").strip()
        return MapError(path, f"TOML syntax error: {reason}", problem.line)
    return MapError(path, f"TOML syntax error: {message}")


def load_ticket_set(path: str | Path, board: GameMap) -> TicketSet:
    """Read and validate the ticket-set file at ``path`` against ``board`` (not cached)."""
    path = Path(path)
    text, data = read_toml_text(path, "ticket-set file", _file_error)
    try:
        return _Reader(path, text, data).ticket_set(board)
    except RecursionError:
        raise MapError(path, "the file nests tables or arrays too deeply to be a map") from None


def with_ticket_sets(board: GameMap, sets: list[TicketSet] | tuple[TicketSet, ...]) -> GameMap:
    """``board`` playing with the tickets of ``sets``, in order (instead of its own). A
    ticket id may appear in only one of them."""
    tickets: list[Ticket] = []
    sources: list[tuple[str, int]] = []
    first: dict[str, tuple[TicketSet, int]] = {}
    for ticket_set in sets:
        for ticket, (index, line) in zip(ticket_set.tickets, ticket_set.entries):
            if ticket.id in first:
                other, other_line = first[ticket.id]
                where = f", line {other_line}" if other_line else ""
                raise MapError(ticket_set.source,
                               f"duplicate ticket id {show(ticket.id)}: the set "
                               f"{show(other.id)} ({display(other.source)}{where}) has it too, "
                               "and a game plays both", line, f"tickets[{index}].id")
            first[ticket.id] = (ticket_set, line)
            tickets.append(ticket)
            sources.append((ticket_set.source, index))
    return replace(board, tickets=tickets, ticket_sets=tuple(s.id for s in sets),
                   ticket_sources=tuple(sources))


def ticket_set_path(set_id: str) -> Path:
    """Where the bundled ticket set ``set_id`` lives beside the boards."""
    return resource_path("maps", f"{set_id}{TICKET_SET_SUFFIX}")


def available_ticket_sets(map_id: str | None = None) -> list[str]:
    """Ids of the bundled ticket sets (of ``map_id``'s board only, when given), sorted: the
    ``*.tickets.toml`` files beside the boards and the sets written in the board files."""
    found = set()
    for p in resource_path("maps").glob(f"*{TICKET_SET_SUFFIX}"):
        ident = p.name[: -len(TICKET_SET_SUFFIX)]
        if map_id is None or _set_board(p) == map_id:
            found.add(ident)
    for board_id in [map_id] if map_id else available_maps():
        found.update(_board(board_id).inline_ticket_sets)
    return sorted(found)


def _set_board(path: Path) -> str:
    """The ``board`` a ticket-set file names ("" when it cannot be read)."""
    try:
        board = read_toml(path, "ticket-set file").get("board", "")
    except TomlFileError:
        return ""
    return board if isinstance(board, str) else ""


def available_maps() -> list[str]:
    """Ids of the bundled maps (the TOML files in maps/), sorted."""
    return sorted(p.stem for p in resource_path("maps").glob("*.toml")
                  if not p.name.endswith(TICKET_SET_SUFFIX))


@lru_cache(maxsize=None)
def _board(map_id: str) -> GameMap:
    """The bundled board with this id and its own tickets, loaded once."""
    if not _ID.fullmatch(map_id):
        raise MapError(f"maps/{map_id}.toml", f"{map_id!r} is not a map id")
    return load_map(resource_path("maps", f"{map_id}.toml"))


@lru_cache(maxsize=None)
def _ticket_set(map_id: str, set_id: str) -> TicketSet:
    board = _board(map_id)
    path = ticket_set_path(set_id)
    inline = board.inline_ticket_sets.get(set_id)
    if not _ID.fullmatch(set_id):
        raise MapError(board.source, f"{set_id!r} is not a ticket-set id")
    if inline is not None:
        if path.exists():
            raise MapError(path, f"the ticket set {show(set_id)} is also written in "
                           f"{display(board.source)}; keep one of them", field="id")
        return inline
    if not path.exists():
        raise MapError(board.source, f"there is no ticket set {show(set_id)}: neither "
                       f"{display(str(path))} nor tickets with set = {show(set_id)} here",
                       field="tickets")
    return load_ticket_set(path, board)


@lru_cache(maxsize=None)
def get_map(map_id: str, ticket_sets: tuple[str, ...] = ()) -> GameMap:
    """The bundled map with this id, loaded once and shared by every game: the board with
    its own tickets, or with the tickets of the named ``ticket_sets`` in their order."""
    board = _board(map_id)
    if not ticket_sets:
        return board
    return with_ticket_sets(board, [_ticket_set(map_id, s) for s in tuple(ticket_sets)])
