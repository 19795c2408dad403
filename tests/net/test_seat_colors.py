"""The host chooses each seat's colour: the table keeps it (also over a restart of the
server), and every player is told it (``welcome.colors``, ``lobby.seats[i].color``), so
every window colours the seats alike. A colour that is not a player colour, or one two
seats share, is refused with words that say which seat and why."""

from __future__ import annotations

import pytest

from tests.net.netkit import AsyncTableClient, run, running_server, seated
from ttr_desktop.net.client import TableError
from ttr_desktop.net.protocol import SEAT_COLORS
from ttr_desktop.ui.session import SEAT_COLORS as WINDOW_SEAT_COLORS

SEATS = [{"kind": "remote", "name": "Ann", "color": "purple"},
         {"kind": "bot", "name": "Robo", "level": "random", "color": "yellow"},
         {"kind": "remote", "name": "Cleo", "color": "red"}]


def test_the_server_knows_the_same_colours_as_the_window():
    assert SEAT_COLORS == WINDOW_SEAT_COLORS


def test_the_hosts_colours_reach_every_player_and_survive_a_restart(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                created = await host.create("usa", SEATS, seed=4242, autostart=False)
            assert [s["color"] for s in created["seats"]] == ["purple", "yellow", "red"]
            ann = await seated(server.url, created["table"], created["tokens"][0])
            cleo = AsyncTableClient(server.url)
            await cleo.open()
            welcome = await cleo.join(created["invites"][1], name="Cleo")
            assert welcome["colors"] == ["purple", "yellow", "red"]
            assert ann.welcome["colors"] == ["purple", "yellow", "red"]
            lobby = await cleo.expect("lobby")
            assert [s["color"] for s in lobby["seats"]] == ["purple", "yellow", "red"]
            await ann.close()
            await cleo.close()
        # The server stops and starts again on the same data folder.
        async with running_server(tmp_path) as server:
            ann = await seated(server.url, created["table"], created["tokens"][0])
            assert ann.welcome["colors"] == ["purple", "yellow", "red"]
            lobby = await ann.expect("lobby")
            assert [s["color"] for s in lobby["seats"]] == ["purple", "yellow", "red"]
            await ann.close()
    run(scenario())


def test_seats_without_a_colour_get_the_first_free_ones_in_the_usual_order(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                created = await host.create("usa", [{"kind": "remote"},
                                                    {"kind": "remote", "color": "red"},
                                                    "bot:easy"], seed=1)
            assert [s["color"] for s in created["seats"]] == ["blue", "red", "green"]
    run(scenario())


@pytest.mark.parametrize("color, words", [
    ("pink", "Seat 2: there is no seat colour 'pink' (known: red, blue, green, yellow, "
             "black, purple)."),
    (7, "Seat 2: there is no seat colour '7'"),
    ("purple", "Seats 1 and 2 are both purple: each seat needs its own colour."),
])
def test_a_colour_that_is_not_a_players_is_refused(tmp_path, color, words):
    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                seats = [dict(SEATS[0]), {"kind": "remote", "name": "Cleo", "color": color}]
                with pytest.raises(TableError) as refused:
                    await host.create("usa", seats, seed=1)
                assert words in str(refused.value)
                assert not server.tables, "nothing was created"
                # The connection carries on: a right set-up is accepted.
                seats[1]["color"] = "green"
                created = await host.create("usa", seats, seed=1)
                assert [s["color"] for s in created["seats"]] == ["purple", "green"]
    run(scenario())


def test_a_saved_table_and_a_local_save_load_back_with_their_colours(tmp_path):
    from ttr_desktop.persistence.saves import dumps_game, read_save
    from ttr_desktop.net.protocol import PROTOCOL_VERSION
    from ttr_desktop.rules import new_game

    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                created = await host.create("usa", [SEATS[0], SEATS[1]], seed=9)
                assert server.tables[created["table"]].game is None
                ann = await seated(server.url, created["table"], created["tokens"][0])
                await ann.expect("state")
                await host.send({"type": "host", "command": "save",
                                 "host_token": created["host_token"]})
                saved = await host.expect("saved")
                await host.send({"type": "load", "protocol": PROTOCOL_VERSION,
                                 "file": saved["file"]})
                loaded = await host.expect("created")
                # A local game's save: its seats' colours as the local game had them.
                local_game = new_game("europe", ["Ann", "Bob", "Cy"], seed=5)
                await host.send({"type": "load", "protocol": PROTOCOL_VERSION,
                                 "save": dumps_game(local_game, {"seats": [
                                     {"kind": "human", "color": "black"},
                                     {"kind": "bot", "color": "green"},
                                     {"kind": "human", "color": "black"}]})})
                from_local = await host.expect("created")
                await ann.close()
            return saved, loaded, from_local

    saved, loaded, from_local = run(scenario())
    local = read_save(tmp_path / "saves" / saved["file"])
    assert [s["color"] for s in local.meta["seats"]] == ["purple", "yellow"], \
        "the save opens as a local game in the table's colours"
    assert [s["color"] for s in loaded["seats"]] == ["purple", "yellow"]
    # The third seat repeats black: it gets the first colour nobody has instead.
    assert [s["color"] for s in from_local["seats"]] == ["black", "green", "red"]
