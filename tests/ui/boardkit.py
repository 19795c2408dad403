"""Helpers for driving the board scene headless with real pygame events."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402


def post_click(app, pos, button: int = 1, frames: int = 2) -> None:
    """A real mouse move, press and release at ``pos``, then a few frames."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    if frames == 0:  # deliver the events without running a frame (no bot moves yet)
        for event in pygame.event.get():
            app.dispatch(event)
    for _ in range(frames):
        app.step(1 / 60)


def post_key(app, key: int, mod: int = 0, frames: int = 2) -> None:
    """A real key press and release."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="",
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="",
                                         scancode=0))
    for _ in range(frames):
        app.step(1 / 60)


def run_until(app, predicate, seconds: float = 60.0, dt: float = 1 / 30) -> bool:
    """Step the app until ``predicate()`` holds (simulated time)."""
    t = 0.0
    while t < seconds:
        if predicate():
            return True
        app.step(dt)
        t += dt
    return predicate()


def confirm_claim(app, frames: int = 2) -> None:
    """Answer the claim confirmation (one way to pay, confirmed with Enter) if it is asked."""
    from ttr_desktop.ui.scenes.board_overlays import ActionChooser
    if isinstance(app.top, ActionChooser) and len(app.top.actions) == 1:
        post_key(app, pygame.K_RETURN, frames=frames)


def anns_turn(app, variant: str = "usa", seed: int = 3):
    """Ann (a person) against a Normal bot in a new game of ``variant``: her starting
    tickets kept through the ticket panel, and her turn to play."""
    from ttr_desktop.rules import Phase
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
    from ttr_desktop.ui.session import GameSession, SeatConfig
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new(variant, seats, seed=seed, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    assert isinstance(app.top, TicketChoiceOverlay)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    return board
