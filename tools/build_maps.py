"""Build maps/usa.toml and maps/europe.toml from the shared CSV data (developer script).

Usage: .venv/bin/python tools/build_maps.py [--data DIR] [--out DIR]

Projects the cities' latitude/longitude, relaxes the positions so that a train
space has about the same length on every route, bends routes that would pass
over a third city, sets parallel routes side by side and writes the TOML.
The output is deterministic: the same input gives byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import map_layout as ml  # tools/ is on sys.path when this file runs as a script

from ttr_desktop.maps.geometry import TRACK_WIDTH
from ttr_desktop.maps.model import ROUTE_COLORS

ROOT = Path(__file__).resolve().parent.parent


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
]


def slug(name: str) -> str:
    """Lowercase ASCII id of a name: "Salt Lake City" -> "salt-lake-city", "Zürich" -> "zurich"."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
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


def load_sources(spec: MapSpec, data: Path) -> tuple[list[dict], list[dict], list[dict]]:
    """Cities, routes and tickets of a map, with ids assigned and names checked."""
    cities = []
    for row in read_csv(data, spec.cities_csv):
        cities.append(
            {
                "key": row["city"],
                "id": slug(row["city"]),
                "name": row.get("name") or row["city"],
                "lat": float(row["lat"]),
                "lon": float(row["lon"]),
            }
        )
    by_key = {c["key"]: c for c in cities}
    if len({c["id"] for c in cities}) != len(cities):
        raise SystemExit(f"{spec.id}: two cities share an id")

    def city_id(name: str, where: str) -> str:
        if name not in by_key:
            raise SystemExit(f"{spec.id}: {where} names unknown city {name!r}")
        return by_key[name]["id"]

    rows = read_csv(data, spec.routes_csv)
    group_of, members = [], {}
    for n, row in enumerate(rows):
        group = f"g{row['parallel_group']}" if row.get("parallel_group") else f"single{n}"
        group_of.append(group)
        members.setdefault(group, []).append(n)
    routes, taken = [], set()
    for n, row in enumerate(rows):
        a, b = city_id(row["city_a"], f"route {n + 1}"), city_id(row["city_b"], f"route {n + 1}")
        group = members[group_of[n]]
        base = f"{a}-{b}" if len(group) == 1 else f"{a}-{b}-{group.index(n) + 1}"
        color = row["color"].lower()
        if color not in ROUTE_COLORS:
            raise SystemExit(f"{spec.id}: route {n + 1} has unknown colour {color!r}")
        routes.append(
            {
                "id": unique(base, taken),
                "a": a,
                "b": b,
                "length": int(row["length"]),
                "color": color,
                "group": group_of[n] if row.get("parallel_group") else f"g-{a}-{b}",
                "tunnel": row.get("tunnel", "0") in ("1", "true", "yes"),
                "ferry_locomotives": int(row.get("ferry_locomotives") or 0),
            }
        )
    tickets, taken = [], set()
    for n, row in enumerate(read_csv(data, spec.tickets_csv)):
        a, b = city_id(row["city_a"], f"ticket {n + 1}"), city_id(row["city_b"], f"ticket {n + 1}")
        tickets.append(
            {
                "id": unique(f"{a}-{b}", taken),
                "a": a,
                "b": b,
                "points": int(row["points"]),
                "long": row.get("deck", "") == "long",
            }
        )
    return cities, routes, tickets


def lay_out(spec: MapSpec, cities: list[dict], routes: list[dict]) -> tuple[dict, int]:
    """Set x, y on every city and a polyline on every route; returns (quality figures, height)."""
    index = {c["id"]: k for k, c in enumerate(cities)}
    geo = [spec.projection(c["lat"], c["lon"]) for c in cities]
    to_board = ml.fit(geo, spec.width, spec.height, spec.margin)
    anchors = [to_board(p) for p in geo]
    groups: dict[str, list[dict]] = {}
    for r in routes:
        groups.setdefault(r["group"], []).append(r)
    pairs = [(index[g[0]["a"]], index[g[0]["b"]], g[0]["length"]) for g in groups.values()]
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
        ml.relax(layout, spec.lam, min_dist=70.0, clearance=34.0, iterations=1500)
        refit = ml.fit(layout.positions, spec.width, spec.height, spec.margin)
        layout.positions = [refit(p) for p in layout.positions]
        layout.anchors = [refit(p) for p in layout.anchors]
    pos = layout.positions
    # Trim the board height to the laid-out cities.
    height = spec.height
    ys = [p[1] for p in pos]
    needed = math.ceil((max(ys) - min(ys) + 2 * spec.margin[1]) / 10) * 10
    if needed < height:
        shift = (height - needed) / 2
        pos = [(x, y - shift) for x, y in pos]
        height = needed
    # Centre lines (bent around third cities), then parallel tracks side by side.
    widths = [len(g) * TRACK_WIDTH for g in groups.values()]
    centres, notes = ml.centre_lines(pos, pairs, widths, [c["id"] for c in cities])
    placed = []
    for (i, j, n), centre, members in zip(pairs, centres, groups.values()):
        for route, line in zip(members, ml.route_polylines(centre, len(members))):
            route["polyline"] = line
            placed.append((i, j, n, line))
    for c, (x, y) in zip(cities, pos):
        c["x"], c["y"] = x, y
    figures = ml.quality(pos, placed)
    figures["projected_min"] = min(before)
    figures["projected_max"] = max(before)
    figures["notes"] = notes
    return figures, height


def toml_str(value: str) -> str:
    """A TOML basic string (JSON escapes are valid TOML escapes)."""
    return json.dumps(value, ensure_ascii=False)


def num(value: float) -> str:
    """A board coordinate with one decimal."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def render(
    spec: MapSpec, height: int, cities: list[dict], routes: list[dict], tickets: list[dict]
) -> str:
    """The map as TOML text (format 1, see ttr_desktop/maps/loader.py)."""
    out = [
        f"# {spec.name} map, generated by tools/build_maps.py from the shared CSV data.",
        "# Format: see maps/README.md. Hand edits are fine; rerunning the script replaces them.",
        "format = 1",
        f"id = {toml_str(spec.id)}",
        f"name = {toml_str(spec.name)}",
        f"width = {spec.width}",
        f"height = {height}",
        f"background = {toml_str(spec.id + '.png')}",
    ]
    for c in cities:
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
    for r in routes:
        points = ", ".join(f"[{num(x)}, {num(y)}]" for x, y in r["polyline"])
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
            f"polyline = [{points}]",
        ]
    for t in tickets:
        out += [
            "",
            "[[tickets]]",
            f"id = {toml_str(t['id'])}",
            f"a = {toml_str(t['a'])}",
            f"b = {toml_str(t['b'])}",
            f"points = {t['points']}",
            f"long = {'true' if t['long'] else 'false'}",
        ]
    return "\n".join(out) + "\n"


def build(spec: MapSpec, data: Path, out_dir: Path) -> None:
    """Build one map file and print its layout figures."""
    cities, routes, tickets = load_sources(spec, data)
    figures, height = lay_out(spec, cities, routes)
    # Polylines are rounded on output: measure what is written.
    for r in routes:
        r["polyline"] = [(float(num(x)), float(num(y))) for x, y in r["polyline"]]
    path = out_dir / f"{spec.id}.toml"
    path.write_text(render(spec, height, cities, routes, tickets), encoding="utf-8", newline="\n")
    print(
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
        f"{len(cities)} cities, {len(routes)} routes, {len(tickets)} tickets, "
        f"board {spec.width}x{height}"
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


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "maps")
    parser.add_argument("--only", choices=[s.id for s in SPECS], help="build one map only")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for spec in SPECS:
        if args.only in (None, spec.id):
            build(spec, args.data, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
