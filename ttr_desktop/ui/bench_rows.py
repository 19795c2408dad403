"""The window's rows of ``python -m ttr_desktop.bench``: frame time, idle CPU and start-up
time.

Imported by the bench command on demand (the bench itself sits below the
window in the layers and never imports it at module level).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from ttr_desktop.bench import bench_row

FRAME_SIZE = (1600, 900)
_frames: dict[str, float] = {}


def late_game_board():
    """An App at 1600x900 showing a late-game 4-player USA board (headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import tempfile

    from ttr_desktop.bots import make_bot
    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.session import GameSession, SeatConfig

    os.environ.setdefault("TTR_DESKTOP_HOME", tempfile.mkdtemp(prefix="ttr-bench-"))
    seats = [SeatConfig("Ann", "human", color="red")] + [
        SeatConfig(f"Bot {i}", "bot", "greedy", c) for i, c in
        ((2, "blue"), (3, "green"), (4, "yellow"))]
    session = GameSession.new("usa", seats, seed=5)
    bots = [make_bot("greedy", seed=i) for i in range(4)]
    game = session.game
    while not game.final_round and not game.is_over:
        seat = game.current_seat
        session.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        game = session.game
    app = App(size=FRAME_SIZE)
    board = app.push(BoardScene(app, session))
    board.viewer = 0
    return app, board


def measure_frames(seconds: float, thinking: bool = False) -> dict[str, float]:
    """Median and p95 ms to draw one board frame (hovering a route, tooltip shown);
    ``thinking``: while a Hard bot searches on a worker thread, as in a game against it."""
    import threading

    import pygame
    app, board = late_game_board()
    stop = threading.Event()
    if thinking:
        from ttr_desktop.bots import make_bot
        from ttr_desktop.ui.bot_runner import BotRunner
        g = board.game
        seat = g.current_seat
        view, legal = g.view(seat), g.legal_actions()

        def think() -> None:   # as the board scene does: one decision after another
            bot = make_bot("hard", seed=1, budget=0.5)
            while not stop.is_set():
                BotRunner(bot, view, legal, g.version).join(30)

        threading.Thread(target=think, daemon=True).start()
        time.sleep(1.0)   # the worker process has started
    try:
        mv = board.map_view
        rid = next(iter(board.game.map.routes))
        pos = tuple(int(v) for v in mv.route_center(rid))
        board.mouse = pos
        board._update_hover(pos)
        for _ in range(10):                      # warm the caches
            app.draw()
        times = []
        end = time.perf_counter() + max(seconds, 0.5)
        while time.perf_counter() < end or len(times) < 60:
            start = time.perf_counter()
            app.draw()
            pygame.display.flip()
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        return {"median": statistics.median(times),
                "p95": times[min(len(times) - 1, int(len(times) * 0.95))]}
    finally:
        stop.set()
        app.shutdown()


@bench_row("board frame, median (1600x900)", "ms", target=8.0, higher_is_better=False,
           quick=False)
def _frame_median(seconds: float) -> float:
    _frames.update(measure_frames(seconds))
    return _frames["median"]


@bench_row("board frame, p95 (1600x900)", "ms", target=8.0, higher_is_better=False, quick=False)
def _frame_p95(seconds: float) -> float:
    if "p95" not in _frames:
        _frames.update(measure_frames(seconds))
    return _frames.pop("p95")


@bench_row("board frame while a Hard bot thinks, median", "ms", target=8.0,
           higher_is_better=False, quick=False)
def _frame_thinking(seconds: float) -> float:
    return measure_frames(seconds, thinking=True)["median"]


def waiting_board(size: tuple[int, int] = FRAME_SIZE):
    """An App showing a USA board where the person (against one Normal bot) is to play a
    turn, nothing open over it (headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import tempfile

    from ttr_desktop.bots import make_bot
    from ttr_desktop.rules import Phase
    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.session import GameSession, SeatConfig

    os.environ.setdefault("TTR_DESKTOP_HOME", tempfile.mkdtemp(prefix="ttr-bench-"))
    seats = [SeatConfig("Ann", "human", color="red"),
             SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new("usa", seats, seed=5)
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    game = session.game
    while not (game.current_seat == 0 and game.phase == Phase.TURN) or game.state.turn < 4:
        seat = game.current_seat
        session.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        game = session.game
    app = App(size=size)
    board = app.push(BoardScene(app, session))
    return app, board


def title_screen(size: tuple[int, int] = FRAME_SIZE):
    """An App showing the title screen (headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import tempfile

    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.scenes.menu import MenuScene

    os.environ.setdefault("TTR_DESKTOP_HOME", tempfile.mkdtemp(prefix="ttr-bench-"))
    app = App(size=size)
    menu = app.push(MenuScene(app))
    return app, menu


def idle_cpu(screen: str, seconds: float, settle: float = 10.0) -> dict[str, float]:
    """The window's real main loop (``App.frame``) left alone on a screen ("title" or
    "board": a person to play): once it has settled (the title's smoke thinned away; at
    most ``settle`` seconds), the percent of one core the process uses over ``seconds``
    (CPU time / wall time, every thread) and the frames it draws per second."""
    import pygame
    app, _ = title_screen() if screen == "title" else waiting_board()
    try:
        end = time.perf_counter() + settle
        while app.next_wake() is not None and time.perf_counter() < end:
            app.frame()
        # A timer's event wakes the loop to end the measurement even if it sleeps all
        # along; the measurement stops as the loop wakes, before the frame for that event.
        woke: list[tuple[float, float]] = []
        sleep = app.wait

        def wait(timeout):
            events = sleep(timeout)
            woke.append((time.perf_counter(), time.process_time()))
            return events

        app.wait = wait
        frames = app.frames
        wall, cpu = time.perf_counter(), time.process_time()
        pygame.time.set_timer(pygame.USEREVENT, int(seconds * 1000) + 2)
        while True:
            app.frame()
            if woke and woke[-1][0] - wall >= seconds:
                stop, drawn = woke[-1], app.frames - frames - 1   # less the timer's frame
                break
            if time.perf_counter() - wall >= seconds + 0.1:       # it never slept
                stop, drawn = (time.perf_counter(), time.process_time()), app.frames - frames
                break
        pygame.time.set_timer(pygame.USEREVENT, 0)
        wall, cpu = stop[0] - wall, stop[1] - cpu
        return {"cpu": 100.0 * cpu / wall, "fps": drawn / wall}
    finally:
        app.shutdown()


@bench_row("idle CPU, title screen", "% core", target=2.0, higher_is_better=False,
           quick=False)
def _idle_title(seconds: float) -> float:
    return idle_cpu("title", seconds)["cpu"]


@bench_row("idle CPU, board waiting for a person", "% core", target=2.0,
           higher_is_better=False, quick=False)
def _idle_board(seconds: float) -> float:
    return idle_cpu("board", seconds)["cpu"]


def startup_seconds(command: list[str] | None = None, runs: int = 3) -> float:
    """Best of ``runs``: seconds from starting the program to its first drawn menu frame
    (``command`` defaults to ``python -m ttr_desktop``; pass the bundle's program)."""
    import tempfile
    command = command or [sys.executable, "-m", "ttr_desktop"]
    env = dict(os.environ, TTR_DESKTOP_HOME=tempfile.mkdtemp(prefix="ttr-bench-"))
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen([*command, "--menu-probe"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, text=True)
        for line in proc.stdout:
            if line.startswith("menu-ready"):
                best = min(best, time.perf_counter() - start)
                break
        proc.wait()
    return best


@bench_row("start to menu", "s", target=1.5, higher_is_better=False, quick=False)
def _startup(seconds: float) -> float:
    return startup_seconds()


def main() -> None:
    """``python -m ttr_desktop.ui.bench_rows PROGRAM``: start-to-menu time of a program."""
    command = sys.argv[1:] or None
    print(f"start to menu: {startup_seconds(command):.2f} s")


if __name__ == "__main__":
    main()
