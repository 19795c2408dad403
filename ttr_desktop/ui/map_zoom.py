"""The zoom control on the map's corner: zoom in, zoom out and the whole map.

Three small buttons stacked at the bottom right of the map's rectangle (in the
margin beside the board where there is one), so a player sees that the map
zooms without knowing the keys. Hovering one names its key; a button that
would do nothing (zoom in at the limit, out or back at the whole map) is
drawn faint. The scene owns the clicks: ``button_at`` then ``press``.
"""

from __future__ import annotations

import pygame

from ttr_desktop.ui import style

#: Button side and gap, in pixels.
SIZE = 28
GAP = 5
#: Zoom factor of one press of + or − (as the keys).
STEP = 1.25
BUTTONS = ("in", "out", "fit")
TIPS = {
    "in": [("Zoom in", style.INK, True), ("+ key, or the mouse wheel", style.INK_SOFT, False)],
    "out": [("Zoom out", style.INK, True), ("− key, or the mouse wheel", style.INK_SOFT, False)],
    "fit": [("The whole map", style.INK, True), ("0 key", style.INK_SOFT, False),
            ("Zoomed in, drag the map to move it", style.INK_SOFT, False)],
}


def button_rects(view) -> dict[str, pygame.Rect]:
    """Where the buttons are: a column at the bottom right of the view's rectangle."""
    area = view.rect
    x = area.right - 6 - SIZE
    y = area.bottom - 6 - SIZE
    out = {}
    for name in reversed(BUTTONS):
        out[name] = pygame.Rect(x, y, SIZE, SIZE)
        y -= SIZE + GAP
    return {name: out[name] for name in BUTTONS}


def button_at(view, pos) -> str | None:
    """The button under ``pos`` (or None)."""
    for name, rect in button_rects(view).items():
        if rect.collidepoint(pos):
            return name
    return None


def enabled(view, name: str) -> bool:
    """Whether pressing the button would change the view."""
    if name == "in":
        return view.zoom < view.MAX_ZOOM - 1e-6
    return view.is_zoomed


def press(view, name: str) -> bool:
    """Do what the button says; False when it changed nothing."""
    if name == "in":
        return view.zoom_at(view.board_rect.center, STEP)
    if name == "out":
        return view.zoom_at(view.board_rect.center, 1 / STEP)
    return view.reset_view()


def draw(surface: pygame.Surface, view, hover: str | None = None) -> None:
    """The three buttons, the hovered one lit."""
    for name, rect in button_rects(view).items():
        live = enabled(view, name)
        fill = (255, 244, 200) if hover == name and live else style.PANEL
        body = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(body, (*fill, 235 if live else 150), body.get_rect(), border_radius=6)
        pygame.draw.rect(body, (*style.PANEL_EDGE, 255 if live else 140), body.get_rect(), 1,
                         border_radius=6)
        ink = (*style.INK, 255) if live else (*style.INK_SOFT, 120)
        c = SIZE // 2
        arm = SIZE // 2 - 8
        if name in ("in", "out"):
            pygame.draw.line(body, ink, (c - arm, c), (c + arm, c), 3)
            if name == "in":
                pygame.draw.line(body, ink, (c, c - arm), (c, c + arm), 3)
        else:
            # The whole map: four corners of a frame.
            lo, hi, k = 7, SIZE - 8, 5
            for (x, y, dx, dy) in ((lo, lo, 1, 1), (hi, lo, -1, 1), (lo, hi, 1, -1),
                                   (hi, hi, -1, -1)):
                pygame.draw.line(body, ink, (x, y), (x + dx * k, y), 2)
                pygame.draw.line(body, ink, (x, y), (x, y + dy * k), 2)
        surface.blit(body, rect)
        if hover == name and live:
            pygame.draw.rect(surface, style.HIGHLIGHT, rect.inflate(4, 4), 2, border_radius=8)
