"""The scene contract.

A scene is a screen (menu, setup, board, scoring) or an overlay drawn over
the one below it (ticket choice, payment choice, hand-over, pause).

- ``enter()`` when pushed, ``exit()`` when popped;
  ``pause()`` when another scene is pushed on top, ``resume()`` when it returns.
- ``handle_event(e) -> bool``: True when the event was consumed.
- ``update(dt)``: advance timers and animations (seconds).
- ``draw(surface)``: paint; drawing never changes game state.
- ``resize(size)``: the window changed size; lay out again.
- ``opaque``: False for overlays (the scenes below are drawn first).
- ``next_wake() -> float | None``: how soon the scene must be updated and drawn again
  when no input comes: ``0.0`` while something moves (every frame; the default, so a
  scene that says nothing is never starved), the seconds to its next timer, or None when
  only input changes it. The window sleeps in between (see ``App.frame``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App


class Scene:
    """Base scene: every hook does nothing."""

    opaque: bool = True

    def __init__(self, app: "App") -> None:
        self.app = app

    def enter(self) -> None:
        """Pushed onto the stack."""

    def exit(self) -> None:
        """Popped from the stack."""

    def pause(self) -> None:
        """Covered by another scene."""

    def resume(self) -> None:
        """Uncovered again."""

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event; True when consumed."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene."""

    def next_wake(self) -> float | None:
        """Seconds until this scene needs a frame with no input (0.0: every frame; None:
        input only). Scenes that stand still between inputs say so; the default keeps
        drawing."""
        return 0.0

    def resize(self, size: tuple[int, int]) -> None:
        """Lay out for a new window size."""
