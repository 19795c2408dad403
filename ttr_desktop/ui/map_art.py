"""Painters for what the map shows: train spaces, trains, stubs, city markers, leaders.

Plain functions of a surface and screen points, sized from the track width in
screen pixels, each with a floor so that it stays readable on a small window
(a ferry mark is never under 11 px across, a tunnel's dashes never under 2 px).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.symbols import draw_symbol

Point = tuple[float, float]
EDGE = (70, 60, 48)
DARK = (20, 16, 12)
RAINBOW = ((206, 52, 44), (232, 128, 36), (236, 196, 40), (52, 146, 70), (44, 104, 196),
           (150, 80, 170))
COUNTRY_FILL = (62, 74, 98)
FORBIDDEN = (178, 44, 44)


def center_of(pts: Sequence[Point]) -> Point:
    """The centre of a quad."""
    return sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4


def ferry_radius(track: float) -> float:
    """Radius of the locomotive mark on a ferry space, for a track ``track`` px wide."""
    return max(5.5, track * 0.55)


def symbol_radius(track: float) -> float:
    """Radius of a colour-blind symbol on a space."""
    return max(2.6, track * 0.34)


def tunnel_dash(track: float) -> int:
    """Thickness of a tunnel's dashes."""
    return max(2, round(track * 0.26))


# Routes ------------------------------------------------------------------------
def draw_space(surf: pygame.Surface, pts: Sequence[Point], color: str, track: float, *,
               tunnel: bool = False, ferry: bool = False, symbols: bool = True) -> None:
    """One open train space: its colour, an edge, and its marks (tunnel dashes, the
    locomotive of a ferry space, the colour-blind symbol)."""
    fill = style.CARD_RGB.get(color, style.CARD_RGB["gray"])
    pygame.draw.polygon(surf, fill, pts)
    pygame.draw.polygon(surf, DARK if tunnel else EDGE, pts, 2 if tunnel else 1)
    if tunnel:
        draw_tunnel_marks(surf, pts, track)
    c = center_of(pts)
    if ferry:
        draw_ferry_mark(surf, c, ferry_radius(track))
    elif symbols and color != "gray":
        draw_symbol(surf, color, c, symbol_radius(track), style.CARD_TEXT[color], (30, 26, 20))


#: A closed track (one track of a double used at 2-3 players): washed grey, hatched.
CLOSED_WASH = (196, 190, 178)
CLOSED_HATCH = (92, 84, 74)


def draw_closed_space(surf: pygame.Surface, pts: Sequence[Point]) -> None:
    """One space of a track nobody may claim any more: a flat grey wash over its colour and
    diagonal hatching, so it never looks like open track."""
    pygame.draw.polygon(surf, CLOSED_WASH, pts)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    for t in (0.2, 0.45, 0.7, 0.95):        # strokes across the space, slanted
        a = (x0 + (x1 - x0) * (t - 0.2), y0 + (y1 - y0) * (t - 0.2))
        b = (x3 + (x2 - x3) * t, y3 + (y2 - y3) * t)
        pygame.draw.line(surf, CLOSED_HATCH, a, b, 1)
    pygame.draw.polygon(surf, CLOSED_HATCH, pts, 1)


def draw_closed_cross(surf: pygame.Surface, center: Point, track: float) -> None:
    """The small cross on a closed track's middle space: a dark ring with a white \u00d7."""
    r = max(6.0, track * 0.75)
    cx, cy = center
    pygame.draw.circle(surf, (250, 246, 236), (cx, cy), r)
    pygame.draw.circle(surf, (150, 40, 34), (cx, cy), r, 2)
    k = r * 0.5
    w = max(2, round(r / 3.5))
    pygame.draw.line(surf, (150, 40, 34), (cx - k, cy - k), (cx + k, cy + k), w)
    pygame.draw.line(surf, (150, 40, 34), (cx - k, cy + k), (cx + k, cy - k), w)


def draw_tunnel_marks(surf: pygame.Surface, pts: Sequence[Point], track: float) -> None:
    """Dashes along both long sides, just outside the space: the cased look of a tunnel."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    # Unit normal pointing from side 3-2 to side 0-1.
    nx, ny = (x0 - x3), (y0 - y3)
    n = math.hypot(nx, ny) or 1.0
    nx, ny = nx / n, ny / n
    width = tunnel_dash(track)
    off = width / 2 + 1
    for (ax, ay), (bx, by), sign in (((x0, y0), (x1, y1), 1), ((x3, y3), (x2, y2), -1)):
        ox, oy = nx * off * sign, ny * off * sign
        for t0, t1 in ((0.04, 0.3), (0.38, 0.62), (0.7, 0.96)):
            p = (ax + (bx - ax) * t0 + ox, ay + (by - ay) * t0 + oy)
            q = (ax + (bx - ax) * t1 + ox, ay + (by - ay) * t1 + oy)
            pygame.draw.line(surf, DARK, p, q, width)


def draw_ferry_mark(surf: pygame.Surface, center: Point, radius: float) -> None:
    """The locomotive a ferry space asks for: a rainbow wheel like the locomotive card."""
    cx, cy = center
    pygame.draw.circle(surf, DARK, (cx, cy), radius + 1)
    steps = 4
    for k, rgb in enumerate(RAINBOW):
        a0 = -math.pi / 2 + k * 2 * math.pi / len(RAINBOW)
        a1 = a0 + 2 * math.pi / len(RAINBOW)
        arc = [(cx + math.cos(a0 + (a1 - a0) * i / steps) * radius,
                cy + math.sin(a0 + (a1 - a0) * i / steps) * radius) for i in range(steps + 1)]
        pygame.draw.polygon(surf, rgb, [(cx, cy), *arc])
    pygame.draw.circle(surf, (250, 246, 236), (cx, cy), max(1.5, radius * 0.38))
    pygame.draw.circle(surf, DARK, (cx, cy), max(1.5, radius * 0.38), 1)


def draw_car(surf: pygame.Surface, pts: Sequence[Point], rgb) -> None:
    """A plastic train on a space: wider than the track, raised by a shadow, with a
    light roof and a dark edge, so a claimed route never looks like open track."""
    cx, cy = center_of(pts)
    # Widen across the track (corners 0-1 and 3-2 are the long sides).
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    mx, my = (x0 + x1) / 2 - (x3 + x2) / 2, (y0 + y1) / 2 - (y3 + y2) / 2
    grow = 0.22
    car = [(x0 + mx * grow, y0 + my * grow), (x1 + mx * grow, y1 + my * grow),
           (x2 - mx * grow, y2 - my * grow), (x3 - mx * grow, y3 - my * grow)]
    shadow = [(x + 2, y + 3) for x, y in car]
    pygame.draw.polygon(surf, (30, 24, 18), shadow)
    pygame.draw.polygon(surf, rgb, car)
    inner = [(cx + (x - cx) * 0.62, cy + (y - cy) * 0.4) for x, y in car]
    light = tuple(min(255, c + 80) for c in rgb)
    pygame.draw.polygon(surf, light, inner)
    pygame.draw.polygon(surf, (12, 10, 8), car, 2)


def draw_stub(surf: pygame.Surface, polys: Sequence[Sequence[Point]], color: str,
              track: float) -> None:
    """Track leading off the board: pale, hatched spaces with a dashed edge and an arrow
    at the end, so it reads as 'continues elsewhere' and never as a route to claim."""
    if not polys:
        return
    pts_all = [p for poly in polys for p in poly]
    x0 = math.floor(min(p[0] for p in pts_all)) - 8
    y0 = math.floor(min(p[1] for p in pts_all)) - 8
    x1 = math.ceil(max(p[0] for p in pts_all)) + 8
    y1 = math.ceil(max(p[1] for p in pts_all)) + 8
    layer = pygame.Surface((x1 - x0, y1 - y0), pygame.SRCALPHA)
    fill = style.CARD_RGB.get(color, style.CARD_RGB["gray"])
    for poly in polys:
        pts = [(x - x0, y - y0) for x, y in poly]
        pygame.draw.polygon(layer, (*fill, 95), pts)
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = pts
        for t in (0.2, 0.5, 0.8):      # hatching across the space
            p = (ax + (bx - ax) * (t - 0.12), ay + (by - ay) * (t - 0.12))
            q = (dx + (cx - dx) * (t + 0.12), dy + (cy - dy) * (t + 0.12))
            pygame.draw.line(layer, (*EDGE, 150), p, q, 1)
        for a, b in ((pts[0], pts[1]), (pts[3], pts[2])):
            for t0, t1 in ((0.0, 0.35), (0.55, 0.9)):
                pygame.draw.line(layer, (*EDGE, 200), (a[0] + (b[0] - a[0]) * t0,
                                                       a[1] + (b[1] - a[1]) * t0),
                                 (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1), 1)
    # An open arrow past the last space, pointing off the board.
    last, before = polys[-1], polys[-2] if len(polys) > 1 else None
    ex, ey = center_of(last)
    if before is not None:
        bx, by = center_of(before)
    else:
        bx = (last[0][0] + last[3][0]) / 2
        by = (last[0][1] + last[3][1]) / 2
    ux, uy = ex - bx, ey - by
    n = math.hypot(ux, uy) or 1.0
    ux, uy = ux / n, uy / n
    tip = (ex - x0 + ux * track * 0.9, ey - y0 + uy * track * 0.9)
    size = max(4.0, track * 0.7)
    wing1 = (tip[0] - ux * size - uy * size, tip[1] - uy * size + ux * size)
    wing2 = (tip[0] - ux * size + uy * size, tip[1] - uy * size - ux * size)
    pygame.draw.lines(layer, (*EDGE, 220), False, [wing1, tip, wing2], 2)
    surf.blit(layer, (x0, y0))


# Cities ------------------------------------------------------------------------
def draw_city_marker(surf: pygame.Surface, x: float, y: float, r: float,
                     large: bool = False) -> None:
    """An ordinary city (a ringed dot) or a large city (bigger, with a double ring)."""
    pygame.draw.circle(surf, (60, 40, 30), (x, y), r + 2)
    pygame.draw.circle(surf, (252, 248, 238), (x, y), r)
    if large:
        pygame.draw.circle(surf, style.ACCENT, (x, y), r * 0.68, max(2, round(r * 0.16)))
        pygame.draw.circle(surf, style.ACCENT, (x, y), max(2, r * 0.32))
    else:
        pygame.draw.circle(surf, style.ACCENT, (x, y), max(2, r * 0.45))


def draw_country_marker(surf: pygame.Surface, x: float, y: float, r: float,
                        direction: Point) -> None:
    """A country's end point: a dark signpost arrow pointing off the board."""
    ux, uy = direction
    px, py = -uy, ux
    half_l, half_w = r * 1.6, r * 1.15
    back = (x - ux * half_l, y - uy * half_l)
    neck = (x + ux * half_l * 0.25, y + uy * half_l * 0.25)
    tip = (x + ux * half_l, y + uy * half_l)
    shape = [(back[0] + px * half_w, back[1] + py * half_w),
             (neck[0] + px * half_w, neck[1] + py * half_w), tip,
             (neck[0] - px * half_w, neck[1] - py * half_w),
             (back[0] - px * half_w, back[1] - py * half_w)]
    halo = [(x + (sx - x) * 1.2, y + (sy - y) * 1.2) for sx, sy in shape]
    pygame.draw.polygon(surf, (250, 246, 236), halo)
    pygame.draw.polygon(surf, COUNTRY_FILL, shape)
    pygame.draw.polygon(surf, DARK, shape, 2)
    # A white chevron inside, repeating the direction.
    c = max(2.0, r * 0.55)
    cx, cy = x - ux * r * 0.2, y - uy * r * 0.2
    chevron = [(cx - ux * c + px * c, cy - uy * c + py * c), (cx + ux * c * 0.6, cy + uy * c * 0.6),
               (cx - ux * c - px * c, cy - uy * c - py * c)]
    pygame.draw.lines(surf, (250, 246, 236), False, chevron, max(2, round(r * 0.3)))


def draw_forbidden_mark(surf: pygame.Surface, x: float, y: float, r: float) -> None:
    """A quiet sign that nobody may start here: a dashed red ring round the marker."""
    ring = pygame.Rect(0, 0, 2 * r, 2 * r)
    ring.center = (round(x), round(y))
    for k in range(8):
        a = k * math.pi / 4
        pygame.draw.arc(surf, FORBIDDEN, ring, a, a + math.pi / 6, 2)


def draw_home_ring(surf: pygame.Surface, x: float, y: float, r: float, rgb) -> None:
    """A seat's home city: a thick ring in the seat's colour round the marker."""
    pygame.draw.circle(surf, DARK, (x, y), r + 2, 2)
    pygame.draw.circle(surf, rgb, (x, y), r, 3)


def draw_leader(surf: pygame.Surface, a: Point, b: Point) -> None:
    """A thin line from a city's marker to its label."""
    pygame.draw.line(surf, (250, 246, 236), a, b, 4)
    pygame.draw.line(surf, style.INK, a, b, 2)
