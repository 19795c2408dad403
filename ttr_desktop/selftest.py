"""``ttr-desktop --selftest``: a short headless check that the installed game works.

Opens the window with the dummy video driver, shows the menu, plays a short
bot game through the board scene to the scoring scene, saves it, reloads it
and checks the reloaded game is the same; then hosts a table on 127.0.0.1 and plays
one seat of it over the network to the end. Exits 0 on success; on a failure
it prints which step failed and why, and exits 1. Everything is written to a
temporary folder, never to the player's saves.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path


class SelfTestFailure(Exception):
    """A step of the self-test did not work."""


def _step(name: str, out) -> None:
    print(f"  {name} ...", file=out, flush=True)


def run(out=None, timeout: float = 240.0) -> int:
    """Run every check; 0 when all pass, 1 otherwise (the reason is printed)."""
    out = out or sys.stdout
    os.environ["SDL_VIDEODRIVER"] = os.environ.get("TTR_SELFTEST_VIDEO", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    home = tempfile.mkdtemp(prefix="ttr-selftest-")
    os.environ["TTR_DESKTOP_HOME"] = home
    started = time.perf_counter()
    print("ttr-desktop self-test", file=out, flush=True)
    try:
        _run_checks(out, timeout, Path(home))
    except SelfTestFailure as exc:
        print(f"SELF-TEST FAILED: {exc}", file=out, flush=True)
        return 1
    except Exception as exc:  # any crash is a failure with its story
        print(f"SELF-TEST FAILED: unexpected {type(exc).__name__}: {exc}", file=out)
        traceback.print_exc(file=out)
        return 1
    print(f"self-test passed in {time.perf_counter() - started:.1f} s", file=out, flush=True)
    return 0


def _run_checks(out, timeout: float, home: Path) -> None:
    from dataclasses import replace

    from ttr_desktop.maps import available_maps, get_map
    from ttr_desktop.resources import resource_path

    _step("bundled maps and art", out)
    for map_id in ("usa", "europe"):
        if map_id not in available_maps():
            raise SelfTestFailure(f"the {map_id} map is missing from {resource_path('maps')}")
        game_map = get_map(map_id)
        if not resource_path("maps", game_map.background).is_file():
            raise SelfTestFailure(f"the {map_id} background image is missing")
    for name in ("theme.json", "rules.md"):
        if not resource_path("assets", name).is_file():
            raise SelfTestFailure(f"assets/{name} is missing from the bundle")

    _step("window and title screen", out)
    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.scenes.menu import MenuScene
    app = App(size=(1280, 720))
    try:
        app.settings = replace(app.settings, animation_speed="instant")
        app.push(MenuScene(app))
        app.step(1 / 60)

        _step("a bot game through the board", out)
        from ttr_desktop.persistence import load_game
        from ttr_desktop.ui.scenes.board import BoardScene
        from ttr_desktop.ui.scenes.scoring import ScoringScene
        from ttr_desktop.ui.session import GameSession, SeatConfig
        seats = [SeatConfig("Greedy", "bot", "greedy", "red"),
                 SeatConfig("Random", "bot", "random", "blue")]
        session = GameSession.new("usa", seats, seed=2024)
        board = app.replace(BoardScene(app, session))
        deadline = time.perf_counter() + timeout
        saved = False
        save_path = home / "selftest-save.toml"
        while not isinstance(app.top, ScoringScene):
            app.step(1 / 20)
            if not saved and session.game.state.turn >= 20 and app.top is board:
                _step("save and reload mid-game", out)
                session.save(save_path)
                again = load_game(save_path)
                if again.state.to_dict() != session.game.state.to_dict():
                    raise SelfTestFailure("the reloaded game differs from the saved one")
                saved = True
            if time.perf_counter() > deadline:
                raise SelfTestFailure(f"the bot game did not reach the scoring screen in "
                                      f"{timeout:.0f} s (turn {session.game.state.turn})")
        if not saved:
            raise SelfTestFailure("the game ended before it could be saved")
        _step("scoring screen", out)
        for _ in range(30):
            app.step(1 / 20)
        totals = [s.total for s in session.game.scores()]
        print(f"  final scores {totals}", file=out, flush=True)
        session.wait_for_autosave()
    finally:
        app.shutdown()

    _step("an online table on 127.0.0.1", out)
    _online_table(home, out, min(timeout, 120.0))


def _online_table(home: Path, out, timeout: float) -> None:
    """Host a table on this machine's loopback address and play one seat of it over
    the network to the end: the bundle has the server, the client and the transport."""
    import asyncio

    from ttr_desktop.bots import make_bot
    from ttr_desktop.net.client import AsyncTableClient
    from ttr_desktop.net.server import ServerThread

    server = ServerThread("127.0.0.1", 0, home / "tables")
    try:
        url = server.start()
    except OSError as exc:
        raise SelfTestFailure(f"cannot host a table on 127.0.0.1: {exc}") from None

    async def play() -> dict:
        async with AsyncTableClient(url) as client:
            created = await client.create("usa", ["remote", "bot:random"], seed=7)
            await client.hello(created["table"], created["tokens"][0])
            return await client.play(make_bot("greedy", seed=7), timeout=timeout)

    try:
        over = asyncio.run(asyncio.wait_for(play(), timeout))
    except Exception as exc:  # noqa: BLE001 - the step's failure, with its reason
        raise SelfTestFailure(f"the online table did not play to the end: "
                              f"{type(exc).__name__}: {exc}") from None
    finally:
        server.stop()
    print(f"  online table final scores {over['scores']}", file=out, flush=True)
