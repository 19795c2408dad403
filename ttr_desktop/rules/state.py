"""Game state: plain data only (lists, ints, strings), so copies and saves are simple."""

from __future__ import annotations

import copy as _copy
from dataclasses import fields
from typing import Any


class Phase:
    """The core's phase names (what decision is pending; ``legal_actions()`` switches on it).

    Phases are an open set of strings: rule modules register their own (the
    tunnels module's ``pay_tunnel``, Old West's ``choose_home_city``...) in
    their ``phases``. Compare phases with ``==``."""

    CHOOSE_INITIAL_TICKETS = "choose_initial_tickets"
    TURN = "turn"
    SECOND_CARD = "second_card"          # no face-up locomotive here
    KEEP_TICKETS = "keep_tickets"
    GAME_OVER = "game_over"

    CORE = (CHOOSE_INITIAL_TICKETS, TURN, SECOND_CARD, KEEP_TICKETS, GAME_OVER)


_new = object.__new__
_list_copy = list.copy


class ModuleState:
    """Base of a rule module's typed state: a dataclass of plain values.

    ``copy()`` copies it for ``Game.clone()``; ``to_dict()`` / ``from_dict()``
    turn it into TOML-friendly data for saves (no None: use -1 or "").
    Subclasses may override ``copy`` with a faster hand-written one.
    """

    def copy(self) -> "ModuleState":
        """An independent copy."""
        new = object.__new__(type(self))
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, (list, dict)):
                value = _copy.deepcopy(value)
            object.__setattr__(new, f.name, value)
        return new

    def to_dict(self) -> dict[str, Any]:
        """Plain data (dict keys are strings, tuples become lists)."""
        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}  # type: ignore

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ModuleState":
        """The state from ``to_dict`` output (ValueError when it does not fit)."""
        if not isinstance(data, dict):
            raise ValueError("module state must be a table")
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown module state entries {sorted(unknown)}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise ValueError(str(exc)) from None


class GameState:
    """Everything that changes during a game. Cards are indices into ``Board.card_names``;
    the top of the train deck and of each ticket deck is the *end* of its list."""

    __slots__ = ("deck", "discard", "face_up", "hands", "tickets", "pending", "ticket_decks",
                 "boxed_tickets", "held_returns", "owner", "trains", "points", "ledger", "phase",
                 "current", "first_seat", "turn", "final_turns_left", "passes", "pipeline",
                 "known", "route_paid", "ticket_log", "ext")

    def __init__(self) -> None:
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.face_up: list[int] = []           # -1 for an empty slot
        self.hands: list[list[int]] = []       # per seat, count per card index
        # Per seat, kept and drawn-not-yet-kept ticket indices. Each seat's list is
        # replaced when it changes, never changed in place, so copies share them.
        self.tickets: list[list[int]] = []
        self.pending: list[list[int]] = []
        self.ticket_decks: dict[str, list[int]] = {}
        self.boxed_tickets: list[int] = []     # returned to the box (Europe's initial returns)
        self.held_returns: list[int] = []      # initial returns waiting for the last seat
        # The ledger and the ticket log are tuples, replaced and never changed in place, so
        # copies and views share them for free.
        self.owner: list[int] = []             # per route: seat, or -1
        self.trains: list[int] = []
        self.points: list[int] = []            # the score track (sum of the ledger per seat)
        #: The score track's entries: (seat, amount, reason, reference), in order.
        self.ledger: tuple[tuple[int, int, str, str], ...] = ()
        self.phase: str = Phase.CHOOSE_INITIAL_TICKETS
        self.current: int = 0
        self.first_seat: int = 0
        self.turn: int = 0                     # completed turns
        self.final_turns_left: int = -1        # -1 until the final round starts
        self.passes: int = 0                   # passes in a row (a full round ends the game)
        #: Steps still to run: (owner, step, data) — "core" or a module name.
        self.pipeline: list[tuple[str, str, dict[str, Any]]] = []
        #: Per seat, per card: cards taken face up and not yet seen played (public).
        self.known: list[list[int]] = []
        #: Per route: the cards its claim was paid with (public), () while open.
        #: (A tuple too, replaced on each claim and only there: views share it, and
        #: search tells by its identity whether any route changed hands.)
        self.route_paid: tuple[tuple[tuple[str, int], ...], ...] = ()
        #: Ticket draws: (seat, drawn, kept; kept is -1 until chosen) (public).
        self.ticket_log: tuple[tuple[int, int, int], ...] = ()
        self.ext: dict[str, ModuleState] = {}  # rule-module state by module name

    def copy(self) -> "GameState":
        """An independent copy. (``map(list.copy, ...)``: Python 3.11 builds a frame for
        each list comprehension, which made the per-seat copies a third of a clone.)"""
        c = _new(GameState)
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.face_up = self.face_up[:]
        c.hands = [*map(_list_copy, self.hands)]
        c.tickets = self.tickets[:]            # per seat: replaced, never changed in place
        c.pending = self.pending[:]
        c.ticket_decks = decks = self.ticket_decks.copy()   # (a comprehension: a frame)
        for k, v in decks.items():
            decks[k] = v[:]
        c.boxed_tickets = self.boxed_tickets[:]
        c.held_returns = self.held_returns[:]
        c.owner = self.owner[:]
        c.trains = self.trains[:]
        c.points = self.points[:]
        c.ledger = self.ledger
        c.phase = self.phase
        c.current = self.current
        c.first_seat = self.first_seat
        c.turn = self.turn
        c.final_turns_left = self.final_turns_left
        c.passes = self.passes
        c.pipeline = self.pipeline[:]          # stages are never mutated in place
        c.known = [*map(_list_copy, self.known)]
        c.route_paid = self.route_paid
        c.ticket_log = self.ticket_log
        c.ext = {k: v.copy() for k, v in self.ext.items()} if self.ext else {}
        return c

    def to_dict(self) -> dict[str, Any]:
        """Plain data (TOML-friendly: no None) describing the whole state."""
        return {
            "deck": self.deck[:], "discard": self.discard[:], "face_up": self.face_up[:],
            "hands": [h[:] for h in self.hands], "tickets": [t[:] for t in self.tickets],
            "pending": [p[:] for p in self.pending],
            "ticket_decks": {k: v[:] for k, v in self.ticket_decks.items()},
            "boxed_tickets": self.boxed_tickets[:], "held_returns": self.held_returns[:],
            "owner": list(self.owner), "trains": self.trains[:], "points": self.points[:],
            "ledger": [list(e) for e in self.ledger], "phase": self.phase,
            "current": self.current, "first_seat": self.first_seat, "turn": self.turn,
            "final_turns_left": self.final_turns_left, "passes": self.passes,
            "pipeline": [[o, n, plain(d)] for o, n, d in self.pipeline],
            "known": [k[:] for k in self.known],
            "route_paid": [[list(p) for p in paid] for paid in self.route_paid],
            "ticket_log": [list(e) for e in self.ticket_log],
            "ext": {k: v.to_dict() for k, v in self.ext.items()},
        }


def plain(value: Any) -> Any:
    """Module state as TOML-friendly plain data (dict keys as strings, tuples as lists)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
