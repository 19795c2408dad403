"""The easy bot: plays like a beginner — short-sighted, but never hoarding.

A gentle opponent for a first game: it keeps only the fewest tickets it must and
never draws more; now and then it grabs a face-up card that catches its eye where
Normal would have planned; and once its hand is full (``HAND_LIMIT`` cards) it spends
cards on the best route it can pay for rather than collect more. It still plays real
Ticket to Ride (unlike ``random``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ttr_desktop.bots.base import no_choice
from ttr_desktop.bots.greedy import GreedyBot

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView

#: Chance, per decision in a turn, of grabbing a face-up card instead of the greedy move.
DISTRACTION = 0.3
#: With this many cards in hand it claims what it can instead of drawing (no hoarding).
HAND_LIMIT = 10


class EasyBot(GreedyBot):
    """Greedy play with the fewest tickets and some idle card draws."""

    name = "easy"
    level = 1

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """A greedy choice, softened."""
        no_choice(legal_actions)
        phase = view.phase
        keeps = [a for a in legal_actions if a.kind == "keep_tickets"]
        if phase in ("choose_initial_tickets", "keep_tickets") and keeps:
            # (None yet where a seat first announces a mix of tickets to draw.)
            fewest = min(len(a.tickets) for a in keeps)
            return self._keep_tickets(view, [a for a in keeps if len(a.tickets) == fewest])
        draws = [a for a in legal_actions if a.kind in ("draw_blind", "draw_face_up")]
        claims = [a for a in legal_actions if a.kind == "claim_route"]
        if phase == "turn" and claims and sum(view.hand.values()) >= HAND_LIMIT:
            choice = super().choose(view, legal_actions)
            if choice.kind != "claim_route":   # spend cards: the route worth most
                points = view.route_points or {}
                return max(claims, key=lambda a: (
                    points.get(view.map.routes[a.route_id].length, 0),
                    -sum(n for name, n in a.cards if name == "locomotive"), a.route_id))
            return choice
        face = [a for a in draws if a.kind == "draw_face_up"]
        if phase in ("turn", "second_card") and face and self.rng.random() < DISTRACTION:
            return face[self.rng.randrange(len(face))]
        choice = super().choose(view, legal_actions)
        if choice.kind == "draw_tickets":
            # Never more tickets: draw a card, else claim the longest route it can.
            if draws:
                return draws[self.rng.randrange(len(draws))]
            claims = [a for a in legal_actions if a.kind == "claim_route"]
            if claims:
                return max(claims, key=lambda a: view.map.routes[a.route_id].length)
        return choice
