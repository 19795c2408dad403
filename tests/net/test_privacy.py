"""Privacy over the wire: a player's game never receives a byte that names what only
another seat may know.

Every seat of a table is a recording client: it keeps every raw frame the server sent it
during a whole game, exactly as it arrived. Afterwards the table's game is replayed from
the server's own record (its seed and its actions, checked against the server's engine),
and each frame is searched, at the moment it describes, for

- another seat's hand (as a card-name table or as the engine's count list),
- a ticket the seat has never held (another seat's tickets, the tickets it is still
  choosing from, the tickets it sent back, the ticket decks),
- the deck order (a run of the next cards of the train deck, by name or by number),
- the order of Legacy's event deck (which events are in it is public, their order not),
- what another seat's events hide (a card drawn blind, tickets drawn: private parts and
  secret events),
- the seed.

The check itself is tested: a server made to leak (the full view of seat 1 sent to seat
0, the top of the deck, the seed, another seat's tickets) is caught every time.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.net.netkit import replay, run, running_server
from ttr_desktop.bots import make_bot
from ttr_desktop.net.client import AsyncTableClient
from ttr_desktop.net.codec import event_to_json, map_for, value_from_json, view_from_json, view_to_json
from ttr_desktop.rules import action_from_dict, new_game

#: A run of the deck this long (or the whole deck when shorter, from 6 cards) in a frame
#: is the deck order; shorter runs happen by chance (the discard pile is public).
DECK_RUN = 10


class _RecordingSocket:
    """The client's socket, keeping every frame received before anyone reads it."""

    def __init__(self, ws, frames: list[str]) -> None:
        self._ws, self._frames = ws, frames

    async def recv(self, *args, **kwargs):
        frame = await self._ws.recv(*args, **kwargs)
        self._frames.append(frame)
        return frame

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)


class RecordingClient(AsyncTableClient):
    """A headless client that keeps every raw frame it receives (``frames``)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.frames: list[str] = []

    async def open(self) -> None:
        await super().open()
        self.ws = _RecordingSocket(self.ws, self.frames)


# ---------------------------------------------------------------------------
# the check

def _walk(value: Any):
    """Every dict and list inside a parsed frame."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield v
            stack.extend(v.values())
        elif isinstance(v, list):
            yield v
            stack.extend(v)


def _contains_run(haystack: tuple, needle: tuple) -> bool:
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


class Secrets:
    """What ``seat`` may not know at each version of a table's game (its local replay)."""

    def __init__(self, record, actions: list[dict], seat: int) -> None:
        game = new_game(record.variant, [s["name"] for s in record.seats], seed=record.seed,
                        options=record.options)
        self.seat, self.seed = seat, record.seed
        self.names = game.board.card_names
        self.ticket_ids = list(game.board.ticket_ids)
        self.at: dict[int, dict] = {}
        seen: set[str] = set()
        self._take(game, seen, [])
        for data in actions:
            events = game.apply(action_from_dict(data))
            self._take(game, seen, events)
        self.final = game

    def _take(self, game, seen: set[str], events: list) -> None:
        st, seat, ids = game.state, self.seat, self.ticket_ids
        mine = {ids[t] for t in (*st.tickets[seat], *st.pending[seat])}
        seen |= mine
        others = {ids[t] for s in range(game.num_players) if s != seat
                  for t in (*st.tickets[s], *st.pending[s])}
        hands = []
        for s in range(game.num_players):
            if s == seat or sum(st.hands[s]) < 2:
                continue
            public = [st.hands[seat], *st.known]
            if st.hands[s] in public:
                continue     # the same as something this seat sees anyway
            hands.append((s, list(st.hands[s]),
                          {n: c for n, c in zip(self.names, st.hands[s]) if c}))
        deck = tuple(st.deck)
        legacy = st.ext.get("legacy")
        self.at[game.version] = {
            "over": game.is_over,
            "tickets": (set(ids) - seen | others) - mine,
            "hands": hands,
            "deck": deck,
            "deck_names": tuple(self.names[c] for c in deck),
            "events": tuple(legacy.deck) if legacy is not None else (),
            # what other seats' events of this move hide: (kind, seat) -> secret, keys
            "hidden": {(e.kind, e.seat): (e.secret, set(e.private)) for e in events
                       if e.seat != seat and (e.secret or e.private)},
        }


def find_leaks(secrets: Secrets, frames: list[str]) -> list[str]:
    """Every place where a frame names something ``secrets.seat`` may not know."""
    leaks: list[str] = []
    seed_text = str(secrets.seed)
    version = 0
    for i, frame in enumerate(frames):
        where = f"frame {i}"
        if seed_text in frame or hex(secrets.seed)[2:] in frame:
            leaks.append(f"{where} holds the seed")
        msg = json.loads(frame)
        version = msg.get("version", version) if msg.get("type") in ("state", "events") \
            else version
        now = secrets.at.get(version)
        if msg.get("type") == "over" or now is None or now["over"]:
            continue     # at the end everything is public
        for tid in now["tickets"]:
            if json.dumps(tid) in frame:
                leaks.append(f"{where} (version {version}) names ticket {tid!r}")
        if msg.get("type") == "events":
            for event in msg["events"]:
                secret, private = now["hidden"].get((event.get("kind"), event.get("seat")),
                                                    (False, set()))
                if secret:
                    leaks.append(f"{where} (version {version}) holds seat {event['seat']}'s "
                                 f"secret event {event['kind']!r}")
                shown = private & set(event.get("data", {}))
                if shown:
                    leaks.append(f"{where} (version {version}) holds seat {event['seat']}'s "
                                 f"private {sorted(shown)} of {event['kind']!r}")
        deck, deck_names = now["deck"], now["deck_names"]
        run_len = min(DECK_RUN, len(deck))
        events = now["events"]
        event_run = min(3, len(events))
        for node in _walk(msg):
            if isinstance(node, dict):
                counts = {k: v for k, v in node.items() if v}
                for s, _, hand in now["hands"]:
                    if counts == hand:
                        leaks.append(f"{where} (version {version}) holds seat {s}'s hand")
                continue
            if event_run >= 2 and len(node) >= event_run:
                seq = tuple(node)
                for run in (events[:event_run], events[-event_run:]):
                    if _contains_run(seq, run) or _contains_run(seq, run[::-1]):
                        leaks.append(f"{where} (version {version}) holds the order of "
                                     "Legacy's event deck")
            for s, listed, _ in now["hands"]:
                if node == listed:
                    leaks.append(f"{where} (version {version}) holds seat {s}'s hand counts")
            if run_len >= 6 and len(node) >= run_len:
                seq = tuple(node)
                for whole, what in ((deck_names, "names"), (deck, "numbers")):
                    for run in (whole[-run_len:], whole[:run_len]):
                        if _contains_run(seq, run) or _contains_run(seq, run[::-1]):
                            leaks.append(f"{where} (version {version}) holds the deck "
                                         f"order ({what})")
    return leaks


# ---------------------------------------------------------------------------
# whole games

async def _play_until(client: AsyncTableClient, bot, last: int) -> None:
    """Play the seat with ``bot`` until the table reaches version ``last`` (or its end)."""
    game_map = map_for(client.welcome["variant"], value_from_json(client.welcome["options"]))
    acted = -1
    while True:
        msg = await client.recv(30)
        if msg["type"] == "over" or msg.get("version", -1) >= last:
            return
        if msg["type"] == "state" and msg["legal"] and msg["version"] != acted:
            acted = msg["version"]
            view = view_from_json(msg["view"], game_map)
            await client.act(bot.choose(view, [action_from_dict(a) for a in msg["legal"]]))


async def _play_recorded(server, variant: str, players: int, level: str = "greedy",
                         options: dict | None = None, last: int | None = None):
    """A table of ``players`` remote seats, each played by a bot through a recording
    client to the end (or to version ``last``); (table, actions, clients)."""
    async with AsyncTableClient(server.url) as host:
        created = await host.create(variant, ["remote"] * players, options=options)
    clients = []
    for token in created["tokens"]:
        client = RecordingClient(server.url)
        await client.open()
        await client.hello(created["table"], token)
        clients.append(client)
    try:
        if last is None:
            await asyncio.gather(*(c.play(make_bot(level, seed=i), timeout=60)
                                   for i, c in enumerate(clients)))
        else:
            await asyncio.gather(*(_play_until(c, make_bot(level, seed=i), last)
                                   for i, c in enumerate(clients)))
    finally:
        for c in clients:
            await c.close()
    table = server.tables[created["table"]]
    return table, server.store.actions(table.id), clients


PLAN = [("nordic", 2), ("marklin", 3), ("legacy", 4), ("old-west", 5)]


@pytest.mark.parametrize("variant,players", PLAN, ids=[f"{v}-{n}p" for v, n in PLAN])
def test_no_frame_names_another_seats_cards_tickets_the_deck_or_the_seed(
        tmp_path, variant, players):
    async def scenario():
        async with running_server(tmp_path) as server:
            return await _play_recorded(server, variant, players)

    table, actions, clients = run(scenario(), 60)
    game = table.game
    assert game.is_over
    local, _ = replay(table.record, actions)
    assert local.state.to_dict() == game.state.to_dict(), "the replay is the server's game"
    for seat, client in enumerate(clients):
        secrets = Secrets(table.record, actions, seat)
        assert len(secrets.at) == len(actions) + 1
        # the check looked at real secrets: hands, unseen tickets and a deck at every move
        assert any(now["hands"] for now in secrets.at.values())
        assert all(now["tickets"] for now in secrets.at.values() if not now["over"])
        assert len(client.frames) > 50
        assert find_leaks(secrets, client.frames) == [], f"seat {seat} was told too much"


# ---------------------------------------------------------------------------
# the check catches a leaking server

def _leak_view_of_seat_1(server, table, seat, msg):
    if seat == 0:
        msg["view"] = view_to_json(table.game.view(1))


def _leak_deck_top(server, table, seat, msg):
    deck = table.game.state.deck
    msg["next_cards"] = [table.game.board.card_names[c] for c in deck[::-1][:12]]


def _leak_seed(server, table, seat, msg):
    msg["table_seed"] = table.record.seed


def _leak_pending_tickets(server, table, seat, msg):
    st, ids = table.game.state, table.game.board.ticket_ids
    msg["drawing"] = [[ids[t] for t in p] for p in st.pending]


def _leak_returned_ticket(server, table, seat, msg):
    decks = table.game.state.ticket_decks
    msg["bottom_ticket"] = [table.game.board.ticket_ids[d[0]] for d in decks.values() if d]


def _leak_hand_counts(server, table, seat, msg):
    msg["hands"] = [list(h) for h in table.game.state.hands]


def _leak_event_order(server, table, seat, msg):
    msg["coming_events"] = list(table.game.state.ext["legacy"].deck)


LEAKS = {"view of seat 1": (_leak_view_of_seat_1, "hand"),
         "unfiltered events": (None, "private"),
         "deck top": (_leak_deck_top, "deck order"),
         "seed": (_leak_seed, "seed"),
         "pending tickets": (_leak_pending_tickets, "ticket"),
         "ticket deck": (_leak_returned_ticket, "ticket"),
         "hand counts": (_leak_hand_counts, "hand counts"),
         "Legacy event order": (_leak_event_order, "event deck")}


@pytest.mark.parametrize("leak", list(LEAKS))
def test_the_check_catches_a_server_that_leaks(tmp_path, leak):
    add, said = LEAKS[leak]
    variant = "legacy" if "Legacy" in leak else "usa"

    async def scenario():
        async with running_server(tmp_path) as server:
            honest = server._send_state

            def leaky(table, seat):     # every state message also carries the leak
                conn = table.conns.get(seat)
                if conn is None or table.game is None:
                    return
                real = conn.send_text

                def send_text(text):
                    msg = json.loads(text)
                    if msg.get("type") == "state" and not table.game.is_over:
                        add(server, table, seat, msg)
                        text = json.dumps(msg)
                    real(text)
                conn.send_text = send_text
                try:
                    honest(table, seat)
                finally:
                    del conn.send_text
            if add is None:     # every seat is sent every event as it is
                def unfiltered(table, seat, events, version=None):
                    table.conns[seat].send({"type": "events", "version": table.game.version,
                                            "events": [event_to_json(e) for e in events]})
                server._send_events = unfiltered
            else:
                server._send_state = leaky
            return await _play_recorded(server, variant, 2, last=30)

    table, actions, clients = run(scenario(), 40)
    leaks = find_leaks(Secrets(table.record, actions, 0), clients[0].frames)
    assert leaks and any(said in line for line in leaks), leaks
