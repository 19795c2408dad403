"""The rules engine: pure, seeded, no pygame, no file I/O, no global random.

Public API (architecture.md "Engine contract")::

    game = new_game(variant="usa", players=["Ann", "Bot 1"], seed=7, options={"stations": True})
    game.current_seat, game.legal_actions(), game.apply(action) -> events,
    game.is_over, game.scores(), game.view(seat), game.clone(), game.map
"""

from ttr_desktop.rules.actions import (
    Action, BuildStation, ClaimRoute, DeclineTunnel, DrawBlind, DrawFaceUp, DrawTickets,
    KeepTickets, Pass, PayTunnel, action_from_dict,
)
from ttr_desktop.rules.errors import IllegalAction
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.game import Game, new_game
from ttr_desktop.rules.ruleset import VARIANTS, Ruleset, get_ruleset
from ttr_desktop.rules.scoring import Result, ScoreBreakdown
from ttr_desktop.rules.state import Phase
from ttr_desktop.rules.view import PlayerView

__all__ = [
    "Action", "BuildStation", "ClaimRoute", "DeclineTunnel", "DrawBlind", "DrawFaceUp",
    "DrawTickets", "Event", "Game", "IllegalAction", "KeepTickets", "Pass", "PayTunnel",
    "Phase", "PlayerView", "Result", "Ruleset", "ScoreBreakdown", "VARIANTS", "action_from_dict",
    "get_ruleset", "new_game",
]
