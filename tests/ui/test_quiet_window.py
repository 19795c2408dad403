"""A window left alone stays quiet: on the title screen and on a board waiting for the
person it draws nothing until input comes (or a timer is due), while bots still play,
toasts still fade, the title's smoke still drifts when the player moves, and frames run
at full speed while anything moves.

The loop is the real one (``App.frame``) with its clock and its sleep simulated: time
passes only when the loop paces a frame or sleeps, so a simulated second is exact.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.ui.boardkit import post_click
from ttr_desktop.rules import Phase
from ttr_desktop.ui.app import TOAST_POLL, App
from ttr_desktop.ui.scenes.board import BOT_POLL, BoardScene
from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.session import GameSession, SeatConfig


class Asleep(Exception):
    """The loop went to sleep past the end of the simulated stretch."""


class SimulatedTime:
    """The window's clock and sleep: ``run(seconds)`` plays the real loop over that much
    simulated time and says how many frames it drew. A sleep that outlasts one run goes
    on in the next (unless something asks to wake sooner)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.now = 0.0
        self.ticked = 0.0
        self.until = 0.0
        #: The sleep under way: when it began and when it ends (None: at input).
        self.asleep: tuple[float, float | None] | None = None
        #: Every sleep the loop asked for (seconds; None: until input).
        self.sleeps: list[float | None] = []
        app.clock = self
        app.wait = self.wait
        app.monotonic = lambda: self.now

    def tick(self, fps: int = 0) -> float:
        """pygame's Clock.tick: a frame at ``fps`` takes at least 1/fps."""
        if fps:
            self.now = max(self.now, self.ticked + 1.0 / fps)
        ms = (self.now - self.ticked) * 1000.0
        self.ticked = self.now
        return ms

    def wait(self, timeout: float | None) -> list[pygame.event.Event]:
        """App.wait: input already there is returned at once; else the time passes."""
        self.sleeps.append(timeout)
        wake = None if timeout is None else self.now + timeout
        if self.asleep is not None:                # a sleep begun in an earlier run
            began, ends = self.asleep
            if wake is None or (ends is not None and ends < wake):
                wake = ends
        else:
            began = self.now
        events = pygame.event.get()
        if events or (wake is not None and wake <= self.until):
            self.now = self.now if events else wake
            self.asleep = None
            self.app.slept = self.now - began
            return events
        self.asleep = (began, wake)
        self.now = self.until
        raise Asleep

    def run(self, seconds: float) -> int:
        """Frames drawn by the loop over ``seconds`` of simulated time."""
        start = self.app.frames
        self.until = self.now + seconds
        while self.now < self.until and self.app.running:
            try:
                self.app.frame()
            except Asleep:
                break
        return self.app.frames - start

    def run_until(self, predicate, seconds: float) -> bool:
        """Run until ``predicate()`` holds (at most ``seconds`` of simulated time)."""
        end = self.now + seconds
        while not predicate() and self.now < end:
            self.run(min(0.25, end - self.now))
        return predicate()


@pytest.fixture
def app(home):
    application = App(size=(1280, 720))
    yield application
    application.shutdown()


def motion(pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1),
                                         buttons=(0, 0, 0), touch=False))


# The title screen -------------------------------------------------------------------
def test_the_title_screen_draws_nothing_once_the_smoke_has_thinned(app):
    sim = SimulatedTime(app)
    app.push(MenuScene(app))
    assert sim.run(1.0) >= 55                      # the engine puffs as the screen opens
    assert sim.run(8.0) < 8 * 60                   # ...then stops
    assert sim.run(1.0) == 0                       # a whole second without a frame
    assert sim.sleeps[-1] is None                  # asleep until input comes


def test_the_smoke_drifts_again_when_the_player_moves_the_mouse(app):
    sim = SimulatedTime(app)
    menu = app.push(MenuScene(app))
    sim.run(10.0)
    rested = menu.smoke
    motion((300, 300))
    assert sim.run(1.0) >= 55
    assert menu.smoke != rested
    sim.run(10.0)
    assert sim.run(1.0) == 0


def test_a_button_tooltip_still_appears_after_the_hover_delay(app):
    from tests.ui.conftest import button_element
    from ttr_desktop.ui.scenes.settings import SettingsScene
    sim = SimulatedTime(app)
    app.push(MenuScene(app))
    settings = app.push(SettingsScene(app))
    sim.run(5.0)
    assert sim.run(1.0) == 0
    button = button_element(settings, "Defaults")
    pygame.mouse.set_pos(button.rect.center)       # where pygame-gui looks for the hover
    motion(button.rect.center)
    sim.run(3.0)
    assert button.tool_tip is not None
    assert sim.run(1.0) == 0                       # shown, and quiet again


def test_a_text_field_keeps_its_cursor_blinking(app):
    from ttr_desktop.ui.scenes.common import BLINK_POLL
    from ttr_desktop.ui.scenes.dialogs import TextPromptOverlay
    sim = SimulatedTime(app)
    app.push(MenuScene(app))
    sim.run(10.0)
    app.push(TextPromptOverlay(app, "Name", "A name for the save", "Game", lambda t: None))
    frames = sim.run(10.0)
    assert 5 * (1 / BLINK_POLL) <= frames < 10 * 60   # a frame now and then, not every one
    assert sim.sleeps[-1] == pytest.approx(BLINK_POLL)


# Toasts --------------------------------------------------------------------------
def test_a_toast_still_fades_out_and_goes_on_a_quiet_screen(app):
    sim = SimulatedTime(app)
    app.push(MenuScene(app))
    sim.run(10.0)
    app.toast("Saved.", 2.0)
    frames = sim.run(3.0)
    assert app.toasts == []
    assert frames < 60                             # its fade, not three seconds of frames
    assert sim.run(1.0) == 0


def test_a_toast_that_is_over_early_goes_within_a_poll(app):
    sim = SimulatedTime(app)
    app.push(MenuScene(app))
    sim.run(10.0)
    over = []
    app.toast("Wait for your turn.", 10.0, until=lambda: bool(over))
    sim.run(1.0)
    assert app.toasts
    over.append(True)
    sim.run(TOAST_POLL + 0.5)
    assert app.toasts == []


def test_something_asked_to_be_drawn_again_later_gets_its_frame(app):
    sim = SimulatedTime(app)
    app.push(MenuScene(app))
    sim.run(10.0)
    app.wake_in(0.5)
    assert sim.run(0.4) == 0
    assert sim.run(0.2) == 1


# The board -----------------------------------------------------------------------
def human_vs_bot(app, speed: str = "instant") -> BoardScene:
    app.settings = replace(app.settings, animation_speed=speed)
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new("usa", seats, seed=3, autosave_to=app.paths.autosave_file)
    return app.push(BoardScene(app, session))


def test_a_board_waiting_for_the_person_draws_nothing(app):
    sim = SimulatedTime(app)
    board = human_vs_bot(app, "normal")
    sim.run(0.5)
    assert isinstance(app.top, TicketChoiceOverlay)
    post_click(app, app.top.ok.rect.center, frames=0)
    assert sim.run_until(lambda: app.top is board and board.is_human_turn()
                         and board.game.phase == Phase.TURN,
                         seconds=60)
    sim.run(5.0)                                   # the bot's last move lands
    assert sim.run(1.0) == 0
    assert sim.sleeps[-1] is None
    # The person moves the mouse over the map: drawn at once, then quiet again.
    motion(board.lay.map.center)
    assert 1 <= sim.run(1.0) <= 60
    motion((5, 5))
    sim.run(1.0)
    assert sim.run(1.0) == 0


def test_the_ticket_choice_at_the_start_is_quiet_once_no_city_is_lit(app):
    sim = SimulatedTime(app)
    human_vs_bot(app, "normal")
    sim.run(2.0)
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    for card in overlay.cards:                     # return every ticket: no city rings left
        post_click(app, card.center, frames=0)
    motion((3, 3))
    sim.run(2.0)
    assert not any(overlay.keep)
    assert sim.run(1.0) == 0


def test_a_pulsing_ring_on_the_map_gets_every_frame(app):
    sim = SimulatedTime(app)
    human_vs_bot(app, "normal")
    sim.run(2.0)
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)  # kept tickets' cities pulse on the map
    assert sim.run(1.0) >= 55


def test_the_hand_over_between_two_people_still_comes_after_its_beat(app):
    from ttr_desktop.ui.scenes.board_overlays import HandOverOverlay
    app.settings = replace(app.settings, animation_speed="normal")
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bea", "human", color="blue")]
    session = GameSession.new("usa", seats, seed=3, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    sim = SimulatedTime(app)
    sim.run(0.5)
    assert isinstance(app.top, HandOverOverlay)           # "Ann, your turn"
    post_click(app, app.top.buttons[0].rect.center, frames=0)
    sim.run(0.5)
    assert isinstance(app.top, TicketChoiceOverlay)
    post_click(app, app.top.ok.rect.center, frames=0)     # Ann keeps her tickets
    motion((3, 3))
    sim.run(0.1)
    assert not isinstance(app.top, HandOverOverlay)       # she sees it land first...
    assert sim.run_until(lambda: isinstance(app.top, HandOverOverlay), seconds=5)  # ...then
    assert board.viewer is None                            # Ann's hand is hidden
    sim.run(2.0)
    assert sim.run(1.0) == 0                               # waiting for Bea's click


def test_bots_play_on_with_the_loop_sleeping_between_looks(app):
    app.settings = replace(app.settings, animation_speed="normal")
    seats = [SeatConfig("B1", "bot", "greedy", "red"), SeatConfig("B2", "bot", "random", "blue")]
    session = GameSession.new("usa", seats, seed=11, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    sim = SimulatedTime(app)
    start = board.game.version
    assert sim.run_until(lambda: board.game.version >= start + 12, seconds=120)
    assert BOT_POLL in sim.sleeps                  # it looked for the bots' answers...
    assert None not in sim.sleeps                  # ...and never slept waiting for input


def test_a_hard_bot_thinking_in_its_worker_process_is_looked_for_every_poll(app):
    """The real loop and real time: Hal (Hard) thinks in the worker process; the window
    sleeps between looks at his answer instead of drawing, and his move lands."""
    import time
    app.settings = replace(app.settings, animation_speed="instant", hard_budget=0.5)
    seats = [SeatConfig("Hal", "bot", "hard", "blue"), SeatConfig("Ann", "human", color="red")]
    session = GameSession.new("usa", seats, seed=3, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    sleeps: list[float | None] = []
    sleep = app.wait
    app.wait = lambda timeout: sleeps.append(timeout) or sleep(timeout)
    started = time.perf_counter()
    while board.game.current_seat == 0 and time.perf_counter() - started < 60:
        app.frame()
    assert board.game.current_seat == 1                    # Hal's choice landed
    assert sleeps.count(BOT_POLL) >= 3                     # looked for it, asleep between
    assert app.frames < 60 * (time.perf_counter() - started) / 2


def test_a_whole_bot_game_still_reaches_the_scoring_screen(app):
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    app.settings = replace(app.settings, animation_speed="instant")
    seats = [SeatConfig("B1", "bot", "greedy", "red"), SeatConfig("B2", "bot", "random", "blue")]
    session = GameSession.new("usa", seats, seed=11, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    sim = SimulatedTime(app)
    assert sim.run_until(lambda: board.game.is_over, seconds=3000)
    app.settings = replace(app.settings, animation_speed="fast")   # a tally to watch
    assert sim.run_until(lambda: isinstance(app.top, ScoringScene), seconds=30)
    scoring = app.top
    assert not scoring.done
    assert sim.run_until(lambda: scoring.done, seconds=120)   # the tally counts up
    sim.run(2.0)
    assert sim.run(1.0) == 0                                  # then the screen rests


# The bench row -------------------------------------------------------------------
def test_the_idle_cpu_bench_rows_run_and_find_the_loop_asleep(home, monkeypatch):
    import ttr_desktop.ui.bench_rows as rows
    import ttr_desktop.ui.scenes.menu as menu
    from ttr_desktop.bench import run_bench
    monkeypatch.setattr(menu, "SMOKE_SECONDS", 0.2)   # settle quickly
    results = run_bench(only="idle CPU", seconds=0.4)
    assert [r["name"] for r in results] == ["idle CPU, title screen",
                                            "idle CPU, board waiting for a person"]
    for r in results:
        assert 0.0 <= r["value"] < 10.0, r       # drawing at 60 fps costs 10-40 %
    for screen in ("title", "board"):
        assert rows.idle_cpu(screen, 0.3)["fps"] == 0.0


def test_a_decision_after_a_bots_instant_move_is_asked_without_waiting_for_the_mouse(app):
    # Instant animations, no pause before bots: the bot keeps its tickets first and the
    # person's ticket panel must come up on its own, not at the next mouse move.
    app.settings = replace(app.settings, animation_speed="instant", bot_pause=0.0)
    seats = [SeatConfig("Bot", "bot", "greedy", "blue"), SeatConfig("Ann", "human", color="red")]
    session = GameSession.new("europe", seats, seed=3, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    sim = SimulatedTime(app)
    assert sim.run_until(lambda: board.game.current_seat == 1, seconds=30)
    sim.run(2.0)
    assert isinstance(app.top, TicketChoiceOverlay)
