"""Load and validate map files (TOML, format 1).

A map file is UTF-8 TOML::

    format = 1                  # this loader reads format 1 only
    id = "usa"                  # map id, also the file name: maps/<id>.toml
    name = "United States"      # shown to players
    width = 1800                # board size in board pixels
    height = 1150
    background = "usa.png"      # optional; an image beside the TOML (may not exist yet)

    [[cities]]                  # one table per city, at least one
    id = "atlanta"              # unique
    name = "Atlanta"
    lat = 33.749                # real position, degrees
    lon = -84.388
    x = 1512.0                  # board position, inside 0..width, 0..height
    y = 905.5

    [[routes]]                  # one table per route, at least one; file order is kept
    id = "atlanta-charleston"   # unique
    a = "atlanta"               # city ids, different
    b = "charleston"
    length = 2                  # train spaces, 1..9
    color = "gray"              # red blue green yellow black white orange pink gray
    group = "g1"                # optional (default: the route id); the routes of a group
                                #   (2 or 3) are parallel tracks with the same two ends
    tunnel = false              # optional, default false
    ferry_locomotives = 0       # optional, 0..length, default 0
    polyline = [[1512.0, 905.5], [1650.0, 910.0]]
                                # optional board points from a towards b (default: the
                                #   straight line between the two cities), at least 2

    [[tickets]]                 # one table per ticket, at least one; file order is kept
    id = "boston-miami"         # unique
    a = "boston"                # city ids, different, joined by some chain of routes
    b = "miami"
    points = 12                 # positive
    long = false                # optional, default false (Europe's long tickets)

    [extra]                     # optional map-specific data, passed to GameMap.extra

Unknown fields are errors (they are usually typos). Every problem raises
:class:`MapError`, which names the file, the line and the field.
"""

from __future__ import annotations

import math
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import NoReturn

from ..resources import resource_path
from .errors import LineFinder, MapError, show
from .graph import city_labels
from .model import ROUTE_COLORS, City, GameMap, Route, Ticket

FORMAT = 1
MAX_ROUTE_LENGTH = 9
MAX_GROUP_SIZE = 3
_MISSING = object()
_TOP_FIELDS = (
    "format",
    "id",
    "name",
    "width",
    "height",
    "background",
    "cities",
    "routes",
    "tickets",
    "extra",
)
_CITY_FIELDS = ("id", "name", "lat", "lon", "x", "y")
_ROUTE_FIELDS = (
    "id",
    "a",
    "b",
    "length",
    "color",
    "group",
    "tunnel",
    "ferry_locomotives",
    "polyline",
)
_TICKET_FIELDS = ("id", "a", "b", "points", "long")


class _Reader:
    """Validates parsed TOML data and builds the GameMap."""

    def __init__(self, path: Path, text: str, data: dict):
        self.path, self.data, self.lines = path, data, LineFinder(text)

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
        """A field of the right kind (str, int, number, bool), or ``default`` when absent."""
        if key not in entry:
            if default is _MISSING:
                self.fail(f"missing field {key!r}", table, index)
            return default
        value = entry[key]
        ok = {
            "str": isinstance(value, str) and value.strip() != "",
            "int": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isfinite(value),
            "bool": isinstance(value, bool),
        }[kind]
        if not ok:
            expected = {
                "str": "a non-empty string",
                "int": "an integer",
                "number": "a number",
                "bool": "true or false",
            }[kind]
            self.fail(f"{show(value)} is not {expected}", table, index, key)
        return float(value) if kind == "number" else value

    def entries(self, table: str, allowed: tuple[str, ...]) -> list[dict]:
        """The entries of an array of tables, checked to be tables with known fields only."""
        items = self.data.get(table, _MISSING)
        if items is _MISSING or items == []:
            self.fail(f"the map has no {table}")
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
        for key in data:
            if key not in _TOP_FIELDS:
                self.fail(f"unknown field {key!r}", key=key)
        version = self.get(data, "int", "format")
        if version != FORMAT:
            self.fail(
                f"format {version} is not supported (this game reads format {FORMAT})", key="format"
            )
        map_id = self.get(data, "str", "id")
        name = self.get(data, "str", "name")
        width, height = self.get(data, "int", "width"), self.get(data, "int", "height")
        for key, value in (("width", width), ("height", height)):
            if value <= 0:
                self.fail(f"{value} is not a positive size", key=key)
        background = self.get(data, "str", "background", default="")
        extra = data.get("extra", {})
        if not isinstance(extra, dict):
            self.fail("expected a table", key="extra")
        cities = self.cities(width, height)
        routes = self.routes(cities)
        tickets = self.tickets(cities, routes)
        return GameMap(
            map_id, name, width, height, background, cities, routes, tickets, str(self.path), extra
        )

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

    def ends(self, e: dict, table: str, n: int, cities: dict[str, City],
             what: str) -> tuple[str, str]:
        """The two city ids of a route or ticket, which must exist and differ."""
        a = self.city_ref(e, "a", table, n, cities)
        b = self.city_ref(e, "b", table, n, cities)
        if a == b:
            self.fail(f"{what} two different cities (both ends are {show(a)})", table, n, "b")
        return a, b

    def cities(self, width: int, height: int) -> dict[str, City]:
        """All cities, keyed by id, in file order."""
        cities: dict[str, City] = {}
        seen: dict[str, int] = {}
        for n, e in enumerate(self.entries("cities", _CITY_FIELDS)):
            ident = self.unique_id(e, "cities", n, seen)
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
            cities[ident] = City(ident, name, lat, lon, x, y)
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
            length = self.get(e, "int", "length", "routes", n)
            if not 1 <= length <= MAX_ROUTE_LENGTH:
                self.fail(
                    f"{length} is not a route length (1..{MAX_ROUTE_LENGTH})", "routes", n, "length"
                )
            color = self.get(e, "str", "color", "routes", n)
            if color not in ROUTE_COLORS:
                self.fail(
                    f"{show(color)} is not a colour (expected one of {', '.join(ROUTE_COLORS)})",
                    "routes",
                    n,
                    "color",
                )
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
            polyline = self.polyline(e, n, cities[a], cities[b])
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

    def polyline(self, e: dict, n: int, a: City, b: City) -> tuple[tuple[float, float], ...]:
        """A route's board points (the straight line between its cities when absent)."""
        if "polyline" not in e:
            return ((a.x, a.y), (b.x, b.y))
        points = e["polyline"]
        if not isinstance(points, list) or len(points) < 2:
            count = f"{len(points)} point(s)" if isinstance(points, list) else show(points)
            self.fail(
                f"a polyline needs at least 2 [x, y] points, got {count}", "routes", n, "polyline"
            )
        out = []
        for k, p in enumerate(points):
            if not (
                isinstance(p, list)
                and len(p) == 2
                and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                    for v in p
                )
            ):
                shown = (
                    "[" + ", ".join(show(v) for v in p) + "]" if isinstance(p, list) else show(p)
                )
                self.fail(
                    f"{shown} is not an [x, y] pair of numbers", "routes", n, f"polyline[{k}]"
                )
            out.append((float(p[0]), float(p[1])))
        return tuple(out)

    def tickets(self, cities: dict[str, City], routes: dict[str, Route]) -> list[Ticket]:
        """All tickets in file order; each one's cities must be joined by some chain of routes."""
        index = {c: i for i, c in enumerate(cities)}
        labels = city_labels(len(index), ((index[r.a], index[r.b]) for r in routes.values()))
        tickets: list[Ticket] = []
        seen: dict[str, int] = {}
        for n, e in enumerate(self.entries("tickets", _TICKET_FIELDS)):
            ident = self.unique_id(e, "tickets", n, seen)
            a, b = self.ends(e, "tickets", n, cities, "a ticket must name")
            points = self.get(e, "int", "points", "tickets", n)
            if points <= 0:
                self.fail(f"{points} is not a positive number of points", "tickets", n, "points")
            long = self.get(e, "bool", "long", "tickets", n, default=False)
            if labels[index[a]] != labels[index[b]]:
                self.fail(f"no chain of routes connects {show(a)} and {show(b)}", "tickets", n)
            tickets.append(Ticket(ident, a, b, points, long))
        return tickets


def load_map(path: str | Path) -> GameMap:
    """Read, validate and return the map in a TOML file (not cached)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise MapError(path, "file not found") from None
    except OSError as exc:
        raise MapError(path, f"cannot read the file ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise MapError(path, "the file is not UTF-8 text", line) from None
    if not text.strip():
        raise MapError(path, "the file is empty")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if match:
            reason = (
                f"TOML syntax error: {message[: match.start()].strip()} (column {match.group(2)})"
            )
            raise MapError(path, reason, int(match.group(1))) from None
        if "(at end of document)" in message:
            reason = message.replace("(at end of document)", "at the end of the file").strip()
            raise MapError(path, f"TOML syntax error: {reason}", len(text.splitlines())) from None
        raise MapError(path, f"TOML syntax error: {message}") from None
    return _Reader(path, text, data).build()


def available_maps() -> list[str]:
    """Ids of the bundled maps (the TOML files in maps/), sorted."""
    return sorted(p.stem for p in resource_path("maps").glob("*.toml"))


@lru_cache(maxsize=None)
def get_map(map_id: str) -> GameMap:
    """The bundled map with this id, loaded once and shared by every game."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", map_id):
        raise MapError(f"maps/{map_id}.toml", f"{map_id!r} is not a map id")
    return load_map(resource_path("maps", f"{map_id}.toml"))
