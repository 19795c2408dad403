"""Train cards and ticket cards drawn with primitives (cached per size)."""

from __future__ import annotations

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.symbols import draw_symbol

_CARD_CACHE: dict[tuple, pygame.Surface] = {}
RAINBOW = [(206, 52, 44), (232, 128, 36), (236, 196, 40), (52, 146, 70), (44, 104, 196),
           (214, 104, 170)]


def card_surface(name: str | None, size: tuple[int, int], symbols: bool = True,
                 dim: bool = False) -> pygame.Surface:
    """A face-up train card: its colour, a rail motif and (optionally) its symbol."""
    key = (name, size, symbols, dim)
    surf = _CARD_CACHE.get(key)
    if surf is not None:
        return surf
    w, h = size
    surf = pygame.Surface(size, pygame.SRCALPHA)
    rect = surf.get_rect()
    if name is None:
        pygame.draw.rect(surf, (0, 0, 0, 40), rect, border_radius=7)
        pygame.draw.rect(surf, style.PANEL_EDGE, rect, 1, border_radius=7)
        _CARD_CACHE[key] = surf
        return surf
    pygame.draw.rect(surf, (252, 250, 244), rect, border_radius=7)
    inner = rect.inflate(-6, -6)
    if name == "locomotive":
        band = max(1, inner.height // len(RAINBOW))
        clip = pygame.Surface(inner.size, pygame.SRCALPHA)
        for i, rgb in enumerate(RAINBOW):
            pygame.draw.rect(clip, rgb, (0, i * band, inner.width, band + 1))
        mask = pygame.Surface(inner.size, pygame.SRCALPHA)
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=5)
        clip.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surf.blit(clip, inner)
    else:
        pygame.draw.rect(surf, style.CARD_RGB[name], inner, border_radius=5)
    # A rail motif across the card.
    y = inner.bottom - max(4, h // 6)
    tie = (255, 255, 255, 90) if name not in ("white", "yellow") else (60, 50, 40, 90)
    for x in range(inner.left + 4, inner.right - 2, max(5, w // 8)):
        pygame.draw.line(surf, tie, (x, y - 2), (x, y + 2), 2)
    pygame.draw.line(surf, tie, (inner.left + 2, y), (inner.right - 2, y), 1)
    if symbols:
        draw_symbol(surf, name, (inner.centerx, inner.centery - h * 0.06), min(w, h) * 0.2,
                    style.CARD_TEXT[name] if name != "locomotive" else (255, 255, 255),
                    (25, 20, 15))
    pygame.draw.rect(surf, (60, 50, 40), rect, 1, border_radius=7)
    if dim:
        shade = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (245, 240, 230, 150), rect, border_radius=7)
        surf.blit(shade, (0, 0))
    _CARD_CACHE[key] = surf
    return surf


def card_back(size: tuple[int, int], label: str = "") -> pygame.Surface:
    """The back of the train deck (or of the ticket deck with a label)."""
    key = ("back", size, label)
    surf = _CARD_CACHE.get(key)
    if surf is not None:
        return surf
    surf = pygame.Surface(size, pygame.SRCALPHA)
    rect = surf.get_rect()
    fill = (120, 52, 40) if not label else (44, 72, 110)
    pygame.draw.rect(surf, fill, rect, border_radius=7)
    pygame.draw.rect(surf, (236, 214, 170), rect.inflate(-8, -8), 2, border_radius=5)
    if label:
        t = style.text(label, max(11, size[1] // 4), (236, 214, 170), bold=True)
        surf.blit(t, t.get_rect(center=rect.center))
    else:
        pygame.draw.circle(surf, (236, 214, 170), rect.center, min(size) // 4, 2)
    _CARD_CACHE[key] = surf
    return surf
