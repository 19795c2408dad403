"""A server killed outright (SIGKILL) in the middle of its games and started again on the
same data folder resumes every table where it was: players' bots reconnect by themselves
and finish, the game ends as its local replay, and a table nobody was playing at that
moment is exactly where it stopped."""

from __future__ import annotations

import json
import time

from tests.net.netkit import (
    AsyncTableClient, check_seat_saw_only_its_own, cli, make_bot, replay, run, serve_process,
)
from ttr_desktop.net.codec import map_for, view_from_json, view_to_json
from ttr_desktop.net.storage import SqliteStore
from ttr_desktop.rules import action_from_dict


# Every wait below ends as soon as its condition holds; the bounds are for a loaded
# machine (two busy cores shared by several test runs): a whole game of three bots, one
# of them across the server's kill and restart, may take minutes there, seconds here.
#: Seconds for a short exchange (a table created, a few moves, one look).
SHORT = 60
#: Seconds for the rest of table A's game after the server started again.
GAME = 240


def _wait(predicate, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


async def _play_moves(url: str, table: str, token: str, moves: int) -> int:
    """Play ``moves`` decisions of this seat, then hang up; the last version seen."""
    async with AsyncTableClient(url) as client:
        welcome = await client.hello(table, token)
        game_map = map_for(welcome["variant"], {})
        bot = make_bot("greedy", seed=3)
        done = 0
        while done < moves:
            msg = await client.expect("state")
            if msg["legal"]:
                view = view_from_json(msg["view"], game_map)
                await client.act(bot.choose(view, [action_from_dict(a)
                                                   for a in msg["legal"]]))
                done += 1
        msg = await client.expect("state")
        return msg["version"]


async def _look(url: str, table: str, token: str) -> dict:
    async with AsyncTableClient(url) as client:
        await client.hello(table, token)
        return await client.expect("state")


def test_a_killed_server_resumes_every_table(tmp_path):
    data = tmp_path / "data"
    server, url = serve_process(data)
    bots = []
    try:
        new = cli("new", "--server", url, "--variant", "usa", "--seats",
                  "remote,remote,bot:greedy", "--seed", "987654321987")
        out, _ = new.communicate(timeout=SHORT)
        created = json.loads(out)
        assert set(created) >= {"table", "invites", "tokens"} and len(created["tokens"]) == 2
        table_a = created["table"]
        # Table B: one person (who stops after a few moves) against a server bot.
        async def make_b():
            async with AsyncTableClient(url) as host:
                return await host.create("usa", ["remote", "bot:random"], seed=55555555)
        b = run(make_b(), SHORT)
        b_version = run(_play_moves(url, b["table"], b["tokens"][0], 6), SHORT)

        bots = [cli("bot", "--server", url, "--table", table_a, "--token", token, "--level",
                    level, "--timeout", str(GAME))
                for token, level in zip(created["tokens"], ("greedy", "random"))]
        store = SqliteStore(data / "tables.sqlite3")
        _wait(lambda: len(store.actions(table_a)) >= 40, SHORT, "table A to get going")
        server.kill()                                   # SIGKILL: no goodbye
        server.wait(10)
        before_a = store.actions(table_a)
        before_b = store.actions(b["table"])
        assert store.get(table_a).status == "playing"

        server, url2 = serve_process(data, port=int(url.rsplit(":", 1)[1]))
        assert url2 == url
        results = [json.loads(p.communicate(timeout=GAME + 15)[0]) for p in bots]
        after_a = store.actions(table_a)
        record_a = store.get(table_a)
        assert after_a[:len(before_a)] == before_a, "nothing played before the kill is lost"
        assert len(after_a) > len(before_a)
        local, _ = replay(record_a, after_a)
        assert local.is_over and record_a.status == "over"
        scores = [b.total for b in local.scores()]
        assert [r["scores"] for r in results] == [scores, scores]
        assert sorted(r["seat"] for r in results) == [0, 1]

        # Table B waits where it was: same moves, same view for its player.
        state = run(_look(url, b["table"], b["tokens"][0]), SHORT)
        assert store.actions(b["table"]) == before_b
        assert state["version"] == len(before_b) >= b_version
        record_b = store.get(b["table"])
        local_b, _ = replay(record_b, before_b)
        assert state["view"] == json.loads(json.dumps(view_to_json(local_b.view(0))))
        check_seat_saw_only_its_own(record_b, before_b, 0, [state])
        store.close()
    finally:
        for p in bots:
            if p.poll() is None:
                p.kill()
        server.kill()
        server.wait(10)
