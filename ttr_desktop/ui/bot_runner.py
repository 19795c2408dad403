"""Bots think in a worker thread so the frame loop never stops.

The runner hands the bot only a PlayerView and the legal actions (never the
game); the board scene polls ``result`` each frame and applies the action
on the main thread, paced so people can follow.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

log = logging.getLogger("ttr_desktop.bots")


class BotRunner:
    """One decision of one bot, computed on a daemon thread."""

    def __init__(self, bot: Any, view: Any, actions: list[Any], version: int) -> None:
        self.version = version          # the game version the decision belongs to
        self.started = time.perf_counter()
        self.finished_at: float | None = None
        self.result: Any = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(bot, view, actions),
                                        name="bot", daemon=True)
        self._thread.start()

    def _run(self, bot: Any, view: Any, actions: list[Any]) -> None:
        try:
            choice = bot.choose(view, actions)
            if choice not in actions:
                raise ValueError(f"bot chose an action that is not legal: {choice!r}")
            self.result = choice
        except BaseException as exc:  # a broken bot must not take the window down
            log.exception("bot failed; a legal fallback action is used")
            self.error = exc
            self.result = actions[0]
        self.finished_at = time.perf_counter()

    @property
    def done(self) -> bool:
        """True once the bot has decided."""
        return self.finished_at is not None

    def join(self, timeout: float | None = None) -> None:
        """Wait for the decision (tests and the self-test)."""
        self._thread.join(timeout)
