"""A game's review runs in a worker process, so the window stays smooth.

The review (``bots/review.py``) plays thousands of rollouts; on the window's thread it
would hold the interpreter and stutter the frames, so it runs in a process of its own
(``spawn``: the same on every system; the bundled program calls ``freeze_support`` in
``packaging/launcher.py`` so a frozen program can start it). The window sends the game's
record (seed and moves, as a save holds them) and the seat; the worker sends back, through
a queue, the progress and each decision as it is reviewed. Cancel sets an event the worker
checks between decisions; a worker that does not stop soon after is ended. If no process
can be started, the review runs on a thread instead (slower frames, same results).

No pygame here: the worker imports only this module and the bots.
"""

from __future__ import annotations

import logging
import os
import queue as queue_module
import threading
from typing import Any

log = logging.getLogger("ttr_desktop.review")

#: Seconds a cancelled worker gets to finish its decision before it is ended.
STOP_GRACE = 3.0


def _work(record: dict[str, Any], seat: int, rounds: int, out: Any, cancel: Any,
          lower_priority: bool = True) -> None:
    """In the worker: review ``seat``'s decisions, reporting through ``out``."""
    if lower_priority and hasattr(os, "nice"):
        try:
            os.nice(5)        # the window (and a Hard bot thinking) comes first
        except OSError:
            pass
    try:
        from ttr_desktop.bots.review import review_game
        review = review_game(record, seat, rounds,
                             progress=lambda done, total: out.put(("progress", done, total)),
                             cancelled=cancel.is_set,
                             on_decision=lambda d: out.put(("decision", d)))
        out.put(("end", review.complete))
    except BaseException as exc:   # reported to the window, which says so
        log.exception("the review failed")
        out.put(("error", f"{type(exc).__name__}: {exc}"))


class ReviewJob:
    """One review running off the window's thread. ``poll()`` each frame takes what the
    worker has sent: ``done``/``total`` decisions, ``decisions`` (in order), ``finished``,
    ``complete`` (every decision reviewed), ``error`` (None, or what went wrong)."""

    def __init__(self, record: dict[str, Any], seat: int, rounds: int,
                 use_process: bool = True) -> None:
        self.seat = seat
        self.rounds = rounds
        self.done = 0
        self.total = 0
        self.decisions: list[Any] = []
        self.finished = False
        self.complete = False
        self.cancelled = False
        self.error: str | None = None
        self.in_process = False
        self._process: Any = None
        self._thread: threading.Thread | None = None
        if use_process:
            try:
                import multiprocessing
                ctx = multiprocessing.get_context("spawn")
                self._queue: Any = ctx.Queue()
                self._cancel: Any = ctx.Event()
                self._process = ctx.Process(target=_work, name="ttr-review",
                                            args=(record, seat, rounds, self._queue,
                                                  self._cancel), daemon=True)
                self._process.start()
                self.in_process = True
                return
            except Exception:      # no processes here: a thread does the work
                log.exception("no worker process for the review; it runs on a thread")
                self._process = None
        self._queue = queue_module.Queue()
        self._cancel = threading.Event()
        self._thread = threading.Thread(target=_work, name="review", daemon=True,
                                        args=(record, seat, rounds, self._queue,
                                              self._cancel, False))
        self._thread.start()

    def poll(self) -> bool:
        """Take what the worker sent since the last call; True when anything came."""
        got = False
        while True:
            try:
                message = self._queue.get_nowait()
            except (queue_module.Empty, EOFError, OSError):
                break
            got = True
            kind = message[0]
            if kind == "progress":
                self.done, self.total = message[1], message[2]
            elif kind == "decision":
                self.decisions.append(message[1])
            elif kind == "end":
                self.finished, self.complete = True, bool(message[1])
            elif kind == "error":
                self.finished, self.error = True, message[1]
        if not self.finished and self._process is not None and not self._process.is_alive() \
                and self._process.exitcode not in (None, 0):
            self.finished = True
            self.error = f"the review's worker stopped (exit code {self._process.exitcode})"
        return got

    def cancel(self) -> None:
        """Stop after the decision being reviewed (what is done so far stays)."""
        if not self.finished:
            self.cancelled = True
            self._cancel.set()

    def close(self) -> None:
        """Stop the worker and let it go (the window leaves the review): it is ended if
        it has not stopped within ``STOP_GRACE`` seconds, without holding the window."""
        self.cancel()
        process = self._process
        if process is None:
            return

        # ``held``: the queue and the event live until the worker has gone (a worker still
        # starting reads them; dropped at once, their semaphores would vanish under it).
        def reap(held: tuple = (self._queue, self._cancel)) -> None:
            process.join(STOP_GRACE)
            if process.is_alive():
                process.terminate()
                process.join(1.0)

        threading.Thread(target=reap, name="review-stop", daemon=True).start()

    def join(self, timeout: float = 10.0) -> None:
        """Wait until the worker has stopped (tests)."""
        if self._process is not None:
            self._process.join(timeout)
        elif self._thread is not None:
            self._thread.join(timeout)
        self.poll()

    @property
    def running(self) -> bool:
        """True until the worker has sent its end (or failed)."""
        return not self.finished


__all__ = ["ReviewJob"]
