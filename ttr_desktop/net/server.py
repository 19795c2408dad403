"""The table server: many tables, one engine each, over WebSocket (docs/protocol.md).

The server's engine is the only engine. A connection takes a seat with its token
(``hello``) or an invite (``join``); from then on it receives that seat's view and the
events that seat may see, and sends actions, which the engine checks: an illegal one is
answered with ``illegal`` and the engine's explanation; anything malformed, too large,
too frequent, for another seat or out of turn with ``error`` — nothing changes, and a
connection that keeps doing it is dropped. Bots (and the stand-in that plays an absent
player's seat or a turn whose timer ran out) run on the server, in worker threads, so
the event loop never waits for a bot to think.

Every table lives in a ``TableStore`` (SQLite in the data folder by default) as its
set-up plus its actions: ``TableServer.resume`` replays every unfinished table after a
restart.

Internals for tests and tools: ``TableServer.tables`` (id -> ``Table``), ``Table.game``
(the engine, never sent), ``Table.conns`` (seat -> ``Conn``), ``TableServer.store``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ttr_desktop.bots import make_bot
from ttr_desktop.net.codec import (
    action_to_json, actions_json_text, event_to_json, value_to_json, view_to_json,
)
from ttr_desktop.net.protocol import (
    MAX_LOAD_BYTES, PROTOCOL_VERSION, ProtocolError, RateLimit, Strikes, CHAT_GAP,
    SEAT_COLORS, check_client_message, clean_name, dumps, fill_colors,
)
from ttr_desktop.net.storage import SqliteStore, TableRecord, TableStore, key_hash
from ttr_desktop.rules import Action, Game, IllegalAction, action_from_dict, new_game

log = logging.getLogger("ttr_desktop.net")

#: Seconds between the reminders that a seat is still away (``presence``).
PRESENCE_EVERY = 15.0
#: Messages waiting for one slow connection before it is dropped.
MAX_OUTBOX = 2000
#: Tables one connection may create, and tables one server holds in play.
MAX_CREATES_PER_CONNECTION = 50
MAX_ACTIVE_TABLES = 5000
#: Seconds a finished table stays in memory once nobody is connected to it.
FORGET_AFTER = 600.0
#: The level of the stand-in bot (a "Normal" bot).
STAND_IN = "greedy"
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_invite() -> str:
    """A short invite code a person can read out: 'K7QX2-M4P9R' (50 random bits)."""
    chars = [secrets.choice(INVITE_ALPHABET) for _ in range(10)]
    return "".join(chars[:5]) + "-" + "".join(chars[5:])


def invite_code(invite: str) -> str:
    """The code inside an invite ('ws://host:port/join/CODE', or the code itself)."""
    code = invite.strip().rsplit("/join/", 1)[-1].rsplit("#", 1)[-1]
    return code.strip().upper()


class Conn:
    """One client connection: its seat once seated, its limits and its outbox."""

    def __init__(self, ws: ServerConnection | None) -> None:
        self.ws = ws
        self.table: Table | None = None
        self.seat: int | None = None
        #: Ids of the tables this connection is the host of (created, loaded, or said
        #: the host token for).
        self.host_of: set[str] = set()
        self.rate = RateLimit()
        self.strikes = Strikes()
        self.last_chat = 0.0
        self.creates = 0
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.dropped = False
        self.sent: list[dict] | None = None   # tests may record what a seat was sent

    def send(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` (never waits: a slow client cannot hold up a table)."""
        if not self.closed:
            self.send_text(dumps(msg))

    def send_text(self, text: str) -> None:
        """Queue a message already made into its JSON text."""
        if self.closed:
            return
        if self.outbox.qsize() > MAX_OUTBOX:
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        """Close after what is queued is sent."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    async def writer(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None or self.ws is None:
                break
            try:
                await self.ws.send(text)
            except ConnectionClosed:
                break
        if self.ws is not None:
            await self.ws.close(1008 if self.dropped else 1000)


class Table:
    """One table in memory: its record, its engine once started, who is connected."""

    def __init__(self, record: TableRecord) -> None:
        self.record = record
        fill_colors(record.seats)   # tables stored before seats had colours get the usual ones
        self.game: Game | None = None
        self.conns: dict[int, Conn] = {}
        #: (version after the action, its events) since the start, for seats that missed some.
        self.history: list[tuple[int, list]] = []
        self.away_since: dict[int, float] = {}
        self.bots: dict[int, Any] = {}
        self.stand_in = make_bot(STAND_IN, seed=record.seed ^ 0x5EED)
        self.task: asyncio.Task | None = None
        self.deadline: float | None = None
        self.reminded: dict[int, float] = {}
        self.finished = 0.0

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.record.seats

    def bot_for(self, seat: int):
        """The bot that plays ``seat`` now, or None when a person does."""
        info = self.seats[seat]
        if info["kind"] == "bot":
            bot = self.bots.get(seat)
            if bot is None:
                bot = self.bots[seat] = make_bot(info.get("level", "greedy"),
                                                 seed=self.record.seed ^ (seat + 1) * 7919)
            return bot
        if info.get("bot_playing"):
            return self.stand_in
        return None

    def names(self) -> list[str]:
        return [s["name"] for s in self.seats]


class TableServer:
    """The server: tables by id, their store, the bots' worker threads."""

    def __init__(self, data_dir: str | Path, store: TableStore | None = None,
                 bot_workers: int = 2, bot_delay: float = 0.0) -> None:
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = store or SqliteStore(self.data_dir / "tables.sqlite3")
        self.tables: dict[str, Table] = {}
        self.pool = concurrent.futures.ThreadPoolExecutor(bot_workers,
                                                          thread_name_prefix="ttr-bot")
        self.bot_delay = bot_delay
        self.url = ""
        self._ticker: asyncio.Task | None = None

    # ------------------------------------------------------------------ life
    def resume(self) -> None:
        """Bring back every unfinished table from the store (after a restart)."""
        now = time.time()
        for record in self.store.active():
            table = Table(record)
            if record.status == "playing":
                try:
                    table.game = self._new_game(record)
                    for data in self.store.actions(record.id):
                        events = table.game.apply(action_from_dict(data))
                        table.history.append((table.game.version, events))
                except (ValueError, IllegalAction) as exc:
                    log.error("table %s cannot be resumed: %s", record.id, exc)
                    continue
            for seat, info in enumerate(record.seats):
                if info["kind"] == "remote":
                    table.away_since[seat] = now
            self.tables[record.id] = table
            if table.game is not None:
                if table.game.is_over:
                    self._finish(table)
                else:
                    self.advance(table)

    async def start(self, host: str = "127.0.0.1", port: int = 0):
        """Listen; returns the websockets server. ``self.url`` is 'ws://host:port'."""
        self.resume()
        server = await serve(self.handler, host, port, max_size=MAX_LOAD_BYTES + 1024,
                             ping_interval=20, ping_timeout=20)
        sock = next(iter(server.sockets))
        bound = sock.getsockname()
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        self.url = f"ws://{shown}:{bound[1]}"
        self._ticker = asyncio.create_task(self._tick())
        return server

    def close(self) -> None:
        if self._ticker:
            self._ticker.cancel()
        for table in self.tables.values():
            if table.task:
                table.task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    async def _tick(self) -> None:
        """Once a second: remind everyone of seats still away, and let the stand-in take
        a seat whose table asked for it after ``away_bot_after`` seconds."""
        while True:
            await asyncio.sleep(1.0)
            try:
                self._tick_once(time.time())
            except Exception:   # one table's trouble must not stop the reminders
                log.exception("the server's once-a-second round failed")

    def _tick_once(self, now: float) -> None:
        """Remind of seats away; stand-ins after ``away_bot_after``; forget old tables."""
        for table in list(self.tables.values()):
            if table.record.status == "over" and not table.conns and \
                    now - table.finished > FORGET_AFTER:
                del self.tables[table.id]   # stays in the store; no longer in memory
            if table.record.status != "playing":
                continue
            for seat, since in list(table.away_since.items()):
                after = table.record.settings.get("away_bot_after")
                info = table.seats[seat]
                if after and now - since >= after and not info.get("bot_playing"):
                    self._set_bot_playing(table, seat, True)
                elif now - table.reminded.get(seat, since) >= PRESENCE_EVERY:
                    table.reminded[seat] = now
                    self._presence(table, seat)

    # ------------------------------------------------------------------ connections
    async def handler(self, ws: ServerConnection) -> None:
        conn = Conn(ws)
        writer = asyncio.create_task(conn.writer())
        try:
            async for raw in ws:
                if conn.closed:
                    # Dropped or replaced: read on (and ignore) until the close handshake
                    # ends; a flood left unread would hold the close up for seconds.
                    continue
                if not conn.rate.allow():
                    self._refuse(conn, ProtocolError("too_frequent"))
                    continue
                try:
                    msg = check_client_message(raw)
                    self.dispatch(conn, msg, ws)
                except ProtocolError as exc:
                    self._refuse(conn, exc)
                except Exception:   # a bug must not take the server down
                    log.exception("message refused after an internal error")
                    conn.send({"type": "error", "code": "bad_request",
                               "message": "The server could not do that (an internal "
                                          "error); nothing was changed."})
        except ConnectionClosed:
            pass
        finally:
            self._left(conn)
            conn.close()
            try:
                await asyncio.wait_for(writer, 5)
            except (asyncio.TimeoutError, ConnectionClosed):
                writer.cancel()

    def _refuse(self, conn: Conn, exc: ProtocolError) -> None:
        conn.send(exc.to_message())
        if conn.strikes.add():
            conn.send({"type": "error", "code": "dropped",
                       "message": "Too many refused messages: the connection is closed."})
            conn.dropped = True
            conn.close()

    def _left(self, conn: Conn) -> None:
        table, seat = conn.table, conn.seat
        if table is None or seat is None or table.conns.get(seat) is not conn:
            return
        del table.conns[seat]
        table.away_since[seat] = time.time()
        table.reminded.pop(seat, None)
        self._presence(table, seat)
        self._lobby(table)

    def dispatch(self, conn: Conn, msg: dict[str, Any], ws: Any = None) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send({"type": "pong"})
        elif kind == "create":
            self._create(conn, msg, ws)
        elif kind == "load":
            self._load(conn, msg, ws)
        elif kind == "hello":
            self._hello(conn, msg)
        elif kind == "join":
            self._join(conn, msg, ws)
        elif kind == "start":
            table = self._host_table(conn, msg)
            if table.record.status != "lobby":
                raise ProtocolError("bad_request", "The game has already started.")
            self._start(table)
        elif kind == "host":
            self._host_command(conn, msg)
        else:
            if conn.table is None or conn.seat is None:
                raise ProtocolError("not_seated")
            if kind == "chat":
                self._chat(conn, msg["text"])
            elif kind == "action":
                self._action(conn, msg)

    # ------------------------------------------------------------------ tables
    def _new_game(self, record: TableRecord) -> Game:
        return new_game(record.variant, [s["name"] for s in record.seats], seed=record.seed,
                        options=record.options)

    def _base_url(self, ws: Any) -> str:
        host = None
        try:
            host = ws.request.headers.get("Host")
        except AttributeError:
            pass
        return f"ws://{host}" if host else self.url

    def _make_table(self, conn: Conn, variant: str, seed: int, options: dict, seats: list,
                    status: str, timer: int | None, settings: dict, ws: Any,
                    keep: list[tuple[str | None, str | None]] | None = None):
        """A new table: its record, its keys, stored; the ``created`` answer."""
        if conn.creates >= MAX_CREATES_PER_CONNECTION:
            raise ProtocolError("too_frequent", "This connection has created enough tables.")
        if sum(t.record.status != "over" for t in self.tables.values()) >= MAX_ACTIVE_TABLES:
            raise ProtocolError("bad_request", "This server is full; try again later.")
        table_id = secrets.token_hex(5)
        while table_id in self.tables or self.store.get(table_id):
            table_id = secrets.token_hex(5)
        host_token = secrets.token_urlsafe(32)
        keys: list[tuple[str, int, str]] = [(key_hash(host_token), -1, "host")]
        invites, tokens = [], []
        base = self._base_url(ws)
        for seat, info in enumerate(seats):
            info.setdefault("bot_playing", False)
            info.setdefault("claimed", False)
            if info["kind"] != "remote":
                continue
            kept_token, kept_invite = (keep[seat] if keep else (None, None))
            code = new_invite()
            invites.append(f"{base}/join/{code}")
            info["invite_hash"] = key_hash(code)
            keys.append((info["invite_hash"], seat, "invite"))
            if kept_invite:
                keys.append((kept_invite, seat, "invite"))
            if kept_token:
                info["token_hash"] = kept_token
                tokens.append(None)
            else:
                token = secrets.token_urlsafe(32)
                info["token_hash"] = key_hash(token)
                tokens.append(token)
            keys.append((info["token_hash"], seat, "token"))
        record = TableRecord(table_id, variant, seed, options, seats, key_hash(host_token),
                             status=status, turn_timer=timer, settings=settings)
        self.store.create(record, keys)
        table = Table(record)
        self.tables[table_id] = table
        conn.creates += 1
        conn.send({"type": "created", "table": table_id, "invites": invites, "tokens": tokens,
                   "host_token": host_token,
                   "seats": [{"name": s["name"], "kind": s["kind"], "color": s["color"]}
                             for s in seats]})
        return table

    def _create(self, conn: Conn, msg: dict, ws: Any) -> None:
        seats = msg["seats"]
        seed = msg["seed"] if msg["seed"] is not None else secrets.randbits(63)
        options = dict(msg["options"])
        try:   # the engine says whether this table can be played at all
            new_game(msg["variant"], [s["name"] for s in seats], seed=seed, options=options)
        except (ValueError, TypeError) as exc:
            raise ProtocolError("bad_request", f"This table cannot be set up: {exc}") from None
        settings = {"autostart": msg["autostart"], "away_bot_after": msg["away_bot_after"]}
        table = self._make_table(conn, msg["variant"], seed, options, seats, "lobby",
                                 msg["turn_timer"], settings, ws)
        conn.host_of.add(table.id)
        if settings["autostart"] and not any(s["kind"] == "remote" for s in seats):
            self._start(table)

    def _load(self, conn: Conn, msg: dict, ws: Any) -> None:
        """A saved game (the TOML save format) as a new table, where it was saved."""
        from ttr_desktop.persistence.saves import SaveError, read_save

        if msg["file"] is not None:   # a table saved on this server (``host`` save)
            path = self.data_dir / "saves" / msg["file"]
            if not path.is_file():
                raise ProtocolError("bad_request", f"There is no saved table {msg['file']} "
                                                   "on this server.")
            try:
                save = read_save(path)
            except SaveError as exc:
                raise ProtocolError("bad_request", str(exc)) from None
        else:   # a save file the client has (a local game, or one saved by a window host)
            tmp = self.data_dir / "incoming"
            tmp.mkdir(exist_ok=True)
            path = tmp / f"{secrets.token_hex(8)}.toml"
            try:
                path.write_text(msg["save"], encoding="utf-8")
                save = read_save(path)
            except SaveError as exc:
                raise ProtocolError("bad_request", str(exc)) from None
            finally:
                path.unlink(missing_ok=True)
        game = save.game
        net = save.meta.get("net") if isinstance(save.meta.get("net"), dict) else {}
        saved = net.get("seats") if isinstance(net.get("seats"), list) else []
        local = save.meta.get("seats") if isinstance(save.meta.get("seats"), list) else []
        seats, keep = [], []
        for i, name in enumerate(game.players):
            if msg["seats"] is not None:
                if len(msg["seats"]) != game.num_players:
                    raise ProtocolError("bad_request", f"The saved game has {game.num_players}"
                                                       " seats.")
                info = dict(msg["seats"][i], name=name)
            else:
                src = saved[i] if i < len(saved) and isinstance(saved[i], dict) else (
                    local[i] if i < len(local) and isinstance(local[i], dict) else {})
                kind = "bot" if src.get("kind") == "bot" else "remote"
                level = src.get("level") if src.get("level") in ("random", "easy", "greedy",
                                                                  "hard") else "greedy"
                info = {"kind": kind, "name": name, "level": level}
                # The colours the save's seats had (a local save's, or a table's).
                color = src.get("color")
                info["color"] = color if color in SEAT_COLORS and all(
                    s.get("color") != color for s in seats) else None
            src = saved[i] if i < len(saved) and isinstance(saved[i], dict) else {}
            token_hash = src.get("token_hash") if isinstance(src.get("token_hash"), str) else None
            invite_hash = (src.get("invite_hash") if isinstance(src.get("invite_hash"), str)
                           else None)
            keep.append((token_hash, invite_hash) if info["kind"] == "remote" else (None, None))
            seats.append(info)
        fill_colors(seats)
        settings = {"autostart": msg["autostart"], "away_bot_after": None}
        timer = msg["turn_timer"] if msg["turn_timer"] else net.get("turn_timer") \
            if isinstance(net.get("turn_timer"), int) else None
        table = self._make_table(conn, game.variant, game.seed, dict(game.options), seats,
                                 "playing", timer, settings, ws, keep)
        table.game = self._new_game(table.record)
        for i, action in enumerate(game.log):
            events = table.game.apply(action)
            self.store.add_action(table.id, i, action.to_dict())
            table.history.append((table.game.version, events))
        now = time.time()
        for seat, info in enumerate(seats):
            if info["kind"] == "remote":
                table.away_since[seat] = now
        conn.host_of.add(table.id)
        if table.game.is_over:
            self._finish(table)
        else:
            self.advance(table)

    def _start(self, table: Table) -> None:
        record = table.record
        table.game = self._new_game(record)
        record.status = "playing"
        self.store.update(record)
        now = time.time()
        for seat, info in enumerate(record.seats):
            if info["kind"] == "remote" and seat not in table.conns:
                table.away_since.setdefault(seat, now)
        self._lobby(table)
        for seat in list(table.conns):
            self._send_state(table, seat)
        self.advance(table)

    def _find_seat(self, hashed: str, kinds: tuple[str, ...], table_id: str | None):
        """(table, seat) holding this key: the named table first, else the newest table
        in play that has it."""
        found = [(t, s) for t, s, k in self.store.find_key(hashed) if k in kinds]
        found.sort(key=lambda ts: ts[0] != table_id)
        for tid, seat in found:
            table = self.tables.get(tid)
            if table is not None:
                return table, seat
        return None, None

    def _hello(self, conn: Conn, msg: dict) -> None:
        table, seat = self._find_seat(key_hash(msg["token"]), ("token",), msg["table"])
        if table is None:
            record = self.store.get(msg["table"]) if msg["table"] else None
            if record is not None and record.status == "over":
                raise ProtocolError("over", "That table's game is over.")
            raise ProtocolError("bad_token")
        self._seat(conn, table, seat, msg, token=msg["token"])

    def _join(self, conn: Conn, msg: dict, ws: Any) -> None:
        code = invite_code(msg["invite"])
        table, seat = self._find_seat(key_hash(code), ("invite",), None)
        if table is None:
            raise ProtocolError("bad_invite", "That invite is not valid (or its table has "
                                              "ended). Check the code with the host.")
        # The invite is the seat's key: a fresh token for whoever holds it now.
        token = secrets.token_urlsafe(32)
        info = table.seats[seat]
        old = info.get("token_hash")
        info["token_hash"] = key_hash(token)
        self.store.update(table.record)
        keys = [(info["token_hash"], seat, "token")]
        self.store.create_keys(table.id, keys, drop=[old] if old else [])
        self._seat(conn, table, seat, msg, token=token)

    def _seat(self, conn: Conn, table: Table, seat: int, msg: dict, token: str) -> None:
        game = table.game
        if msg.get("fingerprint") and game is not None and \
                msg["fingerprint"] != game.map.fingerprint():
            raise ProtocolError("version", "This table's map differs from the one your game "
                                           "has: both need the same version of ttr-desktop.")
        if conn.table is not None and conn.seat is not None and \
                conn.table.conns.get(conn.seat) is conn:
            self._left(conn)
        old = table.conns.get(seat)
        if old is not None and old is not conn:
            old.send(ProtocolError("replaced", "Another connection took this seat (the "
                                               "same player joining again).").to_message())
            old.table = old.seat = None
            old.close()
        info = table.seats[seat]
        if msg.get("host_token") and secrets.compare_digest(key_hash(msg["host_token"]),
                                                            table.record.host_hash):
            conn.host_of.add(table.id)
        if msg.get("name") and table.record.status == "lobby":
            info["name"] = clean_name(msg["name"], info["name"])
        returned = info.get("bot_playing")
        info["bot_playing"] = False
        info["claimed"] = True
        self.store.update(table.record)
        conn.table, conn.seat = table, seat
        table.conns[seat] = conn
        table.away_since.pop(seat, None)
        table.reminded.pop(seat, None)
        conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table": table.id,
                   "seat": seat, "token": token, "variant": table.record.variant,
                   "options": value_to_json(dict(table.record.options)),
                   "players": table.names(), "colors": [s["color"] for s in table.seats],
                   "host": table.id in conn.host_of,
                   "fingerprint": game.map.fingerprint() if game else None,
                   "started": game is not None, "turn_timer": table.record.turn_timer})
        for line in self.store.chat(table.id):
            conn.send({"type": "chat", **line})
        self._lobby(table)
        self._presence(table, seat)
        if game is not None:
            since = msg.get("since")
            if since is not None:   # what the seat missed, version by version
                for version, events in table.history:
                    if version > since:
                        self._send_events(table, seat, events, version)
            self._send_state(table, seat)
            if game.is_over:
                conn.send(self._over_message(table))
            elif returned or game.current_seat == seat:
                self.advance(table)
            elif table.deadline is not None:
                conn.send({"type": "timer", "seat": game.current_seat,
                           "deadline_seconds": max(0.0, table.deadline - time.monotonic())})
        elif (table.record.settings.get("autostart", True)
              and all(s.get("claimed") for s in table.seats if s["kind"] == "remote")):
            self._start(table)

    def _host_table(self, conn: Conn, msg: dict) -> Table:
        token = msg.get("host_token")
        if token:
            for tid, _seat, kind in self.store.find_key(key_hash(token)):
                if kind == "host" and tid in self.tables:
                    conn.host_of.add(tid)
                    return self.tables[tid]
            raise ProtocolError("not_host")
        if conn.table is not None and conn.table.id in conn.host_of:
            return conn.table
        raise ProtocolError("not_host")

    def _host_command(self, conn: Conn, msg: dict) -> None:
        table = self._host_table(conn, msg)
        command = msg["command"]
        if command in ("bot_for", "wait"):
            seat = msg["seat"]
            if seat >= len(table.seats) or table.seats[seat]["kind"] != "remote":
                raise ProtocolError("bad_request", "That seat is not a person's seat.")
            if command == "bot_for" and seat in table.conns:
                raise ProtocolError("bad_request", f"{table.seats[seat]['name']} is at the "
                                                   "table.")
            self._set_bot_playing(table, seat, command == "bot_for")
        elif command == "timer":
            table.record.turn_timer = msg["seconds"]
            self.store.update(table.record)
            self.advance(table)
        elif command == "save":
            if table.game is None:
                raise ProtocolError("not_started")
            # The file holds the seed and every hand: it stays on the server (a host that
            # runs the server in its own window reads it there).
            _text, path = self.save_table(table)
            conn.send({"type": "saved", "table": table.id, "file": path.name,
                       "path": str(path.resolve())})

    def save_table(self, table: Table) -> tuple[str, Path]:
        """The table as a TOML save (``persistence/saves.py``): it opens as a local game
        (remote seats as people) and loads back as a table whose seats keep their tokens."""
        from ttr_desktop.persistence.saves import dumps_game, write_save_text

        meta = {"seats": [{"name": s["name"], "kind": "bot" if s["kind"] == "bot" else "human",
                           "level": s.get("level", "greedy"), "color": s["color"]}
                          for s in table.seats],
                "net": {"table": table.id,
                        "seats": [{k: s[k] for k in ("kind", "name", "level", "color",
                                                      "token_hash", "invite_hash") if k in s}
                                  for s in table.seats],
                        **({"turn_timer": table.record.turn_timer}
                           if table.record.turn_timer else {})}}
        text = dumps_game(table.game, meta)
        path = write_save_text(text, self.data_dir / "saves" / f"table-{table.id}.toml")
        return text, path

    def _set_bot_playing(self, table: Table, seat: int, on: bool) -> None:
        table.seats[seat]["bot_playing"] = on
        self.store.update(table.record)
        self._presence(table, seat)
        self._lobby(table)
        if table.game is not None and table.game.current_seat == seat:
            self.advance(table)

    # ------------------------------------------------------------------ play
    def _chat(self, conn: Conn, text: str) -> None:
        now = time.monotonic()
        if now - conn.last_chat < CHAT_GAP:
            raise ProtocolError("too_frequent", "Wait a moment between chat messages.")
        conn.last_chat = now
        table, seat = conn.table, conn.seat
        name = table.seats[seat]["name"]
        at = round(time.time(), 3)
        self.store.add_chat(table.id, seat, name, text, at)
        self._broadcast(table, {"type": "chat", "seat": seat, "name": name, "text": text,
                                "time": at})

    def _action(self, conn: Conn, msg: dict) -> None:
        table, seat = conn.table, conn.seat
        game = table.game
        if msg["seat"] is not None and msg["seat"] != seat:
            raise ProtocolError("not_your_seat", "You can only act for your own seat.")
        if game is None:
            raise ProtocolError("not_started")
        if game.is_over:
            raise ProtocolError("over")
        if game.current_seat != seat:
            raise ProtocolError("not_your_turn", f"It is {table.seats[game.current_seat]['name']}"
                                                 "'s turn, not yours.")
        if table.bot_for(seat) is not None:
            raise ProtocolError("not_your_turn", "A bot is playing your seat.")
        if msg["version"] is not None and msg["version"] != game.version:
            raise ProtocolError("stale", "The table has moved on since the state you acted "
                                         "on; here is the new one.")
        action = msg["action"]
        reason = game.explain(action)
        if reason is not None:
            conn.send({"type": "illegal", "reason": reason, "action": action_to_json(action)})
            return
        conn.rate.refund()
        self.apply(table, action)

    def apply(self, table: Table, action: Action) -> None:
        """Carry out a legal action: stored first, then everyone told, then the next
        mover asked (bot, timer)."""
        game = table.game
        events = game.apply(action)
        self.store.add_action(table.id, len(game.log) - 1, action.to_dict())
        table.history.append((game.version, events))
        for seat in list(table.conns):
            self._send_events(table, seat, events)
            self._send_state(table, seat)
        if game.is_over:
            self._finish(table)
        else:
            self.advance(table)

    def _finish(self, table: Table) -> None:
        if table.task and table.task is not asyncio.current_task():
            table.task.cancel()
        table.deadline = None
        table.finished = time.time()
        table.record.status = "over"
        self.store.update(table.record)
        over = self._over_message(table)
        self._broadcast(table, over)

    def _over_message(self, table: Table) -> dict[str, Any]:
        """Everything is public at the end: each seat's score parts and kept tickets."""
        result = table.game.result()
        return {"type": "over", "scores": [b.total for b in result.scores],
                "winners": list(result.winners), "places": list(result.places),
                "tie_break": result.tie_break,
                "tickets": [[{"id": t.id, "a": t.a, "b": t.b, "points": t.points,
                              "done": t.done} for t in b.tickets] for b in result.scores],
                "breakdown": [value_to_json(asdict(b)) for b in result.scores]}

    def advance(self, table: Table) -> None:
        """After any change: start the bot whose turn it is, or the turn timer."""
        current = asyncio.current_task()
        if table.task is not None and table.task is not current:
            table.task.cancel()
        table.task = None
        table.deadline = None
        game = table.game
        if game is None or game.is_over:
            return
        seat = game.current_seat
        bot = table.bot_for(seat)
        loop = asyncio.get_running_loop()
        if bot is not None:
            table.task = loop.create_task(self._bot_move(table, seat, game.version, bot))
        elif table.record.turn_timer:
            seconds = float(table.record.turn_timer)
            table.deadline = time.monotonic() + seconds
            self._broadcast(table, {"type": "timer", "seat": seat, "deadline_seconds": seconds})
            table.task = loop.create_task(self._timer(table, seat, game.version, seconds))

    async def _bot_move(self, table: Table, seat: int, version: int, bot) -> None:
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        await self._play_for(table, seat, version, bot)

    async def _timer(self, table: Table, seat: int, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        # The timer ran out: a Normal bot makes this one decision for the seat.
        if table.game.version == version:
            self._broadcast(table, {"type": "timer", "seat": seat, "deadline_seconds": 0,
                                    "expired": True})
        await self._play_for(table, seat, version, table.stand_in)

    async def _play_for(self, table: Table, seat: int, version: int, bot) -> None:
        game = table.game
        if game.version != version or game.current_seat != seat:
            return
        view = game.view(seat)
        legal = game.legal_actions()
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self.pool, bot.choose, view, legal)
        except Exception:   # a bot's bug must not stop the table
            log.exception("bot failed on table %s", table.id)
            action = legal[0]
        if game.version != version or game.is_over:
            return
        self.apply(table, action)

    # ------------------------------------------------------------------ telling people
    def _broadcast(self, table: Table, msg: dict[str, Any]) -> None:
        for conn in list(table.conns.values()):
            conn.send(msg)

    def _send_events(self, table: Table, seat: int, events: list,
                     version: int | None = None) -> None:
        seen = [event_to_json(v) for v in (e.visible_to(seat) for e in events) if v is not None]
        if seen:
            table.conns[seat].send({"type": "events", "version": (
                table.game.version if version is None else version), "events": seen})

    def _send_state(self, table: Table, seat: int) -> None:
        game = table.game
        conn = table.conns.get(seat)
        if conn is None or game is None:
            return
        mine = (not game.is_over and game.current_seat == seat
                and table.bot_for(seat) is None)
        view = game.view(seat)
        text = dumps({"type": "state", "version": game.version, "seat": seat,
                      "view": view_to_json(view), "prompt": view.prompt,
                      "phase": game.phase, "current_seat": game.current_seat,
                      "turn": view.turn, "final_round": view.final_round,
                      "final_turns_left": view.final_turns_left, "is_over": game.is_over})
        # The legal actions' text is kept from turn to turn: spliced in, not re-encoded.
        legal = actions_json_text(game.legal_actions()) if mine else "[]"
        conn.send_text(text[:-1] + ',"legal":' + legal + "}")

    def _lobby(self, table: Table) -> None:
        self._broadcast(table, {
            "type": "lobby", "table": table.id, "started": table.game is not None,
            "seats": [{"name": s["name"], "kind": s["kind"], "level": s.get("level"),
                       "color": s["color"],
                       "connected": seat in table.conns or s["kind"] == "bot",
                       "bot_playing": bool(s.get("bot_playing"))}
                      for seat, s in enumerate(table.seats)]})

    def _presence(self, table: Table, seat: int) -> None:
        info = table.seats[seat]
        since = table.away_since.get(seat)
        self._broadcast(table, {
            "type": "presence", "seat": seat, "name": info["name"],
            "connected": seat in table.conns,
            "away_seconds": round(time.time() - since, 1) if since is not None else 0,
            "bot_playing": bool(info.get("bot_playing"))})


# ---------------------------------------------------------------------- running it
async def serve_forever(host: str, port: int, data_dir: str | Path,
                        ready: Callable[[str], None] | None = None,
                        stop: asyncio.Event | None = None,
                        server_obj: TableServer | None = None, **kwargs) -> None:
    """Serve until ``stop`` is set (or forever); ``ready(url)`` once listening."""
    server_obj = server_obj or TableServer(data_dir, **kwargs)
    ws_server = await server_obj.start(host, port)
    try:
        if ready is not None:
            ready(server_obj.url)
        if stop is None:
            await asyncio.Future()
        else:
            await stop.wait()
    finally:
        ws_server.close()
        await ws_server.wait_closed()
        server_obj.close()


def run_server(host: str, port: int, data_dir: str | Path,
               ready: Callable[[str], None] | None = None,
               stop: threading.Event | None = None, **kwargs) -> None:
    """Serve in this thread until interrupted, or until ``stop`` (a threading.Event,
    set from any thread) is set. ``ready(url)`` once listening: url is
    'ws://HOST:PORT' (the port ``int(url.rsplit(":", 1)[1])``, useful with port 0)."""
    async def main() -> None:
        done = asyncio.Event()
        if stop is not None:
            async def watch() -> None:
                while not stop.is_set():
                    await asyncio.sleep(0.1)
                done.set()
            watcher = asyncio.create_task(watch())
        try:
            await serve_forever(host, port, data_dir, ready,
                                done if stop is not None else None, **kwargs)
        finally:
            if stop is not None:
                watcher.cancel()
    asyncio.run(main())


class ServerThread:
    """A server on a background thread (the window hosts this way)::

        server = ServerThread("127.0.0.1", 0, data_dir); url = server.start(); ...
        server.stop()
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0,
                 data_dir: str | Path = ".", **kwargs) -> None:
        self.host, self.port, self.data_dir, self.kwargs = host, port, data_dir, kwargs
        self.url: str | None = None
        self.error: BaseException | None = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        #: The TableServer (made on the server's thread; touch it only through ``call``).
        self.server: TableServer | None = None
        self._thread = threading.Thread(target=self._run, name="ttr-server", daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            self.server = TableServer(self.data_dir, **self.kwargs)
            await serve_forever(self.host, self.port, self.data_dir, self._set_url,
                                self._stop, server_obj=self.server)
        try:
            asyncio.run(main())
        except BaseException as exc:   # noqa: BLE001 - reported to the caller
            self.error = exc
        finally:
            self._ready.set()

    def _set_url(self, url: str) -> None:
        self.url = url
        self.port = int(url.rsplit(":", 1)[1])   # the port chosen when asked for 0
        self._ready.set()

    def start(self, timeout: float = 10.0) -> str:
        """Start and wait until listening; the server's URL. OSError when it cannot."""
        self._thread.start()
        self._ready.wait(timeout)
        if self.url is None:
            raise OSError(f"the server did not start: {self.error or 'timed out'}")
        return self.url

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn()`` on the server's thread and return its result."""
        async def run() -> Any:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving (the tables stay in the data folder)."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)
