"""Map format 3: ticket sets apart from boards, and the loader's structural checks.

A board keeps its own tickets (every save of every family still loads: each shipped board
keeps its fingerprint); a ruleset may instead name ticket sets, written beside the board
(``maps/<id>.tickets.toml``) or in the board file (tickets with ``set = "..."``). Every
mistake in a ticket-set file is a MapError naming the file, the line and the field.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from ttr_desktop.maps import (
    MapError,
    available_maps,
    available_ticket_sets,
    get_map,
    load_map,
    load_ticket_set,
    with_ticket_sets,
)
from ttr_desktop.bots.inference import ticket_weights
from ttr_desktop.maps.model import TicketSet
from ttr_desktop.resources import resource_path
from ttr_desktop.rules import new_game
from ttr_desktop.rules.ruleset import USA, check_playable

TEMPLATE = (Path(__file__).parent / "data" / "mini_map.toml").read_text(encoding="utf-8")
#: The template's city d, which no route reaches (a format-3 board must be connected).
CITY_D = TEMPLATE[TEMPLATE.index('[[cities]]\nid = "d"'):TEMPLATE.index("[[routes]]")]

#: Every shipped board's fingerprint, as the saves of its family record it.
FINGERPRINTS = {
    "county-durham": "b556d4aa2ee89021",
    "europe": "de10c35d3dd25ca6",
    "legacy": "b0ccb9c4967e1872",
    "marklin": "fb00b4a6d89c8c42",
    "old-west": "64254e8d556a472f",
    "usa": "40f2009fbcae8479",
}

SET = """format = 3
id = "mini-extra"
board = "mini"
name = "Mini extra"

[[tickets]]
id = "a-b"
a = "a"
b = "b"
points = 2

[[tickets]]
id = "b-c"
a = "b"
b = "c"
points = 1
"""


def line_of(text: str, fragment: str, nth: int = 0) -> int:
    return [n + 1 for n, line in enumerate(text.splitlines()) if fragment in line][nth]


def last_line_of(text: str, fragment: str) -> int:
    return line_of(text, fragment, -1)


def board(tmp_path: Path, text: str = TEMPLATE, name: str = "mini.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_map(path)


def ticket_set_file(tmp_path: Path, text: str = SET, name: str = "mini-extra.tickets.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def set_error(tmp_path: Path, text: str, field: str | None, line: int | None,
              words: str, name: str = "mini-extra.tickets.toml") -> MapError:
    mini = board(tmp_path)
    path = ticket_set_file(tmp_path, text, name)
    with pytest.raises(MapError) as info:
        load_ticket_set(path, mini)
    err = info.value
    assert (err.field, err.line) == (field, line), str(err)
    assert words in err.reason, str(err)
    assert str(err).startswith(str(path)), str(err)
    return err


# Every existing board and save still loads.


@pytest.mark.parametrize("map_id", sorted(FINGERPRINTS))
def test_every_shipped_board_keeps_its_fingerprint(map_id):
    assert get_map(map_id).fingerprint() == FINGERPRINTS[map_id]


def test_ticket_set_files_are_not_boards():
    assert set(FINGERPRINTS) <= set(available_maps())
    assert not [m for m in available_maps() if "." in m]


def test_a_format_2_board_still_loads_with_its_own_tickets(tmp_path):
    mini = board(tmp_path)
    assert [t.id for t in mini.tickets] == ["a-c"]
    assert mini.ticket_sets == () and mini.inline_ticket_sets == {}


def test_the_same_board_as_format_3_has_the_same_fingerprint(tmp_path):
    connected = TEMPLATE.replace(CITY_D, "")
    old = board(tmp_path, connected)
    new = board(tmp_path, connected.replace("format = 2", "format = 3"), "mini3.toml")
    assert new.fingerprint() == old.fingerprint()


# Ticket sets beside the board.


def test_a_game_plays_with_the_tickets_of_the_sets_it_names(tmp_path):
    mini = board(tmp_path)
    extra = load_ticket_set(ticket_set_file(tmp_path), mini)
    assert (extra.id, extra.board, extra.name) == ("mini-extra", "mini", "Mini extra")
    game_map = with_ticket_sets(mini, [extra])
    assert [t.id for t in game_map.tickets] == ["a-b", "b-c"]
    assert game_map.ticket_sets == ("mini-extra",)
    assert game_map.routes is mini.routes and game_map.id == "mini"
    # Its own tickets are not in play, so its fingerprint is another one.
    assert game_map.fingerprint() != mini.fingerprint()
    assert mini.tickets[0].id == "a-c"   # the board itself is unchanged


def test_sets_played_together_keep_their_order(tmp_path):
    mini = board(tmp_path)
    first = load_ticket_set(ticket_set_file(tmp_path), mini)
    second_text = SET.replace('"mini-extra"', '"mini-more"').replace('id = "a-b"', 'id = "a-b2"') \
        .replace('id = "b-c"', 'id = "a-c"').replace('a = "b"\nb = "c"', 'a = "a"\nb = "c"')
    second = load_ticket_set(ticket_set_file(tmp_path, second_text, "mini-more.tickets.toml"),
                             mini)
    game_map = with_ticket_sets(mini, [first, second])
    assert [t.id for t in game_map.tickets] == ["a-b", "b-c", "a-b2", "a-c"]


def test_a_ticket_in_two_sets_of_one_game_is_refused(tmp_path):
    mini = board(tmp_path)
    first = load_ticket_set(ticket_set_file(tmp_path), mini)
    second_text = SET.replace('"mini-extra"', '"mini-more"').replace('id = "a-b"', 'id = "x"')
    path = ticket_set_file(tmp_path, second_text, "mini-more.tickets.toml")
    second = load_ticket_set(path, mini)
    with pytest.raises(MapError) as info:
        with_ticket_sets(mini, [first, second])
    err = info.value
    assert (err.path, err.field, err.line) == (str(path), "tickets[1].id",
                                               line_of(second_text, "[[tickets]]", 1))
    assert 'duplicate ticket id "b-c"' in err.reason and '"mini-extra"' in err.reason
    assert f"line {line_of(SET, '[[tickets]]', 1)}" in err.reason


def test_a_new_game_deals_from_the_named_set():
    usa = get_map("usa")
    regular = list(usa.tickets)
    # The USA board played with a set of nine of its tickets, in reverse order.
    nine = TicketSet("usa-nine", "usa", "Nine", tuple(reversed(regular[:9])), "nine.tickets.toml",
                     tuple((n, None) for n in range(9)))
    game_map = with_ticket_sets(usa, [nine])
    game = new_game("usa", 3, seed=5, game_map=game_map)
    dealt = {t.id for seat in range(3) for t in game.view(seat).pending_tickets}
    assert len(dealt) == 9 and dealt == {t.id for t in regular[:9]}


def test_a_set_too_small_for_the_players_names_its_own_file(tmp_path):
    mini = board(tmp_path)
    path = ticket_set_file(tmp_path)
    game_map = with_ticket_sets(mini, [load_ticket_set(path, mini)])
    with pytest.raises(MapError) as info:
        check_playable(replace(USA, map_id="mini"), game_map, 2)
    err = info.value
    assert (err.path, err.field) == (str(path), "tickets")
    assert "6 tickets needed, but the map has 2" in err.reason


def test_a_ticket_of_a_set_in_an_unknown_deck_is_named_at_its_entry(tmp_path):
    mini = board(tmp_path)
    path = ticket_set_file(tmp_path, SET.replace("points = 1\n", 'points = 1\ndeck = "long"\n'))
    game_map = with_ticket_sets(mini, [load_ticket_set(path, mini)])
    with pytest.raises(MapError) as info:
        check_playable(replace(USA, map_id="mini"), game_map, 2)
    assert (info.value.path, info.value.field) == (str(path), "tickets[1].deck")


@pytest.mark.parametrize(
    "old, new, field, words",
    [
        ('b = "b"', 'b = "zz"', "tickets[0].b", 'unknown city "zz"'),
        ('b = "b"', 'b = "a"', "tickets[0].b", "two different places"),
        ("points = 2", "points = 0", "tickets[0].points", "not a number of points"),
        ("points = 2", 'points = "2"', "tickets[0].points", "not a whole number"),
        ('id = "b-c"', 'id = "a-b"', "tickets[1].id", "duplicate id"),
        ("points = 1", "points = 1\nlong = true", "tickets[1].long", "unknown field 'long'"),
        ("points = 1", 'points = 1\nset = "x"', "tickets[1].set", "unknown field 'set'"),
        ("points = 1", 'points = 1\ndeck = "Long"', "tickets[1].deck", "not a deck name"),
        ('board = "mini"', 'board = "usa"', "board", 'for the board "usa", not for "mini"'),
        ("format = 3", "format = 2", "format", "ticket sets are format 3"),
        ('name = "Mini extra"', 'title = "Mini extra"', "title", "unknown field 'title'"),
        ('id = "mini-extra"', 'id = "other"', "id", "must be in other.tickets.toml"),
        ('id = "mini-extra"', 'id = "Mini Extra"', "id", "not a ticket-set id"),
    ],
)
def test_mistakes_in_a_ticket_set_name_the_line_and_field(tmp_path, old, new, field, words):
    text = SET.replace(old, new, 1) if old != "points = 1" else SET.replace(old, new)
    set_error(tmp_path, text, field, last_line_of(text, new.split("\n")[-1]), words)


def test_a_missing_name_points_at_the_file(tmp_path):
    set_error(tmp_path, SET.replace('name = "Mini extra"\n', ""), None, None,
              "missing field 'name'")


def test_a_set_without_tickets(tmp_path):
    set_error(tmp_path, SET[: SET.index("[[tickets]]")], None, None,
              "the ticket set has no tickets")


def test_a_ticket_no_chain_of_routes_can_complete(tmp_path):
    text = SET.replace('a = "b"\nb = "c"', 'a = "b"\nb = "d"')
    set_error(tmp_path, text, "tickets[1]", line_of(text, "[[tickets]]", 1), "no chain of routes")


def test_a_damaged_ticket_set_is_read_by_the_shared_reader(tmp_path):
    text = SET.replace("points = 2", "points = = 2")
    err = set_error(tmp_path, text, None, line_of(text, "points = = 2"), "TOML syntax error")
    assert "column" in err.reason
    set_error(tmp_path, "", None, None, "the file is empty")
    mini = board(tmp_path)
    with pytest.raises(MapError, match="file not found"):
        load_ticket_set(tmp_path / "nope.tickets.toml", mini)


# Ticket sets in the board file.

INLINE = TEMPLATE.replace("format = 2", "format = 3").replace(CITY_D, "") + """
[[tickets]]
id = "a-b"
a = "a"
b = "b"
points = 2
set = "short"

[[tickets]]
id = "a-c"
a = "a"
b = "c"
points = 3
set = "short"
"""


def test_a_set_in_the_board_file_is_not_among_the_boards_own_tickets(tmp_path):
    without = board(tmp_path, INLINE[: INLINE.index('[[tickets]]\nid = "a-b"')], "plain.toml")
    mini = board(tmp_path, INLINE)
    assert [t.id for t in mini.tickets] == ["a-c"]
    assert mini.fingerprint() == without.fingerprint()   # adding a set keeps the saves
    short = mini.inline_ticket_sets["short"]
    game_map = with_ticket_sets(mini, [short])
    assert [(t.id, t.points) for t in game_map.tickets] == [("a-b", 2), ("a-c", 3)]
    # A problem with its tickets points at the board file's entries.
    assert game_map.locate("tickets[1].deck") == (str(mini.source), "tickets[2].deck")


def test_a_mistake_in_a_set_in_the_board_file(tmp_path):
    text = INLINE.replace('set = "short"', 'set = "Short Ones"', 1)
    with pytest.raises(MapError) as info:
        board(tmp_path, text)
    assert (info.value.field, info.value.line) == ("tickets[1].set",
                                                   line_of(text, "Short Ones"))


# Format 3: the board's structure.


def test_a_format_3_board_must_be_connected(tmp_path):
    text = TEMPLATE.replace("format = 2", "format = 3")
    with pytest.raises(MapError) as info:
        board(tmp_path, text)
    err = info.value
    assert (err.field, err.line) == ("cities[3]", line_of(text, "[[cities]]", 3))
    assert 'no chain of routes joins "d" to "a"' in err.reason


def test_a_format_3_board_may_leave_its_tickets_to_sets(tmp_path):
    text = INLINE[: INLINE.index("[[tickets]]")]
    mini = board(tmp_path, text)
    assert mini.tickets == []
    with pytest.raises(MapError) as info:
        check_playable(replace(USA, map_id="mini"), mini, 2)
    assert info.value.field == "tickets" and "needed, but the map has none" in info.value.reason


def test_the_tracks_of_a_double_route_differ_in_colour_unless_gray(tmp_path):
    parts = INLINE.split("[[routes]]")
    parts[2] = parts[2].replace('color = "gray"', 'color = "red"', 1)    # b-c-1 red
    parts[3] = parts[3].replace('color = "gray"', 'color = "blue"', 1)   # b-c-2 blue
    parts[3] = parts[3].replace("length = 1", "length = 2", 1)          # may differ
    board(tmp_path, "[[routes]]".join(parts))
    parts[3] = parts[3].replace('color = "blue"', 'color = "red"', 1)
    text = "[[routes]]".join(parts)
    with pytest.raises(MapError) as info:
        board(tmp_path, text)
    err = info.value
    assert (err.field, err.line) == ("routes[2].color", last_line_of(text, 'color = "red"'))
    assert 'two tracks of group "g2" are both red' in err.reason
    own_tickets_only = text[: text.index('[[tickets]]\nid = "a-b"')]
    board(tmp_path, own_tickets_only.replace("format = 3", "format = 2"))   # format 2 never asked


PASSING = """format = {format}
id = "pass"
name = "Pass"
width = 400
height = 300

[[countries]]
id = "k"
name = "K"

[[cities]]
id = "a"
name = "A"
lat = 10.0
lon = 10.0
x = 50.0
y = 50.0

[[cities]]
id = "b"
name = "B"
lat = 10.0
lon = 11.0
x = 150.0
y = 50.0

[[cities]]
id = "c"
name = "C"
lat = 10.0
lon = 12.0
x = 250.0
y = 50.0

[[cities]]
id = "k-b"
name = "K"
lat = 9.0
lon = 11.0
x = 150.0
y = 150.0
kind = "country"
country = "k"

[[routes]]
id = "a-b"
a = "a"
b = "b"
length = 2
color = "red"

[[routes]]
id = "k-b-b"
a = "k-b"
b = "b"
length = 1
color = "gray"

[[routes]]
id = "k-b-c"
a = "k-b"
b = "c"
length = 1
color = "gray"

[[tickets]]
id = "{a}-{b}"
a = "{a}"
b = "{b}"
points = 3
"""


def test_a_path_never_passes_through_a_country_end_point(tmp_path):
    # b and c are joined only through an end point of the country k, a dead end.
    ok = board(tmp_path, PASSING.format(format=2, a="a", b="k"))
    assert [t.id for t in ok.tickets] == ["a-k"]   # a ticket may end in the country
    with pytest.raises(MapError) as info:
        board(tmp_path, PASSING.format(format=2, a="a", b="c"))
    assert 'no chain of routes connects "a" and "c"' in info.value.reason
    with pytest.raises(MapError) as info:                   # nor is the board one piece
        board(tmp_path, PASSING.format(format=3, a="a", b="k"))
    assert 'no chain of routes joins "c" to "a"' in info.value.reason
    assert info.value.field == "cities[2]"


def test_the_shipped_boards_pass_the_format_3_checks(tmp_path):
    for map_id in available_maps():
        text = resource_path("maps", f"{map_id}.toml").read_text(encoding="utf-8")
        header = re.search(r"^format = [12]$", text, re.M)
        assert header, map_id
        path = tmp_path / f"{map_id}.toml"
        path.write_text(text.replace(header.group(0), "format = 3", 1), encoding="utf-8")
        assert load_map(path).fingerprint() == get_map(map_id).fingerprint()


# USA 1910: three ticket sets on the USA board (rules.md §11).

DATA = Path(os.environ.get("TTR_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))
USA_1910_SETS = {
    "usa-1910": "usa_tickets_1910.csv",
    "usa-1910-mega": "usa_tickets_1910_mega_revised.csv",
    "usa-bigcities": "usa_tickets_bigcities.csv",
}
BIG_CITIES = {"chicago", "dallas", "houston", "los-angeles", "miami", "new-york", "seattle"}


def csv_tickets(name: str) -> list[tuple[str, str, int]]:
    if not (DATA / name).exists():
        pytest.skip(f"source data {DATA / name} not present")
    with open(DATA / name, encoding="utf-8", newline="") as f:
        return [(slug(r["city_a"]), slug(r["city_b"]), int(r["points"]))
                for r in csv.DictReader(f)]


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_the_usa_board_offers_the_three_usa_1910_sets():
    assert available_ticket_sets("usa") == sorted(USA_1910_SETS)
    assert available_ticket_sets("europe") == []


@pytest.mark.parametrize("set_id, count", [("usa-1910", 35), ("usa-1910-mega", 34),
                                           ("usa-bigcities", 35)])
def test_each_usa_1910_set_has_the_tickets_of_its_table(set_id, count):
    game_map = get_map("usa", (set_id,))
    assert len(game_map.tickets) == count
    assert [(t.a, t.b, t.points) for t in game_map.tickets] == csv_tickets(USA_1910_SETS[set_id])
    assert {t.deck for t in game_map.tickets} == {"regular"}
    # The board is the USA board; only the tickets differ.
    usa = get_map("usa")
    assert game_map.routes is usa.routes and game_map.cities is usa.cities
    assert game_map.ticket_sets == (set_id,)


def test_the_mega_game_plays_the_1910_tickets_and_the_revised_originals():
    mega = get_map("usa", ("usa-1910", "usa-1910-mega"))
    assert len(mega.tickets) == 69
    assert [t.id for t in mega.tickets[:35]] == [t.id for t in get_map("usa", ("usa-1910",)).tickets]
    revised = {t.id: t.points for t in mega.tickets[35:]}
    # The reprint lowered four original cards.
    assert (revised["los-angeles-miami"], revised["los-angeles-new-york"],
            revised["seattle-new-york"], revised["sault-st-marie-oklahoma-city"]) == (19, 20, 20, 8)
    assert {t.points for t in get_map("usa").tickets if t.id == "los-angeles-miami"} == {20}


def test_every_big_cities_ticket_touches_a_big_city():
    tickets = get_map("usa", ("usa-bigcities",)).tickets
    assert all({t.a, t.b} & BIG_CITIES for t in tickets)
    assert sum(t.points for t in tickets) == 389


def test_the_usa_board_and_its_saves_are_unchanged_by_the_sets():
    assert get_map("usa").fingerprint() == FINGERPRINTS["usa"]
    assert len(get_map("usa").tickets) == 30
    assert get_map("usa", ("usa-1910",)) is get_map("usa", ("usa-1910",))
    assert get_map("usa", ("usa-1910",)).fingerprint() != FINGERPRINTS["usa"]


def play_until_seat_1_builds(game):
    """Play the first legal action (a claim whenever there is one) until seat 1 owns a route."""
    while 1 not in game.view(0).owner_list:
        actions = game.legal_actions()
        claims = [a for a in actions if a.kind == "claim_route"]
        game.apply((claims or actions)[0])
    return game


def test_a_usa_1910_game_deals_its_tickets_and_bots_weigh_them():
    # A bot weighs its opponents' tickets by their shortest paths, remembered per board: a
    # USA game first, then a USA 1910 game on the same board with other tickets.
    usa = play_until_seat_1_builds(new_game("usa", 2, seed=3))
    weigh = ticket_weights(usa.view(0))
    assert all(weigh(1, t) > 0 for t in usa.map.tickets)
    tickets_1910 = get_map("usa", ("usa-1910",)).tickets
    game = new_game("usa", 2, seed=3, game_map=get_map("usa", ("usa-1910",)))
    assert {t.id for t in game.view(0).pending_tickets} <= {t.id for t in tickets_1910}
    weigh = ticket_weights(play_until_seat_1_builds(game).view(0))
    assert all(weigh(1, t) > 0 for t in tickets_1910)


def test_the_build_script_writes_the_shipped_ticket_sets_byte_for_byte(tmp_path, monkeypatch):
    if not DATA.exists():
        pytest.skip(f"source data {DATA} not present")
    tools = Path(__file__).resolve().parents[1] / "tools"
    monkeypatch.syspath_prepend(str(tools))
    import build_maps

    for spec in build_maps.TICKET_SETS:
        build_maps.build_ticket_set(spec, DATA, tmp_path)
        written = (tmp_path / f"{spec.id}.tickets.toml").read_bytes()
        assert written == resource_path("maps", f"{spec.id}.tickets.toml").read_bytes()


@pytest.fixture
def maps_folder(tmp_path, monkeypatch):
    """A maps folder of our own in place of the bundled one (caches emptied around it)."""
    from ttr_desktop.maps import loader

    folder = tmp_path / "maps"
    folder.mkdir()
    monkeypatch.setattr(loader, "resource_path", lambda *parts: folder.joinpath(*parts[1:]))
    for cached in (loader._board, loader._ticket_set, loader.get_map):
        cached.cache_clear()
    yield folder
    for cached in (loader._board, loader._ticket_set, loader.get_map):
        cached.cache_clear()


def test_a_ruleset_naming_a_set_that_does_not_exist(maps_folder):
    (maps_folder / "mini.toml").write_text(INLINE, encoding="utf-8")
    with pytest.raises(MapError) as info:
        get_map("mini", ("long",))
    err = info.value
    assert (err.path, err.field) == (str(maps_folder / "mini.toml"), "tickets")
    assert 'there is no ticket set "long"' in err.reason and "long.tickets.toml" in err.reason
    assert [t.id for t in get_map("mini", ("short",)).tickets] == ["a-b", "a-c"]


def test_a_set_both_in_the_board_file_and_beside_it_is_refused(maps_folder):
    (maps_folder / "mini.toml").write_text(INLINE, encoding="utf-8")
    beside = maps_folder / "short.tickets.toml"
    beside.write_text(SET.replace('"mini-extra"', '"short"'), encoding="utf-8")
    with pytest.raises(MapError) as info:
        get_map("mini", ("short",))
    assert info.value.path == str(beside) and "also written in" in info.value.reason
    assert available_ticket_sets("mini") == ["short"]
    assert available_maps() == ["mini"]


def test_a_country_end_point_without_a_route_is_refused_in_format_3(tmp_path):
    lonely = ('[[cities]]\nid = "k-c"\nname = "K"\nlat = 9.0\nlon = 12.0\nx = 250.0\n'
              'y = 150.0\nkind = "country"\ncountry = "k"\n\n[[routes]]\nid = "a-b"')
    text = PASSING.replace('[[routes]]\nid = "a-b"', lonely, 1).replace(
        'id = "k-b-c"\na = "k-b"\nb = "c"', 'id = "b-c"\na = "b"\nb = "c"')
    board(tmp_path, text.format(format=2, a="a", b="k"))
    text = text.format(format=3, a="a", b="k")
    with pytest.raises(MapError) as info:
        board(tmp_path, text)
    assert (info.value.field, info.value.line) == ("cities[4]", line_of(text, "[[cities]]", 4))
    assert "no route reaches this country end point" in info.value.reason
