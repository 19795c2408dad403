"""The boards of the rule families: Old West, County Durham, Märklin and Legacy.

Their contents, their agreement with the shared source tables, and the same layout
checks the USA and Europe boards meet (tests/test_maps.py)."""

from __future__ import annotations

import csv
import itertools
import math
import os
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from ttr_desktop.maps import Route, get_map
from ttr_desktop.maps.geometry import (
    CITY_RADIUS,
    TRACK_WIDTH,
    point_polyline_distance,
    polyline_midpoint,
    route_at,
    space_length,
    train_spaces,
)

FAMILIES = ("old-west", "county-durham", "marklin", "legacy")
DATA = Path(
    os.environ.get("TTR_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
#: The layout bounds of the shipped maps (tests/test_maps.py).
MAX_SPACE_RATIO = 1.8
MIN_CITY_DISTANCE = 40.0
CITY_CLEARANCE = 18.0


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def read_rows(name: str) -> list[dict[str, str]]:
    if not (DATA / name).exists():
        pytest.skip(f"source data {DATA / name} not present")
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def groups_of(map_id: str) -> dict[str, list[Route]]:
    groups: dict[str, list[Route]] = {}
    for route in get_map(map_id).route_list():
        groups.setdefault(route.group, []).append(route)
    return groups


def group_sizes(map_id: str) -> Counter:
    return Counter(len(g) for g in groups_of(map_id).values())


def segments_cross(a, b, c, d) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return (orient(a, b, c) * orient(a, b, d) < 0) and (orient(c, d, a) * orient(c, d, b) < 0)


def polylines_cross(p, q) -> bool:
    return any(segments_cross(a, b, c, d)
               for a, b in itertools.pairwise(p) for c, d in itertools.pairwise(q))


# Old West.


def test_old_west_has_its_contents():
    m = get_map("old-west")
    assert (len(m.cities), len(m.routes), len(m.tickets)) == (41, 139, 51)
    assert group_sizes("old-west") == {1: 37, 2: 36, 3: 10}
    points = {(t.a, t.b): t.points for t in m.tickets}
    assert points[("seattle", "denver")] == 17
    assert points[("san-francisco", "bend")] == 6
    assert [c.id for c in m.cities.values() if c.forbidden_start] == ["roswell"]
    assert not any(r.ferry_locomotives or r.tunnel for r in m.route_list())
    assert m.ticket_decks() == ("regular",)


def test_old_west_agrees_with_the_csv():
    m = get_map("old-west")
    rows = read_rows("oldwest_routes_reviewed.csv")
    expected = Counter((frozenset((slug(r["city_a"]), slug(r["city_b"]))), int(r["length"]),
                        r["color"], int(r["ferry_locomotives"])) for r in rows)
    assert Counter((frozenset((r.a, r.b)), r.length, r.color, r.ferry_locomotives)
                   for r in m.route_list()) == expected
    tickets = read_rows("oldwest_tickets_corrected.csv")
    assert [(t.a, t.b, t.points) for t in m.tickets] == [
        (slug(r["city_a"]), slug(r["city_b"]), int(r["points"])) for r in tickets]
    cities = read_rows("oldwest_cities_latlon.csv")
    assert {slug(r["city"]): (float(r["lat"]), float(r["lon"])) for r in cities} == {
        c.id: (c.lat, c.lon) for c in m.cities.values()}


# County Durham.


def test_county_durham_has_its_contents():
    m = get_map("county-durham")
    assert (len(m.cities), len(m.routes), len(m.tickets)) == (48, 122, 52)
    assert group_sizes("county-durham")[2] == 21
    ferries = [r for r in m.route_list() if r.ferry_locomotives]
    assert len(ferries) == 4 and all(r.ferry_locomotives == 1 for r in ferries)
    assert sum(t.points for t in m.tickets) == 514
    assert all(c.coal and c.kind == "city" for c in m.cities.values())
    assert "Robert Bettles" in m.credits and "MIT" in m.credits
    licence = (DATA / "county-durham" / "LICENSE.txt")
    if licence.exists():
        assert m.licence == licence.read_text(encoding="utf-8")
    assert "Copyright (c) 2017 Robert Bettles" in m.licence
    assert "Permission is hereby granted" in m.licence


def test_county_durham_agrees_with_the_csv():
    m = get_map("county-durham")
    rows = read_rows("durham_routes.csv")
    expected = Counter((frozenset((r["a"], r["b"])), int(r["length"]), r["color"],
                        int(r["ferry_locomotives"])) for r in rows)
    assert Counter((frozenset((r.a, r.b)), r.length, r.color, r.ferry_locomotives)
                   for r in m.route_list()) == expected
    # The doubles are the source's "double group dN" pairs, in file order.
    doubles = [frozenset((r["a"], r["b"])) for r in rows if "double group" in r["note"]]
    routes = m.route_list()
    assert [frozenset((r.a, r.b)) for r in routes if len(groups_of("county-durham")[r.group])
            == 2] == doubles
    tickets = read_rows("durham_tickets.csv")
    assert [(t.a, t.b, t.points) for t in m.tickets] == [
        (r["a"], r["b"], int(r["points"])) for r in tickets]
    cities = read_rows("durham_cities.csv")
    assert {r["id"]: (r["name"], float(r["lat"]), float(r["lon"])) for r in cities} == {
        c.id: (c.name, c.lat, c.lon) for c in m.cities.values()}


def test_county_durham_sea_routes_go_round_their_land_routes():
    m = get_map("county-durham")
    for pair in (("seaham-harbour", "sunderland"), ("south-shields", "sunderland")):
        both = [r for r in m.route_list() if {r.a, r.b} == set(pair)]
        assert len(both) == 2 and len({r.group for r in both}) == 2
        sea = next(r for r in both if r.ferry_locomotives)
        land = next(r for r in both if not r.ferry_locomotives)
        assert sea.id == f"{sea.a}-{sea.b}-sea"
        gap = max(point_polyline_distance(x, y, land.polyline) for x, y in sea.polyline)
        assert gap >= 3 * TRACK_WIDTH


# Märklin.

#: Roughly where each country lies from Germany, on the board (x right, y down).
COUNTRY_SIDE = {"danemark": (0, -1), "niederlande": (-1, 0), "frankreich": (-1, 0.3),
                "schweiz": (0, 1), "osterreich": (1, 1)}


def test_marklin_has_its_contents():
    m = get_map("marklin")
    cities = [c for c in m.cities.values() if c.kind == "city"]
    ends = [c for c in m.cities.values() if c.kind == "country"]
    assert (len(cities), len(ends), len(m.countries)) == (35, 14, 5)
    assert set(m.countries) == set(COUNTRY_SIDE)
    assert Counter(c.country for c in ends) == {"danemark": 2, "frankreich": 3,
                                                "niederlande": 3, "osterreich": 3, "schweiz": 3}
    assert len(m.routes) == 110 and group_sizes("marklin")[3] == 2
    assert Counter(t.deck for t in m.tickets) == {"short": 23, "long": 23}
    assert all(5 <= t.points <= 11 for t in m.tickets if t.deck == "short")
    assert all(12 <= t.points <= 22 for t in m.tickets if t.deck == "long")
    assert m.merchandise == {"black": (7, 6, 5, 4), "red": (4, 3, 2), "yellow": (3, 2, 1),
                             "white": (2,)}
    assert Counter(c.merchandise for c in cities) == {"black": 1, "red": 6, "yellow": 12,
                                                      "white": 16}
    assert m.cities["berlin"].merchandise == "black"
    assert not any(c.merchandise or c.coal for c in ends)


def test_marklin_end_points_lie_towards_their_country():
    m = get_map("marklin")
    for end in (c for c in m.cities.values() if c.kind == "country"):
        routes = [r for r in m.route_list() if end.id in (r.a, r.b)]
        assert len(routes) == 1, end.id  # one route to each end point
        city = m.cities[routes[0].b if routes[0].a == end.id else routes[0].a]
        assert city.kind == "city"
        assert end.id == f"{end.country}-{city.id}"
        side = COUNTRY_SIDE[end.country]
        assert (end.x - city.x) * side[0] + (end.y - city.y) * side[1] > 0, end.id


def test_marklin_agrees_with_the_csv():
    m = get_map("marklin")
    rows = read_rows("germany_cities_latlon.csv")
    countries = {r["city"] for r in rows if r["kind"] == "country"}

    def place(name: str, other: str) -> str:
        return f"{slug(name)}-{slug(other)}" if name in countries else slug(name)

    routes = read_rows("germany_routes_unverified.csv")
    expected = Counter((frozenset((place(r["city_a"], r["city_b"]), place(r["city_b"],
                                                                          r["city_a"]))),
                        int(r["length"]), r["color"]) for r in routes)
    assert Counter((frozenset((r.a, r.b)), r.length, r.color) for r in m.route_list()) == expected
    tickets = read_rows("germany_tickets_marklin_proposed.csv")
    assert [(t.a, t.b, t.points, t.deck) for t in m.tickets] == [
        (slug(r["city_a"]), slug(r["city_b"]), int(r["points"]), r["deck"]) for r in tickets]
    for r in rows:
        if r["kind"] == "city":
            city = m.cities[slug(r["city"])]
            assert (city.lat, city.lon, city.merchandise) == (
                float(r["lat"]), float(r["lon"]), r["marklin_merchandise"])
        elif r["kind"] == "country_endpoint":
            country, _, beyond = r["city"].partition("@")
            end = m.cities[f"{slug(country)}-{slug(beyond)}"]
            assert (end.lat, end.lon, end.name, end.country) == (
                float(r["lat"]), float(r["lon"]), country, slug(country))
        else:
            assert m.countries[slug(r["city"])].name == r["name"]


# Legacy.

STUBS = Counter({("savannah", "Jacksonville"): 2, ("new-orleans", "Houston"): 2,
                 ("new-orleans", "Little Rock"): 1, ("nashville", "Little Rock"): 1,
                 ("nashville", "St. Louis"): 1, ("cincinnati", "St. Louis"): 1,
                 ("chicago", "Duluth"): 1, ("chicago", "St. Paul"): 2,
                 ("chicago", "Davenport"): 1, ("chicago", "St. Louis"): 2})


def test_legacy_has_its_contents():
    m = get_map("legacy")
    assert (len(m.cities), len(m.routes), len(m.tickets)) == (23, 72, 33)
    assert group_sizes("legacy")[3] == 3
    assert sum(t.points for t in m.tickets) == 175
    assert {c.id for c in m.cities.values() if c.large} == {
        "baltimore", "boston", "detroit", "montreal", "new-orleans", "new-york",
        "philadelphia", "pittsburgh"}
    # The listed tracks off the start board are 14 (five of them in pairs).
    assert len(m.stubs) == sum(STUBS.values()) == 14
    assert Counter((s.city, s.to) for s in m.stubs) == STUBS


def test_legacy_stubs_lead_off_the_board_clear_of_cities_and_routes():
    m = get_map("legacy")
    for stub in m.stubs:
        city = m.cities[stub.city]
        assert math.dist(stub.polyline[0], (city.x, city.y)) <= TRACK_WIDTH, stub.id
        x, y = stub.polyline[-1]
        assert x in (0.0, m.width) or y in (0.0, m.height), stub.id
        assert all(0 <= px <= m.width and 0 <= py <= m.height for px, py in stub.polyline)
        assert 1 <= stub.length <= 9 and stub.color == "gray"
        for other in m.cities.values():
            if other.id != stub.city:
                gap = point_polyline_distance(other.x, other.y, stub.polyline)
                assert gap >= CITY_CLEARANCE, (stub.id, other.id)
        for route in m.route_list():
            if stub.city not in (route.a, route.b):
                assert not polylines_cross(stub.polyline, route.polyline), (stub.id, route.id)
        for other in m.stubs:
            if other.city != stub.city:
                assert not polylines_cross(stub.polyline, other.polyline), (stub.id, other.id)


def test_legacy_agrees_with_the_csv():
    m = get_map("legacy")
    routes = read_rows("legacy_east_routes_unverified.csv")
    expected = Counter((frozenset((slug(r["city_a"]), slug(r["city_b"]))), int(r["length"]),
                        r["color"]) for r in routes)
    assert Counter((frozenset((r.a, r.b)), r.length, r.color) for r in m.route_list()) == expected
    tickets = read_rows("legacy_east_tickets_unverified.csv")
    assert [(t.a, t.b, t.points) for t in m.tickets] == [
        (slug(r["city_a"]), slug(r["city_b"]), int(r["dollars"])) for r in tickets]
    cities = read_rows("legacy_east_cities_latlon.csv")
    assert {slug(r["city"]): (r["name"], float(r["lat"]), float(r["lon"]), r["large_city"] == "1")
            for r in cities} == {c.id: (c.name, c.lat, c.lon, c.large)
                                 for c in m.cities.values()}


# Ids and layout quality, as for the USA and Europe.


@pytest.mark.parametrize("map_id", FAMILIES)
def test_route_ids_follow_their_parallel_groups(map_id):
    taken_bases = set()
    for members in groups_of(map_id).values():
        first = members[0]
        base = f"{first.a}-{first.b}"
        if len(members) > 1:
            assert [r.id for r in members] == [f"{base}-{k + 1}" for k in range(len(members))]
        elif first.id.endswith("-sea"):  # a sea route beside a land route (County Durham)
            assert first.id == f"{base}-sea" and first.ferry_locomotives
        else:
            assert first.id == base
        assert re.fullmatch(r"g\d+", first.group), first.group
        taken_bases.add(base)


@pytest.mark.parametrize("map_id", FAMILIES)
def test_ids_are_slugs_and_tickets_are_unique(map_id):
    m = get_map(map_id)
    for c in m.cities.values():
        if c.kind == "city":
            assert c.id == slug(c.name) or (map_id == "marklin" and c.id == slug(c.id)), c.id
    ticket_ids = [t.id for t in m.tickets]
    assert len(set(ticket_ids)) == len(ticket_ids)
    for t in m.tickets:
        assert re.fullmatch(rf"{re.escape(t.a)}-{re.escape(t.b)}(-\d+)?", t.id)


@pytest.mark.parametrize("map_id", FAMILIES)
def test_routes_keep_clear_of_third_cities(map_id):
    m = get_map(map_id)
    for route in m.route_list():
        for city in m.cities.values():
            if city.id not in (route.a, route.b):
                gap = point_polyline_distance(city.x, city.y, route.polyline)
                assert gap >= CITY_CLEARANCE, f"{route.id} passes {gap:.1f} px from {city.id}"


@pytest.mark.parametrize("map_id", FAMILIES)
def test_train_spaces_have_similar_lengths(map_id):
    lengths = [space_length(r) for r in get_map(map_id).route_list()]
    assert max(lengths) / min(lengths) <= MAX_SPACE_RATIO


@pytest.mark.parametrize("map_id", FAMILIES)
def test_cities_stay_apart(map_id):
    cities = list(get_map(map_id).cities.values())
    for k, c in enumerate(cities):
        for d in cities[k + 1:]:
            assert math.dist((c.x, c.y), (d.x, d.y)) >= MIN_CITY_DISTANCE, (c.id, d.id)


@pytest.mark.parametrize("map_id", FAMILIES)
def test_everything_lies_on_the_board(map_id):
    m = get_map(map_id)
    points = [(c.x, c.y) for c in m.cities.values()]
    points += [p for r in m.route_list() for p in r.polyline]
    points += [p for s in m.stubs for p in s.polyline]
    assert all(0 <= x <= m.width and 0 <= y <= m.height for x, y in points)


@pytest.mark.parametrize("map_id", FAMILIES)
def test_boards_suit_the_window(map_id):
    m = get_map(map_id)
    assert m.background == f"{map_id}.png"
    assert 0.9 <= m.width / m.height <= 1.8  # square or landscape
    assert m.height <= 1400


@pytest.mark.parametrize("map_id", FAMILIES)
def test_polylines_run_between_their_cities(map_id):
    m = get_map(map_id)
    for route in m.route_list():
        a, b = m.cities[route.a], m.cities[route.b]
        assert math.dist(route.polyline[0], (a.x, a.y)) <= TRACK_WIDTH
        assert math.dist(route.polyline[-1], (b.x, b.y)) <= TRACK_WIDTH


@pytest.mark.parametrize("map_id", FAMILIES)
def test_parallel_routes_lie_side_by_side(map_id):
    for members in (g for g in groups_of(map_id).values() if len(g) > 1):
        for first, second in itertools.pairwise(members):
            gap = math.dist(polyline_midpoint(first.polyline), polyline_midpoint(second.polyline))
            assert gap == pytest.approx(TRACK_WIDTH, abs=1.0), first.id


@pytest.mark.parametrize("map_id", FAMILIES)
def test_route_at_finds_every_route_at_its_midpoint(map_id):
    m = get_map(map_id)
    for route in m.route_list():
        x, y = polyline_midpoint(route.polyline)
        assert route_at(m, x, y, tolerance=TRACK_WIDTH / 2) == route.id


@pytest.mark.parametrize("map_id", FAMILIES)
def test_train_spaces_match_the_route_lengths(map_id):
    for route in get_map(map_id).route_list():
        assert len(train_spaces(route, CITY_RADIUS)) == route.length
