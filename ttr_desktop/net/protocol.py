"""The online-table protocol: message types, limits and the check of every message a
client sends (docs/protocol.md writes it all down).

Every message is one JSON object with a ``type``. ``check_client_message(text)`` turns the
text a connection sent into a checked dict or raises ``ProtocolError`` with a code and a
message in plain words; the server answers such a message with an ``error`` and changes
nothing. Nothing from the network is ever evaluated or unpickled: only ``json.loads``.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections import deque
from typing import Any

#: The protocol's version: every hello, join, create and load carries it.
PROTOCOL_VERSION = 1
APP = "ttr-desktop"

#: Largest message a client may send, in bytes (a ``load`` carries a save file: larger).
MAX_MESSAGE_BYTES = 16 * 1024
MAX_LOAD_BYTES = 1024 * 1024
#: Largest message a client accepts from the server (a view with its legal actions).
MAX_SERVER_MESSAGE_BYTES = 8 * 1024 * 1024
#: Messages per second a connection may send on average, and the burst it may save up
#: (a legal move made in turn is not counted).
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0
#: Refused messages within ``STRIKE_WINDOW`` seconds after which the connection is dropped.
MAX_STRIKES = 10
STRIKE_WINDOW = 60.0
#: Chat: longest text, and the shortest gap between two messages of one seat (seconds).
MAX_CHAT_CHARS = 200
CHAT_GAP = 0.5
MAX_NAME_CHARS = 24
MAX_SEATS = 6
#: The turn timer's bounds, in seconds (0 or null: no timer).
TIMER_MIN, TIMER_MAX = 10, 3600

CLIENT_TYPES = ("hello", "join", "create", "load", "start", "action", "chat", "ping", "host")
SERVER_TYPES = ("welcome", "lobby", "state", "events", "illegal", "presence", "chat", "timer",
                "over", "error", "created", "saved", "pong")
HOST_COMMANDS = ("bot_for", "wait", "save", "timer")
BOT_LEVELS = ("random", "easy", "greedy", "hard")
#: The colours a seat may have (the same as a local game's, ``ui/session.py``).
SEAT_COLORS = ("red", "blue", "green", "yellow", "black", "purple")

#: Error codes of the ``error`` message.
ERROR_CODES = {
    "malformed": "The message is not a JSON object of a known type.",
    "too_large": "The message is too large.",
    "too_frequent": "Too many messages; slow down.",
    "version": "The protocol versions differ.",
    "bad_token": "That seat token is not valid for this table.",
    "bad_invite": "That invite is not valid.",
    "no_table": "There is no such table.",
    "not_seated": "Take a seat first (hello or join).",
    "not_your_seat": "That message is for another seat.",
    "not_your_turn": "It is not your turn.",
    "stale": "The table has moved on since that state.",
    "not_host": "Only the host may do that.",
    "not_started": "The game has not started yet.",
    "over": "The game is over.",
    "bad_request": "The request cannot be carried out.",
    "replaced": "Another connection took this seat.",
}


class ProtocolError(ValueError):
    """A refused message: ``code`` (ERROR_CODES) and a message in plain words."""

    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(message or ERROR_CODES.get(code, code))
        self.code = code
        self.message = message or ERROR_CODES.get(code, code)

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message for this refusal."""
        return {"type": "error", "code": self.code, "message": self.message}


# ---------------------------------------------------------------------------
# field checks

def _int(msg: dict, key: str, lo: int, hi: int, default: Any = ..., none_ok: bool = False):
    value = msg.get(key, default)
    if value is ...:
        raise ProtocolError("malformed", f"The {msg['type']} message lacks {key!r}.")
    if value is None and none_ok:
        return None
    if value is default and default is not ...:
        return value
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ProtocolError("malformed", f"{key!r} must be a whole number from {lo} to {hi}.")
    return value


def _str(msg: dict, key: str, max_len: int, default: Any = ..., none_ok: bool = False):
    value = msg.get(key, default)
    if value is ...:
        raise ProtocolError("malformed", f"The {msg['type']} message lacks {key!r}.")
    if value is None and none_ok:
        return None
    if value is default and default is not ...:
        return value
    if not isinstance(value, str) or len(value) > max_len:
        raise ProtocolError("malformed", f"{key!r} must be text of at most {max_len} "
                                         "characters.")
    return value


def _version(msg: dict) -> None:
    version = msg.get("protocol")
    if version != PROTOCOL_VERSION:
        raise ProtocolError("version", f"This server speaks protocol {PROTOCOL_VERSION}, "
                                       f"the game that connected speaks {version!r}: "
                                       "both need the same version of ttr-desktop.")
    _str(msg, "app", 64, default="")


_CONTROL = re.compile(r"\s+")


def clean_text(text: str, max_chars: int) -> str:
    """Text a player typed, made safe to show: control and format characters removed,
    runs of white space made one space, trimmed and cut to ``max_chars``."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or not unicodedata.category(ch).startswith("C"))
    return _CONTROL.sub(" ", kept).strip()[:max_chars]


def clean_name(name: Any, default: str) -> str:
    """A seat's name as others will see it (``default`` when empty)."""
    if not isinstance(name, str):
        return default
    return clean_text(name, MAX_NAME_CHARS) or default


def _seats(msg: dict) -> list[dict[str, Any]]:
    seats = msg.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise ProtocolError("malformed", f"'seats' must list 1 to {MAX_SEATS} seats.")
    out = []
    for i, seat in enumerate(seats):
        if isinstance(seat, str):      # "remote", "bot:greedy"
            kind, _, level = seat.partition(":")
            seat = {"kind": kind, **({"level": level} if level else {})}
        if not isinstance(seat, dict) or seat.get("kind") not in ("remote", "bot"):
            raise ProtocolError("malformed", f"Seat {i + 1} must be a remote seat or a bot.")
        level = seat.get("level", "greedy")
        if seat["kind"] == "bot" and level not in BOT_LEVELS:
            raise ProtocolError("malformed", f"Seat {i + 1}: there is no bot level {level!r} "
                                             f"(known: {', '.join(BOT_LEVELS)}).")
        color = seat.get("color")
        if color is not None and color not in SEAT_COLORS:
            raise ProtocolError("malformed", f"Seat {i + 1}: there is no seat colour "
                                             f"{str(color)[:24]!r} (known: "
                                             f"{', '.join(SEAT_COLORS)}).")
        if color is not None and any(o["color"] == color for o in out):
            first = next(j for j, o in enumerate(out) if o["color"] == color)
            raise ProtocolError("malformed", f"Seats {first + 1} and {i + 1} are both "
                                             f"{color}: each seat needs its own colour.")
        default = f"Bot {i + 1}" if seat["kind"] == "bot" else f"Player {i + 1}"
        out.append({"kind": seat["kind"], "name": clean_name(seat.get("name"), default),
                    "level": level if seat["kind"] == "bot" else "greedy", "color": color})
    return fill_colors(out)


def fill_colors(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every seat without a colour the first one nobody has, in the usual order
    (red, blue, green...); the seats are changed in place and returned."""
    taken = {s.get("color") for s in seats}
    free = [c for c in SEAT_COLORS if c not in taken]
    for seat in seats:
        if seat.get("color") not in SEAT_COLORS:
            seat["color"] = free.pop(0)
    return seats


def _timer(msg: dict, key: str = "turn_timer") -> int | None:
    value = msg.get(key)
    if value in (None, 0):
        return None
    return _int(msg, key, TIMER_MIN, TIMER_MAX)


# ---------------------------------------------------------------------------
# the whole message

def check_client_message(text: str | bytes) -> dict[str, Any]:
    """The checked message a client sent as ``text``; ProtocolError when it is too large,
    not JSON, not an object, of an unknown type or with a field that is not right."""
    size = len(text)
    if size > MAX_LOAD_BYTES:
        raise ProtocolError("too_large", f"The message is {size} bytes; at most "
                                         f"{MAX_LOAD_BYTES} are accepted.")
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "Messages are JSON text, not binary frames.")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "The message is not valid JSON.") from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed", "A message must be a JSON object.")
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("malformed", f"Unknown message type {str(kind)[:40]!r}.")
    if kind != "load" and size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"The message is {size} bytes; at most "
                                         f"{MAX_MESSAGE_BYTES} are accepted.")
    return CHECKS[kind](msg)


def _hello(msg: dict) -> dict:
    _version(msg)
    return {"type": "hello", "table": _str(msg, "table", 64, default=None, none_ok=True),
            "token": _str(msg, "token", 128),
            "fingerprint": _str(msg, "fingerprint", 128, default=None, none_ok=True),
            "host_token": _str(msg, "host_token", 128, default=None, none_ok=True),
            "name": _str(msg, "name", 200, default=None, none_ok=True),
            "since": _int(msg, "since", -1, 10 ** 9, default=None, none_ok=True)}


def _join(msg: dict) -> dict:
    _version(msg)
    return {"type": "join", "invite": _str(msg, "invite", 512),
            "host_token": _str(msg, "host_token", 128, default=None, none_ok=True),
            "name": _str(msg, "name", 200, default=None, none_ok=True)}


def _create(msg: dict) -> dict:
    _version(msg)
    options = msg.get("options") or {}
    if not isinstance(options, dict) or len(options) > 64:
        raise ProtocolError("malformed", "'options' must be an object of option: value.")
    for key, value in options.items():
        if not isinstance(value, (bool, int, str)) and not (
                isinstance(value, list) and len(value) <= 16
                and all(isinstance(v, (bool, int, str)) for v in value)):
            raise ProtocolError("malformed", f"Option {key!r} has a value of the wrong kind.")
    return {"type": "create", "variant": _str(msg, "variant", 64), "seats": _seats(msg),
            "seed": _int(msg, "seed", 0, 2 ** 63 - 1, default=None, none_ok=True),
            "options": options, "turn_timer": _timer(msg),
            "autostart": bool(msg.get("autostart", True)),
            "away_bot_after": _int(msg, "away_bot_after", 1, 86400, default=None,
                                   none_ok=True)}


def _load(msg: dict) -> dict:
    _version(msg)
    save = _str(msg, "save", MAX_LOAD_BYTES, default=None, none_ok=True)
    file = _str(msg, "file", 200, default=None, none_ok=True)
    if (save is None) == (file is None):
        raise ProtocolError("malformed", "A load needs either 'save' (a save file's text) or "
                                         "'file' (a table saved on this server).")
    if file is not None and not re.fullmatch(r"[A-Za-z0-9_.-]{1,120}\.toml", file):
        raise ProtocolError("malformed", "'file' must be the name of a saved table, "
                                         "like 'table-0123456789.toml'.")
    out = {"type": "load", "save": save, "file": file,
           "turn_timer": _timer(msg), "autostart": bool(msg.get("autostart", True)),
           "seats": _seats(msg) if msg.get("seats") is not None else None}
    return out


def _start(msg: dict) -> dict:
    return {"type": "start", "host_token": _str(msg, "host_token", 128, default=None,
                                                none_ok=True)}


def _action(msg: dict) -> dict:
    from ttr_desktop.net.codec import CodecError, action_from_json
    try:
        action = action_from_json(msg.get("action"))
    except CodecError as exc:
        raise ProtocolError("malformed", f"The action is malformed: {exc}") from None
    return {"type": "action", "action": action,
            "version": _int(msg, "version", 0, 10 ** 9, default=None, none_ok=True),
            "seat": _int(msg, "seat", 0, MAX_SEATS - 1, default=None, none_ok=True)}


def _chat(msg: dict) -> dict:
    text = _str(msg, "text", MAX_CHAT_CHARS * 4)
    text = clean_text(text, MAX_CHAT_CHARS)
    if not text:
        raise ProtocolError("malformed", "A chat message needs some text.")
    return {"type": "chat", "text": text}


def _ping(msg: dict) -> dict:
    return {"type": "ping"}


def _host(msg: dict) -> dict:
    command = msg.get("command")
    if command not in HOST_COMMANDS:
        raise ProtocolError("malformed", f"Unknown host command {str(command)[:40]!r} "
                                         f"(known: {', '.join(HOST_COMMANDS)}).")
    out = {"type": "host", "command": command,
           "host_token": _str(msg, "host_token", 128, default=None, none_ok=True)}
    if command in ("bot_for", "wait"):
        out["seat"] = _int(msg, "seat", 0, MAX_SEATS - 1)
    if command == "timer":
        out["seconds"] = _timer(msg, "seconds")
    return out


CHECKS = {"hello": _hello, "join": _join, "create": _create, "load": _load, "start": _start,
          "action": _action, "chat": _chat, "ping": _ping, "host": _host}


class RateLimit:
    """A token bucket: ``RATE_PER_SECOND`` messages a second, bursts of ``RATE_BURST``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST,
                 clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def allow(self) -> bool:
        """True when one more message may pass now (and counts it)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        """Give back the last message's share: a legal move in turn costs nothing (the
        game itself bounds how many there are), so a quick bot is never slowed down."""
        self.tokens = min(self.burst, self.tokens + 1)


class Strikes:
    """Refused messages of one connection; ``add()`` is True when it should be dropped."""

    def __init__(self, limit: int = MAX_STRIKES, window: float = STRIKE_WINDOW,
                 clock=time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.times: deque[float] = deque()

    def add(self) -> bool:
        now = self.clock()
        self.times.append(now)
        while self.times and now - self.times[0] > self.window:
            self.times.popleft()
        return len(self.times) >= self.limit


def dumps(msg: dict[str, Any]) -> str:
    """A message as the compact JSON text that goes on the wire."""
    return json.dumps(msg, separators=(",", ":"), allow_nan=False)
