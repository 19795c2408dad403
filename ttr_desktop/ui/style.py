"""Colours, fonts and cached text: the look shared by every scene."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import pygame

PAPER = (241, 233, 214)
PAPER_DARK = (226, 214, 188)
INK = (43, 36, 28)
INK_SOFT = (96, 84, 68)
PANEL = (250, 245, 233)
PANEL_EDGE = (176, 158, 125)
ACCENT = (176, 58, 46)
ACCENT_SOFT = (226, 167, 120)
HIGHLIGHT = (255, 214, 64)
#: The ticket-path glow: a cyan no route, card or player has.
PATH_GLOW = (40, 214, 232)
GOOD = (48, 128, 64)
BAD = (178, 44, 44)
SHADOW = (0, 0, 0, 70)

#: Card and route colours (gray routes are drawn in GRAY).
CARD_RGB: dict[str, tuple[int, int, int]] = {
    "red": (206, 52, 44),
    "blue": (44, 104, 196),
    "green": (52, 146, 70),
    "yellow": (236, 196, 40),
    "black": (48, 48, 52),
    "white": (244, 242, 234),
    "orange": (232, 128, 36),
    "pink": (214, 104, 170),
    "locomotive": (150, 120, 70),
    "gray": (160, 154, 144),
    # Card kinds of the newer rule families (never route colours).
    "locomotive_plus4": (96, 70, 48),
    "passenger": (40, 128, 142),
    "newspaper": (232, 226, 208),
}
#: Text colour readable on each card colour.
CARD_TEXT: dict[str, tuple[int, int, int]] = {
    name: (255, 255, 255) if name in ("red", "blue", "green", "black", "locomotive", "pink",
                                      "locomotive_plus4", "passenger")
    else INK for name in CARD_RGB
}
#: A darker edge for the light cards, so a white card never looks like a blank one.
CARD_EDGE: dict[str, tuple[int, int, int]] = {
    "white": (128, 120, 106), "yellow": (170, 132, 20), "newspaper": (120, 112, 96),
}

#: Seat colours (the plastic trains), in the order the setup offers them.
PLAYER_COLORS: dict[str, tuple[int, int, int]] = {
    "red": (196, 40, 40),
    "blue": (32, 92, 200),
    "green": (36, 140, 60),
    "yellow": (240, 190, 20),
    "black": (40, 40, 44),
    "purple": (120, 60, 170),
}


def _font_file(bold: bool) -> str | None:
    """NotoSans from pygame-gui's package data (it ships with the game's dependencies)."""
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    try:
        path = resources.files("pygame_gui.data") / name
        if path.is_file():
            return str(path)
    except (ModuleNotFoundError, FileNotFoundError):
        pass
    return None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """A cached font of ``size`` pixels."""
    return pygame.font.Font(_font_file(bold), size)


_TEXT_CACHE: dict[tuple, pygame.Surface] = {}


def text(string: str, size: int = 16, color=INK, bold: bool = False) -> pygame.Surface:
    """A cached rendered text surface (antialiased)."""
    key = (string, size, color, bold)
    surf = _TEXT_CACHE.get(key)
    if surf is None:
        if len(_TEXT_CACHE) > 4000:
            _TEXT_CACHE.clear()
        surf = font(size, bold).render(string, True, color)
        _TEXT_CACHE[key] = surf
    return surf


def halo_text(string: str, size: int, color=INK, halo=(255, 250, 238), bold: bool = False,
              radius: int = 2) -> pygame.Surface:
    """Text on a soft light halo, readable over the map."""
    key = ("halo", string, size, color, halo, bold, radius)
    surf = _TEXT_CACHE.get(key)
    if surf is None:
        base = font(size, bold).render(string, True, color)
        back = font(size, bold).render(string, True, halo)
        w, h = base.get_width() + 2 * radius, base.get_height() + 2 * radius
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                if dx * dx + dy * dy <= radius * radius:
                    surf.blit(back, (radius + dx, radius + dy))
        surf.blit(base, (radius, radius))
        _TEXT_CACHE[key] = surf
    return surf


def wrap(string: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Split ``string`` into lines that fit ``width`` pixels."""
    f = font(size, bold)
    lines: list[str] = []
    for para in string.split("\n"):
        words = para.split(" ")
        line = ""
        for word in words:
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def panel(surface: pygame.Surface, rect: pygame.Rect, fill=PANEL, edge=PANEL_EDGE,
          radius: int = 10, shadow: bool = True) -> None:
    """A rounded panel with a soft shadow."""
    if shadow:
        sh = pygame.Surface((rect.width + 8, rect.height + 8), pygame.SRCALPHA)
        pygame.draw.rect(sh, (0, 0, 0, 45), sh.get_rect().inflate(-4, -4).move(2, 3),
                         border_radius=radius + 2)
        surface.blit(sh, (rect.x - 4, rect.y - 2))
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, width=1, border_radius=radius)


def reset_caches() -> None:
    """Forget fonts and rendered surfaces (after pygame was quit and started again)."""
    font.cache_clear()
    _TEXT_CACHE.clear()
    from ttr_desktop.ui import cards, map_labels, map_render, map_view
    cards._CARD_CACHE.clear()
    map_render._BACKGROUNDS.clear()
    map_labels._CROPPED.clear()
    map_view._LABELS.clear()
