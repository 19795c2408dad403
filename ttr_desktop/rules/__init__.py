"""The rules engine: pure, seeded, no pygame, no file I/O, no global random.

Public API (architecture.md "Engine contract")::

    game = new_game(variant="usa", players=["Ann", "Bot 1"], seed=7, options={"stations": True})
    game.current_seat, game.legal_actions(), game.apply(action) -> events,
    game.is_over, game.scores(), game.view(seat), game.clone(), game.map
    determinize(view, rng) -> a Game consistent with what view.seat knows
    families() -> every registered rule family (rules/family.py), in order
    games() -> every game of those families (USA 1910 has three), one descriptor each
"""

from ttr_desktop.rules.actions import (
    Action, BuildStation, ClaimRoute, Decline, DeclineTunnel, DrawBlind, DrawFaceUp, DrawTickets,
    KeepTickets, Pass, PayTunnel, action_from_dict, register_action,
)
from ttr_desktop.rules.cards import CardKind
from ttr_desktop.rules.determinize import determinize
from ttr_desktop.rules.errors import IllegalAction
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.game import Game, new_game
from ttr_desktop.rules.ruleset import (
    KNOB_FIELDS, VARIANTS, Bonus, Ruleset, game_options, get_ruleset, register_variant,
)
from ttr_desktop.rules.scoring import Result, ScoreBreakdown
from ttr_desktop.rules.state import Phase
from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.rules.view import PlayerView

__all__ = [
    "KNOB_FIELDS", "VARIANTS", "Action", "Bonus", "BuildStation", "CardKind", "CityToken",
    "ClaimRoute", "Decline", "DeclineTunnel", "DrawBlind", "DrawFaceUp", "DrawTickets", "Event",
    "Game", "IllegalAction", "KeepTickets", "Pass", "PayTunnel", "Phase", "PlayerView", "Result",
    "Ruleset", "ScoreBreakdown", "action_from_dict", "determinize", "game_options",
    "get_ruleset", "new_game", "register_action", "register_variant",
    "Family", "FamilyGame", "families", "games", "register_family",
]

# The rule families: one descriptor each, the shipped ones in one list (rules/family.py),
# registered here with their rulesets and rule modules.
from ttr_desktop.rules.family import (  # noqa: E402
    Family, FamilyGame, families, games, register_family,
)
from ttr_desktop.rules.modules import load_all as _load_all  # noqa: E402

_load_all()
