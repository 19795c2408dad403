"""A player whose connection dies mid-game gets her seat back with everything as it was:
the others are told she is away, the host may let a Normal bot play her seat meanwhile,
and the game ends exactly as a local game with the same seed and actions would."""

from __future__ import annotations

import asyncio

from tests.net.netkit import (
    AsyncTableClient, check_seat_saw_only_its_own, make_bot, play_seat, replay, run,
    running_server, seated,
)


async def _until(predicate, timeout: float = 20.0) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < end, "timed out waiting"
        await asyncio.sleep(0.02)


def test_ann_drops_out_a_bot_stands_in_and_she_gets_her_seat_back(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                created = await host.create("usa", ["remote", "remote", "bot:greedy"],
                                            seed=424242424242)
            table_id, (ann_token, bob_token) = created["table"], created["tokens"]
            table = server.tables[table_id]
            ann = await seated(server.url, table_id, ann_token)
            ann_task = asyncio.create_task(ann.play(make_bot("greedy", seed=1)))
            bob_task = asyncio.create_task(
                play_seat(server.url, table_id, bob_token, "random", seed=2))
            await _until(lambda: table.game is not None and table.game.version >= 30)
            ann.ws.transport.abort()          # her connection dies
            ann_task.cancel()
            await asyncio.gather(ann_task, return_exceptions=True)
            await _until(lambda: 0 not in table.conns)
            left_at = ann.version             # the last state she saw
            first_life = list(ann.received)

            # The host lets a Normal bot play her seat until she returns.
            async with AsyncTableClient(server.url) as host:
                await host.send({"type": "host", "command": "bot_for", "seat": 0,
                                 "host_token": created["host_token"]})
                await _until(lambda: table.seats[0]["bot_playing"])
            stand_in_moves = len(table.game.log)
            await _until(lambda: table.game.is_over or (
                table.game.current_seat == 1 and len(table.game.log) > stand_in_moves + 6))
            assert not table.game.is_over

            # She comes back with the same token: her seat, her hand, what she missed.
            ann2 = await seated(server.url, table_id, ann_token, since=ann.version)
            assert ann2.welcome["seat"] == 0
            assert not table.seats[0]["bot_playing"]
            over_ann = await ann2.play(make_bot("greedy", seed=1))
            over_bob, bob = await bob_task
            await ann2.close()
            return (server.store.get(table_id), server.store.actions(table_id), table.game,
                    over_ann, over_bob, first_life, ann2.received, bob.received, left_at)

    (record, actions, server_game, over_ann, over_bob, first_life, second_life, bob_got,
     left_at) = run(scenario(), 50)
    local, _ = replay(record, actions)
    assert local.is_over
    assert local.state.to_dict() == server_game.state.to_dict()
    assert over_ann["scores"] == over_bob["scores"] == [b.total for b in local.scores()]
    # Bob was told she was away, and when she came back.
    away = [m for m in bob_got if m["type"] == "presence" and m["seat"] == 0]
    assert any(not m["connected"] for m in away) and any(m["bot_playing"] for m in away)
    assert away[-1]["connected"]
    # What she got after returning: the events she missed, version by version, then her
    # own state; in both lives nothing that was not hers.
    states = [m["version"] for m in second_life if m["type"] == "state"]
    missed = [m["version"] for m in second_life
              if m["type"] == "events" and m["version"] <= states[0]]
    assert len(missed) >= 6 and missed[0] > left_at, "the moves made while she was away"
    assert missed == sorted(missed)
    check_seat_saw_only_its_own(record, actions, 0, first_life)
    check_seat_saw_only_its_own(record, actions, 0, second_life)


def test_a_table_can_let_a_bot_take_an_absent_seat_after_a_while(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                created = await host.create("usa", ["remote", "remote"], seed=99,
                                            away_bot_after=1)
            table = server.tables[created["table"]]
            ann = await seated(server.url, table.id, created["tokens"][0])
            bob = await seated(server.url, table.id, created["tokens"][1])
            await ann.close()                  # Ann leaves and does not come back
            async def presence(want):
                while True:
                    msg = await bob.expect("presence", timeout=10)
                    if msg["seat"] == 0 and want(msg):
                        return msg
            waiting = await presence(lambda m: not m["connected"])
            start = table.game.version
            taken = await presence(lambda m: m["bot_playing"])
            # Her seat is played for her: with Bob playing, the game goes through her turns.
            bob_plays = asyncio.create_task(bob.play(make_bot("random", seed=4)))
            await _until(lambda: table.game.version > start + 12, timeout=15)
            bob_plays.cancel()
            await asyncio.gather(bob_plays, return_exceptions=True)
            # The host says: keep waiting instead.
            async with AsyncTableClient(server.url) as host:
                await host.send({"type": "host", "command": "wait", "seat": 0,
                                 "host_token": created["host_token"]})
                await _until(lambda: not table.seats[0]["bot_playing"])
            await bob.close()
            return waiting, taken

    waiting, taken = run(scenario(), 30)
    assert waiting["seat"] == 0 and not waiting["connected"] and not waiting["bot_playing"]
    assert taken["seat"] == 0 and taken["bot_playing"] and taken["away_seconds"] >= 1
