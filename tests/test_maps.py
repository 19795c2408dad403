"""Maps: the shipped boards, their agreement with the source data, layout quality, the loader's
errors and the board geometry."""

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

from ttr_desktop.maps import (
    CARD_COLORS,
    GameMap,
    MapError,
    Route,
    available_maps,
    get_map,
    load_map,
)
from ttr_desktop.maps.geometry import (
    CITY_RADIUS,
    TRACK_WIDTH,
    point_polyline_distance,
    point_segment_distance,
    polyline_length,
    polyline_midpoint,
    route_at,
    space_length,
    train_spaces,
)
from ttr_desktop.resources import resource_path

SHIPPED = ("usa", "europe")
DATA = Path(
    os.environ.get("TTR_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
#: Layout bounds the shipped maps meet (the build script reports 1.30 and 1.65, and 70+ px).
MAX_SPACE_RATIO = 1.8
MIN_CITY_DISTANCE = 40.0
CITY_CLEARANCE = 18.0


# The shipped maps.


def test_shipped_maps_are_available():
    assert set(SHIPPED) <= set(available_maps())


@pytest.mark.parametrize("map_id", available_maps())
def test_every_shipped_map_loads(map_id):
    game_map = load_map(resource_path("maps", f"{map_id}.toml"))
    assert game_map.id == map_id
    assert game_map.cities and game_map.routes and game_map.tickets


def test_usa_has_the_published_contents():
    usa = get_map("usa")
    routes = usa.route_list()
    assert (len(usa.cities), len(routes), len(usa.tickets)) == (36, 100, 30)
    assert sum(t.points for t in usa.tickets) == 349
    assert sum(r.color == "gray" for r in routes) == 44
    for color in CARD_COLORS:
        coloured = [r for r in routes if r.color == color]
        assert len(coloured) == 7, color
        assert sum(r.length for r in coloured) == 27, color
    assert not any(r.tunnel or r.ferry_locomotives for r in routes)
    assert not any(t.long for t in usa.tickets)


def test_europe_has_the_published_contents():
    europe = get_map("europe")
    routes = europe.route_list()
    assert (len(europe.cities), len(routes), len(europe.tickets)) == (47, 101, 46)
    assert sum(t.long for t in europe.tickets) == 6
    assert sum(r.tunnel for r in routes) == 18
    assert sum(r.ferry_locomotives > 0 for r in routes) == 13


def test_route_ids_follow_their_parallel_groups():
    for map_id in SHIPPED:
        groups: dict[str, list[Route]] = {}
        for route in get_map(map_id).route_list():
            groups.setdefault(route.group, []).append(route)
        for members in groups.values():
            base = f"{members[0].a}-{members[0].b}"
            if len(members) == 1:
                assert members[0].id == base
            else:
                assert [r.id for r in members] == [f"{base}-{k + 1}" for k in range(len(members))]


def test_get_map_shares_one_object():
    assert get_map("usa") is get_map("usa")
    path = resource_path("maps", "usa.toml")
    assert load_map(path) is not load_map(path)


# Agreement with the source data.


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def read_rows(name: str) -> list[dict[str, str]]:
    if not (DATA / name).exists():
        pytest.skip(f"source data {DATA / name} not present")
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("map_id", SHIPPED)
def test_routes_agree_with_the_csv(map_id):
    rows = read_rows(f"{map_id}_routes.csv")
    expected = Counter(
        (
            frozenset((slug(r["city_a"]), slug(r["city_b"]))),
            int(r["length"]),
            r["color"],
            r.get("tunnel", "0") == "1",
            int(r.get("ferry_locomotives") or 0),
        )
        for r in rows
    )
    shipped = Counter(
        (frozenset((r.a, r.b)), r.length, r.color, r.tunnel, r.ferry_locomotives)
        for r in get_map(map_id).route_list()
    )
    assert shipped == expected


@pytest.mark.parametrize("map_id", SHIPPED)
def test_tickets_agree_with_the_csv(map_id):
    rows = read_rows(f"{map_id}_tickets.csv")
    expected = [
        (slug(r["city_a"]), slug(r["city_b"]), int(r["points"]), r.get("deck") == "long")
        for r in rows
    ]
    shipped = [(t.a, t.b, t.points, t.long) for t in get_map(map_id).tickets]
    assert shipped == expected


def test_usa_cities_sit_at_their_csv_coordinates():
    rows = read_rows("usa_cities_latlon.csv")
    cities = get_map("usa").cities
    assert {slug(r["city"]) for r in rows} == set(cities)
    for r in rows:
        city = cities[slug(r["city"])]
        assert (city.lat, city.lon) == (float(r["lat"]), float(r["lon"]))


# Layout quality.


@pytest.mark.parametrize("map_id", SHIPPED)
def test_routes_keep_clear_of_third_cities(map_id):
    game_map = get_map(map_id)
    for route in game_map.route_list():
        for city in game_map.cities.values():
            if city.id not in (route.a, route.b):
                gap = point_polyline_distance(city.x, city.y, route.polyline)
                assert gap >= CITY_CLEARANCE, f"{route.id} passes {gap:.1f} px from {city.id}"


@pytest.mark.parametrize("map_id", SHIPPED)
def test_train_spaces_have_similar_lengths(map_id):
    lengths = [space_length(r) for r in get_map(map_id).route_list()]
    assert max(lengths) / min(lengths) <= MAX_SPACE_RATIO


@pytest.mark.parametrize("map_id", SHIPPED)
def test_cities_stay_apart(map_id):
    cities = list(get_map(map_id).cities.values())
    for k, c in enumerate(cities):
        for d in cities[k + 1 :]:
            assert math.dist((c.x, c.y), (d.x, d.y)) >= MIN_CITY_DISTANCE, (c.id, d.id)


@pytest.mark.parametrize("map_id", SHIPPED)
def test_everything_lies_on_the_board(map_id):
    game_map = get_map(map_id)
    points = [(c.x, c.y) for c in game_map.cities.values()]
    points += [p for r in game_map.route_list() for p in r.polyline]
    assert all(0 <= x <= game_map.width and 0 <= y <= game_map.height for x, y in points)


@pytest.mark.parametrize("map_id", SHIPPED)
def test_polylines_run_between_their_cities(map_id):
    game_map = get_map(map_id)
    for route in game_map.route_list():
        a, b = game_map.cities[route.a], game_map.cities[route.b]
        assert math.dist(route.polyline[0], (a.x, a.y)) <= TRACK_WIDTH
        assert math.dist(route.polyline[-1], (b.x, b.y)) <= TRACK_WIDTH


@pytest.mark.parametrize("map_id", SHIPPED)
def test_parallel_routes_lie_side_by_side(map_id):
    groups: dict[str, list[Route]] = {}
    for route in get_map(map_id).route_list():
        groups.setdefault(route.group, []).append(route)
    for members in (g for g in groups.values() if len(g) > 1):
        for first, second in itertools.pairwise(members):
            gap = math.dist(polyline_midpoint(first.polyline), polyline_midpoint(second.polyline))
            assert gap == pytest.approx(TRACK_WIDTH, abs=1.0), first.id


# Geometry.


@pytest.mark.parametrize("map_id", SHIPPED)
def test_route_at_finds_every_route_at_its_midpoint(map_id):
    game_map = get_map(map_id)
    for route in game_map.route_list():
        x, y = polyline_midpoint(route.polyline)
        assert route_at(game_map, x, y, tolerance=TRACK_WIDTH / 2) == route.id


def test_route_at_misses_far_from_every_route():
    assert route_at(get_map("usa"), -500.0, -500.0, tolerance=10.0) is None


def test_point_segment_distance():
    assert point_segment_distance(5, 3, 0, 0, 10, 0) == pytest.approx(3.0)
    assert point_segment_distance(-3, 4, 0, 0, 10, 0) == pytest.approx(5.0)
    assert point_segment_distance(1, 1, 2, 2, 2, 2) == pytest.approx(math.sqrt(2))


def test_polyline_length_and_midpoint():
    line = [(0.0, 0.0), (30.0, 0.0), (30.0, 40.0)]
    assert polyline_length(line) == pytest.approx(70.0)
    assert polyline_midpoint(line) == pytest.approx((30.0, 5.0))


def test_train_spaces_fill_a_straight_route_between_the_markers():
    route = Route("a-b", "a", "b", 2, "red", "g1", polyline=((0.0, 0.0), (100.0, 0.0)))
    spaces = train_spaces(route, city_radius=10.0, width=14.0, gap=0.0)
    assert [(s.x, s.y, s.angle, s.length, s.width) for s in spaces] == [
        pytest.approx((30.0, 0.0, 0.0, 40.0, 14.0)),
        pytest.approx((70.0, 0.0, 0.0, 40.0, 14.0)),
    ]


def test_train_spaces_follow_a_bent_route():
    route = Route("a-b", "a", "b", 3, "red", "g1", polyline=((0.0, 0.0), (0.0, 60.0), (60.0, 60.0)))
    spaces = train_spaces(route, city_radius=0.0, gap=0.0)
    assert len(spaces) == 3
    assert spaces[0].angle == pytest.approx(90.0)
    assert spaces[2].angle == pytest.approx(0.0)
    assert all(s.length == pytest.approx(40.0) for s in spaces)


def test_shipped_train_spaces_match_the_route_lengths():
    for route in get_map("europe").route_list():
        assert len(train_spaces(route, CITY_RADIUS)) == route.length


# Broken maps.

TEMPLATE = (Path(__file__).parent / "data" / "mini_map.toml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mini.toml"
    path.write_text(text, encoding="utf-8")
    return path


def change(old: str, new: str, nth: int = 0) -> str:
    """The template with the nth occurrence of ``old`` replaced by ``new``."""
    parts = TEMPLATE.split(old)
    assert len(parts) > nth + 1, old
    return old.join(parts[: nth + 1]) + new + old.join(parts[nth + 1 :])


def line_of(text: str, fragment: str, nth: int = 0) -> int:
    return [n + 1 for n, line in enumerate(text.splitlines()) if fragment in line][nth]


def expect_error(
    tmp_path: Path, text: str, field: str | None, line: int | None, words: str
) -> MapError:
    path = write(tmp_path, text)
    with pytest.raises(MapError) as info:
        load_map(path)
    err = info.value
    assert (err.field, err.line) == (field, line), str(err)
    assert words in err.reason
    where = ", ".join([str(path)] + [f"line {line}"] * (line is not None) + [field] * bool(field))
    assert str(err) == f"{where}: {err.reason}"
    return err


def test_the_template_map_loads(tmp_path):
    game_map = load_map(write(tmp_path, TEMPLATE))
    assert isinstance(game_map, GameMap)
    assert list(game_map.routes) == ["a-b", "b-c-1", "b-c-2"]
    assert game_map.routes["b-c-1"].polyline == ((150.0, 50.0), (250.0, 50.0))
    assert game_map.countries == {} and game_map.stubs == () and game_map.merchandise == {}
    assert game_map.background == ""


def test_syntax_error_reports_its_line(tmp_path):
    text = change("length = 2", "length = = 2")
    err = expect_error(tmp_path, text, None, line_of(text, "length = = 2"), "TOML syntax error")
    assert "column" in err.reason


def test_duplicate_city_id(tmp_path):
    text = change('id = "b"', 'id = "a"')
    first = line_of(text, 'id = "a"')
    err = expect_error(tmp_path, text, "cities[1].id", line_of(text, 'id = "a"', 1), "duplicate id")
    assert f"first used at line {first}" in err.reason


def test_ticket_between_unconnected_cities(tmp_path):
    text = change('b = "c"\npoints', 'b = "d"\npoints')
    expect_error(tmp_path, text, "tickets[0]", line_of(text, "[[tickets]]"), "no chain of routes")


def test_group_with_different_ends(tmp_path):
    text = change('a = "b"', 'a = "a"', nth=1)
    expect_error(
        tmp_path, text, "routes[2].group", line_of(text, 'group = "g2"', 1), 'group "g2" joins b-c'
    )


def test_group_with_four_members(tmp_path):
    extra_routes = "".join(
        f'\n[[routes]]\nid = "b-c-{k}"\na = "b"\nb = "c"\n'
        'length = 1\ncolor = "gray"\ngroup = "g2"\n'
        for k in (3, 4)
    )
    text = TEMPLATE.replace("\n[[tickets]]", extra_routes + "\n[[tickets]]")
    expect_error(tmp_path, text, "routes[4].group", line_of(text, 'group = "g2"', 3), "more than 3")


COLOUR_MESSAGE = (
    '"purpel" is not a colour (expected one of red, blue, green, yellow, black, white, orange, '
    "pink, gray)"
)


@pytest.mark.parametrize(
    "old, new, field, words",
    [
        ('b = "b"', 'b = "zz"', "routes[0].b", 'unknown city "zz"'),
        ("length = 2", "length = 12", "routes[0].length", "12 is not a route length (1..9)"),
        ("length = 2", "length = 0", "routes[0].length", "not a route length"),
        ("length = 2", 'length = "2"', "routes[0].length", '"2" is not a whole number'),
        ("length = 2", "length = 2.0", "routes[0].length", "not a whole number"),
        ('color = "red"', 'color = "purpel"', "routes[0].color", COLOUR_MESSAGE),
        ("[50.0, 50.0], [150.0, 50.0]]", "[50.0, 50.0]]", "routes[0].polyline", "at least 2"),
        ("[150.0, 50.0]]", '[150.0, "x"]]', "routes[0].polyline[1]", "pair of numbers"),
        ("format = 2", "format = 4", "format", "format 4 is not supported"),
        ("ferry_locomotives = 0", "ferry_locomotives = 3", "routes[0].ferry_locomotives", "0..2"),
        ("tunnel = false", 'tunnel = "no"', "routes[0].tunnel", "not true or false"),
        ("x = 50.0", "x = 450.0", "cities[0].x", "outside the board"),
        ("lat = 10.0", "lat = 91.0", "cities[0].lat", "not a latitude"),
        ("points = 5", "points = 0", "tickets[0].points", "not a number of points"),
        ('b = "b"', 'b = "a"', "routes[0].b", "two different places"),
        ('name = "A"', 'nam = "A"', "cities[0].nam", "unknown field 'nam'"),
        ('color = "red"', 'colour = "red"', "routes[0].colour", "unknown field 'colour'"),
        ('id = "mini"', "id = 7", "id", "not a non-empty one-line string"),
    ],
)
def test_bad_field_values(tmp_path, old, new, field, words):
    text = change(old, new)
    assert line_of(text, new) == line_of(TEMPLATE, old)
    expect_error(tmp_path, text, field, line_of(text, new), words)


def test_missing_field_points_at_the_entry(tmp_path):
    text = change('name = "B"\n', "")
    expect_error(
        tmp_path, text, "cities[1]", line_of(text, "[[cities]]", 1), "missing field 'name'"
    )


def test_map_without_tickets(tmp_path):
    text = TEMPLATE[: TEMPLATE.index("[[tickets]]")]
    expect_error(tmp_path, text, None, None, "no tickets")


def test_missing_file(tmp_path):
    with pytest.raises(MapError) as info:
        load_map(tmp_path / "nope.toml")
    assert info.value.line is None and "not found" in str(info.value)


def test_empty_file(tmp_path):
    expect_error(tmp_path, "", None, None, "empty")


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(TEMPLATE.replace('"A"', '"Zürich"').encode("latin-1"))
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.line == line_of(TEMPLATE, 'name = "A"') and "UTF-8" in info.value.reason


def test_unknown_map_id():
    with pytest.raises(MapError):
        get_map("no-such-map")


# Format 2: the typed fields of the rule families.

FAMILY_MAP = """
format = 2
id = "fam"
name = "Family"
width = 400
height = 300
credits = "Map by Someone"
licence = "MIT"

[merchandise]
red = [4, 3, 2]

[[countries]]
id = "land"
name = "Land"

[[cities]]
id = "a"
name = "A"
lat = 10.0
lon = 10.0
x = 50.0
y = 50.0
large = true
merchandise = "red"

[[cities]]
id = "b"
name = "B"
lat = 10.0
lon = 11.0
x = 150.0
y = 50.0
forbidden_start = true
coal = false

[[cities]]
id = "land-b"
name = "Land"
lat = 10.0
lon = 12.0
x = 250.0
y = 50.0
kind = "country"
country = "land"

[[routes]]
id = "a-b"
a = "a"
b = "b"
length = 2
color = "red"

[[routes]]
id = "b-land"
a = "b"
b = "land-b"
length = 1
color = "gray"

[[stubs]]
id = "a-off"
city = "a"
to = "Elsewhere"
length = 2
color = "gray"
polyline = [[50.0, 50.0], [0.0, 120.0]]

[[tickets]]
id = "a-land"
a = "a"
b = "land"
points = 5
deck = "short"
"""


def test_format_2_reads_every_family_field(tmp_path):
    m = load_map(write(tmp_path, FAMILY_MAP))
    assert m.cities["a"].large and m.cities["a"].merchandise == "red" and m.cities["a"].coal
    assert m.cities["b"].forbidden_start and not m.cities["b"].coal
    land = m.cities["land-b"]
    assert land.is_sink and land.country == "land" and not land.coal
    assert m.countries["land"].name == "Land" and m.place_name("land") == "Land"
    assert m.merchandise == {"red": (4, 3, 2)}
    assert m.stubs[0].to == "Elsewhere" and m.stubs[0].city == "a"
    assert m.tickets[0].deck == "short" and m.ticket_decks() == ("short",)
    assert (m.credits, m.licence) == ("Map by Someone", "MIT")


def test_fingerprint_covers_the_family_fields(tmp_path):
    base = load_map(write(tmp_path, FAMILY_MAP)).fingerprint()
    for old, new in [("large = true", "large = false"), ("[4, 3, 2]", "[4, 3, 1]"),
                     ('deck = "short"', 'deck = "long"'), ("coal = false", "coal = true"),
                     ("forbidden_start = true", "forbidden_start = false")]:
        changed = load_map(write(tmp_path, FAMILY_MAP.replace(old, new))).fingerprint()
        assert changed != base, old
    moved = load_map(write(tmp_path, FAMILY_MAP.replace("x = 50.0", "x = 60.0"))).fingerprint()
    assert moved == base  # drawing positions do not change the rules


@pytest.mark.parametrize("old, new, field, words", [
    ('country = "land"', 'country = "sea"', "cities[2].country", 'unknown country "sea"'),
    ('kind = "country"', 'kind = "village"', "cities[2].kind", "not a city kind"),
    ('merchandise = "red"', 'merchandise = "blue"', "cities[0].merchandise",
     "not a merchandise colour"),
    ("red = [4, 3, 2]", "red = [4, 0]", "merchandise.red", "positive token values"),
    ('b = "land"', 'b = "nowhere"', "tickets[0].b", 'unknown city "nowhere"'),
    ('deck = "short"', 'deck = "Short Deck"', "tickets[0].deck", "not a deck name"),
    ('city = "a"', 'city = "q"', "stubs[0].city", 'unknown city "q"'),
    ("large = true", "large = 1", "cities[0].large", "not true or false"),
])
def test_bad_family_fields(tmp_path, old, new, field, words):
    path = write(tmp_path, FAMILY_MAP.replace(old, new, 1))
    with pytest.raises(MapError) as info:
        load_map(path)
    assert info.value.field == field and words in info.value.reason, str(info.value)


def test_a_route_between_two_country_end_points_is_refused(tmp_path):
    text = FAMILY_MAP.replace('a = "b"\nb = "land-b"', 'a = "land-b"\nb = "land-c"') + """
[[cities]]
id = "land-c"
name = "Land"
lat = 1.0
lon = 1.0
x = 10.0
y = 10.0
kind = "country"
country = "land"
"""
    with pytest.raises(MapError) as info:
        load_map(write(tmp_path, text))
    assert "two country end points" in info.value.reason


# Hostile files: every problem is a MapError with the file, the field and the line.

@pytest.mark.parametrize("old, new, field", [
    ("lat = 10.0", "lat = " + "9" * 400, "cities[0].lat"),
    ("x = 50.0", "x = " + "9" * 300 + ".0", "cities[0].x"),
    ("x = 50.0", "x = 1e400", "cities[0].x"),
    ("[150.0, 50.0]]", "[" + "7" * 500 + ", 50.0]]", "routes[0].polyline[1]"),
    ("width = 400", "width = " + "9" * 200, "width"),
    ("width = 400", "width = 100000000", "width"),
])
def test_huge_numbers_are_map_errors(tmp_path, old, new, field):
    text = change(old, new)
    with pytest.raises(MapError) as info:
        load_map(write(tmp_path, text))
    assert info.value.field == field, str(info.value)
    assert info.value.line == line_of(text, new[:12])
    assert len(str(info.value)) < 300


def test_a_number_with_thousands_of_digits_is_a_map_error(tmp_path):
    text = change("points = 5", "points = " + "1" * 5000)
    with pytest.raises(MapError) as info:
        load_map(write(tmp_path, text))
    assert "cannot be read" in info.value.reason or "points" in str(info.value)


def test_deeply_nested_arrays_are_a_map_error(tmp_path):
    text = change("points = 5", "points = " + "[" * 3000 + "]" * 3000)
    with pytest.raises(MapError) as info:
        load_map(write(tmp_path, text))
    assert "too deeply" in info.value.reason or "points" in str(info.value)
