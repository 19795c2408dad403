"""The Nordic Countries board: the shipped file loads, agrees with the shared tables row
for row, forms one connected network that joins every ticket's cities, and is laid out so
every track stays on the image and clear of the cities it does not serve.

The board only; the family's rules (ferries paid with any 3 cards, Murmansk-Lieksa, doubles
with 3 players only) come with its rule module."""

from __future__ import annotations

import csv
import itertools
import math
import os
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from ttr_desktop.maps import load_map
from ttr_desktop.maps.geometry import (
    CITY_RADIUS,
    TRACK_WIDTH,
    point_polyline_distance,
    polyline_midpoint,
    space_length,
    train_spaces,
)
from ttr_desktop.resources import resource_path
from ttr_desktop.ui.map_view import space_corners

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(
    os.environ.get("TTR_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
#: The figures in ../shared/data/README.md ("Nordic Countries: counts").
CITIES, ROUTES, TICKETS = 39, 81, 46
#: A track's edge keeps this far outside a third city's marker: half a track width.
MARKER_GAP = TRACK_WIDTH / 2


@pytest.fixture(scope="module")
def board():
    return load_map(resource_path("maps", "nordic.toml"))


def slug(name: str) -> str:
    """The id of a name, as maps/README.md says: København -> kobenhavn, Tromsø -> tromso."""
    name = name.replace("ø", "o").replace("Ø", "O")
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def read_rows(name: str) -> list[dict[str, str]]:
    if not (DATA / name).exists():
        pytest.skip(f"source data {DATA / name} not present (set TTR_SHARED_DATA)")
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def network(board) -> nx.MultiGraph:
    g = nx.MultiGraph()
    g.add_nodes_from(board.cities)
    g.add_edges_from((r.a, r.b, r.id) for r in board.route_list())
    return g


# The file and its contents.


def test_the_loader_reads_the_board(board):
    assert (board.id, board.name, board.background) == ("nordic", "Nordic Countries",
                                                        "nordic.png")
    assert (len(board.cities), len(board.routes), len(board.tickets)) == (CITIES, ROUTES,
                                                                          TICKETS)
    assert not board.stubs and not board.countries
    # 53 single routes and 14 doubles, no triple; 207 train spaces in all.
    groups = Counter(r.group for r in board.route_list())
    assert Counter(groups.values()) == {1: 53, 2: 14}
    assert sum(r.length for r in board.route_list()) == 207


def test_the_board_is_tall_like_the_countries(board):
    assert board.height > board.width
    # Honningsvåg at the top, København near the bottom, Bergen west of Helsinki.
    c = board.cities
    assert c["honningsvag"].y < c["tromso"].y < c["trondheim"].y < c["oslo"].y < c["kobenhavn"].y
    assert c["bergen"].x < c["oslo"].x < c["stockholm"].x < c["helsinki"].x < c["imatra"].x


def test_cities_match_the_csv(board):
    rows = read_rows("nordic_cities_latlon.csv")
    assert len(rows) == CITIES
    assert [c.id for c in board.cities.values()] == [slug(r["city"]) for r in rows]
    for r in rows:
        city = board.cities[slug(r["city"])]
        assert city.name == r["city"]  # Scandinavian letters kept: Tromsø, Örebro, Mo i Rana
        assert (city.lat, city.lon) == (float(r["lat"]), float(r["lon"]))


def test_routes_match_the_csv_row_for_row(board):
    rows = read_rows("nordic_routes.csv")
    assert len(rows) == ROUTES
    for row, route in zip(rows, board.route_list(), strict=True):
        expected = (slug(row["city_a"]), slug(row["city_b"]), int(row["length"]), row["color"],
                    f"g{row['parallel_group']}", row["tunnel"] == "1",
                    int(row["ferry_locomotives"]))
        shipped = (route.a, route.b, route.length, route.color, route.group, route.tunnel,
                   route.ferry_locomotives)
        assert shipped == expected, route.id


def test_tickets_match_the_csv_row_for_row(board):
    rows = read_rows("nordic_tickets.csv")
    assert len(rows) == TICKETS
    for row, ticket in zip(rows, board.tickets, strict=True):
        a, b = slug(row["city_a"]), slug(row["city_b"])
        assert (ticket.id, ticket.a, ticket.b) == (f"{a}-{b}", a, b)
        assert ticket.points == int(row["points"]), ticket.id
        assert ticket.deck == "regular"
    assert sum(t.points for t in board.tickets) == 460
    assert max(board.tickets, key=lambda t: t.points).id == "kobenhavn-murmansk"


def test_murmansk_lieksa_is_the_one_nine_space_route(board):
    nines = [r for r in board.route_list() if r.length == 9]
    assert [(r.id, r.color, r.tunnel, r.ferry_locomotives) for r in nines] == [
        ("lieksa-murmansk", "gray", False, 0)]


def test_doubles_pair_tracks_of_different_length_and_type(board):
    r = board.routes
    # Kristiansand-Stavanger: a 2-space green tunnel beside a 3-space orange ferry.
    assert (r["kristiansand-stavanger-1"].length, r["kristiansand-stavanger-1"].color,
            r["kristiansand-stavanger-1"].tunnel) == (2, "green", True)
    assert (r["kristiansand-stavanger-2"].length, r["kristiansand-stavanger-2"].color,
            r["kristiansand-stavanger-2"].ferry_locomotives) == (3, "orange", 1)
    # Mo i Rana-Trondheim: a 5-space green tunnel beside a 6-space red ferry (2 Locomotives).
    assert (r["mo-i-rana-trondheim-1"].length, r["mo-i-rana-trondheim-1"].tunnel) == (5, True)
    assert (r["mo-i-rana-trondheim-2"].length,
            r["mo-i-rana-trondheim-2"].ferry_locomotives) == (6, 2)
    # Helsinki-Stockholm: two 4-space ferries, with 2 and 1 Locomotives.
    assert [r[f"helsinki-stockholm-{k}"].ferry_locomotives for k in (1, 2)] == [2, 1]
    for pair in ("kristiansand-stavanger", "mo-i-rana-trondheim", "helsinki-stockholm"):
        first, second = r[f"{pair}-1"], r[f"{pair}-2"]
        assert first.group == second.group
        # Side by side, each drawn with as many train spaces as its own length.
        gap = math.dist(polyline_midpoint(first.polyline), polyline_midpoint(second.polyline))
        assert gap == pytest.approx(TRACK_WIDTH, abs=1.0), pair
        for route in (first, second):
            assert len(train_spaces(route, CITY_RADIUS)) == route.length, route.id


# The network.


def test_the_board_is_one_connected_network(board):
    assert nx.is_connected(network(board))


def test_every_ticket_joins_connected_cities(board):
    g = network(board)
    for t in board.tickets:
        assert nx.has_path(g, t.a, t.b), t.id


def test_every_ticket_is_worth_the_fewest_train_spaces_between_its_cities(board):
    # On this board a ticket's points are its shortest path, the shorter track of an
    # unequal double counting (København-Murmansk: 24 spaces, 24 points).
    spaces = nx.Graph()
    for r in board.route_list():
        if not spaces.has_edge(r.a, r.b) or spaces[r.a][r.b]["length"] > r.length:
            spaces.add_edge(r.a, r.b, length=r.length)
    for t in board.tickets:
        assert nx.shortest_path_length(spaces, t.a, t.b, weight="length") == t.points, t.id


# The layout.


def test_every_route_stays_within_the_image(board):
    import pygame  # noqa: PLC0415

    image = pygame.image.load(str(ROOT / "maps" / board.background))
    assert image.get_size() == (board.width, board.height)
    for route in board.route_list():
        points = list(route.polyline)
        for space in train_spaces(route, CITY_RADIUS, TRACK_WIDTH):
            points += space_corners(space, 1.0, 0.0, 0.0)
        for x, y in points:
            assert 0 <= x <= board.width and 0 <= y <= board.height, route.id
    for city in board.cities.values():
        assert CITY_RADIUS <= city.x <= board.width - CITY_RADIUS, city.id
        assert CITY_RADIUS <= city.y <= board.height - CITY_RADIUS, city.id


def test_no_route_passes_over_a_third_citys_marker(board):
    for route in board.route_list():
        for city in board.cities.values():
            if city.id not in (route.a, route.b):
                gap = point_polyline_distance(city.x, city.y, route.polyline)
                edge = gap - TRACK_WIDTH / 2
                assert edge >= CITY_RADIUS + MARKER_GAP, (
                    f"{route.id} passes {gap:.1f} px from {city.id}")


def test_routes_run_between_their_cities_without_crossing(board):
    routes = board.route_list()
    for route in routes:
        a, b = board.cities[route.a], board.cities[route.b]
        assert math.dist(route.polyline[0], (a.x, a.y)) <= TRACK_WIDTH, route.id
        assert math.dist(route.polyline[-1], (b.x, b.y)) <= TRACK_WIDTH, route.id

    def cross(p, q, r, s):
        def orient(u, v, w):
            return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

        return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0

    for one, other in itertools.combinations(routes, 2):
        if {one.a, one.b} & {other.a, other.b}:
            continue
        assert not any(cross(p, q, r, s) for p, q in itertools.pairwise(one.polyline)
                       for r, s in itertools.pairwise(other.polyline)), (one.id, other.id)


def test_train_spaces_are_even_and_cities_apart(board):
    lengths = [space_length(r) for r in board.route_list()]
    assert max(lengths) / min(lengths) <= 1.6
    for route in board.route_list():
        assert len(train_spaces(route, CITY_RADIUS)) == route.length, route.id
    cities = list(board.cities.values())
    for c, d in itertools.combinations(cities, 2):
        assert math.dist((c.x, c.y), (d.x, d.y)) >= 60.0, (c.id, d.id)


# The build script.


@pytest.fixture(scope="module")
def tools():
    """The developer scripts' modules (tools/ is not a package)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_maps  # noqa: PLC0415
        import map_layout  # noqa: PLC0415
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return build_maps, map_layout


def test_a_group_of_different_lengths_is_laid_out_for_their_mean(tools):
    _, map_layout = tools
    assert map_layout.group_length([4, 4]) == 4
    assert map_layout.group_length([2, 3]) == 2.5
    assert map_layout.group_length([5, 6]) == 5.5


def test_ids_spell_letters_that_have_no_accent_to_drop(tools):
    build_maps, _ = tools
    assert build_maps.slug("København") == "kobenhavn"
    assert build_maps.slug("Tromsø") == "tromso"
    assert build_maps.slug("Ålborg") == "alborg"
    assert build_maps.slug("Mo i Rana") == "mo-i-rana"
    assert build_maps.slug("Gießen") == "giessen"


# The map format: a double may pair tracks of different length and type.

UNEQUAL_DOUBLE = """\
format = 2
id = "fjord"
name = "Fjord"
width = 400
height = 300

[[cities]]
id = "stavanger"
name = "Stavanger"
lat = 58.97
lon = 5.73
x = 100.0
y = 150.0

[[cities]]
id = "kristiansand"
name = "Kristiansand"
lat = 58.15
lon = 8.0
x = 300.0
y = 150.0

[[routes]]
id = "kristiansand-stavanger-1"
a = "kristiansand"
b = "stavanger"
length = 2
color = "green"
group = "g37"
tunnel = true

[[routes]]
id = "kristiansand-stavanger-2"
a = "kristiansand"
b = "stavanger"
length = 3
color = "orange"
group = "g37"
ferry_locomotives = 1

[[tickets]]
id = "stavanger-kristiansand"
a = "stavanger"
b = "kristiansand"
points = 4
"""


def test_a_double_may_pair_a_tunnel_with_a_longer_ferry(tmp_path):
    path = tmp_path / "fjord.toml"
    path.write_text(UNEQUAL_DOUBLE, encoding="utf-8")
    fjord = load_map(path)
    tunnel, ferry = fjord.route_list()
    assert tunnel.group == ferry.group == "g37"
    assert (tunnel.length, tunnel.tunnel, tunnel.ferry_locomotives) == (2, True, 0)
    assert (ferry.length, ferry.tunnel, ferry.ferry_locomotives) == (3, False, 1)
