"""The drawn buttons of the board's panels, the scoring screen and the review, and how a
screen's buttons answer the mouse, the same on each of them: the pointer lights the button
under it; a left click on an enabled one plays the click sound and hands the button to the
screen's answer."""

from __future__ import annotations

from typing import Callable, Iterable

import pygame

from ttr_desktop.ui import style


class Button:
    """A drawn button with hover and disabled states; ``on_press``, when given, is what a
    click on it does (else the screen's answer decides)."""

    def __init__(self, rect: pygame.Rect, label: str, primary: bool = False,
                 on_press: Callable[[], object] | None = None) -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.primary = primary
        self.enabled = True
        self.hover = False
        self.on_press = on_press

    def draw(self, surface: pygame.Surface) -> None:
        if not self.enabled:
            fill, edge, ink = (228, 221, 207), (200, 190, 170), (160, 150, 135)
        elif self.primary:
            fill = (201, 83, 63) if self.hover else style.ACCENT
            edge, ink = (126, 42, 33), (255, 255, 255)
        else:
            fill = (235, 217, 176) if self.hover else (246, 238, 220)
            edge, ink = style.PANEL_EDGE, style.INK
        pygame.draw.rect(surface, fill, self.rect, border_radius=9)
        pygame.draw.rect(surface, edge, self.rect, 2, border_radius=9)
        t = style.text(self.label, 18, ink, bold=self.primary)
        surface.blit(t, t.get_rect(center=self.rect.center))

    def hit(self, pos) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


def hover_buttons(buttons: Iterable[Button], pos) -> None:
    """The pointer moved to ``pos``: the button under it lights, the others do not."""
    for b in buttons:
        b.hover = b.rect.collidepoint(pos)


def press_button(buttons: Iterable[Button], pos, sound,
                 answer: Callable[[Button], object] | None = None) -> bool:
    """A left click at ``pos``: the first enabled button under it plays the click sound,
    then its ``on_press`` runs, or ``answer(button)`` for a button without one. False when
    the click hit no such button (the screen's own business)."""
    for b in buttons:
        if b.hit(pos):
            sound.play("click")
            if b.on_press is not None:
                b.on_press()
            elif answer is not None:
                answer(b)
            return True
    return False
