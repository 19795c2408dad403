"""Clients of the table server (docs/protocol.md).

- ``AsyncTableClient``: asyncio, for the headless bot, the CLI and tests: send a message,
  receive the next one, create a table, take a seat, play a seat with a bot to the end.
- ``TableLink``: thread-backed, for the window: ``poll()`` and ``send()`` never block;
  it reconnects by itself with backoff, taking its seat back with its token.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ttr_desktop.net.codec import action_to_json, map_for, value_from_json, view_from_json
from ttr_desktop.net.protocol import APP, MAX_SERVER_MESSAGE_BYTES, PROTOCOL_VERSION
from ttr_desktop.rules import Action, action_from_dict

#: Errors after which reconnecting cannot help (the server refused the seat itself).
FATAL_ERRORS = ("bad_token", "bad_invite", "version", "no_table", "replaced", "dropped")


def split_invite(invite_or_url: str) -> tuple[str, str | None]:
    """(server URL, invite code or None) from an invite as a person may paste it —
    'ws://host:port/join/CODE', 'ws://host:port/CODE', 'host:port CODE' — or from a
    plain server URL ('ws://host:port', 'host:port')."""
    text = invite_or_url.strip()
    code = None
    if " " in text:
        text, code = text.split(None, 1)
        code = code.strip() or None
    elif "/join/" in text:
        text, code = text.rsplit("/join/", 1)
    if "://" not in text:
        text = "ws://" + text
    scheme, rest = text.split("://", 1)
    host, _, path = rest.partition("/")
    path = path.strip("/")
    if path and code is None:   # 'ws://host:port/CODE'
        path, _, code = path.rpartition("/")
    return f"{scheme}://{host}" + (f"/{path}" if path else ""), code


class TableError(Exception):
    """The server refused something (its ``error`` message), or the connection failed."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


class AsyncTableClient:
    """One connection to a server::

        async with AsyncTableClient(url) as client:
            created = await client.create("usa", ["remote", "bot:greedy"])
            welcome = await client.hello(created["table"], created["tokens"][0])
    """

    def __init__(self, url: str, open_timeout: float = 10.0) -> None:
        self.url, _ = split_invite(url)
        self.open_timeout = open_timeout
        self.ws = None
        self.welcome: dict[str, Any] | None = None
        #: Every message received, in order (tests read what a seat was sent).
        self.received: list[dict[str, Any]] = []
        self.last_state: dict[str, Any] | None = None
        self.version = -1

    async def __aenter__(self) -> "AsyncTableClient":
        await self.open()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def open(self) -> None:
        try:
            self.ws = await connect(self.url, max_size=MAX_SERVER_MESSAGE_BYTES,
                                    open_timeout=self.open_timeout)
        except (OSError, InvalidHandshake, InvalidURI, asyncio.TimeoutError) as exc:
            raise TableError(f"Cannot reach the server at {self.url}: {exc}") from None

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def recv(self, timeout: float | None = 30.0) -> dict[str, Any]:
        """The next message (ConnectionClosed when the server hung up)."""
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(text)
        self.received.append(msg)
        if msg.get("type") == "state":
            self.last_state = msg
            self.version = msg["version"]
        elif msg.get("type") == "welcome":
            self.welcome = msg
        return msg

    async def expect(self, *types: str, timeout: float = 30.0) -> dict[str, Any]:
        """The next message of one of ``types``; TableError on an ``error`` instead."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if msg["type"] in types:
                return msg
            if msg["type"] == "error":
                raise TableError(msg["message"], msg["code"])

    async def create(self, variant: str, seats: list, seed: int | None = None,
                     options: dict | None = None, **extra) -> dict[str, Any]:
        """A new table; the ``created`` answer (table, invites, tokens, host_token)."""
        await self.send({"type": "create", "protocol": PROTOCOL_VERSION, "app": APP,
                         "variant": variant, "seats": seats, "seed": seed,
                         "options": options or {}, **extra})
        return await self.expect("created")

    async def hello(self, table: str | None, token: str, since: int | None = None,
                    **extra) -> dict[str, Any]:
        """Take (or take back) the seat ``token`` holds; the ``welcome``."""
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "app": APP,
                         "table": table, "token": token, "since": since, **extra})
        return await self.expect("welcome")

    async def join(self, invite: str, name: str | None = None) -> dict[str, Any]:
        """Take a seat with an invite; the ``welcome`` (with the token to keep)."""
        await self.send({"type": "join", "protocol": PROTOCOL_VERSION, "app": APP,
                         "invite": invite, "name": name})
        return await self.expect("welcome")

    async def act(self, action: Action) -> None:
        await self.send({"type": "action", "action": action_to_json(action),
                         "version": self.version})

    async def play(self, bot, timeout: float = 600.0) -> dict[str, Any]:
        """Play this seat with ``bot`` (a ``bots.make_bot`` bot) until the game is over:
        the bot sees only the PlayerView decoded from the wire and the legal actions the
        server sent. The ``over`` message."""
        welcome = self.welcome
        game_map = map_for(welcome["variant"], value_from_json(welcome["options"]))
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        acted = -1
        last = None
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            kind = msg["type"]
            if kind == "over":
                return msg
            if kind == "error" and msg["code"] in FATAL_ERRORS:
                raise TableError(msg["message"], msg["code"])
            if kind == "state" and msg["legal"] and msg["version"] != acted:
                view = view_from_json(msg["view"], game_map)
                legal = [action_from_dict(a) for a in msg["legal"]]
                action = await loop.run_in_executor(None, bot.choose, view, legal)
                acted = msg["version"]
                last = action
                await self.act(action)
            elif kind == "error" and msg["code"] == "too_frequent" and last is not None:
                await asyncio.sleep(0.5)   # slowed down: send the move again
                await self.act(last)
            elif kind == "illegal" and self.last_state and self.last_state["legal"]:
                # The engine refused the bot's move (it should not): play the first legal one.
                last = action_from_dict(self.last_state["legal"][0])
                await self.act(last)


class TableLink:
    """A connection for the window, run on a background thread; nothing here blocks.

    ``invite_or_url``: an invite ('ws://host:port/join/CODE') for a first join, or the
    server's URL with ``table`` and ``token`` to take a seat back. ``status`` is
    "connecting", "open", "reconnecting" or "closed"; ``problem`` the last error in the
    player's words; ``seat`` and ``token`` are known after the ``welcome``."""

    BACKOFF = (0.5, 1.0, 2.0, 4.0, 5.0)

    def __init__(self, invite_or_url: str, *, table: str | None = None,
                 token: str | None = None, name: str = "",
                 host_token: str | None = None) -> None:
        self.url, self.invite = split_invite(invite_or_url)
        self.table = table
        self.token = token
        self.name = name
        self.host_token = host_token
        self.status = "connecting"
        self.problem: str | None = None
        self.seat: int | None = None
        self.version = -1
        self._inbox: queue.Queue[dict] = queue.Queue()
        self._outbox: list[dict] = []
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="ttr-link", daemon=True)
        self._thread.start()

    # -- the window's side
    def poll(self) -> list[dict]:
        """Every message received since the last poll, in order."""
        out = []
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                return out

    def send(self, msg: dict) -> None:
        """Queue ``msg``; it is sent when connected."""
        with self._lock:
            self._outbox.append(msg)
        self._poke()

    def close(self) -> None:
        """Hang up (no reconnecting)."""
        self._closing = True
        self._poke()

    def _poke(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:
                pass

    # -- the thread
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        finally:
            self.status = "closed"

    def _greeting(self) -> dict | None:
        base = {"protocol": PROTOCOL_VERSION, "app": APP, "name": self.name or None,
                "host_token": self.host_token}
        if self.token:
            return {"type": "hello", "table": self.table, "token": self.token,
                    "since": self.version if self.version >= 0 else None, **base}
        if self.invite:
            return {"type": "join", "invite": self.invite, **base}
        return None   # a plain connection (to create or load a table)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        failures = 0
        while not self._closing:
            try:
                async with connect(self.url, max_size=MAX_SERVER_MESSAGE_BYTES,
                                   open_timeout=10) as ws:
                    greeting = self._greeting()
                    if greeting is not None:
                        await ws.send(json.dumps(greeting))
                    self.status = "open"
                    failures = 0
                    fatal = await self._session(ws)
                    if fatal:
                        self.status = "closed"
                        return
            except (OSError, InvalidHandshake, asyncio.TimeoutError) as exc:
                self.problem = f"Cannot reach the server at {self.url} ({exc})."
            except InvalidURI:
                self.problem = f"{self.url!r} is not a server address (ws://host:port)."
                self.status = "closed"
                return
            except ConnectionClosed:
                self.problem = "The connection to the server was lost."
            if self._closing:
                break
            self.status = "reconnecting"
            delay = self.BACKOFF[min(failures, len(self.BACKOFF) - 1)]
            failures += 1
            try:
                await asyncio.wait_for(self._wait_closing(), delay)
            except asyncio.TimeoutError:
                pass
        self.status = "closed"

    async def _wait_closing(self) -> None:
        while not self._closing:
            self._wake.clear()
            await self._wake.wait()

    async def _session(self, ws) -> bool:
        """Pass messages both ways until the connection ends; True when the server
        refused us for good."""
        async def reader() -> bool:
            async for text in ws:
                msg = json.loads(text)
                kind = msg.get("type")
                if kind == "welcome":
                    self.seat, self.token, self.table = msg["seat"], msg["token"], msg["table"]
                    self.problem = None
                elif kind == "state":
                    self.version = msg["version"]
                elif kind == "error":
                    self.problem = msg.get("message")
                    if msg.get("code") in FATAL_ERRORS:
                        self._inbox.put(msg)
                        return True
                self._inbox.put(msg)
            return False

        read = asyncio.create_task(reader())
        try:
            while not read.done():
                with self._lock:
                    pending, self._outbox = self._outbox, []
                for msg in pending:
                    await ws.send(json.dumps(msg))
                if self._closing:
                    await ws.close()
                    break
                self._wake.clear()
                waiter = asyncio.create_task(self._wake.wait())
                await asyncio.wait({read, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
            return read.result() if read.done() and not read.cancelled() and \
                read.exception() is None else False
        finally:
            if not read.done():
                read.cancel()
            elif read.exception() is not None and not isinstance(read.exception(),
                                                                 ConnectionClosed):
                raise read.exception()
