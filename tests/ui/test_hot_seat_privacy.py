"""Hot-seat privacy, played through the window: once the screen is to be passed on, no frame
shows either player's cards, tickets or decision panels until the next player says who they
are — also when the move is taken back on the hand-over screen.

Every private part the board draws reports its seat (``board_panels.PRIVATE_DRAW_HOOKS``);
the tests record, frame by frame, whose private parts were drawn while the clock runs."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.ui.boardkit import post_click, post_key
from ttr_desktop.ui.app import App
from ttr_desktop.ui.scenes import board_panels
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import (
    ActionChooser, HandOverOverlay, TicketChoiceOverlay,
)
from ttr_desktop.ui.session import GameSession, SeatConfig


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="normal")
    yield application
    application.shutdown()


class Frames:
    """Runs frames and keeps, for each, the header, the top panel and whose private parts
    were drawn."""

    def __init__(self, app, board, monkeypatch) -> None:
        self.app, self.board = app, board
        self.drawn: list[tuple[int, str]] = []
        self.log: list[tuple[str, object, list[tuple[int, str]]]] = []
        monkeypatch.setattr(board_panels, "PRIVATE_DRAW_HOOKS",
                            [lambda seat, part: self.drawn.append((seat, part))])

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self.drawn = []
            self.app.step(1 / 60)
            private = self.drawn + [(-1, f"message: {t.message}") for t in self.app.toasts
                                    if t.kind == "private"]
            self.log.append((self.board.status_text(), self.app.top, private))

    def until(self, predicate, seconds: float = 10) -> None:
        for _ in range(int(seconds * 60)):
            if predicate():
                return
            self.step()
        assert predicate()

    def between_players(self) -> list:
        """The recorded frames shown while the screen was to be passed on (the header
        saying so, or the hand-over panel up)."""
        return [f for f in self.log if f[0].startswith("Pass the screen")
                or isinstance(f[1], HandOverOverlay)]

    def assert_nothing_private_between_players(self) -> None:
        frames = self.between_players()
        assert frames, "the screen was never passed on"
        leaks = [(header, parts) for header, _, parts in frames if parts]
        assert not leaks, leaks[:3]

    def click(self, pos) -> None:
        post_click(self.app, pos, frames=0)
        self.step()

    def key(self, key, mod=0) -> None:
        post_key(self.app, key, mod, frames=0)
        self.step()


def hot_seat(app, variant: str) -> BoardScene:
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Ben", "human", color="blue")]
    session = GameSession.new(variant, seats, seed=4, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def i_am(frames: Frames, seat: int) -> None:
    frames.until(lambda: isinstance(frames.app.top, HandOverOverlay))
    assert frames.app.top.seat == seat
    frames.step(20)                               # the screen waits for the next player
    frames.click(frames.app.top.buttons[0].rect.center)


def keep_starting_tickets(frames: Frames) -> None:
    """Announce a mix where the family asks for one, then keep every ticket drawn."""
    app = frames.app
    if isinstance(app.top, ActionChooser):
        frames.click(app.top.rows[0].center)
    assert isinstance(app.top, TicketChoiceOverlay)
    frames.click(app.top.ok.rect.center)


@pytest.mark.parametrize("variant", ["usa", "marklin"])
@pytest.mark.parametrize("taken_back_by", ["button", "ctrl+z"])
def test_taking_back_on_the_hand_over_screen_shows_nothing_until_the_mover_sits_down(
        app, monkeypatch, variant, taken_back_by):
    board = hot_seat(app, variant)
    g = lambda: board.game   # noqa: E731  (the game object changes on a take-back)
    frames = Frames(app, board, monkeypatch)
    for mover, other in ((0, 1), (1, 0)):         # both directions
        i_am(frames, mover)
        keep_starting_tickets(frames)             # keeping tickets reveals nothing
        assert any(seat == mover for _, _, parts in frames.log[-3:] for seat, _ in parts)
        frames.until(lambda: isinstance(app.top, HandOverOverlay))
        hand_over = app.top
        assert hand_over.seat == other and hand_over.back is not None
        assert hand_over.back.label == f"Take back {g().players[mover]}'s move"
        frames.step(30)
        if taken_back_by == "button":
            frames.click(hand_over.back.rect.center)
        else:
            frames.key(pygame.K_z, pygame.KMOD_CTRL)
        frames.step(90)                           # a second and a half: still nobody's view
        assert g().current_seat == mover and g().view(mover).pending_tickets
        assert isinstance(app.top, HandOverOverlay) and app.top.seat == mover
        assert app.top.handed_back
        frames.assert_nothing_private_between_players()
        i_am(frames, mover)                       # only now the mover's choice shows again
        frames.step(2)
        assert isinstance(app.top, TicketChoiceOverlay) and app.top.seat == mover
        assert any(seat == mover for seat, _ in frames.log[-1][2])
        keep_starting_tickets(frames)
        frames.until(lambda: isinstance(app.top, HandOverOverlay))
        assert app.top.seat == other
        frames.step(30)
    frames.assert_nothing_private_between_players()


@pytest.mark.parametrize("variant", ["usa", "marklin"])
def test_no_frame_shows_a_hand_once_the_header_says_pass_the_screen(app, monkeypatch, variant):
    """A whole first round of turns: two blind draws each (the cards fly into the hand the
    drawing player still sees), watched frame by frame."""
    board = hot_seat(app, variant)
    frames = Frames(app, board, monkeypatch)
    for seat in (0, 1):
        i_am(frames, seat)
        keep_starting_tickets(frames)
    for seat in (0, 1, 0, 1):
        i_am(frames, seat)
        frames.until(lambda: board.is_human_turn() and app.top is board)
        frames.click(board.lay.deck.center)
        frames.click(board.lay.deck.center)
        own = len(frames.log)
        frames.until(lambda: isinstance(app.top, HandOverOverlay))
        # The drawing player saw their own cards land before the screen was passed on.
        assert any(s == seat for _, _, parts in frames.log[own - 2:] for s, _ in parts)
    frames.step(60)
    frames.assert_nothing_private_between_players()
    assert len(frames.between_players()) > 6 * 20


def test_the_screen_handed_back_takes_nothing_more_back_until_the_player_sits_down(
        app, monkeypatch):
    board = hot_seat(app, "usa")
    frames = Frames(app, board, monkeypatch)
    i_am(frames, 0)
    keep_starting_tickets(frames)
    frames.until(lambda: isinstance(app.top, HandOverOverlay))
    frames.click(app.top.back.rect.center)               # Ann's choice taken back
    frames.until(lambda: isinstance(app.top, HandOverOverlay))
    assert app.top.seat == 0 and app.top.back is None
    state = board.game.state.to_dict()
    frames.key(pygame.K_z, pygame.KMOD_CTRL)             # someone presses Ctrl+Z again
    assert board.game.state.to_dict() == state
    assert isinstance(app.top, HandOverOverlay) and app.top.seat == 0
    assert any("Nothing to take back" in t.message for t in app.toasts)
    frames.assert_nothing_private_between_players()
