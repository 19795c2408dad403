"""Game state: plain data only (lists and ints), so copies and saves are simple."""

from __future__ import annotations

import enum
from typing import Any


class Phase(str, enum.Enum):
    """What decision is pending; ``legal_actions()`` switches on it."""

    CHOOSE_INITIAL_TICKETS = "choose_initial_tickets"
    TURN = "turn"
    SECOND_CARD = "second_card"          # no face-up locomotive here
    KEEP_TICKETS = "keep_tickets"
    PAY_TUNNEL = "pay_tunnel"
    GAME_OVER = "game_over"


class GameState:
    """Everything that changes during a game. Cards are indices into ``Board.card_names``;
    the top of the train deck and of each ticket deck is the *end* of its list."""

    __slots__ = ("deck", "discard", "face_up", "hands", "tickets", "pending", "ticket_decks",
                 "boxed_tickets", "owner", "trains", "points", "phase", "current", "first_seat",
                 "choosing_left", "turn", "final_turns_left", "passes", "ext")

    def __init__(self) -> None:
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.face_up: list[int] = []           # -1 for an empty slot
        self.hands: list[list[int]] = []       # per seat, count per card index
        self.tickets: list[list[int]] = []     # per seat, kept ticket indices
        self.pending: list[list[int]] = []     # per seat, drawn but not yet kept
        self.ticket_decks: dict[str, list[int]] = {}
        self.boxed_tickets: list[int] = []     # returned to the box (Europe's initial returns)
        self.owner: list[int] = []             # per route: seat, or -1
        self.trains: list[int] = []
        self.points: list[int] = []            # the score track
        self.phase: Phase = Phase.CHOOSE_INITIAL_TICKETS
        self.current: int = 0
        self.first_seat: int = 0
        self.choosing_left: int = 0            # seats still to choose initial tickets
        self.turn: int = 0                     # completed turns
        self.final_turns_left: int = -1        # -1 until the final round starts
        self.passes: int = 0                   # passes in a row (a full round ends the game)
        self.ext: dict[str, Any] = {}          # rule-module state, plain data

    def copy(self, copy_ext) -> "GameState":
        """An independent copy; ``copy_ext`` copies the module state."""
        c = GameState.__new__(GameState)
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.face_up = self.face_up[:]
        c.hands = [h[:] for h in self.hands]
        c.tickets = [t[:] for t in self.tickets]
        c.pending = [p[:] for p in self.pending]
        c.ticket_decks = {k: v[:] for k, v in self.ticket_decks.items()}
        c.boxed_tickets = self.boxed_tickets[:]
        c.owner = self.owner[:]
        c.trains = self.trains[:]
        c.points = self.points[:]
        c.phase = self.phase
        c.current = self.current
        c.first_seat = self.first_seat
        c.choosing_left = self.choosing_left
        c.turn = self.turn
        c.final_turns_left = self.final_turns_left
        c.passes = self.passes
        c.ext = copy_ext(self.ext)
        return c

    def to_dict(self) -> dict[str, Any]:
        """Plain data (TOML-friendly: no None) describing the whole state."""
        return {
            "deck": self.deck[:], "discard": self.discard[:], "face_up": self.face_up[:],
            "hands": [h[:] for h in self.hands], "tickets": [t[:] for t in self.tickets],
            "pending": [p[:] for p in self.pending],
            "ticket_decks": {k: v[:] for k, v in self.ticket_decks.items()},
            "boxed_tickets": self.boxed_tickets[:], "owner": self.owner[:],
            "trains": self.trains[:], "points": self.points[:], "phase": self.phase.value,
            "current": self.current, "first_seat": self.first_seat,
            "choosing_left": self.choosing_left, "turn": self.turn,
            "final_turns_left": self.final_turns_left, "passes": self.passes,
            "ext": _plain(self.ext),
        }


def _plain(value: Any) -> Any:
    """Module state as TOML-friendly plain data (dict keys as strings, tuples as lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
