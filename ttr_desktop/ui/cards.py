"""Train cards and ticket cards drawn with primitives (cached per size).

Every card kind reads at a glance with the colour-blind symbols on or off: a
colour card is its colour with a train-car motif (the white one on a clear grey
edge), the locomotive is a rainbow with an engine, the +4 locomotive the same
with a big "+4", the passenger card a figure, the newspaper card a front page.
A card that is not there keeps its colour: ``dim`` draws the outline style (a
coloured frame and band on paper, never a washed-out colour); an empty display
slot (``name`` None) is a dashed, sunken space.
"""

from __future__ import annotations

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.symbols import draw_symbol

_CARD_CACHE: dict[tuple, pygame.Surface] = {}
RAINBOW = [(206, 52, 44), (232, 128, 36), (236, 196, 40), (52, 146, 70), (44, 104, 196),
           (214, 104, 170)]
FRAME = (252, 250, 244)
PAPER = (246, 241, 230)
EDGE = (60, 50, 40)
#: Card kinds drawn as a rainbow (wild cards).
RAINBOW_KINDS = ("locomotive", "locomotive_plus4")
#: Pay items a rule family draws itself (County Durham's coal): name ->
#: fn(surface, inner_rect) painting the face inside the card's frame.
CARD_PAINTERS: dict[str, object] = {}


def _shade(rgb, amount: int) -> tuple[int, int, int]:
    return tuple(max(0, min(255, c + amount)) for c in rgb)


def _motif_rgb(rgb) -> tuple[int, int, int]:
    """A tone of the card colour for its motif: lighter on dark cards, darker on light."""
    light = sum(rgb) > 450
    return _shade(rgb, -60 if light else 48)


def card_surface(name: str | None, size: tuple[int, int], symbols: bool = True,
                 dim: bool = False, count: int | None = None) -> pygame.Surface:
    """A train card of kind ``name`` (None: an empty slot). ``dim``: the card is not
    there or not takeable (outline style, colour kept); ``count``: a count badge."""
    key = (name, size, symbols, dim, count)
    surf = _CARD_CACHE.get(key)
    if surf is not None:
        return surf
    surf = pygame.Surface(size, pygame.SRCALPHA)
    if name is None:
        _empty_slot(surf)
    elif dim:
        _outline_card(surf, name, symbols)
    else:
        _full_card(surf, name, symbols)
    if count is not None and name is not None:
        _count_badge(surf, count)
    if len(_CARD_CACHE) > 600:
        _CARD_CACHE.clear()
    _CARD_CACHE[key] = surf
    return surf


def _radius(size) -> int:
    return max(4, min(size) // 8)


def _empty_slot(surf: pygame.Surface) -> None:
    """A sunken space with a dashed edge: clearly nothing there."""
    rect = surf.get_rect()
    rad = _radius(rect.size)
    pygame.draw.rect(surf, (60, 45, 30, 38), rect, border_radius=rad)
    inner = rect.inflate(-4, -4)
    dash = max(3, min(rect.size) // 8)
    edges = [((inner.left + rad, inner.top), (inner.right - rad, inner.top)),
             ((inner.left + rad, inner.bottom - 1), (inner.right - rad, inner.bottom - 1)),
             ((inner.left, inner.top + rad), (inner.left, inner.bottom - rad)),
             ((inner.right - 1, inner.top + rad), (inner.right - 1, inner.bottom - rad))]
    for (x0, y0), (x1, y1) in edges:
        length = max(abs(x1 - x0), abs(y1 - y0))
        for start in range(0, length, 2 * dash):
            t0, t1 = start / max(1, length), min(1.0, (start + dash) / max(1, length))
            pygame.draw.line(surf, style.PANEL_EDGE, (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0),
                             (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1), 2)


def _fill_kind(surf: pygame.Surface, name: str, rect: pygame.Rect, radius: int) -> None:
    """The card's face colour in ``rect``: rainbow bands for the wild cards."""
    if name in RAINBOW_KINDS:
        band = max(1, rect.height // len(RAINBOW))
        clip = pygame.Surface(rect.size, pygame.SRCALPHA)
        for i, rgb in enumerate(RAINBOW if name == "locomotive" else
                                [_shade(c, -45) for c in RAINBOW]):
            pygame.draw.rect(clip, rgb, (0, i * band, rect.width, band + 1))
        mask = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
        clip.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surf.blit(clip, rect)
    else:
        pygame.draw.rect(surf, style.CARD_RGB.get(name, style.CARD_RGB["gray"]), rect,
                         border_radius=radius)


def _full_card(surf: pygame.Surface, name: str, symbols: bool) -> None:
    rect = surf.get_rect()
    w, h = rect.size
    rad = _radius(rect.size)
    pygame.draw.rect(surf, FRAME, rect, border_radius=rad)
    inner = rect.inflate(-6, -6)
    painter = CARD_PAINTERS.get(name)
    if painter is not None:
        painter(surf, inner)  # type: ignore[operator]
        return
    _fill_kind(surf, name, inner, max(2, rad - 2))
    edge = style.CARD_EDGE.get(name)
    if edge is not None:                       # light cards get a clear inner edge
        pygame.draw.rect(surf, edge, inner, 2, border_radius=max(2, rad - 2))
    rgb = style.CARD_RGB.get(name, style.CARD_RGB["gray"])
    if name == "passenger":
        draw_symbol(surf, "passenger", (inner.centerx, inner.centery), min(w, h) * 0.3,
                    (255, 255, 255), (20, 40, 44))
    elif name == "newspaper":
        _front_page(surf, inner)
    else:
        _rails(surf, name, inner, rgb)
        if name in RAINBOW_KINDS:
            _engine(surf, inner)
        else:
            _boxcar(surf, inner, _motif_rgb(rgb))
        if symbols:
            draw_symbol(surf, name, (inner.centerx, inner.top + inner.height * 0.3),
                        min(w, h) * 0.2, (255, 255, 255) if name in (*RAINBOW_KINDS, "white")
                        else style.CARD_TEXT.get(name, style.INK), (25, 20, 15))
        if name == "locomotive_plus4":
            _plus_four(surf, inner, symbols)
    if name not in style.CARD_RGB and name not in RAINBOW_KINDS:
        t = style.text(name[:1].upper(), max(10, h // 3), style.INK, bold=True)
        surf.blit(t, t.get_rect(center=inner.center))
    pygame.draw.rect(surf, EDGE, rect, 1, border_radius=rad)


def _rails(surf, name, inner: pygame.Rect, rgb) -> None:
    """Two rails and sleepers along the bottom of the card."""
    w, h = inner.size
    y = inner.bottom - max(4, h // 7)
    tie = _motif_rgb(rgb) if name not in RAINBOW_KINDS else (255, 255, 255)
    for x in range(inner.left + 3, inner.right - 2, max(5, w // 7)):
        pygame.draw.line(surf, tie, (x, y - 2), (x, y + 2), 2)
    pygame.draw.line(surf, tie, (inner.left + 2, y), (inner.right - 3, y), 1)


def _boxcar(surf, inner: pygame.Rect, rgb) -> None:
    """A small goods wagon standing on the rails."""
    w, h = inner.size
    body = pygame.Rect(0, 0, max(8, round(w * 0.6)), max(4, round(h * 0.16)))
    body.midbottom = (inner.centerx, inner.bottom - max(4, h // 7) - max(3, h // 14))
    pygame.draw.rect(surf, rgb, body, border_radius=2)
    r = max(2, h // 24)
    for x in (body.left + body.width // 4, body.right - body.width // 4):
        pygame.draw.circle(surf, rgb, (x, body.bottom + r - 1), r)


def _engine(surf, inner: pygame.Rect) -> None:
    """A locomotive silhouette: boiler, cab, chimney, wheels."""
    w, h = inner.size
    dark = (30, 24, 20)
    base = inner.bottom - max(4, h // 7) - max(3, h // 14)
    boiler = pygame.Rect(0, 0, max(8, round(w * 0.42)), max(4, round(h * 0.12)))
    boiler.bottomleft = (inner.centerx - round(w * 0.3), base)
    cab = pygame.Rect(0, 0, max(4, round(w * 0.2)), max(6, round(h * 0.22)))
    cab.bottomleft = boiler.bottomright
    chimney = pygame.Rect(0, 0, max(2, round(w * 0.07)), max(3, round(h * 0.08)))
    chimney.midbottom = (boiler.left + boiler.width // 4, boiler.top)
    for part in (boiler, cab, chimney):
        pygame.draw.rect(surf, dark, part)
    r = max(2, h // 22)
    for x in (boiler.left + r + 1, boiler.centerx + r, cab.centerx):
        pygame.draw.circle(surf, dark, (x, base + r - 1), r)


def _plus_four(surf, inner: pygame.Rect, symbols: bool) -> None:
    """The big "+4" of the Märklin locomotive."""
    size = max(11, round(inner.height * (0.3 if symbols else 0.38)))
    text = style.text("+4", size, (255, 255, 255), bold=True)
    cy = inner.top + inner.height * (0.62 if symbols else 0.42)
    pill = text.get_rect(center=(inner.centerx, round(cy))).inflate(6, 0)
    pygame.draw.rect(surf, (25, 20, 15), pill, border_radius=pill.height // 2)
    pygame.draw.rect(surf, (255, 255, 255), pill, 1, border_radius=pill.height // 2)
    surf.blit(text, text.get_rect(center=pill.center))


def _front_page(surf, inner: pygame.Rect) -> None:
    """A newspaper's front page: masthead, headline, columns of text."""
    w, h = inner.size
    ink = (40, 34, 28)
    pad = max(3, w // 10)
    mast = pygame.Rect(inner.left + pad, inner.top + pad, w - 2 * pad, max(5, h // 6))
    pygame.draw.rect(surf, ink, mast)
    if mast.height >= 10:
        t = style.text("NEWS", max(8, mast.height - 3), (246, 241, 230), bold=True)
        if t.get_width() <= mast.width:
            surf.blit(t, t.get_rect(center=mast.center))
    y = mast.bottom + max(2, h // 14)
    pygame.draw.rect(surf, ink, (mast.left, y, mast.width, max(2, h // 16)))
    y += max(2, h // 16) + max(2, h // 16)
    mid = mast.centerx
    step = max(3, h // 12)
    while y < inner.bottom - pad:
        pygame.draw.line(surf, (110, 100, 88), (mast.left, y), (mid - 2, y), 1)
        pygame.draw.line(surf, (110, 100, 88), (mid + 2, y), (mast.right, y), 1)
        y += step


def _outline_card(surf: pygame.Surface, name: str, symbols: bool) -> None:
    """A card that is not in hand (or not takeable): paper with a frame and a band in the
    card's own colour, and its symbol or motif in that colour. Never washed out."""
    rect = surf.get_rect()
    w, h = rect.size
    rad = _radius(rect.size)
    rgb = style.CARD_RGB.get(name, style.CARD_RGB["gray"])
    pygame.draw.rect(surf, PAPER, rect, border_radius=rad)
    band = pygame.Rect(rect.x, rect.y, w, max(6, h // 5))
    clip = pygame.Surface(rect.size, pygame.SRCALPHA)
    _fill_kind(clip, name, pygame.Rect(0, 0, w, h), rad)
    surf.blit(clip, band.topleft, band)
    width = max(3, min(w, h) // 14)
    frame = rgb if name not in RAINBOW_KINDS else RAINBOW[4]
    edge = style.CARD_EDGE.get(name)
    if edge is not None:
        pygame.draw.rect(surf, edge, rect, width + 2, border_radius=rad)
        pygame.draw.rect(surf, rgb, rect.inflate(-2, -2), width, border_radius=rad)
    elif name in RAINBOW_KINDS:
        for i, colour in enumerate(RAINBOW[:width]):
            pygame.draw.rect(surf, colour, rect.inflate(-2 * i, -2 * i), 1,
                             border_radius=max(1, rad - i))
    else:
        pygame.draw.rect(surf, frame, rect, width, border_radius=rad)
    centre = (rect.centerx, band.bottom + (rect.bottom - band.bottom) * 0.45)
    shown = name if symbols else ("passenger" if name == "passenger" else None)
    if name == "newspaper":
        _front_page(surf, pygame.Rect(rect.x + width, band.bottom, w - 2 * width,
                                      rect.bottom - band.bottom - width))
    elif shown is not None:
        draw_symbol(surf, shown, centre, min(w, h) * 0.22,
                    rgb if name not in RAINBOW_KINDS else RAINBOW[0], (25, 20, 15))
    else:
        # Without symbols: a disc of the card's colour says which card it is.
        r = min(w, h) * 0.2
        if name in RAINBOW_KINDS:
            for i, colour in enumerate(RAINBOW):
                pygame.draw.circle(surf, colour, centre, r * (1 - i / len(RAINBOW)))
        else:
            pygame.draw.circle(surf, rgb, centre, r)
        pygame.draw.circle(surf, (25, 20, 15), centre, r, 1)
    if name == "locomotive_plus4":
        t = style.text("+4", max(9, h // 5), style.INK, bold=True)
        surf.blit(t, t.get_rect(midbottom=(rect.centerx, rect.bottom - width - 1)))
    pygame.draw.rect(surf, EDGE, rect, 1, border_radius=rad)


def _count_badge(surf: pygame.Surface, count: int) -> None:
    """How many of this card: a round badge in the top right corner (0 included)."""
    rect = surf.get_rect()
    size = max(10, min(rect.size) // 3)
    t = style.text(str(count), size, style.INK if count else style.INK_SOFT, bold=True)
    badge = t.get_rect().inflate(6, 0)
    badge.width = max(badge.width, badge.height)
    badge.topright = (rect.right - 2, rect.top + 2)
    pygame.draw.rect(surf, (255, 252, 244), badge, border_radius=badge.height // 2)
    pygame.draw.rect(surf, (40, 30, 20), badge, 2, border_radius=badge.height // 2)
    surf.blit(t, t.get_rect(center=badge.center))


def card_back(size: tuple[int, int], label: str = "") -> pygame.Surface:
    """The back of the train deck (or of the ticket deck with a label; a newline in it
    starts another line)."""
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
        # One line per deck when a draw may take from several (Märklin: short and long).
        lines = [style.text(part, max(11, size[1] // 4), (236, 214, 170), bold=True)
                 for part in label.split("\n")]
        y = rect.centery - sum(t.get_height() for t in lines) // 2
        for t in lines:
            surf.blit(t, t.get_rect(midtop=(rect.centerx, y)))
            y += t.get_height()
    else:
        pygame.draw.circle(surf, (236, 214, 170), rect.center, min(size) // 4, 2)
    _CARD_CACHE[key] = surf
    return surf
