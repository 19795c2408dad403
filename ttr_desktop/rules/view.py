"""PlayerView: exactly what one seat may know. Bots only ever receive a view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_desktop.maps.model import GameMap, Ticket

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Own hand and tickets, public counts and the board; never other hands,
    other tickets or the deck order."""

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
    route_owners: dict[str, int]
    trains_left: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    points: tuple[int, ...]
    players: tuple[str, ...]
    map: GameMap
    variant: str
    turn: int
    final_round: bool
    completed_tickets: tuple[str, ...]
    doubles_open: bool
    route_points: dict[int, int]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

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
        return PlayerView(
            seat=seat,
            phase=s.phase.value,
            current_seat=s.current,
            hand={names[i]: n for i, n in enumerate(s.hands[seat])},
            tickets=tuple(b.tickets[t] for t in s.tickets[seat]),
            pending_tickets=tuple(b.tickets[t] for t in s.pending[seat]),
            face_up=tuple(names[c] if c >= 0 else None for c in s.face_up),
            deck_size=len(s.deck),
            discard_size=len(s.discard),
            ticket_deck_size=len(s.ticket_decks["regular"]),
            route_owners={b.route_ids[r]: o for r, o in enumerate(s.owner) if o >= 0},
            trains_left=tuple(s.trains),
            hand_sizes=tuple(sum(h) for h in s.hands),
            ticket_counts=tuple(len(t) for t in s.tickets),
            points=tuple(s.points),
            players=tuple(game.players),
            map=b.map,
            variant=game.variant,
            turn=s.turn,
            final_round=s.final_turns_left >= 0,
            completed_tickets=tuple(game.completed_tickets(seat)),
            doubles_open=game.num_players >= game.ruleset.doubles_min_players,
            route_points=dict(game.ruleset.route_points),
            extra=extra,
        )
