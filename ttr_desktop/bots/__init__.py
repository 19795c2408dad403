"""Computer players. A bot sees a PlayerView and the legal actions, never the Game.

    from ttr_desktop.bots import make_bot
    bot = make_bot("greedy", seed=7)
    action = bot.choose(game.view(seat), game.legal_actions())
"""

from __future__ import annotations

from ttr_desktop.bots.base import Bot
from ttr_desktop.bots.easy import EasyBot
from ttr_desktop.bots.greedy import GreedyBot
from ttr_desktop.bots.random_bot import RandomBot

#: Bot name -> class, weakest first.
BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, EasyBot, GreedyBot)}


def bot_names() -> list[str]:
    """The names ``make_bot`` knows, weakest first."""
    return list(BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot called ``name`` with its own random generator seeded by ``seed``.

    Raises ValueError for an unknown name.
    """
    cls = BOTS.get(str(name).strip().lower())
    if cls is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    return cls(seed)


__all__ = ["BOTS", "Bot", "EasyBot", "GreedyBot", "RandomBot", "bot_names", "make_bot"]
