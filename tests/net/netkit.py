"""Helpers for the online-table tests: a real server on 127.0.0.1 (in this process or as
the ``serve`` command), headless clients, and the local replay every result is checked
against. Every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import subprocess
import sys
from pathlib import Path

from ttr_desktop.bots import make_bot
from ttr_desktop.net.client import AsyncTableClient
from ttr_desktop.net.codec import event_to_json, view_to_json
from ttr_desktop.net.server import TableServer
from ttr_desktop.rules import action_from_dict, new_game

ROOT = Path(__file__).resolve().parents[2]


def run(coro, timeout: float = 60.0):
    """Run a test's coroutine, never longer than ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


@contextlib.asynccontextmanager
async def running_server(data_dir, **kwargs):
    """A TableServer listening on 127.0.0.1 on a free port, in this event loop."""
    server = TableServer(data_dir, **kwargs)
    ws_server = await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        ws_server.close()
        await ws_server.wait_closed()
        server.close()


async def seated(url: str, table: str, token: str, **extra) -> AsyncTableClient:
    """A client that has taken the seat ``token`` holds."""
    client = AsyncTableClient(url)
    await client.open()
    await client.hello(table, token, **extra)
    return client


async def play_seat(url: str, table: str, token: str, level: str, seed: int = 1,
                    timeout: float = 45.0) -> tuple[dict, AsyncTableClient]:
    """Play a seat to the end with a bot through the wire; (the over message, client)."""
    client = await seated(url, table, token)
    try:
        over = await client.play(make_bot(level, seed=seed), timeout=timeout)
    finally:
        await client.close()
    return over, client


def replay(record, actions):
    """The table's game played locally from its seed with the server's actions; also the
    events of each version, in order."""
    game = new_game(record.variant, [s["name"] for s in record.seats], seed=record.seed,
                    options=record.options)
    events = {}
    for data in actions:
        evs = game.apply(action_from_dict(data))
        events[game.version] = evs
    return game, events


def check_seat_saw_only_its_own(record, actions, seat: int, received: list[dict]) -> int:
    """Every view and event ``seat`` received is exactly what that seat may know at that
    moment (the local replay's view and ``event.visible_to(seat)``): no other seat's hand,
    tickets or pending tickets, no seed or deck order. Returns the messages checked."""
    game = new_game(record.variant, [s["name"] for s in record.seats], seed=record.seed,
                    options=record.options)
    views = {0: view_to_json(game.view(seat))}
    events = {}
    wanted = {m["version"] for m in received if m["type"] == "state"}
    for data in actions:
        evs = game.apply(action_from_dict(data))
        events[game.version] = [event_to_json(v) for v in (e.visible_to(seat) for e in evs)
                                if v is not None]
        if game.version in wanted:
            views[game.version] = view_to_json(game.view(seat))
    seed_text = str(record.seed)
    checked = 0
    for msg in received:
        text = json.dumps(msg)
        assert seed_text not in text, "the seed never leaves the server"
        if msg["type"] == "state":
            assert msg["seat"] == seat
            assert msg["view"] == json.loads(json.dumps(views[msg["version"]])), \
                f"seat {seat}'s view at version {msg['version']} is not its own view"
            checked += 1
        elif msg["type"] == "events":
            assert msg["events"] == json.loads(json.dumps(events[msg["version"]])), \
                f"seat {seat} got events it may not see at version {msg['version']}"
            checked += 1
    return checked


def serve_process(data_dir, port: int = 0,
                  timeout: float = 60.0) -> tuple[subprocess.Popen, str]:
    """``python -m ttr_desktop.net serve`` on 127.0.0.1; (process, url) once it listens
    (at most ``timeout`` seconds: a loaded machine may take long to start Python)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ttr_desktop.net", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--data", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    ready, _, _ = select.select([proc.stdout], [], [], timeout)   # never wait for ever
    line = proc.stdout.readline() if ready else ""
    if not line.startswith("listening on ws://"):
        proc.kill()
        raise AssertionError(f"the server did not start: {line!r} {proc.stderr.read()}")
    return proc, line.split("listening on ", 1)[1].strip()


def cli(*args: str) -> subprocess.Popen:
    """A headless command (``new``, ``bot``) as a process."""
    return subprocess.Popen([sys.executable, "-m", "ttr_desktop.net", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
