"""The random bot: a uniform choice over the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ttr_desktop.bots.base import Bot, no_choice

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView


class RandomBot(Bot):
    """Picks any legal action with equal chance; it never reads the view."""

    name = "random"
    level = 0

    def choose(self, view: PlayerView | None, legal_actions: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal_actions``."""
        no_choice(legal_actions)
        return legal_actions[self.rng.randrange(len(legal_actions))]
