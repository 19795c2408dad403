"""What the server refuses, and how: a malformed, too large, too frequent, other seat's or
out-of-turn message gets an ``error`` and changes nothing; an illegal move gets the
engine's explanation; a connection that keeps sending refused messages is dropped. Also
the table's chat, turn timer and save/load, as players meet them."""

from __future__ import annotations

import asyncio
import json

from tests.net.netkit import AsyncTableClient, run, running_server, seated
from ttr_desktop.net.protocol import MAX_CHAT_CHARS, MAX_MESSAGE_BYTES, PROTOCOL_VERSION
from ttr_desktop.rules import ClaimRoute


async def _table(server, seats=("remote", "remote"), **extra):
    async with AsyncTableClient(server.url) as host:
        created = await host.create("usa", list(seats), seed=777, **extra)
    table = server.tables[created["table"]]
    clients = [await seated(server.url, created["table"], t) for t in created["tokens"]]
    for c in clients:
        await c.expect("state")
    return created, table, clients


async def _error(client, raw) -> dict:
    await client.ws.send(raw if isinstance(raw, str) else json.dumps(raw))
    return await client.expect("error", "illegal", timeout=10)


def test_refused_messages_change_nothing_and_say_why(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, (ann, bob) = await _table(server)
            game = table.game
            mover, other = (ann, bob) if game.current_seat == 0 else (bob, ann)
            before = (game.version, game.state.to_dict())
            answers = {
                "not json": await _error(mover, "{not json"),
                "a list": await _error(mover, "[1, 2]"),
                "unknown type": await _error(mover, {"type": "teleport"}),
                "too large": await _error(mover, {"type": "chat",
                                                  "text": "x" * (MAX_MESSAGE_BYTES + 10)}),
                "bad action": await _error(mover, {"type": "action",
                                                   "action": {"kind": "fly"}}),
                "other seat": await _error(mover, {
                    "type": "action", "seat": 1 - game.current_seat,
                    "action": {"kind": "draw_blind"}}),
                "out of turn": await _error(other, {"type": "action",
                                                    "action": game.legal_actions()[0]
                                                    .to_dict()}),
                "stale": await _error(mover, {"type": "action", "version": game.version + 5,
                                              "action": game.legal_actions()[0].to_dict()}),
                "not host": await _error(other, {"type": "host", "command": "save"}),
            }
            route = next(iter(game.map.routes))
            claim = ClaimRoute(route, (("red", 1),))
            illegal = await _error(mover, {"type": "action", "action": claim.to_dict()})
            after = (game.version, game.state.to_dict())
            stranger = AsyncTableClient(server.url)
            await stranger.open()
            strangers = {
                "bad token": await _error(stranger, {"type": "hello", "protocol":
                                                     PROTOCOL_VERSION, "table": table.id,
                                                     "token": "guess"}),
                "old version": await _error(stranger, {"type": "hello", "protocol": 99,
                                                       "table": table.id,
                                                       "token": created["tokens"][0]}),
                "not seated": await _error(stranger, {"type": "action",
                                                      "action": {"kind": "draw_blind"}}),
                "bad invite": await _error(stranger, {"type": "join", "protocol":
                                                      PROTOCOL_VERSION, "invite": "AAAAA-BBBBB"}),
            }
            # Keep sending refused messages: the server hangs up.
            for _ in range(12):
                try:
                    await stranger.ws.send("{bad")
                except Exception:
                    break
            await asyncio.wait_for(stranger.ws.wait_closed(), 10)
            return answers, illegal, strangers, before, after, game, claim, \
                server.store.actions(table.id)

    answers, illegal, strangers, before, after, game, claim, actions = run(scenario(), 40)
    codes = {k: v.get("code") for k, v in {**answers, **strangers}.items()}
    assert codes == {
        "not json": "malformed", "a list": "malformed", "unknown type": "malformed",
        "too large": "too_large", "bad action": "malformed", "other seat": "not_your_seat",
        "out of turn": "not_your_turn", "stale": "stale", "not host": "not_host",
        "bad token": "bad_token", "old version": "version", "not seated": "not_seated",
        "bad invite": "bad_invite"}
    assert all(isinstance(v["message"], str) and v["message"] for v in answers.values())
    assert "protocol 1" in strangers["old version"]["message"]
    assert illegal["type"] == "illegal" and illegal["reason"] == game.explain(claim)
    assert before == after and actions == []


def test_chat_is_short_clean_and_reaches_everyone(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            _, table, (ann, bob) = await _table(server)
            await ann.send({"type": "chat", "text": "hi\x00 \x1b[31mBob\u202e\n\n!" + "o" * 500})
            got = await bob.expect("chat")
            await ann.send({"type": "chat", "text": "again"})   # too soon after the first
            too_soon = await ann.expect("error")
            await ann.send({"type": "chat", "text": " \n\t "})
            empty = await ann.expect("error")
            return got, too_soon, empty, server.store.chat(table.id)

    got, too_soon, empty, stored = run(scenario(), 20)
    assert got["seat"] == 0 and got["name"] == "Player 1"
    assert got["text"].startswith("hi [31mBob !o") and len(got["text"]) == MAX_CHAT_CHARS
    assert not any(ord(ch) < 32 or ch == "\u202e" for ch in got["text"])
    assert too_soon["code"] == "too_frequent" and empty["code"] == "malformed"
    assert [c["text"] for c in stored] == [got["text"]]


def test_when_the_turn_timer_runs_out_a_normal_bot_makes_that_move(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            _, table, (ann, bob) = await _table(server, turn_timer=10)
            timer = await ann.expect("timer")
            table.record.turn_timer = 0.3     # a short timer for the test
            server.advance(table)
            seat, version = table.game.current_seat, table.game.version
            waiting = ann if seat == 0 else bob
            expired = await waiting.expect("timer", timeout=10)
            while not expired.get("expired"):
                expired = await waiting.expect("timer", timeout=10)
            state = await waiting.expect("state", timeout=10)
            return timer, seat, version, state, table, expired

    timer, seat, version, state, table, expired = run(scenario(), 20)
    assert expired["expired"] and expired["seat"] == seat
    assert timer["deadline_seconds"] == 10 and timer["seat"] == seat
    assert state["version"] == version + 1, "the stand-in made one move"
    assert table.seats[seat]["bot_playing"] is False, "the seat is still the player's"


def test_a_saved_table_opens_as_a_local_game_and_loads_back_with_its_seats(tmp_path):
    from ttr_desktop.persistence.saves import dumps_game, read_save
    from ttr_desktop.rules import new_game

    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, (ann,) = await _table(server, seats=("remote", "bot:greedy"))
            state = ann.last_state
            for _ in range(4):   # she makes a few moves, then leaves
                while not state["legal"]:
                    state = await ann.expect("state")
                await ann.send({"type": "action", "action": state["legal"][0],
                                "version": state["version"]})
                state = await ann.expect("state")
            await ann.close()
            async with AsyncTableClient(server.url) as host:
                await host.send({"type": "host", "command": "save",
                                 "host_token": created["host_token"]})
                saved = await host.expect("saved")
                moves = len(table.game.log)
                await host.send({"type": "load", "protocol": PROTOCOL_VERSION,
                                 "file": saved["file"]})
                loaded = await host.expect("created")
                # A local game's save becomes a table too: its people get new seats.
                local_game = new_game("europe", ["Ann", "Bob", "Cy"], seed=5)
                for _ in range(5):
                    local_game.apply(local_game.legal_actions()[0])
                await host.send({"type": "load", "protocol": PROTOCOL_VERSION,
                                 "save": dumps_game(local_game, {"seats": [
                                     {"kind": "human"}, {"kind": "bot"}, {"kind": "human"}]})})
                from_local = await host.expect("created")
            back = await seated(server.url, loaded["table"], created["tokens"][0])
            state = await back.expect("state")
            await back.close()
            same = (server.store.actions(loaded["table"])[:moves]
                    == server.store.actions(table.id)[:moves])
            local_table = server.tables[from_local["table"]]
            from_local["names"] = local_table.names()
            from_local["moves"] = len(local_table.game.log)
            return saved, moves, loaded, back.welcome, state, same, from_local

    saved, moves, loaded, welcome, state, same, from_local = run(scenario(), 30)
    local = read_save(tmp_path / "saves" / saved["file"])   # on the server, never sent
    assert [s["kind"] for s in local.meta["seats"]] == ["human", "bot"]
    assert len(local.game.log) == moves >= 4
    assert set(saved) == {"type", "table", "file", "path"}, "the save (seed, hands) is not sent"
    assert saved["path"] == str((tmp_path / "saves" / saved["file"]).resolve())
    assert loaded["tokens"] == [None], "the seat keeps its token"
    assert welcome["table"] == loaded["table"] and welcome["seat"] == 0
    assert state["version"] >= moves and same, "the loaded table goes on from the save"
    assert from_local["names"] == ["Ann", "Bob", "Cy"] and from_local["moves"] >= 5
    assert [s["kind"] for s in from_local["seats"]] == ["remote", "bot", "remote"]
    assert len(from_local["tokens"]) == 2 and all(from_local["tokens"])


def test_hosting_one_table_gives_no_say_at_another(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as other_host:
                theirs = await other_host.create("usa", ["remote", "remote"], seed=1)
            mallory = AsyncTableClient(server.url)
            await mallory.open()
            await mallory.create("usa", ["remote", "bot:random"], seed=2)   # hers
            await mallory.hello(theirs["table"], theirs["tokens"][0])     # a seat there
            answer = await _error(mallory, {"type": "host", "command": "bot_for", "seat": 1})
            host_flag = mallory.welcome["host"]
            await mallory.close()
            return answer, host_flag, server.tables[theirs["table"]].seats[1]["bot_playing"]

    answer, host_flag, bot_playing = run(scenario(), 20)
    assert answer["code"] == "not_host" and host_flag is False and bot_playing is False
