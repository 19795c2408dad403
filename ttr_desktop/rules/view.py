"""PlayerView: exactly what one seat may know. Bots only ever receive a view."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ttr_desktop.maps.graph import city_labels
from ttr_desktop.maps.model import GameMap, Ticket

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game

_FIELDS = ("seat", "phase", "current_seat", "hand", "tickets", "pending_tickets", "face_up",
           "deck_size", "discard_size", "ticket_deck_size", "trains_left", "hand_sizes",
           "ticket_counts", "points", "players", "map", "variant", "turn", "final_round",
           "doubles_open", "route_points", "extra")


class PlayerView:
    """Own hand and tickets, public counts and the board; never other hands, other
    tickets or the deck order. It holds copies, not the game, so nothing hidden is
    reachable from it, and changing a view changes nothing in the game.
    ``route_owners`` and ``completed_tickets`` are computed on first use (most bot
    decisions never need them)."""

    __slots__ = _FIELDS + ("_owner", "_board", "_route_owners", "_completed")

    seat: int
    phase: str
    current_seat: int
    hand: dict[str, int]
    tickets: tuple[Ticket, ...]
    pending_tickets: tuple[Ticket, ...]
    face_up: tuple[str | None, ...]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    trains_left: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    points: tuple[int, ...]
    players: tuple[str, ...]
    map: GameMap
    variant: str
    turn: int
    final_round: bool
    doubles_open: bool
    route_points: dict[int, int]
    extra: dict[str, Any]

    def __init__(self, **kwargs: Any) -> None:
        owner = kwargs.pop("owner")
        board = kwargs.pop("board")
        for name in _FIELDS:
            setattr(self, name, kwargs.pop(name))
        if kwargs:
            raise TypeError(f"unknown PlayerView fields: {', '.join(kwargs)}")
        self._owner = tuple(owner)
        self._board = board
        self._route_owners = None
        self._completed = None

    def __repr__(self) -> str:
        return (f"PlayerView(seat={self.seat}, phase={self.phase!r}, "
                f"current_seat={self.current_seat}, hand={self.hand})")

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def route_owners(self) -> dict[str, int]:
        """Route id -> seat, for every claimed route."""
        if self._route_owners is None:
            ids = self._board.route_ids
            self._route_owners = {ids[r]: o for r, o in enumerate(self._owner) if o >= 0}
        return self._route_owners

    @property
    def completed_tickets(self) -> tuple[str, ...]:
        """Ids of this seat's kept tickets already connected by its own routes."""
        if self._completed is None:
            b = self._board
            labels = city_labels(b.n_cities, ((b.r_a[r], b.r_b[r])
                                              for r, o in enumerate(self._owner) if o == self.seat))
            done = tuple(t.id for t in self.tickets
                         if labels[b.city_index[t.a]] == labels[b.city_index[t.b]])
            self._completed = done
        return self._completed

    def as_dict(self) -> dict[str, Any]:
        """Every field by name (for tests and debugging)."""
        out = {name: getattr(self, name) for name in _FIELDS}
        out["route_owners"] = self.route_owners
        out["completed_tickets"] = self.completed_tickets
        return out

    @staticmethod
    def build(game: "Game", seat: int) -> "PlayerView":
        """The view of ``seat`` in ``game``."""
        s, b = game.state, game.board
        if not 0 <= seat < game.num_players:
            raise ValueError(f"no seat {seat}")
        names = b.card_names
        extra: dict[str, Any] = {}
        for module in game.modules:
            extra.update(module.view_fields(game, seat))
        tickets = b.tickets
        v = PlayerView.__new__(PlayerView)
        v.seat = seat
        v.phase = s.phase.value
        v.current_seat = s.current
        v.hand = dict(zip(names, s.hands[seat]))
        v.tickets = tuple([tickets[t] for t in s.tickets[seat]])
        v.pending_tickets = tuple([tickets[t] for t in s.pending[seat]])
        v.face_up = tuple([names[c] if c >= 0 else None for c in s.face_up])
        v.deck_size = len(s.deck)
        v.discard_size = len(s.discard)
        v.ticket_deck_size = len(s.ticket_decks["regular"])
        v.trains_left = tuple(s.trains)
        v.hand_sizes = tuple(map(sum, s.hands))
        v.ticket_counts = tuple(map(len, s.tickets))
        v.points = tuple(s.points)
        v.players = tuple(game.players)
        v.map = b.map
        v.variant = game.variant
        v.turn = s.turn
        v.final_round = s.final_turns_left >= 0
        v.doubles_open = game.num_players >= game.ruleset.doubles_min_players
        v.route_points = MappingProxyType(game.ruleset.route_points)
        v.extra = extra
        v._owner = tuple(s.owner)
        v._board = b
        v._route_owners = None
        v._completed = None
        return v
