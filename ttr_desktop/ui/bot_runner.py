"""Bots think on a worker so the frame loop never stops.

The runner hands the bot only a PlayerView and the legal actions (never the
game); the board scene polls ``result`` each frame and applies the action
on the main thread, paced so people can follow.

Quick bots (Random, Easy, Normal) think on a thread. A bot that searches (Hard)
thinks for a second at full speed, which on a thread would hold the interpreter and
slow the window's frames; it thinks in a worker process instead (one, started on
first use and kept), receiving a pickled copy of the view — still never the game.
If no process can be started, the thread is used.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any

log = logging.getLogger("ttr_desktop.bots")

#: How often (seconds) a thinking bot's thread hands the interpreter back to the window.
#: Python's default (5 ms) let a searching bot stretch a 7 ms frame to 16 ms; at 0.5 ms
#: frames take as long as when nobody thinks (``python -m ttr_desktop.bench``).
SWITCH_INTERVAL = 0.0005


def share_time() -> None:
    """Let the window's thread run often while a bot thinks on another thread."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


_POOL: Any = None
_POOL_BROKEN = False


def _pool():
    """The worker process for searching bots (None when processes cannot be used)."""
    global _POOL, _POOL_BROKEN
    if _POOL is None and not _POOL_BROKEN:
        try:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            _POOL = ProcessPoolExecutor(max_workers=1,
                                        mp_context=multiprocessing.get_context("spawn"))
        except Exception:  # no processes here: think on a thread
            log.exception("no worker process for bots; they think on a thread")
            _POOL_BROKEN = True
    return _POOL


def warm_up() -> None:
    """Start the worker process ahead of the first decision (a game with a Hard bot)."""
    pool = _pool()
    if pool is not None:
        try:
            pool.submit(_ping)
        except Exception:
            _give_up_pool()


def shutdown_workers() -> None:
    """Stop the worker process (the window closes)."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None


def _give_up_pool() -> None:
    global _POOL_BROKEN
    shutdown_workers()
    _POOL_BROKEN = True


def _ping() -> bool:
    import ttr_desktop.bots  # noqa: F401  (imports the bots while nobody waits)
    return True


def _think(name: str, seed: int, budget: float, view: Any, actions: list[Any]) -> int:
    """In the worker: a fresh bot of that level decides; the index of its choice."""
    from ttr_desktop.bots import make_bot
    bot = make_bot(name, seed=seed, budget=budget)
    choice = bot.choose(view, actions)
    return actions.index(choice)


class BotRunner:
    """One decision of one bot, computed on a worker process or a daemon thread."""

    def __init__(self, bot: Any, view: Any, actions: list[Any], version: int) -> None:
        self.version = version          # the game version the decision belongs to
        self.started = time.perf_counter()
        self.finished_at: float | None = None
        self.result: Any = None
        self.error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._future: Any = None
        if getattr(bot, "searches", False) and _pool() is not None:
            seed = ((bot.seed or 0) * 1_000_003 + version) & 0x7FFFFFFF
            try:
                self._future = _pool().submit(_think, bot.name, seed, bot.budget, view,
                                              actions)
            except Exception:
                log.exception("the bots' worker process failed; thinking on a thread")
                _give_up_pool()
                self._future = None
            if self._future is not None:
                self._future.add_done_callback(lambda f: self._landed(f, actions))
                return
        share_time()
        self._thread = threading.Thread(target=self._run, args=(bot, view, actions),
                                        name="bot", daemon=True)
        self._thread.start()

    def _landed(self, future: Any, actions: list[Any]) -> None:
        try:
            self.result = actions[future.result()]
        except BaseException as exc:  # a broken bot must not take the window down
            log.error("bot failed in its worker; a legal fallback action is used: %r", exc)
            self.error = exc
            self.result = actions[0]
        self.finished_at = time.perf_counter()

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
        if self._thread is not None:
            self._thread.join(timeout)
            return
        end = time.perf_counter() + (timeout if timeout is not None else 1e9)
        while not self.done and time.perf_counter() < end:
            time.sleep(0.005)
