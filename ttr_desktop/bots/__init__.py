"""Computer players. A bot sees a PlayerView and the legal actions, never the Game.

    from ttr_desktop.bots import make_bot
    bot = make_bot("greedy", seed=7)
    action = bot.choose(game.view(seat), game.legal_actions())
"""

from __future__ import annotations

from ttr_desktop.bots.base import Bot
from ttr_desktop.bots.easy import EasyBot
from ttr_desktop.bots.greedy import GreedyBot
from ttr_desktop.bots.hard import HardBot
from ttr_desktop.bots.random_bot import RandomBot

#: Bot name -> class, weakest first.
BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, EasyBot, GreedyBot, HardBot)}


def bot_names() -> list[str]:
    """The names ``make_bot`` knows, weakest first."""
    return list(BOTS)


def make_bot(name: str, seed: int | None = None, budget: float | None = None) -> Bot:
    """A new bot called ``name`` with its own random generator seeded by ``seed``.

    ``budget``: seconds per decision for the bots that search (Hard); the others
    ignore it. Raises ValueError for an unknown name or a budget that is not positive.
    """
    cls = BOTS.get(str(name).strip().lower())
    if cls is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    if budget is not None and getattr(cls, "searches", False):
        if not budget > 0:
            raise ValueError(f"a bot's time budget must be positive, not {budget!r}")
        return cls(seed, budget=budget)
    return cls(seed)


__all__ = ["BOTS", "Bot", "EasyBot", "GreedyBot", "HardBot", "RandomBot", "bot_names", "make_bot"]
