"""Painters for the pieces on cities (``ttr_desktop.rules.tokens.CityToken``).

One painter per kind, each drawn in a ``size`` x ``size`` box around a centre,
on a light halo so it stands out from tracks and background, and in the seat's
colour where the piece has a seat:

- station: a house; home: a flag on a pole (the map view adds a ring round the
  city); marker: a disc with a white ring; alvin: a green alien head, outlined
  in his holder's colour; passenger: a little figure; merchandise: a stack of
  chips with the top value and the count; coal: a black lump, with a count when
  there is more than one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import pygame

from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.ui import style

Point = tuple[float, float]
RGB = tuple[int, int, int]
DARK = (20, 16, 12)
HALO = (252, 248, 238)
NEUTRAL = (150, 150, 150)
ALVIN_GREEN = (112, 196, 72)
COAL = (30, 29, 30)
#: Order of kinds around a city (the first gets the best spot).
KIND_ORDER = ("home", "station", "marker", "passenger", "alvin", "merchandise", "coal")


def token_size(scale: float) -> int:
    """The side of a token's box in screen pixels at map scale ``scale``: never under 18
    px, so that a station reads as a house on the smallest window."""
    return max(18, min(40, round(32 * scale)))


def group_tokens(tokens: Iterable[CityToken]) -> list[CityToken]:
    """The tokens to draw on one city: coal merged into one counted lump, in KIND_ORDER."""
    out: list[CityToken] = []
    coal = 0
    for token in tokens:
        if token.kind == "coal":
            coal += max(1, token.count)
        else:
            out.append(token)
    if coal:
        out.append(CityToken("coal", count=coal))
    rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
    return sorted(out, key=lambda t: (rank.get(t.kind, len(rank)),
                                      -1 if t.seat is None else t.seat, t.value))


def _halo_polygon(surf: pygame.Surface, pts: Sequence[Point], fill, width: int = 2) -> None:
    pygame.draw.polygon(surf, HALO, pts, 0)
    pygame.draw.lines(surf, HALO, True, pts, width + 4)
    pygame.draw.polygon(surf, fill, pts)
    pygame.draw.polygon(surf, DARK, pts, width)


def _badge(surf: pygame.Surface, text: str, center: Point, size: int, fill=DARK,
           ink=(255, 255, 255)) -> None:
    """A small rounded count badge."""
    t = style.text(text, max(8, size), ink, bold=True)
    r = t.get_rect(center=(round(center[0]), round(center[1])))
    box = r.inflate(4, -max(0, r.height // 5))
    box.width = max(box.width, box.height)
    box.center = r.center
    pygame.draw.rect(surf, HALO, box.inflate(2, 2), border_radius=box.height // 2)
    pygame.draw.rect(surf, fill, box, border_radius=box.height // 2)
    surf.blit(t, r)


def draw_station(surf, c: Point, s: float, rgb: RGB) -> None:
    """A house in the seat's colour."""
    x, y = c
    w, roof, body = s * 0.42, s * 0.42, s * 0.44
    top, eave, base = y - (roof + body) / 2, y - (roof + body) / 2 + roof, y + (roof + body) / 2
    house = [(x, top), (x + w, eave), (x + w * 0.82, eave), (x + w * 0.82, base),
             (x - w * 0.82, base), (x - w * 0.82, eave), (x - w, eave)]
    _halo_polygon(surf, house, rgb)
    door = pygame.Rect(0, 0, max(2, round(s * 0.16)), max(3, round(s * 0.24)))
    door.midbottom = (round(x), round(base) - 1)
    pygame.draw.rect(surf, DARK, door)


def draw_home(surf, c: Point, s: float, rgb: RGB) -> None:
    """A big flag on a pole in the seat's colour."""
    x, y = c
    pole_x, top, bottom = x - s * 0.3, y - s * 0.46, y + s * 0.46
    flag_w, flag_h = s * 0.68, s * 0.46
    flag = [(pole_x, top), (pole_x + flag_w, top), (pole_x + flag_w * 0.78, top + flag_h / 2),
            (pole_x + flag_w, top + flag_h), (pole_x, top + flag_h)]
    pygame.draw.line(surf, HALO, (pole_x, top - 1), (pole_x, bottom + 1), 5)
    _halo_polygon(surf, flag, rgb)
    pygame.draw.line(surf, DARK, (pole_x, top - 1), (pole_x, bottom), 2)
    pygame.draw.line(surf, DARK, (pole_x - s * 0.14, bottom), (pole_x + s * 0.14, bottom), 2)


def draw_marker(surf, c: Point, s: float, rgb: RGB) -> None:
    """A round city marker in the seat's colour."""
    r = s * 0.4
    pygame.draw.circle(surf, HALO, c, r + 2)
    pygame.draw.circle(surf, rgb, c, r)
    pygame.draw.circle(surf, (255, 255, 255), c, r * 0.5, max(1, round(s * 0.08)))
    pygame.draw.circle(surf, DARK, c, r, 2)


def draw_alvin(surf, c: Point, s: float, rgb: RGB | None) -> None:
    """Alvin the Alien: a green head with big black eyes; outlined in his holder's
    colour when someone holds him."""
    x, y = c
    head = []
    for k in range(20):
        t = k / 20 * 2 * math.pi
        rx = s * 0.36 * (1.0 if math.sin(t) < 0 else 0.78 - 0.2 * math.sin(t))
        head.append((x + math.cos(t) * rx, y + s * 0.06 + math.sin(t) * s * 0.36))
    for side in (-1, 1):                    # antennae
        tip = (x + side * s * 0.28, y - s * 0.46)
        pygame.draw.line(surf, DARK, (x + side * s * 0.12, y - s * 0.2), tip, 2)
        pygame.draw.circle(surf, ALVIN_GREEN, tip, max(2, s * 0.07))
        pygame.draw.circle(surf, DARK, tip, max(2, s * 0.07), 1)
    if rgb is not None:
        pygame.draw.polygon(surf, HALO, head, 0)
        pygame.draw.lines(surf, HALO, True, head, 8)
        pygame.draw.lines(surf, rgb, True, head, 5)
        pygame.draw.polygon(surf, ALVIN_GREEN, head)
        pygame.draw.lines(surf, DARK, True, head, 1)
    else:
        _halo_polygon(surf, head, ALVIN_GREEN, 1)
    for side in (-1, 1):                    # two big black eyes
        eye = pygame.Rect(0, 0, max(3, round(s * 0.16)), max(3, round(s * 0.2)))
        eye.center = (round(x + side * s * 0.15), round(y + s * 0.04))
        pygame.draw.ellipse(surf, DARK, eye)


def draw_passenger(surf, c: Point, s: float, rgb: RGB) -> None:
    """A little standing figure in the seat's colour."""
    x, y = c
    head_r = s * 0.17
    head_c = (x, y - s * 0.27)
    body = [(x - s * 0.13, y - s * 0.09), (x + s * 0.13, y - s * 0.09), (x + s * 0.3, y + s * 0.08),
            (x + s * 0.22, y + s * 0.16), (x + s * 0.14, y + s * 0.1), (x + s * 0.14, y + s * 0.46),
            (x - s * 0.14, y + s * 0.46), (x - s * 0.14, y + s * 0.1), (x - s * 0.22, y + s * 0.16),
            (x - s * 0.3, y + s * 0.08)]
    pygame.draw.circle(surf, HALO, head_c, head_r + 2)
    _halo_polygon(surf, body, rgb)
    pygame.draw.circle(surf, rgb, head_c, head_r)
    pygame.draw.circle(surf, DARK, head_c, head_r, 2)


def draw_merchandise(surf, c: Point, s: float, value: int, count: int,
                     tint: RGB | None) -> None:
    """A stack of merchandise chips: the top value on the face, the count in a badge."""
    edge = tint or (170, 130, 60)
    r = s * 0.4
    depth = min(2, max(0, count - 1))
    step = max(1.5, s * 0.06)
    x, y = c[0] - depth * step / 2, c[1] - depth * step / 2
    for k in range(depth, 0, -1):               # the chips under the top one
        cc = (x + k * step, y + k * step)
        pygame.draw.circle(surf, HALO, cc, r + 2)
        pygame.draw.circle(surf, tuple(max(0, v - 50) for v in edge), cc, r)
    pygame.draw.circle(surf, HALO, (x, y), r + 2)
    pygame.draw.circle(surf, edge, (x, y), r)
    pygame.draw.circle(surf, (250, 240, 210), (x, y), r - max(2, s * 0.08))
    pygame.draw.circle(surf, DARK, (x, y), r, 1)
    t = style.text(str(value), max(9, round(s * 0.56)), style.INK, bold=True)
    surf.blit(t, t.get_rect(center=(round(x), round(y))))
    _badge(surf, f"{count}", (c[0] + s * 0.34, c[1] + s * 0.34), max(8, round(s * 0.3)))


def draw_coal(surf, c: Point, s: float, count: int) -> None:
    """A black lump of coal (with a count when there are several)."""
    x, y = c
    shape = [(-0.36, -0.08), (-0.2, -0.34), (0.06, -0.3), (0.3, -0.36), (0.4, -0.04),
             (0.3, 0.3), (0.02, 0.38), (-0.3, 0.28)]
    pts = [(x + dx * s, y + dy * s) for dx, dy in shape]
    _halo_polygon(surf, pts, COAL, 1)
    shine = [(x - s * 0.14, y - s * 0.2), (x + s * 0.04, y - s * 0.2), (x - s * 0.06, y - s * 0.06)]
    pygame.draw.polygon(surf, (110, 110, 118), shine)
    pygame.draw.line(surf, (80, 80, 86), (x + s * 0.1, y + s * 0.04), (x + s * 0.24, y + s * 0.16),
                     1)
    if count > 1:
        _badge(surf, str(count), (x + s * 0.32, y - s * 0.32), max(8, round(s * 0.3)),
               fill=(255, 255, 255), ink=DARK)


def draw_token(surf: pygame.Surface, token: CityToken, center: Point, size: float,
               seat_rgb: Callable[[int | None], RGB | None], tint: RGB | None = None) -> None:
    """Paint ``token`` in a ``size`` box at ``center``; ``seat_rgb(seat)`` gives a seat's
    colour (None for no seat), ``tint`` the colour of a merchandise stack."""
    rgb = seat_rgb(token.seat)
    kind = token.kind
    if kind == "station":
        draw_station(surf, center, size, rgb or NEUTRAL)
    elif kind == "home":
        draw_home(surf, center, size, rgb or NEUTRAL)
    elif kind == "marker":
        draw_marker(surf, center, size, rgb or NEUTRAL)
    elif kind == "alvin":
        draw_alvin(surf, center, size, rgb)
    elif kind == "passenger":
        draw_passenger(surf, center, size, rgb or NEUTRAL)
    elif kind == "merchandise":
        draw_merchandise(surf, center, size, token.value, token.count, tint)
    elif kind == "coal":
        draw_coal(surf, center, size, token.count)
    else:                                   # a kind this window does not know yet
        pygame.draw.circle(surf, HALO, center, size * 0.3 + 2)
        pygame.draw.circle(surf, rgb or NEUTRAL, center, size * 0.3)
        t = style.text("?", max(9, round(size * 0.4)), DARK, bold=True)
        surf.blit(t, t.get_rect(center=(round(center[0]), round(center[1]))))
