"""Where a server keeps its tables: behind ``TableStore``, SQLite by default.

A table is stored as its set-up (variant, seed, options, seats), its status and the
actions applied to it, in order. The engine is deterministic, so a table is restored by
starting the game from its seed and replaying its actions: a server killed at any moment
and started again on the same data folder resumes every table where it was (an action
is written before anyone is told of it, so nobody ever saw a move the store lacks).

Secrets are stored only as SHA-256 hashes (``key_hash``): seat tokens, invites and host
tokens. The seed stays on the server: it reveals the deck order.

Spreading tables over several processes or machines: a table lives in exactly one
process at a time (its engine is the only engine). Give each server its own data folder
(or its own ``TableStore`` on a shared database), make table ids carry the server that
owns them (a prefix), and put a small router in front that sends a connection to the
owner of the table named in its ``hello`` (or of the invite's table: invites and tokens
are looked up through ``find_key``, which a shared store answers for every server). A
server that dies is replaced by starting another on its store: tables are replayed from
their actions. See docs/protocol.md, "Running many tables".
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def key_hash(secret: str) -> str:
    """The SHA-256 hash under which a token or invite is stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass
class TableRecord:
    """One table's set-up and status (its actions are stored separately).

    ``seats``: per seat ``{"kind": "remote"|"bot", "name", "level", "bot_playing",
    "token_hash", "invite_hash"}``; ``status``: "lobby", "playing" or "over";
    ``settings``: ``autostart``, ``away_bot_after``."""

    id: str
    variant: str
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    host_hash: str
    created: float = field(default_factory=time.time)
    status: str = "lobby"
    turn_timer: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)


class TableStore:
    """What a server needs from its storage. Every method is called from the server's
    event loop thread; each write is durable when it returns."""

    def create(self, record: TableRecord, keys: list[tuple[str, int, str]]) -> None:
        """Store a new table and its keys: (hash, seat or -1, "token"|"invite"|"host")."""
        raise NotImplementedError

    def create_keys(self, table_id: str, keys: list[tuple[str, int, str]],
                    drop: list[str] = ()) -> None:
        """Add keys to a table (and drop the hashes in ``drop``: a seat's old token)."""
        raise NotImplementedError

    def update(self, record: TableRecord) -> None:
        """Store the table's changed seats, status, timer and settings."""
        raise NotImplementedError

    def get(self, table_id: str) -> TableRecord | None:
        """The table, or None."""
        raise NotImplementedError

    def active(self) -> list[TableRecord]:
        """Every table in the lobby or playing, oldest first (to resume them)."""
        raise NotImplementedError

    def find_key(self, hashed: str) -> list[tuple[str, int, str]]:
        """(table id, seat, kind) for a key hash, newest table first."""
        raise NotImplementedError

    def add_action(self, table_id: str, index: int, action: dict[str, Any]) -> None:
        """Store the table's action number ``index`` (0, 1, ...)."""
        raise NotImplementedError

    def actions(self, table_id: str) -> list[dict[str, Any]]:
        """The table's actions in order (``Action.to_dict`` data)."""
        raise NotImplementedError

    def add_chat(self, table_id: str, seat: int, name: str, text: str, at: float) -> None:
        """Store one chat line."""
        raise NotImplementedError

    def chat(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The table's last ``limit`` chat lines, oldest first."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the storage."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, variant TEXT NOT NULL, seed INTEGER NOT NULL, options TEXT NOT NULL,
    seats TEXT NOT NULL, host_hash TEXT NOT NULL, created REAL NOT NULL, status TEXT NOT NULL,
    turn_timer INTEGER, settings TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx));
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS chat_table ON chat (table_id, id);
CREATE TABLE IF NOT EXISTS keys (
    hash TEXT NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
    PRIMARY KEY (hash, table_id));
"""


class SqliteStore(TableStore):
    """The default store: one SQLite file (WAL journal, so a killed process loses
    nothing it had written)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    @staticmethod
    def _record(row) -> TableRecord:
        return TableRecord(id=row[0], variant=row[1], seed=row[2], options=json.loads(row[3]),
                           seats=json.loads(row[4]), host_hash=row[5], created=row[6],
                           status=row[7], turn_timer=row[8], settings=json.loads(row[9]))

    def create(self, record: TableRecord, keys: list[tuple[str, int, str]]) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?)",
                (record.id, record.variant, record.seed, json.dumps(record.options),
                 json.dumps(record.seats), record.host_hash, record.created, record.status,
                 record.turn_timer, json.dumps(record.settings)))
            self.db.executemany("INSERT OR REPLACE INTO keys VALUES (?,?,?,?)",
                                [(h, record.id, seat, kind) for h, seat, kind in keys])

    def create_keys(self, table_id: str, keys: list[tuple[str, int, str]],
                    drop: list[str] = ()) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("DELETE FROM keys WHERE hash=? AND table_id=?",
                                [(h, table_id) for h in drop])
            self.db.executemany("INSERT OR REPLACE INTO keys VALUES (?,?,?,?)",
                                [(h, table_id, seat, kind) for h, seat, kind in keys])

    def update(self, record: TableRecord) -> None:
        self.db.execute(
            "UPDATE tables SET seats=?, status=?, turn_timer=?, settings=? WHERE id=?",
            (json.dumps(record.seats), record.status, record.turn_timer,
             json.dumps(record.settings), record.id))

    def get(self, table_id: str) -> TableRecord | None:
        row = self.db.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchone()
        return self._record(row) if row else None

    def active(self) -> list[TableRecord]:
        rows = self.db.execute("SELECT * FROM tables WHERE status IN ('lobby', 'playing') "
                               "ORDER BY created").fetchall()
        return [self._record(r) for r in rows]

    def find_key(self, hashed: str) -> list[tuple[str, int, str]]:
        rows = self.db.execute(
            "SELECT k.table_id, k.seat, k.kind FROM keys k JOIN tables t ON t.id = k.table_id "
            "WHERE k.hash=? ORDER BY t.created DESC", (hashed,)).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def add_action(self, table_id: str, index: int, action: dict[str, Any]) -> None:
        self.db.execute("INSERT INTO actions VALUES (?,?,?)",
                        (table_id, index, json.dumps(action)))

    def actions(self, table_id: str) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT action FROM actions WHERE table_id=? ORDER BY idx",
                               (table_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def add_chat(self, table_id: str, seat: int, name: str, text: str, at: float) -> None:
        self.db.execute("INSERT INTO chat (table_id, seat, name, text, at) VALUES (?,?,?,?,?)",
                        (table_id, seat, name, text, at))

    def chat(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT seat, name, text, at FROM chat WHERE table_id=? "
                               "ORDER BY id DESC LIMIT ?", (table_id, limit)).fetchall()
        return [{"seat": r[0], "name": r[1], "text": r[2], "time": r[3]} for r in rows[::-1]]

    def close(self) -> None:
        self.db.close()
