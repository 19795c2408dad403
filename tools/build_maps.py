"""Build the map files maps/<id>.toml and the ticket sets beside them from the shared CSV data
(developer script).

Usage: .venv/bin/python tools/build_maps.py [--data DIR] [--out DIR] [--only ID]

Projects the cities' latitude/longitude (or starts from a board's own station
positions), relaxes the positions so that a train space has about the same
length on every route, bends routes that would pass over a third city, sets
parallel routes side by side, draws track leading off the board and writes the
TOML (format 2, or 3 where a MapSpec asks for it; maps/README.md). Ticket sets
(TICKET_SETS) become maps/<id>.tickets.toml (format 3); they need no layout, so
`--only <set id>` is quick. The output is deterministic: the same input gives
byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import statistics
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import map_layout as ml  # tools/ is on sys.path when this file runs as a script

from ttr_desktop.maps.geometry import CITY_RADIUS, TRACK_WIDTH, polyline_length
from ttr_desktop.maps.model import ROUTE_COLORS

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class StubSpec:
    """Track drawn from a city to the board's edge, towards a city beyond the board."""

    city: str  # city id on the board
    to: str  # name of the city beyond the board
    lat: float  # its real position
    lon: float
    count: int = 1  # parallel tracks


@dataclass(frozen=True)
class MapSpec:
    """What to build for one map."""

    id: str
    name: str
    width: int
    height: int
    projection: object
    cities_csv: str  # relative to the data dir, or absolute
    routes_csv: str
    tickets_csv: str
    lam: float = 0.05  # pull towards the projected position
    #: Hand-tuned start positions: city -> (lat, lon) moved by these degrees before relaxing
    #: (the stored lat/lon stay true). Used where a route must pass on the other side of a city.
    nudges: tuple[tuple[str, float, float], ...] = ()
    margin: tuple[float, float] = (70.0, 55.0)
    #: Extra room (left, top, right, bottom) beyond the margin, for track leading off the board.
    pad: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    #: Fit x and y with separate scales so the cities fill a board of another shape.
    stretch: bool = False
    #: Trim the board's width (as well as its height) to the laid-out cities.
    trim_width: bool = False
    #: Part tracks that would touch: turn routes out of a city apart while relaxing (this
    #: weight) and bend the lines that still come too close (maps/README.md, "Polylines").
    part_tracks: float = 0.0
    #: CSV column holding the name shown on the board.
    name_column: str = "name"
    #: Start from the station positions of this SVG board (relative to the data dir) instead
    #: of the projected latitude/longitude; the layout then keeps near those positions.
    board_svg: str = ""
    #: Where the layout (and the art) puts a country end point: a place just inside that
    #: country, (city id, lat, lon). The stored lat/lon stay those of the border crossing.
    abroad: tuple[tuple[str, float, float], ...] = ()
    forbidden_start: tuple[str, ...] = ()
    #: Merchandise stacks by city colour, top token first (Märklin).
    merchandise: tuple[tuple[str, tuple[int, ...]], ...] = ()
    stubs: tuple[StubSpec, ...] = field(default=())
    credits: str = ""
    licence_file: str = ""  # relative to the data dir
    #: The format written: 2 for the boards that have shipped in it (their bytes and
    #: fingerprints stay), 3 for a board whose games may leave its tickets to ticket sets
    #: (then ``tickets_csv`` may be "").
    format: int = 2


@dataclass(frozen=True)
class TicketSetSpec:
    """A ticket set beside a board: maps/<id>.tickets.toml (format 3)."""

    id: str
    board: str  # the MapSpec id whose cities the tickets name
    name: str
    tickets_csv: str  # relative to the data dir


TICKET_SETS = [
    TicketSetSpec("usa-1910", "usa", "USA 1910", "usa_tickets_1910.csv"),
    TicketSetSpec("usa-1910-mega", "usa", "USA 1910 Mega Game (with USA 1910)",
                  "usa_tickets_1910_mega_revised.csv"),
    TicketSetSpec("usa-bigcities", "usa", "USA 1910 Big Cities", "usa_tickets_bigcities.csv"),
]


SPECS = [
    MapSpec(
        "usa",
        "United States",
        1800,
        1150,
        ml.lambert_conformal_conic(33.0, 45.0, -96.0, 39.0),
        "usa_cities_latlon.csv",
        "usa_routes.csv",
        "usa_tickets.csv",
    ),
    MapSpec(
        "europe",
        "Europe",
        1600,
        1150,
        ml.lambert_azimuthal_equal_area(52.0, 10.0),
        str(ROOT / "tools" / "data" / "europe_cities_latlon.csv"),
        "europe_routes.csv",
        "europe_tickets.csv",
        # Palermo-Smyrna runs south of Athina on the board, as the sea route does.
        nudges=(("athina", 1.5, 0.0),),
    ),
    MapSpec(
        "old-west",
        "Old West",
        1500,
        1150,
        ml.lambert_conformal_conic(33.0, 45.0, -112.0, 39.0),
        "oldwest_cities_latlon.csv",
        "oldwest_routes_reviewed.csv",
        "oldwest_tickets_corrected.csv",
        part_tracks=1.0,
        stretch=True,
        forbidden_start=("roswell",),
        # Room for the Canadian border above the northern cities and Mexico below.
        pad=(0.0, 45.0, 0.0, 35.0),
    ),
    MapSpec(
        "county-durham",
        "County Durham",
        1800,
        1200,
        ml.equirectangular(54.75, -1.8),
        "durham_cities.csv",
        "durham_routes.csv",
        "durham_tickets.csv",
        part_tracks=4.0,
        trim_width=True,
        board_svg="county-durham/board.svg",
        pad=(0.0, 0.0, 150.0, 0.0),  # the North Sea
        credits="County Durham (Coal Country) map and tickets by Robert Bettles, MIT licence",
        licence_file="county-durham/LICENSE.txt",
    ),
    MapSpec(
        "marklin",
        "Germany (Märklin)",
        1500,
        1400,
        ml.lambert_conformal_conic(48.7, 53.7, 10.5, 51.0),
        "germany_cities_latlon.csv",
        "germany_routes_unverified.csv",
        "germany_tickets_marklin_proposed.csv",
        part_tracks=4.0,
        stretch=True,
        lam=0.01,
        name_column="city",
        abroad=(
            ("danemark-bremerhaven", 55.05, 9.00),  # north of Tønder
            ("danemark-kiel", 55.04, 9.42),  # Aabenraa
            ("frankreich-saarbrucken", 49.10, 6.70),  # Saint-Avold
            ("frankreich-karlsruhe", 48.58, 7.62),  # west of Strasbourg
            ("frankreich-freiburg", 48.08, 7.36),  # Colmar
            ("niederlande-emden", 53.14, 7.03),  # Winschoten
            ("niederlande-munster", 52.27, 6.79),  # Hengelo
            ("niederlande-dusseldorf", 51.98, 5.91),  # Arnhem
            ("osterreich-lindau", 47.41, 9.74),  # Dornbirn
            ("osterreich-munchen", 47.45, 12.20),  # beyond Kufstein
            ("osterreich-regensburg", 48.46, 13.43),  # Schärding
            ("schweiz-freiburg", 47.48, 7.73),  # Liestal
            ("schweiz-konstanz", 47.47, 9.20),  # towards Bischofszell
            ("schweiz-lindau", 47.47, 9.38),  # beyond Romanshorn
        ),
        merchandise=(
            ("black", (7, 6, 5, 4)),
            ("red", (4, 3, 2)),
            ("yellow", (3, 2, 1)),
            ("white", (2,)),
        ),
    ),
    MapSpec(
        "legacy",
        "Legacy: Legends of the West",
        1500,
        1150,
        ml.lambert_conformal_conic(33.0, 45.0, -80.0, 39.0),
        "legacy_east_cities_latlon.csv",
        "legacy_east_routes_unverified.csv",
        "legacy_east_tickets_unverified.csv",
        part_tracks=4.0,
        trim_width=True,
        # The real lengths and colours of these tracks are in tungufoss/ttr-legacy-analysis
        # (ttr.db, table routes), a binary SQLite file that could not be read here: the
        # stubs are gray, and their length is the number of spaces the drawn stub holds.
        stubs=(
            StubSpec("savannah", "Jacksonville", 30.332, -81.656, 2),
            StubSpec("new-orleans", "Houston", 29.760, -95.370, 2),
            StubSpec("new-orleans", "Little Rock", 34.746, -92.290),
            StubSpec("nashville", "Little Rock", 34.746, -92.290),
            StubSpec("nashville", "St. Louis", 38.627, -90.199),
            StubSpec("cincinnati", "St. Louis", 38.627, -90.199),
            StubSpec("chicago", "Duluth", 46.787, -92.101),
            StubSpec("chicago", "St. Paul", 44.954, -93.090, 2),
            StubSpec("chicago", "Davenport", 41.524, -90.578),
            StubSpec("chicago", "St. Louis", 38.627, -90.199, 2),
        ),
    ),
    # Scandinavia and Finland are taller than wide, and their track network more so (about
    # 23 spaces from København to Honningsvåg, 15 from Bergen to Imatra): one scale for both
    # axes, a tall board, the height trimmed after relaxing.
    MapSpec(
        "nordic",
        "Nordic Countries",
        1150,
        1500,
        ml.lambert_conformal_conic(58.0, 68.0, 18.0, 63.0),
        "nordic_cities_latlon.csv",
        "nordic_routes.csv",
        "nordic_tickets.csv",
        part_tracks=4.0,
        trim_width=True,
        name_column="city",
    ),
]


#: Letters that do not decompose into an ASCII letter and an accent.
LETTERS = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe",
                         "ß": "ss", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "þ": "th",
                         "Þ": "Th"})


def slug(name: str) -> str:
    """Lowercase ASCII id of a name: "Salt Lake City" -> "salt-lake-city", "Zürich" -> "zurich",
    "København" -> "kobenhavn"."""
    ascii_name = (unicodedata.normalize("NFKD", name.translate(LETTERS))
                  .encode("ascii", "ignore").decode())
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def unique(base: str, taken: set[str]) -> str:
    """``base``, or ``base-2``, ``base-3``... whichever is not taken yet; records it."""
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    taken.add(candidate)
    return candidate


def read_csv(data: Path, name: str) -> list[dict[str, str]]:
    """Rows of a CSV file (UTF-8, header line) as dicts with stripped values."""
    with open(data / name, encoding="utf-8", newline="") as f:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(f)]


@dataclass
class Sources:
    """A map's contents before layout: plain dicts, ids assigned and names checked."""

    cities: list[dict]
    routes: list[dict]
    tickets: list[dict]
    countries: list[dict] = field(default_factory=list)


def load_sources(spec: MapSpec, data: Path, tickets_csv: str | None = None) -> Sources:
    """Cities, routes and tickets of a map, with ids assigned and names checked.

    Reads the column variants of the shared tables: `city`/`name` or `id`/`name` for
    cities, `city_a`/`city_b` or `a`/`b` for routes and tickets, `parallel_group` or a
    `double group dN` note for parallel routes, `points` or `dollars` for tickets. A
    `kind` column marks logical countries (`country`) and their board end points
    (`country_endpoint`, keyed `Country@City`: the end point of the route from City)."""
    cities, countries, by_key = [], [], {}
    for row in read_csv(data, spec.cities_csv):
        kind = row.get("kind", "city") or "city"
        if kind == "country":
            countries.append({"key": row["city"], "id": slug(row["city"]), "name": row["name"]})
            continue
        key = row.get("city") or row["id"]
        city = {
            "key": key,
            "id": row.get("id") or slug(key),
            "name": row.get(spec.name_column) or row.get("name") or key,
            "lat": float(row["lat"]),
            "lon": float(row["lon"]),
        }
        if kind == "country_endpoint":
            country, _, beyond = key.partition("@")
            city.update(id=f"{slug(country)}-{slug(beyond)}", name=row["name"], kind="country",
                        country=slug(country))
        elif kind != "city":
            raise SystemExit(f"{spec.id}: city {key!r} has unknown kind {kind!r}")
        if row.get("large_city") == "1":
            city["large"] = True
        if city["id"] in spec.forbidden_start:
            city["forbidden_start"] = True
        if row.get("marklin_merchandise"):
            city["merchandise"] = row["marklin_merchandise"]
        cities.append(city)
        by_key[key] = city
    if len({c["id"] for c in cities} | {k["id"] for k in countries}) != len(cities) + len(
        countries
    ):
        raise SystemExit(f"{spec.id}: two places share an id")
    if spec.id == "county-durham" and any(c["id"] != slug(c["name"]) for c in cities):
        raise SystemExit(f"{spec.id}: a station id is not the slug of its name")
    country_keys = {k["key"]: k for k in countries}
    colours = {colour for colour, _ in spec.merchandise}
    for c in cities:
        if c.get("merchandise", "") not in colours | {""}:
            raise SystemExit(f"{spec.id}: {c['id']} has unknown merchandise {c['merchandise']!r}")
    missing = set(spec.forbidden_start) - {c["id"] for c in cities}
    if missing:
        raise SystemExit(f"{spec.id}: forbidden start city {sorted(missing)} not on the map")

    def city_id(name: str, other: str, where: str) -> str:
        """The id of a city; a country named by a route means its end point from `other`."""
        if name in country_keys and f"{name}@{other}" in by_key:
            return by_key[f"{name}@{other}"]["id"]
        if name not in by_key:
            raise SystemExit(f"{spec.id}: {where} names unknown city {name!r}")
        return by_key[name]["id"]

    def place_id(name: str, where: str) -> str:
        """The id of a city or a country (tickets)."""
        if name in country_keys:
            return country_keys[name]["id"]
        return city_id(name, "", where)

    def ends(row: dict[str, str]) -> tuple[str, str]:
        return (row["city_a"], row["city_b"]) if "city_a" in row else (row["a"], row["b"])

    rows = read_csv(data, spec.routes_csv)
    group_of, members = [], {}
    for n, row in enumerate(rows):
        double = re.search(r"double group (d\d+)", row.get("note", ""))
        if row.get("parallel_group"):
            group = f"g{row['parallel_group']}"
        elif double:
            group = double.group(1)
        else:
            group = f"single{n}"
        group_of.append(group)
        members.setdefault(group, []).append(n)
    # Without numbered groups in the source, number them in file order: g1, g2...
    numbered = {}
    if not any(row.get("parallel_group") for row in rows):
        numbered = {group: f"g{k + 1}" for k, group in enumerate(members)}
    # Pairs joined by more than one group (County Durham's sea routes beside a land route).
    pair_groups: dict[frozenset, set[str]] = {}
    for n, row in enumerate(rows):
        pair_groups.setdefault(frozenset(ends(row)), set()).add(group_of[n])
    routes, taken = [], set()
    for n, row in enumerate(rows):
        name_a, name_b = ends(row)
        where = f"route {n + 1}"
        a, b = city_id(name_a, name_b, where), city_id(name_b, name_a, where)
        group = members[group_of[n]]
        ferry = int(row.get("ferry_locomotives") or 0)
        base = f"{a}-{b}"
        if len(group) > 1:
            base = f"{base}-{group.index(n) + 1}"
        elif len(pair_groups[frozenset((name_a, name_b))]) > 1 and ferry:
            base = f"{base}-sea"  # a sea route beside a land route with the same ends
        color = row["color"].lower()
        if color not in ROUTE_COLORS:
            raise SystemExit(f"{spec.id}: route {n + 1} has unknown colour {color!r}")
        if row.get("parallel_group"):
            group_name = group_of[n]
        else:
            group_name = numbered.get(group_of[n], f"g-{a}-{b}")
        routes.append(
            {
                "id": unique(base, taken),
                "a": a,
                "b": b,
                "length": int(row["length"]),
                "color": color,
                "group": group_name,
                "tunnel": row.get("tunnel", "0") in ("1", "true", "yes"),
                "ferry_locomotives": ferry,
            }
        )
    tickets, taken = [], set()
    tickets_csv = spec.tickets_csv if tickets_csv is None else tickets_csv
    for n, row in enumerate(read_csv(data, tickets_csv) if tickets_csv else []):
        name_a, name_b = ends(row)
        a, b = place_id(name_a, f"ticket {n + 1}"), place_id(name_b, f"ticket {n + 1}")
        tickets.append(
            {
                "id": unique(f"{a}-{b}", taken),
                "a": a,
                "b": b,
                "points": int(row["points"] if "points" in row else row["dollars"]),
                "deck": row.get("deck") or "regular",
            }
        )
    return Sources(cities, routes, tickets, countries)


def svg_positions(path: Path) -> dict[str, ml.Point]:
    """Board positions of the `station:<Name>` circles of an SVG board, keyed by the slug of
    the name (underscores read as spaces), with every enclosing transform applied."""

    def matrix(text: str | None) -> list[float]:
        m = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        for name, args in re.findall(r"(\w+)\(([^)]*)\)", text or ""):
            v = [float(a) for a in re.split(r"[ ,]+", args.strip())]
            if name == "translate":
                n = [1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0]
            elif name == "scale":
                n = [v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0]
            elif name == "matrix":
                n = v
            else:
                raise SystemExit(f"{path}: unsupported transform {name}")
            m = compose(m, n)
        return m

    def compose(m: list[float], n: list[float]) -> list[float]:
        a, b, c, d, e, f = m
        return [a * n[0] + c * n[1], b * n[0] + d * n[1], a * n[2] + c * n[3],
                b * n[2] + d * n[3], a * n[4] + c * n[5] + e, b * n[4] + d * n[5] + f]

    out: dict[str, ml.Point] = {}

    def walk(node: ET.Element, m: list[float]) -> None:
        m = compose(m, matrix(node.get("transform")))
        ident = node.get("id") or ""
        if ident.startswith("station:"):
            x, y = float(node.get("cx")), float(node.get("cy"))
            out[slug(ident[8:].replace("_", " "))] = (m[0] * x + m[2] * y + m[4],
                                                      m[1] * x + m[3] * y + m[5])
        for child in node:
            walk(child, m)

    walk(ET.parse(path).getroot(), [1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
    return out


def layout_latlon(spec: MapSpec, city: dict) -> tuple[float, float]:
    """Where the layout and the art place a city: its real position, or for a country end
    point the place inside its country named in the spec's `abroad`."""
    for ident, lat, lon in spec.abroad:
        if ident == city["id"]:
            return lat, lon
    return city["lat"], city["lon"]


def trim(values: list[float], size: int, margin: float, pad: tuple[float, float]):
    """(shift, new size): the board side trimmed to what the laid-out cities need."""
    needed = math.ceil((max(values) - min(values) + 2 * margin + pad[0] + pad[1]) / 10) * 10
    if needed >= size:
        return 0.0, size
    if pad == (0.0, 0.0):
        return (size - needed) / 2, needed
    return min(values) - margin - pad[0] - (needed - (max(values) - min(values) + 2 * margin
                                                      + pad[0] + pad[1])) / 2, needed


def lay_out(spec: MapSpec, src: Sources, data: Path) -> dict:
    """Set x, y on every city and a polyline on every route; make the stubs.

    Returns the quality figures, with the board's final "width" and "height"."""
    cities, routes = src.cities, src.routes
    index = {c["id"]: k for k, c in enumerate(cities)}
    if spec.board_svg:
        on_board = svg_positions(data / spec.board_svg)
        if set(on_board) != set(index):
            raise SystemExit(f"{spec.id}: {spec.board_svg} stations differ from the cities")
        geo = [on_board[c["id"]] for c in cities]
    else:
        geo = [spec.projection(*layout_latlon(spec, c)) for c in cities]
    to_board = ml.fit(geo, spec.width, spec.height, spec.margin, spec.pad, spec.stretch)
    anchors = [to_board(p) for p in geo]
    groups: dict[str, list[dict]] = {}
    for r in routes:
        groups.setdefault(r["group"], []).append(r)
    # One layout edge per city pair. Where several groups join the same two cities (a sea
    # route beside a land route), the land route, else the shortest, is laid out and the
    # others go round it as detours.
    main: dict[frozenset, str] = {}
    for g, members in groups.items():
        key = frozenset((members[0]["a"], members[0]["b"]))
        rank = (members[0]["ferry_locomotives"] > 0, members[0]["length"])
        if key not in main or rank < (groups[main[key]][0]["ferry_locomotives"] > 0,
                                      groups[main[key]][0]["length"]):
            main[key] = g
    laid = [g for g in groups if main[frozenset((groups[g][0]["a"], groups[g][0]["b"]))] == g]
    # A group may pair tracks of different lengths (Nordic Countries): lay its line out for
    # their mean, so the spaces of each come out about equally far from the median.
    pairs = [(index[groups[g][0]["a"]], index[groups[g][0]["b"]],
              ml.group_length([r["length"] for r in groups[g]])) for g in laid]
    moved = {city: (dlat, dlon) for city, dlat, dlon in spec.nudges}
    start = [
        to_board(spec.projection(c["lat"] + moved[c["id"]][0], c["lon"] + moved[c["id"]][1]))
        if c["id"] in moved
        else anchors[k]
        for k, c in enumerate(cities)
    ]
    layout = ml.Layout(start, list(anchors), pairs)
    before = ml.space_lengths(layout.positions, pairs)
    # Relax, then scale back into the board; twice, so the target space length settles.
    for _ in range(2):
        ml.relax(layout, spec.lam, min_dist=70.0, clearance=34.0, iterations=1500,
                 widths=[len(groups[g]) * TRACK_WIDTH for g in laid], spread=spec.part_tracks)
        refit = ml.fit(layout.positions, spec.width, spec.height, spec.margin, spec.pad,
                       spec.stretch)
        layout.positions = [refit(p) for p in layout.positions]
        layout.anchors = [refit(p) for p in layout.anchors]
    pos = layout.positions
    # Trim the board to the laid-out cities.
    width, height = spec.width, spec.height
    shift, height = trim([p[1] for p in pos], height, spec.margin[1], spec.pad[1::2])
    if shift:
        pos = [(x, y - shift) for x, y in pos]
    if spec.trim_width:
        shift, width = trim([p[0] for p in pos], width, spec.margin[0], spec.pad[0::2])
        if shift:
            pos = [(x - shift, y) for x, y in pos]
    # Centre lines (bent around third cities), then parallel tracks side by side.
    widths = [len(groups[g]) * TRACK_WIDTH for g in laid]
    centres, notes = ml.centre_lines(pos, pairs, widths, [c["id"] for c in cities],
                                     spacing=spec.part_tracks > 0)
    placed = []
    for (i, j, n), centre, g in zip(pairs, centres, laid):
        for route, line in zip(groups[g], ml.route_polylines(centre, len(groups[g]))):
            route["polyline"] = line
            placed.append((i, j, route["length"], line))
    target = statistics.median(ml.space_lengths(pos, pairs))
    for g in groups:
        if g not in laid:
            members = groups[g]
            i, j, n = index[members[0]["a"]], index[members[0]["b"]], members[0]["length"]
            beside = next(r["polyline"] for r in routes if r["group"] == main[frozenset(
                (members[0]["a"], members[0]["b"]))])
            line, note = detour_line(pos, i, j, n, target, beside, len(members))
            notes.append(f"{members[0]['id']}: {note}")
            for route, member in zip(members, ml.route_polylines(line, len(members))):
                route["polyline"] = member
                placed.append((i, j, n, member))
    for c, (x, y) in zip(cities, pos):
        c["x"], c["y"] = x, y
    figures = ml.quality(pos, placed)
    figures["projected_min"] = min(before)
    figures["projected_max"] = max(before)
    figures["notes"] = notes
    figures["width"], figures["height"] = width, height
    if spec.stubs:
        figures["stubs"] = make_stubs(spec, cities, geo, routes, width, height, target)
    return figures


def detour_line(pos: list[ml.Point], i: int, j: int, n: int, target: float,
                beside: list[ml.Point], members: int) -> tuple[list[ml.Point], str]:
    """A route that goes round another with the same ends, on the side away from the middle
    of the map (for a sea route: out to sea), about as long as its length asks for and at
    least three track widths clear of the other at its widest."""
    a, b = pos[i], pos[j]
    cx, cy = sum(p[0] for p in pos) / len(pos), sum(p[1] for p in pos) / len(pos)
    nx, ny = a[1] - b[1], b[0] - a[0]  # left of a->b
    side = 1.0 if nx * ((a[0] + b[0]) / 2 - cx) + ny * ((a[1] + b[1]) / 2 - cy) > 0 else -1.0
    want = max(target * n + 2 * CITY_RADIUS, math.dist(a, b) * 1.02)
    need = ml.CITY_CLEARANCE + members * TRACK_WIDTH / 2 + 4.0
    while True:
        line = ml.detour(a, b, side, want)
        gap = max(ml.point_polyline_distance(x, y, beside) for x, y in line)
        clear = min(ml.point_polyline_distance(p[0], p[1], line)
                    for k, p in enumerate(pos) if k not in (i, j))
        if gap >= 3 * TRACK_WIDTH + members * TRACK_WIDTH / 2 and clear >= need:
            break
        want *= 1.03
    space = (polyline_length(line) - 2 * CITY_RADIUS) / n
    return line, f"goes round its neighbour ({gap:.0f} px apart, {space:.1f} px a space)"


#: Tracks leaving one city may touch within this distance of it; beyond, a stub keeps a track
#: width clear of the others.
STUB_FAN = 70.0


def make_stubs(spec: MapSpec, cities: list[dict], geo: list[ml.Point], routes: list[dict],
               width: int, height: int, space: float) -> list[dict]:
    """The spec's stubs: straight track from the city to the board's edge, aimed at where the
    far city lies on the warped background (the art uses the same warp), turned a little
    where that would pass over a city or cross a route or another stub."""
    index = {c["id"]: k for k, c in enumerate(cities)}
    pos = [(c["x"], c["y"]) for c in cities]
    warp, _ = ml.board_warp(geo, pos, width, height, spec.stretch)
    stubs: list[dict] = []
    taken: set[str] = set()

    def near_start(line: list[ml.Point], p: ml.Point) -> list[ml.Point]:
        """Points along the line beyond the fan of tracks round the city p (70 px)."""
        (x0, y0), (x1, y1) = line
        steps = max(2, int(math.dist(line[0], line[1]) / 4))
        pts = [(x0 + (x1 - x0) * t / steps, y0 + (y1 - y0) * t / steps) for t in range(steps + 1)]
        return [q for q in pts if math.dist(q, p) > STUB_FAN]

    def problem(lines: list[list[ml.Point]], k: int, count: int) -> str:
        """What is wrong with these stub lines from city k ("" for nothing)."""
        p, here = pos[k], cities[k]["id"]
        need = ml.CITY_CLEARANCE + count * TRACK_WIDTH / 2 + 4.0
        for line in lines:
            for m, q in enumerate(pos):
                if m != k and ml.point_polyline_distance(q[0], q[1], line) < need:
                    return f"passes {cities[m]['id']}"
            for r in routes + stubs:
                near = here in (r.get("a"), r.get("b"), r.get("city"))
                if near and any(ml.point_polyline_distance(x, y, r["polyline"]) < TRACK_WIDTH
                                for x, y in near_start(line, p)):
                    return f"runs along {r['id']}"
                if not near and ml.polylines_cross(line, r["polyline"]):
                    return f"crosses {r['id']}"
        return ""

    for stub in spec.stubs:
        k = index[stub.city]
        p = pos[k]
        far = warp(spec.projection(stub.lat, stub.lon))
        if 0 <= far[0] <= width and 0 <= far[1] <= height:
            # The layout left the far city inside the frame: look at it from the board's
            # centre and put it just beyond the edge, so stubs to it meet only off the board.
            mid = (width / 2, height / 2)
            edge = ml.ray_to_edge(mid, (far[0] - mid[0], far[1] - mid[1]), width, height)
            out = math.dist(mid, edge) + 60.0
            d = math.dist(mid, far) or 1.0
            far = (mid[0] + (far[0] - mid[0]) * out / d, mid[1] + (far[1] - mid[1]) * out / d)
        aim = math.atan2(far[1] - p[1], far[0] - p[0])
        for turn in [0] + [s * t for t in range(3, 46, 3) for s in (1, -1)]:
            angle = aim + math.radians(turn)
            d = (math.cos(angle), math.sin(angle))
            lines = []
            for m in range(stub.count):
                off = (m - (stub.count - 1) / 2) * TRACK_WIDTH
                s0 = (p[0] - d[1] * off, p[1] + d[0] * off)
                lines.append([s0, ml.ray_to_edge(s0, d, width, height)])
            wrong = problem(lines, k, stub.count)
            if not turn:
                straight = wrong
            if not wrong:
                break
        else:
            raise SystemExit(f"{spec.id}: no clear way off the board for {stub.city}-{stub.to}"
                             f" (straight, it {straight})")
        drawn = math.dist(p, ml.ray_to_edge(p, d, width, height)) - CITY_RADIUS
        length = max(1, round(drawn / space))
        base = f"{stub.city}-{slug(stub.to)}"
        for m, line in enumerate(lines):
            ident = unique(base if stub.count == 1 else f"{base}-{m + 1}", taken)
            stubs.append({"id": ident, "city": stub.city, "to": stub.to, "length": length,
                          "color": "gray", "polyline": line, "turn": turn})
    return stubs


def toml_str(value: str) -> str:
    """A TOML basic string (JSON escapes are valid TOML escapes)."""
    return json.dumps(value, ensure_ascii=False)


def toml_text(value: str) -> str:
    """A multi-line TOML literal string (kept verbatim), or a basic string if it cannot be."""
    if "'''" in value or "\r" in value or not value.endswith("\n"):
        return toml_str(value)
    return "'''\n" + value + "'''"


def num(value: float) -> str:
    """A board coordinate with one decimal."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def points(line: list[ml.Point]) -> str:
    """A polyline as a TOML array of [x, y] pairs."""
    return "[" + ", ".join(f"[{num(x)}, {num(y)}]" for x, y in line) + "]"


def render(spec: MapSpec, src: Sources, width: int, height: int, stubs: list[dict],
           licence: str) -> str:
    """The map as TOML text (format 2 or 3, see maps/README.md)."""
    out = [
        f"# {spec.name} map, generated by tools/build_maps.py from the shared CSV data.",
        "# Format: see maps/README.md. Hand edits are fine; rerunning the script replaces them.",
        f"format = {spec.format}",
        f"id = {toml_str(spec.id)}",
        f"name = {toml_str(spec.name)}",
        f"width = {width}",
        f"height = {height}",
        f"background = {toml_str(spec.id + '.png')}",
    ]
    if spec.credits:
        out.append(f"credits = {toml_str(spec.credits)}")
    if licence:
        out.append(f"licence = {toml_text(licence)}")
    if spec.merchandise:
        out += ["", "[merchandise]"]
        out += [f"{colour} = [{', '.join(map(str, stack))}]" for colour, stack in spec.merchandise]
    for k in src.countries:
        out += ["", "[[countries]]", f"id = {toml_str(k['id'])}", f"name = {toml_str(k['name'])}"]
    for c in src.cities:
        out += [
            "",
            "[[cities]]",
            f"id = {toml_str(c['id'])}",
            f"name = {toml_str(c['name'])}",
            f"lat = {c['lat']!r}",
            f"lon = {c['lon']!r}",
            f"x = {num(c['x'])}",
            f"y = {num(c['y'])}",
        ]
        if c.get("kind", "city") != "city":
            out += [f"kind = {toml_str(c['kind'])}", f"country = {toml_str(c['country'])}"]
        if c.get("large"):
            out.append("large = true")
        if c.get("forbidden_start"):
            out.append("forbidden_start = true")
        if c.get("merchandise"):
            out.append(f"merchandise = {toml_str(c['merchandise'])}")
    for r in src.routes:
        out += [
            "",
            "[[routes]]",
            f"id = {toml_str(r['id'])}",
            f"a = {toml_str(r['a'])}",
            f"b = {toml_str(r['b'])}",
            f"length = {r['length']}",
            f"color = {toml_str(r['color'])}",
            f"group = {toml_str(r['group'])}",
            f"tunnel = {'true' if r['tunnel'] else 'false'}",
            f"ferry_locomotives = {r['ferry_locomotives']}",
            f"polyline = {points(r['polyline'])}",
        ]
    for s in stubs:
        out += [
            "",
            "[[stubs]]",
            f"id = {toml_str(s['id'])}",
            f"city = {toml_str(s['city'])}",
            f"to = {toml_str(s['to'])}",
            f"length = {s['length']}",
            f"color = {toml_str(s['color'])}",
            f"polyline = {points(s['polyline'])}",
        ]
    out += ticket_lines(src.tickets)
    return "\n".join(out) + "\n"


def ticket_lines(tickets: list[dict]) -> list[str]:
    """[[tickets]] tables, in order."""
    out: list[str] = []
    for t in tickets:
        out += [
            "",
            "[[tickets]]",
            f"id = {toml_str(t['id'])}",
            f"a = {toml_str(t['a'])}",
            f"b = {toml_str(t['b'])}",
            f"points = {t['points']}",
        ]
        if t["deck"] != "regular":
            out.append(f"deck = {toml_str(t['deck'])}")
    return out


def render_ticket_set(spec: TicketSetSpec, tickets: list[dict]) -> str:
    """A ticket set as TOML text (format 3, see maps/README.md)."""
    out = [
        f"# {spec.name}: tickets for the {spec.board} board, generated by tools/build_maps.py",
        f"# from {spec.tickets_csv}. Format: see maps/README.md.",
        "format = 3",
        f"id = {toml_str(spec.id)}",
        f"board = {toml_str(spec.board)}",
        f"name = {toml_str(spec.name)}",
    ]
    return "\n".join(out + ticket_lines(tickets)) + "\n"


def build_ticket_set(spec: TicketSetSpec, data: Path, out_dir: Path) -> None:
    """Write one ticket set; its cities are looked up by name among its board's."""
    board = next(m for m in SPECS if m.id == spec.board)
    tickets = load_sources(board, data, spec.tickets_csv).tickets
    path = out_dir / f"{spec.id}.tickets.toml"
    path.write_text(render_ticket_set(spec, tickets), encoding="utf-8", newline="\n")
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
          f"{len(tickets)} tickets for {spec.board}")


def build(spec: MapSpec, data: Path, out_dir: Path) -> None:
    """Build one map file and print its layout figures."""
    src = load_sources(spec, data)
    figures = lay_out(spec, src, data)
    width, height = figures["width"], figures["height"]
    stubs = figures.get("stubs", [])
    # Polylines are rounded on output: measure what is written.
    for r in src.routes + stubs:
        r["polyline"] = [(float(num(x)), float(num(y))) for x, y in r["polyline"]]
    licence = (data / spec.licence_file).read_text(encoding="utf-8") if spec.licence_file else ""
    path = out_dir / f"{spec.id}.toml"
    path.write_text(render(spec, src, width, height, stubs, licence), encoding="utf-8",
                    newline="\n")
    print(
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
        f"{len(src.cities)} cities, {len(src.routes)} routes, {len(src.tickets)} tickets, "
        f"board {width}x{height}"
    )
    print(
        f"  projected space length {figures['projected_min']:.1f}"
        f"..{figures['projected_max']:.1f} px"
    )
    print(
        f"  space length min {figures['space_min']:.1f} / median {figures['space_median']:.1f}"
        f" / max {figures['space_max']:.1f} px (max/min {figures['ratio']:.2f})"
    )
    print(
        f"  closest cities {figures['city_min_distance']:.1f} px; closest route to a third city"
        f" {figures['route_city_min']:.1f} px; crossing routes {figures['crossings']}"
    )
    for note in figures["notes"]:
        print(f"  {note}")
    for s in stubs:
        turned = f", turned {s['turn']:+d} degrees" if s["turn"] else ""
        print(f"  stub {s['id']}: {s['length']} spaces to the edge{turned}")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "maps")
    parser.add_argument("--only", choices=[s.id for s in SPECS + TICKET_SETS],
                        help="build one map or one ticket set only")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for spec in SPECS:
        if args.only in (None, spec.id):
            build(spec, args.data, args.out)
    for ticket_set in TICKET_SETS:
        if args.only in (None, ticket_set.id):
            build_ticket_set(ticket_set, args.data, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
