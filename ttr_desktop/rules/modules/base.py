"""The rule-module hooks.

A variant is a map plus a ruleset; the ruleset lists rule modules by name.
The core turn logic (draws, claims, tickets, end of game) knows nothing about
any module: it calls these hooks at fixed points, in module order.

Hook points, in the order a game meets them:

1. ``compile(board)`` — once per (map, ruleset): adjust static data, e.g. the
   locomotives a ferry needs (``board.r_min_locos``).
2. ``setup(game)`` — once per new game, after cards and tickets are dealt:
   put the module's own state into ``game.state.ext[self.name]`` (plain data).
3. ``turn_actions(game, seat)`` — extra actions offered in the TURN phase
   (e.g. build a station), appended after the core's.
4. ``phase_actions(game, phase)`` — the actions of a phase the module owns
   (e.g. paying a tunnel); None when it does not own the phase.
5. ``apply(game, action)`` — carry out an action of a kind in ``action_kinds``;
   returns events.
6. ``before_claim(game, seat, route, paid)`` — called when a claim is chosen,
   before anything is paid. Return None to let the core complete the claim,
   or a list of events to take the claim over (a tunnel reveals cards and
   may open its own phase, completing the claim later with
   ``game.complete_claim``).
7. ``ticket_edge_options(game, seat)`` — at scoring, alternative sets of extra
   routes that count for the seat's tickets (stations borrow routes); the
   core picks the set that scores best.
8. ``score_parts(game, seat)`` — extra named parts of the final score.
9. ``tie_break_value(game, seat, name)`` — the value of a named tie-break the
   module knows (higher is better), or None.
10. ``view_fields(game, seat)`` — extra public or own fields for PlayerView.
11. ``copy_state(data)`` — a deep-enough copy of the module's state for clone().
12. ``held_cards(game)`` — train cards the module holds aside (tunnel reveals),
    so the card count stays checkable.
13. ``explain(game, action)`` — why an action of the module is illegal now.

Save files need nothing from modules: the module state is plain data in
``state.ext`` and is written with the snapshot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.board import Board
    from ttr_desktop.rules.events import Event
    from ttr_desktop.rules.game import Game


class RuleModule:
    """Base class: every hook does nothing."""

    name: str = ""
    action_kinds: tuple[str, ...] = ()
    #: Phases this module owns (phase_actions answers for them).
    phases: tuple[str, ...] = ()

    def compile(self, board: "Board") -> None:
        """Adjust the static board."""

    def setup(self, game: "Game") -> list["Event"]:
        """Add the module's state to a new game."""
        return []

    def turn_actions(self, game: "Game", seat: int) -> list["Action"]:
        """Extra actions in the TURN phase."""
        return []

    def phase_actions(self, game: "Game", phase: str) -> list["Action"] | None:
        """Actions of a phase this module owns, else None."""
        return None

    def apply(self, game: "Game", action: "Action") -> list["Event"]:
        """Carry out one of this module's actions."""
        raise NotImplementedError(action.kind)

    def before_claim(self, game: "Game", seat: int, route: int,
                     paid: list[int]) -> list["Event"] | None:
        """Take over a claim (return events) or let the core complete it (None)."""
        return None

    def ticket_edge_options(self, game: "Game", seat: int) -> list[tuple[int, ...]] | None:
        """Alternative extra route sets that count for tickets, or None."""
        return None

    def score_parts(self, game: "Game", seat: int) -> dict[str, int]:
        """Extra named parts of the final score."""
        return {}

    def tie_break_value(self, game: "Game", seat: int, name: str) -> int | None:
        """Value of a tie-break this module knows (higher wins), or None."""
        return None

    def view_fields(self, game: "Game", seat: int) -> dict[str, Any]:
        """Extra PlayerView fields."""
        return {}

    def copy_state(self, data: Any) -> Any:
        """Copy of this module's state for clone()."""
        return data

    def held_cards(self, game: "Game") -> list[int]:
        """Train cards the module holds outside deck, discard, display and hands."""
        return []

    def explain(self, game: "Game", action: "Action") -> str | None:
        """Why one of this module's actions is illegal now, for a player."""
        return None
