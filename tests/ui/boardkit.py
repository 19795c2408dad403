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
