"""Whole games through the wire: every registered family once, with two to five seats
across the set. People's seats are played by bots through the headless client (they see
only the view decoded from the wire); the other seats by the server's own bots. The final
scores are the engine's, and every message a seat received is exactly what that seat may
know."""

from __future__ import annotations

import asyncio

import pytest

from tests.net.netkit import (
    AsyncTableClient, check_seat_saw_only_its_own, play_seat, replay, run, running_server,
)
from ttr_desktop.rules.family import families


def _plan():
    """(family id, seats): seat counts cycling 2, 3, 4, 5 within what each family seats."""
    out = []
    wanted = [2, 3, 4, 5]
    for i, family in enumerate(families()):
        counts = family.player_counts
        n = min(max(wanted[i % 4], counts[0]), counts[-1])
        out.append((family.id, n))
    return out


@pytest.mark.parametrize("variant,players", _plan(), ids=[f"{v}-{n}p" for v, n in _plan()])
def test_a_whole_game_over_the_network_scores_as_the_engine_does(tmp_path, variant, players):
    seats = ["remote", "remote"] + ["bot:random" if i % 2 else "bot:greedy"
                                    for i in range(players - 2)]

    async def scenario():
        async with running_server(tmp_path) as server:
            async with AsyncTableClient(server.url) as host:
                created = await host.create(variant, seats, seed=8123456789012345 + players)
            table_id = created["table"]
            assert len(created["tokens"]) == 2 and all(len(t) >= 40 for t in created["tokens"])
            (over0, c0), (over1, c1) = await asyncio.gather(
                play_seat(server.url, table_id, created["tokens"][0], "greedy", seed=1),
                play_seat(server.url, table_id, created["tokens"][1], "random", seed=2))
            record = server.store.get(table_id)
            actions = server.store.actions(table_id)
            return record, actions, over0, over1, c0.received, c1.received, \
                server.tables[table_id].game

    record, actions, over0, over1, got0, got1, server_game = run(scenario(), 50)
    local, _ = replay(record, actions)
    assert local.is_over and server_game.is_over
    engine_scores = [b.total for b in local.scores()]
    assert over0["scores"] == over1["scores"] == engine_scores
    assert [b.total for b in server_game.scores()] == engine_scores
    assert record.status == "over"
    assert over0["winners"] == local.result().winners
    for seat, got in ((0, got0), (1, got1)):
        assert check_seat_saw_only_its_own(record, actions, seat, got) > 20
