"""What every bot is: a name, a level and ``choose(view, legal_actions) -> action``.

A bot sees only a PlayerView and the list of legal actions, never the Game.
Each bot owns a ``random.Random(seed)``; it never touches the global random,
so the same seed and the same inputs give the same choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttr_desktop.rules.actions import Action
    from ttr_desktop.rules.view import PlayerView


class Bot:
    """Base class of the computer players."""

    #: The name ``make_bot`` knows the bot by.
    name: str = "bot"
    #: Playing strength, 0 (weakest) upwards; the setup screen sorts by it.
    level: int = 0

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions`` (the same object) for the seat ``view`` belongs to."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed!r})"


def no_choice(legal_actions: Sequence[Action]) -> None:
    """Raise ValueError when there is nothing to choose from."""
    if not legal_actions:
        raise ValueError("a bot was asked to choose from no legal actions")
