"""The narrow surface rule modules act through (``RuleContext``) and step outcomes.

A module never touches ``Game`` or ``GameState`` directly: it reads what it
needs and acts (pay cards, take a card from the deck, score with a reason,
open a step, emit an event) through the context. Only the core ends a turn:
a hook answers DONE (carry on), ``ctx.open(phase)`` (a decision is pending
in that phase) or ``ctx.abort()`` (the claim in progress is called off; the
turn ends).
"""

from __future__ import annotations

import weakref

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.events import Event
from ttr_desktop.rules.graph import Components, components

if TYPE_CHECKING:
    from ttr_desktop.maps.model import GameMap
    from ttr_desktop.rules.board import Board
    from ttr_desktop.rules.game import Game
    from ttr_desktop.rules.graph import RouteGraph
    from ttr_desktop.rules.ruleset import Ruleset
    from ttr_desktop.rules.state import ModuleState

#: A step is finished: the core runs the next one (or ends the turn).
DONE = "done"
#: A decision is pending in the phase the module opened.
OPEN = "open"
#: The claim in progress is called off (a tunnel given up); the turn ends.
ABORT = "abort"

Stage = tuple[str, str, dict[str, Any]]


class RuleContext:
    """What a rule module may read and do. One per game; cheap to create.

    It holds its game by a weak reference: a game and its context form no reference
    cycle, so a search's thousands of short-lived clones are freed at once instead of
    waiting for the cycle collector (which made each clone twice as dear)."""

    __slots__ = ("_ref",)

    def __init__(self, game: "Game") -> None:
        self._ref = weakref.ref(game)

    @property
    def _g(self) -> "Game":
        return self._ref()

    # Reading ----------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat that acts now."""
        return self._g.state.current

    @property
    def n_players(self) -> int:
        """Number of seats."""
        return len(self._g.players)

    @property
    def players(self) -> list[str]:
        """Seat names."""
        return self._g.players

    @property
    def phase(self) -> str:
        """The pending decision."""
        return self._g.state.phase

    @property
    def board(self) -> "Board":
        """The compiled board (static, public)."""
        return self._g.board

    @property
    def graph(self) -> "RouteGraph":
        """The route network (static, public)."""
        return self._g.board.graph

    @property
    def map(self) -> "GameMap":
        """The map."""
        return self._g.board.map

    @property
    def ruleset(self) -> "Ruleset":
        """The ruleset in play."""
        return self._g.ruleset

    @property
    def rng(self) -> random.Random:
        """The game's own random generator (deck order is part of the state)."""
        return self._g._random()

    @property
    def turn(self) -> int:
        """Completed turns."""
        return self._g.state.turn

    @property
    def first_seat(self) -> int:
        """The seat that played first."""
        return self._g.state.first_seat

    @property
    def final_round(self) -> bool:
        """True once the final round has started."""
        return self._g.state.final_turns_left >= 0

    def knob(self, name: str, default: Any = None) -> Any:
        """A module knob of the ruleset."""
        return self._g.ruleset.knob(name, default)

    def state(self, module: str) -> "ModuleState":
        """A module's typed state."""
        return self._g.state.ext[module]

    def set_state(self, module: str, value: "ModuleState") -> None:
        """Install a module's state (at setup)."""
        self._g.state.ext[module] = value

    def owner(self, route: int) -> int:
        """The seat owning route index ``route``, or -1."""
        return self._g.state.owner[route]

    def owners(self) -> Sequence[int]:
        """Owner per route (read only)."""
        return self._g.state.owner

    def hand(self, seat: int) -> Sequence[int]:
        """``seat``'s cards, count per card index (read only)."""
        return self._g.state.hands[seat]

    def trains(self, seat: int) -> int:
        """Trains ``seat`` has left."""
        return self._g.state.trains[seat]

    def points(self, seat: int) -> int:
        """``seat``'s score track."""
        return self._g.state.points[seat]

    def tickets(self, seat: int) -> Sequence[int]:
        """``seat``'s kept ticket indices (read only)."""
        return self._g.state.tickets[seat]

    def deck_size(self) -> int:
        """Cards in the train deck."""
        return len(self._g.state.deck)

    def discard_size(self) -> int:
        """Cards in the discard pile."""
        return len(self._g.state.discard)

    def discard_pile(self) -> Sequence[int]:
        """The discard pile (public), bottom first (read only)."""
        return self._g.state.discard

    def components(self, seat: int, extra: Sequence[int] = ()) -> Components:
        """The connected parts of ``seat``'s routes (plus ``extra`` route indices)."""
        owner = self._g.state.owner
        routes = [r for r, o in enumerate(owner) if o == seat]
        routes.extend(extra)
        return components(self._g.board.graph, routes)

    def claim_in_progress(self) -> dict[str, Any] | None:
        """The claim being made (route index, seat, paid vector), while a step runs."""
        for owner, name, data in self._g.state.pipeline:
            if owner == "core" and name == "complete_claim":
                return data
        return None

    # Acting -----------------------------------------------------------------
    def pay(self, seat: int, vec: Sequence[int]) -> None:
        """Spend a pay vector: cards from the hand to the discard, sources to their
        modules (``spend_source``). The payment is public."""
        self._g._pay(seat, vec)

    def give_card(self, seat: int, card: int) -> None:
        """Put ``card`` (taken from the deck by ``draw_card``) into ``seat``'s hand."""
        self._g.state.hands[seat][card] += 1

    def draw_card(self, reason: str) -> int:
        """The top card of the deck (reshuffling on demand), through every module's
        ``on_deck_card``; -1 when none is left. ``reason`` names why (a module's own
        word, e.g. "large_city")."""
        return self._g._draw_card(self._g._ev, reason)

    def discard(self, cards: Sequence[int]) -> None:
        """Put cards on the discard pile."""
        self._g.state.discard.extend(cards)

    def score(self, seat: int, amount: int, reason: str, ref: str = "") -> None:
        """Move ``seat`` on the score track, with a reason (``route``, ``event``...)."""
        if amount:
            self._g._score(seat, amount, reason, ref)

    def emit(self, kind: str, seat: int | None = None, data: dict[str, Any] | None = None,
             private: tuple[str, ...] = (), secret: bool = False,
             reveals: bool = False) -> Event:
        """Report something that happened (for logs, animations and other seats)."""
        ev = Event(kind, seat, data or {}, private, secret, reveals)
        self._g._ev.append(ev)
        return ev

    def open(self, phase: str, seat: int | None = None) -> str:
        """Make ``phase`` the pending decision (of ``seat``, default the acting seat)."""
        s = self._g.state
        s.phase = phase
        if seat is not None:
            s.current = seat
        return OPEN

    def abort(self) -> str:
        """Call off the claim in progress; the turn ends."""
        return ABORT

    def add_to_claim(self, vec: Sequence[int]) -> None:
        """Add cards to the claim in progress (a tunnel's extra cards)."""
        pipe = self._g.state.pipeline
        for i, (owner, name, data) in enumerate(pipe):
            if owner == "core" and name == "complete_claim":
                paid = [a + b for a, b in zip(data["paid"], vec)]
                pipe[i] = (owner, name, {**data, "paid": paid})
                return
        raise RuntimeError("no claim in progress")

    def schedule(self, stages: Sequence[Stage]) -> None:
        """Run these steps next, in order, before the rest of the turn."""
        self._g.state.pipeline[0:0] = list(stages)
