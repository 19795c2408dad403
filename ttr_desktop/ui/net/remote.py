"""A game played at a table elsewhere (the host's server), as the board scene plays it.

``RemoteSession`` stands where a ``GameSession`` stands: the board reads ``session.game``
and calls ``session.apply(action)``. Here the game is a ``RemoteGame``, a read-only
stand-in built from the last ``state`` message of the table (this seat's view, the legal
actions of the pending decision, its prompt, the phase and whose turn it is); the map,
board and ruleset are loaded locally from the variant, as the server loads them. Applying
an action sends it and returns no events: the table's events come back by ``poll()`` and
the board shows them through the same path as a local game's (log, animations, sounds).

Questions the board asks of a position ("why can't I claim this?", "which payments
fit?", "which tickets are done?") are answered by a game *consistent with this seat's
view* (``rules.determinize``, as a search bot builds one): the seat's own hand and
tickets and every public fact are exact, the hidden rest is made up and never shown.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from typing import Any

from ttr_desktop.rules import Action, Event, IllegalAction, new_game
from ttr_desktop.ui.session import SEAT_COLORS, SeatConfig, choice_key

log = logging.getLogger("ttr_desktop.net")

#: How long (seconds) a seat may be away before the host is asked what to do.
AWAY_ASK = 30.0
#: How often (seconds) the watcher thread looks at the link while the window sleeps.
WATCH_EVERY = 0.05
_WAKE_TYPE: int | None = None


def wake_event_type() -> int:
    """The pygame event type the watcher posts to wake the window (made once)."""
    global _WAKE_TYPE
    if _WAKE_TYPE is None:
        import pygame
        _WAKE_TYPE = pygame.event.custom_type()
    return _WAKE_TYPE


class LinkWatcher:
    """Reads a link on a thread of its own while the window sleeps, and wakes the window
    (a pygame event) when a message came or the connection changed: the window draws
    only then, never on a timer, and never waits for the network itself.

    ``take()`` hands over what was read (and reads the link too, so a caller that does
    not sleep gets everything at once)."""

    def __init__(self, link) -> None:
        self.link = link
        self._lock = threading.Lock()
        self._got: deque[dict] = deque()
        self._status = getattr(link, "status", "closed")
        self._stop = threading.Event()
        self._type = wake_event_type()
        self._thread = threading.Thread(target=self._run, name="ttr-watch", daemon=True)
        self._thread.start()

    def _read(self) -> bool:
        with self._lock:
            msgs = self.link.poll()
            self._got.extend(msgs)
        status = getattr(self.link, "status", "closed")
        changed = status != self._status
        self._status = status
        return bool(msgs) or changed

    def _run(self) -> None:
        import pygame
        while not self._stop.wait(WATCH_EVERY):
            try:
                if self._read() and pygame.get_init():
                    pygame.event.post(pygame.event.Event(self._type))
            except Exception:
                log.debug("watcher stopped", exc_info=True)
                return
            if self._status == "closed":
                return

    def take(self) -> list[dict]:
        self._read()
        with self._lock:
            out = list(self._got)
            self._got.clear()
        return out

    def stop(self) -> None:
        self._stop.set()


def _codec():
    from ttr_desktop.net import codec
    return codec


class RemoteGame:
    """The game of a remote table as this seat knows it (read-only).

    Public facts come from the last ``state`` message; ``view(seat)`` is this seat's own
    view (the only one this window has: a panel asking for another seat's view gets this
    one, whose public parts are the same); ``legal_actions()`` the server's list. Other
    questions go to a game made consistent with that view (see the module's docstring).
    """

    def __init__(self, variant: str, options: dict[str, Any], players: list[str],
                 seat: int) -> None:
        # Only the static parts are used: map, board, ruleset, module switches.
        self._base = new_game(variant, list(players), seed=0, options=dict(options))
        self.seat = seat
        self.variant = variant
        self.options = dict(options)
        self.players = list(players)
        self.map = self._base.map
        self.board = self._base.board
        self.ruleset = self._base.ruleset
        self.num_players = len(players)
        self.seed = 0
        self.log: list[Action] = []
        self.version = -1
        self.phase = self._base.phase
        self.current_seat = 0
        self.is_over = False
        self.final_round = False
        self.turn = 0
        self._prompt = ""
        #: True from sending this seat's action until the table answers, and while the
        #: deciding seat (played here) has not had its own copy of the newest state (no
        #: action is offered meanwhile).
        self.awaiting = False
        #: The seats played at this window (several people at the host's computer take
        #: turns: hot-seat), each with its own view from its own connection.
        self.local: set[int] = {seat}
        self._views: dict[int, Any] = {}
        self._legals: dict[int, list[Action]] = {}
        self._versions: dict[int, int] = {}
        self._shadows: dict[int, Any] = {}
        #: The table's final result (``ending.result_of``) once the game is over.
        self.final = None

    # The state message ------------------------------------------------------------
    def update(self, msg: dict, view, legal: list[Action], seat: int | None = None) -> None:
        """Take a new ``state`` of ``seat`` (this window's seat when None; already decoded:
        the view and the legal actions). The public facts follow the newest state of any
        of this window's seats; each seat keeps its own view and choices."""
        seat = self.seat if seat is None else seat
        version = msg.get("version", self.version + 1)
        self._views[seat] = view
        self._legals[seat] = list(legal)
        self._versions[seat] = version
        self._shadows.clear()
        if version < self.version:
            return
        self.version = version
        self.phase = msg.get("phase", view.phase)
        self.current_seat = msg.get("current_seat", view.current_seat)
        self.is_over = bool(msg.get("is_over", False))
        self.final_round = bool(msg.get("final_round", view.final_round))
        self.turn = msg.get("turn", view.turn)
        self._prompt = msg.get("prompt") or ""
        # Each seat played here has its own connection, and their copies of a move's
        # state come in any order: the decision is this window's to take only once the
        # deciding seat's own state (its hand, its choices) has come.
        self.awaiting = (self.current_seat in self.local
                         and self._versions.get(self.current_seat) != version)

    @property
    def known(self) -> bool:
        """True once a state has come."""
        return bool(self._views)

    @property
    def settled(self) -> bool:
        """True when every seat played at this window has its own copy of the newest
        state (each comes by that seat's own connection, in its own time)."""
        return bool(self._views) and all(self._versions.get(seat) == self.version
                                         for seat in self.local)

    @property
    def _view(self):
        """The view of the seat shown (else of another seat of this window)."""
        view = self._views.get(self.seat)
        if view is None and self._views:
            view = self._views[min(self._views)]
        return view

    # What the board reads ----------------------------------------------------------
    def view(self, seat: int | None = None):
        """The view of ``seat`` when it is played at this window, else that of the seat
        shown (the only views this window has; their public parts are the same)."""
        if seat is not None and seat in self._views:
            return self._views[seat]
        return self._view

    def legal_actions(self, canonical: bool = False) -> list[Action]:
        """The pending decision's choices, as the table's engine listed them (only when
        the decision is one of this window's seats', from that seat's newest state)."""
        seat = self.current_seat
        if (self.awaiting or seat not in self.local
                or self._versions.get(seat) != self.version):
            return []
        return list(self._legals[seat])

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def prompt(self) -> str:
        return self._prompt

    def has_module(self, name: str) -> bool:
        return self._base.has_module(name)

    def explain(self, action: Action) -> str | None:
        """None when ``action`` is one of the legal choices, else why not (in the words
        the engine uses, asked of the position as this seat knows it)."""
        if action in self.legal_actions():
            return None
        if self.current_seat not in self.local:
            return f"It is {self.players[self.current_seat]}'s turn."
        if self.awaiting:
            return "Your move is on its way to the table."
        try:
            reason = self.shadow.explain(action)
        except Exception:  # noqa: BLE001  (a made-up position must never crash the window)
            reason = None
        return reason or "That move is not possible now."

    def result(self):
        """The table's final result (its ``over`` message): never recomputed here."""
        if self.final is None:
            raise ValueError("the table has not sent the final scores")
        return self.final

    def scores(self):
        return self.result().scores

    def apply(self, action: Action, check: bool = True) -> list[Event]:
        raise IllegalAction("This table's game is played on the host: send the action.")

    @property
    def shadow(self):
        """A game consistent with this seat's view (made when first asked)."""
        shadow = self._shadows.get(self.seat)
        if shadow is None:
            shadow = self._shadows[self.seat] = self._make_shadow()
        return shadow

    def _make_shadow(self):
        if self._view is None:
            return self._base
        from ttr_desktop.rules.determinize import determinize
        try:
            return determinize(self._view, random.Random(self.version))
        except Exception:
            log.exception("no position could be made from the view; the setup is used")
            return self._base

    def __getattr__(self, name: str):
        # Anything else (state, claim_problem, payments_for, ticket_status...) is asked
        # of the position as this seat knows it.
        if name.startswith("__") or name in ("_base", "_shadows", "_views", "local", "seat"):
            raise AttributeError(name)
        return getattr(self.shadow, name)


class RemoteSession:
    """A table played elsewhere, as the board scene plays a ``GameSession``."""

    #: The board asks this to know that no engine and no bots run here.
    remote = True

    def __init__(self, link, *, host_token: str | None = None,
                 local_name: str = "") -> None:
        self._link = None
        self._watcher: LinkWatcher | None = None
        #: More seats played at this window (people taking turns at the host's
        #: computer): each has its own link (its own seat token) and watcher.
        self.seat_links: list[tuple[Any, LinkWatcher]] = []
        #: The seat each link took (its ``welcome``), by ``id(link)``.
        self._link_seat: dict[int, int] = {}
        #: The versions whose events were kept from one of this window's links (each
        #: link brings its own copy: one is shown).
        self._kept_versions: set[int] = set()
        self.link = link
        #: The host's key to the table (None: this window joined).
        self.host_token = host_token
        self.local_name = local_name
        self.game: RemoteGame | None = None
        self.seat: int | None = None
        self.variant: str | None = None
        self.options: dict[str, Any] = {}
        self.players: list[str] = []
        self.variant_key = ""
        self.seats: list[SeatConfig] = []
        #: The seats' colours as the host chose them (``welcome.colors``).
        self.colors: list[str] = []
        #: The lobby: one dict per seat ({name, kind, connected}); ``started`` once playing.
        self.lobby: list[dict] = []
        self.started = False
        #: The last presence per seat ({connected, name, away_seconds, bot_playing}) and
        #: when (monotonic) the seat went away.
        self.presence: dict[int, dict] = {}
        self.away_since: dict[int, float] = {}
        #: Seats the host chose to keep waiting for (asked again only when they return
        #: and go away again).
        self.waiting_ok: set[int] = set()
        #: Chat lines: (seat, name, text).
        self.chat: list[tuple[int | None, str, str]] = []
        self._chat_seen: set[tuple] = set()
        #: The turn timer: (seat, monotonic deadline) or None.
        self.timer: tuple[int, float] | None = None
        #: The ``over`` message once the game has ended.
        self.over: dict | None = None
        #: Messages for the player (refused moves, server errors) not yet shown.
        self.notices: list[tuple[str, str]] = []
        #: The file the table was saved to (on the host) once the host's save is done.
        self.saved_file: str | None = None
        #: The turn timer the table has (seconds a turn; None: none).
        self.timer_seconds: int | None = None
        self.history: list[list[int]] = []
        #: True when this window has seen the table from its first round (its events then
        #: count every seat's draws for the end screen).
        self.saw_start = False
        self.past_events: list[Event] = []
        self.last_events: list[Event] = []
        self.undo_stack: list = []
        self.undone_note = None
        self.save_path = None
        self.autosave_path = None
        self.autosave_error = None
        self.links: dict[str, Any] = {}
        self.load_notes: list[str] = []
        self._pending: list[Event] = []
        self._batches: list[tuple[list[Event], int]] = []
        self.clock = time.monotonic

    # The table --------------------------------------------------------------------
    @property
    def link(self):
        """The ``TableLink`` (None until the host's table is set)."""
        return self._link

    @link.setter
    def link(self, link) -> None:
        if self._watcher is not None:
            self._watcher.stop()
        self._link = link
        self._watcher = LinkWatcher(link) if link is not None else None

    def add_seat_link(self, link) -> None:
        """One more seat played at this window (hot-seat at the host's computer): its
        link sends that seat's moves and brings its own view; the table's news (lobby,
        chat, presence...) comes by the first link."""
        self.seat_links.append((link, LinkWatcher(link)))

    @property
    def local_seats(self) -> list[int]:
        """The seats played at this window, in seat order (known once welcomed)."""
        return sorted(set(self._link_seat.values()))

    def _link_for(self, seat: int | None):
        for link, _ in self.seat_links:
            if self._link_seat.get(id(link)) == seat:
                return link
        return self.link

    @property
    def status(self) -> str:
        """The link's state: "connecting", "open", "reconnecting" or "closed" (when the
        first link is open, that of another seat played here that is not)."""
        status = getattr(self.link, "status", "closed")
        if status == "open":
            for link, _ in self.seat_links:
                if getattr(link, "status", "closed") != "open":
                    return getattr(link, "status", "closed")
        return status

    @property
    def problem(self) -> str | None:
        problem = getattr(self.link, "problem", None)
        for link, _ in self.seat_links:
            problem = problem or getattr(link, "problem", None)
        return problem

    @property
    def ready(self) -> bool:
        """True once the game can be shown (welcome and a first state have come)."""
        return (self.game is not None and self.game.known
                and all(id(link) in self._link_seat for link, _ in self.seat_links))

    @property
    def is_host(self) -> bool:
        return self.host_token is not None

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "Table"
        if 0 <= seat < len(self.players):
            return self.players[seat]
        if 0 <= seat < len(self.lobby):
            return str(self.lobby[seat].get("name") or f"Seat {seat + 1}")
        return f"Seat {seat + 1}"

    def missing(self) -> list[int]:
        """Seats of people who are not at the table now (lobby or presence)."""
        out = []
        for i, s in enumerate(self.lobby):
            if s.get("kind") != "bot" and not s.get("connected"):
                out.append(i)
        for seat, p in self.presence.items():
            if not p.get("connected") and seat not in out:
                out.append(seat)
        return sorted(out)

    def away_to_ask(self) -> int | None:
        """A seat away long enough that the host must choose (None: none)."""
        if not self.is_host or not self.started:
            return None
        now = self.clock()
        for seat, since in sorted(self.away_since.items()):
            p = self.presence.get(seat, {})
            if p.get("bot_playing") or seat in self.waiting_ok:
                continue
            if now - since >= AWAY_ASK:
                return seat
        return None

    def timer_left(self) -> tuple[int, float] | None:
        """(seat, seconds left) of the running turn timer."""
        if self.timer is None:
            return None
        seat, deadline = self.timer
        return seat, max(0.0, deadline - self.clock())

    # What the board calls -----------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        """True for the seats played at this window (the others play elsewhere)."""
        return seat == self.seat or seat in self._link_seat.values()

    @property
    def humans(self) -> list[int]:
        return self.local_seats or ([self.seat] if self.seat is not None else [])

    def show(self, seat: int) -> None:
        """The board shows ``seat``'s side now (its "I am ..." click): the questions
        asked of the position are asked as that seat knows it."""
        if self.game is not None and seat in self.game.local:
            self.game.seat = seat

    def apply(self, action: Action, note: Any = None) -> list[Event]:
        """Send this seat's action; its events come back by ``poll``."""
        g = self.game
        link = self._link_for(g.current_seat if g is not None else None)
        link.send({"type": "action", "version": g.version if g else -1,
                        "action": _codec().action_to_json(action)})
        if g is not None:
            g.awaiting = True
        return []

    def can_undo(self) -> bool:
        return False

    def undo_seat(self) -> int | None:
        return None

    def undo(self, whole_move: bool = True) -> int | None:
        return None

    def send_chat(self, text: str) -> None:
        text = text.strip()
        if text:     # said by the person at the screen (several may play here)
            link = self._link_for(self.game.seat) if self.game is not None else self.link
            link.send({"type": "chat", "text": text[:300]})

    def host_command(self, command: str, **fields: Any) -> bool:
        """A host's command (bot_for, wait, save, timer); False when not the host."""
        if self.host_token is None:
            return False
        self.link.send({"type": "host", "host_token": self.host_token, "command": command,
                        **fields})
        return True

    def start(self) -> bool:
        """The host starts the table."""
        if self.host_token is None:
            return False
        self.link.send({"type": "start", "host_token": self.host_token})
        return True

    def let_bot_play(self, seat: int) -> None:
        """Host: a Normal bot plays ``seat`` until its person returns."""
        self.host_command("bot_for", seat=seat)
        self.waiting_ok.discard(seat)

    def keep_waiting(self, seat: int) -> None:
        """Host: keep waiting for ``seat`` (asked again only after a further while)."""
        self.host_command("wait", seat=seat)
        self.waiting_ok.add(seat)

    # Messages ------------------------------------------------------------------------
    def poll(self) -> list[tuple[list[Event], int]]:
        """Read what the table sent; returns the batches of events to show, each with
        the seat that acted (the game already shows the position after them)."""
        sources = [(self.link, self._watcher)] + list(self.seat_links)
        for link, watcher in sources:
            if watcher is None:
                continue
            for msg in watcher.take():
                try:
                    self._take(msg, link)
                except Exception as exc:  # noqa: BLE001  (a bad message never ends the game)
                    log.warning("message %r not understood: %s", msg.get("type"), exc)
                    self.notices.append(("A message from the table could not be read.",
                                         "error"))
        if self._pending and self.game is not None and self.game.known:
            # events without a state after them (yet)
            self._flush(self.game.current_seat if self.game else 0)
        out, self._batches = self._batches, []
        return out

    def _flush(self, actor: int) -> None:
        events, self._pending = self._pending, []
        by_seat = next((e.seat for e in events if e.seat is not None), actor)
        self.past_events.extend(events)
        self.last_events = events
        self._batches.append((events, by_seat if by_seat is not None else actor))

    def _take(self, msg: dict, link=None) -> None:
        kind = msg.get("type")
        if link is not None and link is not self.link:
            self._take_seat_link(msg, link)
            return
        if kind == "welcome":
            self._welcome(msg)
            if link is not None:
                self._link_seat[id(link)] = self.seat
        elif kind == "lobby":
            self.lobby = [dict(s) for s in msg.get("seats", [])]
            self.started = bool(msg.get("started", self.started))
            if not self.players:
                self.players = [str(s.get("name") or f"Seat {i + 1}")
                                for i, s in enumerate(self.lobby)]
            self._seat_configs()
        elif kind == "state":
            self._state(msg, self.seat)   # the first link's seat (not the one shown)
        elif kind == "events":
            self._events(msg, self.seat)
        elif kind == "illegal":
            if self.game is not None:
                self.game.awaiting = False
            self.notices.append((str(msg.get("reason") or "That move is not possible."),
                                 "error"))
        elif kind == "presence":
            self._presence(msg)
        elif kind == "chat":
            seat = msg.get("seat")
            key = (seat, msg.get("time"), msg.get("text"))
            if msg.get("time") is not None:
                if key in self._chat_seen:     # the table repeats its chat on a rejoin
                    return
                self._chat_seen.add(key)
            self.chat.append((seat, str(msg.get("name") or self.name_of(seat)),
                              str(msg.get("text", ""))))
            del self.chat[:-100]
        elif kind == "timer":
            seconds = msg.get("deadline_seconds")
            self.timer = None if seconds is None else (int(msg.get("seat", 0)),
                                                       self.clock() + float(seconds))
        elif kind == "over":
            self.over = dict(msg)
        elif kind == "saved":
            self.saved_file = str(msg.get("file") or "")
        elif kind == "error":
            if self.game is not None:
                self.game.awaiting = False
            self.notices.append((str(msg.get("message") or "The table refused that."),
                                 "error"))

    def _take_seat_link(self, msg: dict, link) -> None:
        """A message on the link of one more seat played here: its welcome, its states,
        its own moves' events, and what it was refused; the rest comes by the first link."""
        kind = msg.get("type")
        if kind == "welcome":
            seat = int(msg["seat"])
            self._link_seat[id(link)] = seat
            if self.game is not None:
                self.game.local.add(seat)
        elif kind == "state":
            seat = self._link_seat.get(id(link))
            if self.game is None or seat is None:
                raise ValueError("a state came before the welcome")
            self._state(msg, seat)
        elif kind == "events":
            self._events(msg, self._link_seat.get(id(link)))
        elif kind in ("illegal", "error"):
            self._take(msg)

    def _events(self, msg: dict, seat: int | None) -> None:
        """The events of one version, as the link of ``seat`` got them. Each link of this
        window gets its own copy; the one kept is that of the seat that acted when it is
        played here (its own cards shown), else the first link's."""
        codec = _codec()
        events = [codec.event_from_json(e) for e in msg.get("events", [])]
        actor = next((e.seat for e in events if e.seat is not None), None)
        local = set(self._link_seat.values()) | ({self.seat} if self.seat is not None else set())
        keep = seat == actor if actor in local else seat == self.seat
        version = msg.get("version")
        if keep and self.seat_links and isinstance(version, int):
            if version in self._kept_versions:
                return              # another link's copy of this move is shown already
            self._kept_versions.add(version)
            self._kept_versions.difference_update(
                [v for v in self._kept_versions if v < version - 200])
        if keep:
            self._pending.extend(events)

    def _welcome(self, msg: dict) -> None:
        self.seat = int(msg["seat"])
        self.variant = str(msg["variant"])
        self.options = dict(_codec().value_from_json(msg.get("options") or {}))
        self.timer_seconds = msg.get("turn_timer")
        players = msg.get("players") or self.players
        self.players = [p if isinstance(p, str) else str(p.get("name", f"Seat {i + 1}"))
                        for i, p in enumerate(players)]
        colors = msg.get("colors")
        self.colors = [str(c) for c in colors] if isinstance(colors, list) else []
        if msg.get("host") and self.host_token is None:
            self.host_token = msg.get("host_token")
        self._seat_configs()
        if self.game is None or self.game.variant != self.variant:
            self.game = RemoteGame(self.variant, self.options, self.players, self.seat)
            self.variant_key = choice_key(self.game._base)
        self.game.local.update(self._link_seat.values())
        self.game.local.add(self.seat)

    def _seat_configs(self) -> None:
        seats = []
        for i, name in enumerate(self.players):
            info = self.lobby[i] if i < len(self.lobby) else {}
            if "color" not in info and i < len(self.colors):
                info = {**info, "color": self.colors[i]}
            kind = "bot" if info.get("kind") == "bot" else "human"
            # The host's colours when the table passes them on, else the usual order.
            color = info.get("color") if info.get("color") in SEAT_COLORS else \
                SEAT_COLORS[i % len(SEAT_COLORS)]
            seats.append(SeatConfig(name, kind=kind, level=str(info.get("level") or "greedy"),
                                    color=color))
        self.seats = seats

    def _state(self, msg: dict, seat: int | None = None) -> None:
        if self.game is None:
            raise ValueError("a state came before the welcome")
        codec = _codec()
        view = codec.view_from_json(msg["view"], self.game.map)
        legal = [codec.action_from_json(a) for a in msg.get("legal", [])]
        actor = self.game.current_seat
        turn_before = self.game.turn if self.game.known else None
        if turn_before is None:      # the first position this window sees
            self.saw_start = msg.get("turn", 0) == 0
        self.game.update(msg, view, legal, seat)
        self.started = True
        if turn_before is None or not self.history:
            self.history = [list(view.points)]
        elif self.game.turn != turn_before:
            self.history.append(list(view.points))
        if self._pending:
            self._flush(actor)

    def _presence(self, msg: dict) -> None:
        seat = int(msg["seat"])
        self.presence[seat] = dict(msg)
        if msg.get("connected"):
            self.away_since.pop(seat, None)
            self.waiting_ok.discard(seat)
        elif seat not in self.away_since:
            self.away_since[seat] = self.clock() - float(msg.get("away_seconds") or 0)
        if 0 <= seat < len(self.lobby):
            self.lobby[seat]["connected"] = bool(msg.get("connected"))

    def take_notices(self) -> list[tuple[str, str]]:
        out, self.notices = self.notices, []
        return out

    # What a GameSession also has (nothing to do for a remote table) --------------------
    def meta(self) -> dict[str, Any]:
        return {"seats": [], "variant_key": self.variant_key}

    def autosave(self, path=None):
        return None

    def wait_for_autosave(self, timeout: float = 5.0) -> None:
        return None

    def finished(self) -> None:
        return None

    def save(self, path):
        from ttr_desktop.persistence import SaveError
        raise SaveError("An online table is saved by its host (Save table).")

    #: The end screen's main button: back to the title screen (host or join again).
    again_label = "Play online again"

    def play_again(self, app) -> None:
        self.close()
        from ttr_desktop.ui.net.screens import back_to_title
        back_to_title(app)

    def close(self) -> None:
        """Leave the table (the link closes; the seat stays yours to rejoin)."""
        if self._watcher is not None:
            self._watcher.stop()
        for link, watcher in self.seat_links:
            watcher.stop()
            try:
                link.close()
            except Exception:
                log.debug("closing a seat's link", exc_info=True)
        if self.link is None:
            return
        try:
            self.link.close()
        except Exception:
            log.debug("closing the link", exc_info=True)


__all__ = ["RemoteGame", "RemoteSession"]
