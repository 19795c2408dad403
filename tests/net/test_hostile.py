"""A hostile or broken client cannot change a table, take a seat that is not its own or
spoil the game for the others: every bad message is refused with an ``error`` naming the
problem (an illegal move with the engine's reason), nothing at the table changes (its
actions, its version, its state), the refused connection can still play properly, a
connection that keeps misbehaving is dropped, and afterwards the game goes on to the end
and scores as the engine does.

(tests/net/test_refusals.py covers the first refusal of each kind; these go further:
wrong field types, forged tokens, other seats' tokens, replays, oversize frames,
flooding by a seated player.)"""

from __future__ import annotations

import asyncio
import json

from tests.net.netkit import AsyncTableClient, make_bot, replay, run, running_server, seated
from ttr_desktop.net.protocol import MAX_LOAD_BYTES, MAX_MESSAGE_BYTES, PROTOCOL_VERSION
from ttr_desktop.net.storage import key_hash

SEED = 5550123


async def _table(server, seats=("remote", "remote")):
    async with AsyncTableClient(server.url) as host:
        created = await host.create("usa", list(seats), seed=SEED)
    table = server.tables[created["table"]]
    clients = [await seated(server.url, created["table"], t) for t in created["tokens"]]
    for c in clients:
        if c.last_state is None:
            await c.expect("state")
    return created, table, clients


def _snapshot(table):
    game = table.game
    return len(game.log), game.version, json.dumps(game.state.to_dict(), sort_keys=True), \
        len(table.history)


async def _answer(client, raw) -> dict:
    """Send ``raw`` (text as it is, anything else as JSON); the refusal it earns."""
    await client.ws.send(raw if isinstance(raw, (str, bytes)) else json.dumps(raw))
    return await client.expect("error", "illegal", timeout=10)


async def _still_served(client) -> None:
    await client.send({"type": "ping"})
    await client.expect("pong", timeout=10)


async def _play_out(server, created, table, clients) -> dict:
    """Both seats played to the end by bots through the wire (fresh connections)."""
    for c in clients:     # hang up at once (unread messages would hold up a close)
        c.ws.transport.abort()
    players = [await seated(server.url, created["table"], t) for t in created["tokens"]]
    overs = await asyncio.gather(*(p.play(make_bot("greedy", seed=i), timeout=40)
                                   for i, p in enumerate(players)))
    for p in players:
        await p.close()
    overs[0]["actions"] = server.store.actions(table.id)
    return overs[0]


def _scores_as_engine(server, table, over) -> None:
    local, _ = replay(table.record, over["actions"])
    assert local.is_over and over["scores"] == [b.total for b in local.scores()]


def _mover(table, clients):
    seat = table.game.current_seat
    return clients[seat], clients[1 - seat]


#: Messages of the right type with a field of the wrong kind, and things that are not
#: messages at all: (what it is, the raw message, the error code it earns).
def _bad_messages(legal: dict, version: int) -> list[tuple[str, object, str]]:
    act = {"type": "action", "action": legal, "version": version}
    return [
        ("version as text", {**act, "version": str(version)}, "malformed"),
        ("version as a fraction", {**act, "version": version + 0.5}, "malformed"),
        ("version true", {**act, "version": True}, "malformed"),
        ("negative version", {**act, "version": -3}, "malformed"),
        ("huge version", {**act, "version": 10 ** 40}, "malformed"),
        ("version NaN", json.dumps(act).replace(f'"version": {version}', '"version": NaN'),
         "malformed"),
        ("5000-digit number", json.dumps(act).replace(f'"version": {version}',
                                                      '"version": ' + "9" * 5000),
         "malformed"),
        ("action as text", {**act, "action": "draw_blind"}, "malformed"),
        ("action as a list", {**act, "action": [legal]}, "malformed"),
        ("action kind a number", {**act, "action": {**legal, "kind": 5}}, "malformed"),
        ("unknown action kind", {**act, "action": {"kind": "take_all_cards"}}, "malformed"),
        ("claim with a route number", {**act, "action": {"kind": "claim_route", "route_id": 7,
                                                         "cards": [["red", 1]]}}, "malformed"),
        ("negative cards", {**act, "action": {"kind": "claim_route",
                                              "route_id": "chicago-toronto",
                                              "cards": [["red", -4]]}}, "malformed"),
        ("cards as an object", {**act, "action": {"kind": "claim_route",
                                                  "route_id": "chicago-toronto",
                                                  "cards": {"red": 4}}}, "malformed"),
        ("seat as text", {**act, "seat": "0"}, "malformed"),
        ("chat text a number", {"type": "chat", "text": 42}, "malformed"),
        ("chat text a list", {"type": "chat", "text": ["hi"]}, "malformed"),
        ("type a number", {"type": 7}, "malformed"),
        ("no type", {"action": legal}, "malformed"),
        ("JSON null", "null", "malformed"),
        ("JSON number", "3", "malformed"),
        ("JSON text", '"action"', "malformed"),
        ("deeply nested", "[" * 50000 + "]" * 50000, "malformed"),
        ("deeply nested action", json.dumps({**act, "action": {"kind": "claim_route"}})
         .replace('"claim_route"', '"claim_route", "x": ' + "[" * 3000 + "]" * 3000),
         "malformed"),
        ("binary frame", b'{"type": "ping"}', "malformed"),
        ("hello protocol as text", {"type": "hello", "protocol": "1", "table": "x",
                                    "token": "y"}, "version"),
        ("hello token a number", {"type": "hello", "protocol": PROTOCOL_VERSION,
                                  "token": 12345}, "malformed"),
        ("join invite a list", {"type": "join", "protocol": PROTOCOL_VERSION,
                                "invite": ["ABCDE-FGHJK"]}, "malformed"),
        ("create seats as text", {"type": "create", "protocol": PROTOCOL_VERSION,
                                  "variant": "usa", "seats": "remote,remote"}, "malformed"),
        ("create with seven seats", {"type": "create", "protocol": PROTOCOL_VERSION,
                                     "variant": "usa", "seats": ["remote"] * 7}, "malformed"),
        ("create of no such family", {"type": "create", "protocol": PROTOCOL_VERSION,
                                      "variant": "atlantis", "seats": ["remote"]},
         "bad_request"),
        ("host seat as text", {"type": "host", "command": "bot_for", "seat": "1"},
         "malformed"),
        ("host command unknown", {"type": "host", "command": "end_game"}, "malformed"),
        ("action padded past the limit", {**act, "pad": "x" * MAX_MESSAGE_BYTES},
         "too_large"),
        ("a load that is no save", {"type": "load", "protocol": PROTOCOL_VERSION,
                                    "save": "seed = 1\n" + "#" * (MAX_MESSAGE_BYTES * 2)},
         "bad_request"),
    ]


def test_wrong_field_types_and_non_messages_are_refused_and_change_nothing(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, clients = await _table(server)
            mover, _ = _mover(table, clients)
            seat = table.game.current_seat
            legal = mover.last_state["legal"][0]
            before = _snapshot(table)
            answers = {}
            cases = _bad_messages(legal, table.game.version)
            for i in range(0, len(cases), 6):   # a fresh connection before it is dropped
                for what, raw, _code in cases[i:i + 6]:
                    answers[what] = await _answer(mover, raw)
                await _still_served(mover)
                mover.ws.transport.abort()
                mover = await seated(server.url, table.id, created["tokens"][seat])
            after = _snapshot(table)
            # The same seat then makes its move properly: it is accepted.
            await mover.send({"type": "action", "action": legal,
                              "version": table.game.version})
            moved = await mover.expect("state")
            while moved["version"] <= before[1]:
                moved = await mover.expect("state")
            clients[seat] = mover
            over = await _play_out(server, created, table, clients)
            return cases, answers, before, after, moved, over, table, server

    cases, answers, before, after, moved, over, table, server = run(scenario(), 60)
    for what, _raw, code in cases:
        assert answers[what]["type"] == "error", what
        assert answers[what]["code"] == code, (what, answers[what])
        assert answers[what]["message"] and len(answers[what]["message"]) < 300, what
    assert before == after, "no refused message changed the table"
    assert moved["version"] == before[1] + 1
    _scores_as_engine(server, table, over)


def test_forged_and_borrowed_tokens_take_no_seat_and_act_for_no_one(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, clients = await _table(server)
            _, other_table, others = await _table(server)
            mover, waiting = _mover(table, clients)
            seat = table.game.current_seat
            token, other_token = created["tokens"][seat], created["tokens"][1 - seat]
            code = created["invites"][seat].rsplit("/join/", 1)[1]
            before, other_before = _snapshot(table), _snapshot(other_table)
            legal = mover.last_state["legal"][0]
            stranger, prowler = AsyncTableClient(server.url), AsyncTableClient(server.url)
            await stranger.open()
            await prowler.open()

            def hello(tok, **extra):
                return {"type": "hello", "protocol": PROTOCOL_VERSION, "table": table.id,
                        "token": tok, **extra}
            answers = {
                "the stored hash of a token": await _answer(stranger, hello(key_hash(token))),
                "a token with one letter changed": await _answer(
                    stranger, hello(token[:-1] + ("A" if token[-1] != "A" else "B"))),
                "the invite code as a token": await _answer(stranger, hello(code)),
                "the host token as a seat token": await _answer(
                    stranger, hello(created["host_token"])),
                "an empty token": await _answer(stranger, hello("")),
                "a token too long": await _answer(stranger, hello("A" * 200)),
            }
            # A stranger carrying a seat's token inside an action is still nobody.
            answers["an action with a seat's token"] = await _answer(stranger, {
                "type": "action", "token": token, "seat": seat, "action": legal})
            # A seat token or another table's host token is not this table's host.
            answers["a seat token as the host token"] = await _answer(prowler, {
                "type": "host", "command": "bot_for", "seat": seat, "host_token": token})
            answers["the hash of the host token"] = await _answer(prowler, {
                "type": "host", "command": "save",
                "host_token": key_hash(created["host_token"])})
            # The player who waits sends the mover's move, naming the mover's seat and
            # carrying the mover's token: refused; so is acting out of turn as herself.
            answers["another seat's token and seat"] = await _answer(waiting, {
                "type": "action", "seat": seat, "token": token, "action": legal,
                "version": table.game.version})
            answers["another seat's token, out of turn"] = await _answer(waiting, {
                "type": "action", "token": token, "action": legal,
                "version": table.game.version})
            answers["a seated player's forged hello"] = await _answer(waiting, {
                "type": "hello", "protocol": PROTOCOL_VERSION, "table": table.id,
                "token": other_token + "x"})
            after = _snapshot(table)
            still = (table.conns.get(seat) is not None and table.conns[seat].ws is not None
                     and table.conns.get(1 - seat) is not None)
            other_after = _snapshot(other_table)
            await stranger.close()
            await prowler.close()
            for c in others:
                await c.close()
            over = await _play_out(server, created, table, clients)
            return answers, before, after, still, other_before, other_after, over, table, \
                server

    answers, before, after, still, other_before, other_after, over, table, server = \
        run(scenario(), 60)
    codes = {k: v["code"] for k, v in answers.items()}
    assert codes == {
        "the stored hash of a token": "bad_token",
        "a token with one letter changed": "bad_token",
        "the invite code as a token": "bad_token",
        "the host token as a seat token": "bad_token",
        "an empty token": "bad_token",
        "a token too long": "malformed",
        "an action with a seat's token": "not_seated",
        "a seat token as the host token": "not_host",
        "the hash of the host token": "not_host",
        "another seat's token and seat": "not_your_seat",
        "another seat's token, out of turn": "not_your_turn",
        "a seated player's forged hello": "bad_token",
    }
    assert before == after and other_before == other_after
    assert still, "both players keep their seats"
    _scores_as_engine(server, table, over)


def test_replayed_stale_and_illegal_moves_change_nothing(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, clients = await _table(server)
            mover, waiting = _mover(table, clients)
            game = table.game
            state = mover.last_state
            first = state["legal"][0]
            await mover.send({"type": "action", "action": first, "version": state["version"]})
            await mover.expect("state")
            before = _snapshot(table)
            answers = {}
            # The same message again (a double click, or a replay by someone who saw it).
            answers["the same move again"] = await _answer(
                mover, {"type": "action", "action": first, "version": state["version"]})
            answers["an older version"] = await _answer(
                clients[game.current_seat],
                {"type": "action", "action": first, "version": game.version - 1})
            who = clients[game.current_seat]
            # Legal in form, not in the rules: the engine's reason, in the player's words.
            bogus = {"kind": "claim_route", "route_id": "chicago-toronto",
                     "cards": [["locomotive", 4]]}
            answers["a claim without the cards"] = await _answer(
                who, {"type": "action", "action": bogus, "version": game.version})
            answers["a route of another map"] = await _answer(
                who, {"type": "action", "action": {**bogus, "route_id": "paris-london"},
                      "version": game.version})
            after = _snapshot(table)
            over = await _play_out(server, created, table, clients)
            return answers, before, after, over, table, server

    answers, before, after, over, table, server = run(scenario(), 60)
    assert answers["the same move again"]["code"] in ("stale", "not_your_turn")
    assert answers["an older version"]["code"] == "stale"
    for what in ("a claim without the cards", "a route of another map"):
        assert answers[what]["type"] == "illegal", answers[what]
        assert answers[what]["reason"] and "Traceback" not in answers[what]["reason"]
    assert before == after
    _scores_as_engine(server, table, over)


def test_a_flooding_player_is_dropped_and_the_table_plays_on(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, (ann, mal) = await _table(server)
            ann.ws.transport.abort()     # Ann plays on a fresh connection, from its state
            ann = await seated(server.url, table.id, created["tokens"][0])
            ann_plays = asyncio.create_task(ann.play(make_bot("greedy", seed=1), timeout=40))
            before_flood = table.game.version
            # Mallory sends pings as fast as the socket takes them.
            sent = 0
            try:
                for _ in range(400):
                    await mal.ws.send('{"type": "ping"}')
                    sent += 1
            except Exception:
                pass
            codes, loop = [], asyncio.get_running_loop()
            try:
                while True:
                    msg = await mal.recv(10)
                    if msg["type"] == "error":
                        codes.append(msg["code"])
                        if msg["code"] == "dropped":
                            dropped_at = loop.time()
            except Exception:
                hung_up = loop.time() - dropped_at
            for _ in range(500):
                if table.conns.get(1) is not mal:
                    break
                await asyncio.sleep(0.02)
            dropped = table.conns.get(1) is not mal
            # Ann's game meanwhile: she is still seated and served.
            ann_served = 0 in table.conns
            # The host lets a bot play Mallory's seat; the game reaches its end.
            async with AsyncTableClient(server.url) as host:
                await host.send({"type": "host", "command": "bot_for", "seat": 1,
                                 "host_token": created["host_token"]})
                over = await ann_plays
                over["actions"] = server.store.actions(table.id)
            return sent, codes, hung_up, dropped, ann_served, before_flood, over, table, server

    sent, codes, hung_up, dropped, ann_served, before_flood, over, table, server = \
        run(scenario(), 60)
    assert "too_frequent" in codes and codes[-1] == "dropped", codes
    assert hung_up < 3, "the server hangs up at once, even with the flood still unread"
    assert dropped and ann_served
    assert len(table.game.log) > before_flood
    _scores_as_engine(server, table, over)


def test_a_frame_larger_than_any_message_closes_only_that_connection(tmp_path):
    async def scenario():
        async with running_server(tmp_path) as server:
            created, table, (ann, bob) = await _table(server)
            stranger = AsyncTableClient(server.url)
            await stranger.open()
            closed = None
            try:
                await stranger.ws.send("{" + " " * (MAX_LOAD_BYTES + 4096) + "}")
                await asyncio.wait_for(stranger.ws.wait_closed(), 10)
                closed = stranger.ws.close_code
            finally:
                await stranger.close()
            before = _snapshot(table)
            await _still_served(ann)
            await _still_served(bob)
            over = await _play_out(server, created, table, [ann, bob])
            return closed, before, over, table, server

    closed, before, over, table, server = run(scenario(), 60)
    assert closed == 1009, "the server says the message was too big, and hangs up"
    assert before[0] == 0
    _scores_as_engine(server, table, over)
