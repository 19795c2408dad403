"""Map helpers around cities: where the pieces go, which way a country points, tooltips.

The map view owns the geometry; these functions read it and decide where the
pieces on a city sit (round the marker, clear of each other, away from the
city's label), which way a country's end point arrow points, and the words a
tooltip shows for a city or a stub.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from ttr_desktop.maps.model import GameMap
from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.rules.words import plural
from ttr_desktop.ui import style
from ttr_desktop.ui.map_shapes import box_hits_circle, box_hits_quad
from ttr_desktop.ui.token_art import group_tokens

if TYPE_CHECKING:
    from ttr_desktop.ui.map_view import MapView

Point = tuple[float, float]


def country_direction(game_map: GameMap, city_id: str) -> Point:
    """The unit direction a country's end point arrow points: on along the routes that
    reach it (off the board), or to the nearest board edge when no route does."""
    city = game_map.cities[city_id]
    sx = sy = 0.0
    for route in game_map.routes.values():
        line = route.polyline or ((game_map.cities[route.a].x, game_map.cities[route.a].y),
                                  (game_map.cities[route.b].x, game_map.cities[route.b].y))
        if route.a == city_id:
            (ex, ey), (fx, fy) = line[0], line[1]
        elif route.b == city_id:
            (ex, ey), (fx, fy) = line[-1], line[-2]
        else:
            continue
        n = math.hypot(ex - fx, ey - fy)
        if n:
            sx, sy = sx + (ex - fx) / n, sy + (ey - fy) / n
    n = math.hypot(sx, sy)
    if n > 0.2:
        return sx / n, sy / n
    edges = [(city.x, (-1.0, 0.0)), (game_map.width - city.x, (1.0, 0.0)),
             (city.y, (0.0, -1.0)), (game_map.height - city.y, (0.0, 1.0))]
    return min(edges)[1]


def place_tokens(view: MapView, city_id: str, tokens: Sequence[CityToken], reach: float,
                 size: int) -> list[tuple[CityToken, Point]]:
    """Centres for ``tokens`` (already grouped) round a city's marker: rings of slots
    just outside ``reach``, each box at least a pixel clear of the others, choosing
    slots inside the board's frame, off labels and markers, and off tracks where possible;
    up and to the right first."""
    if not tokens:
        return []
    x, y = view.city_pos[city_id]
    span = reach + 6 * (size + 2)
    bounds = pygame.Rect(round(view.ox), round(view.oy), math.floor(view.map.width * view.scale),
                         math.floor(view.map.height * view.scale)).clip(view.board_rect)
    bounds = bounds.inflate(-2 * max(4, round(8 * view.scale)), -2 * max(4, round(8 * view.scale)))
    quads = [poly for polys in view.polys.values() for poly in polys
             if any(abs(px - x) < span and abs(py - y) < span for px, py in poly)]
    labels = [(3 if cid == city_id else 2, rect) for cid, (_, rect) in view.labels.items()
              if abs(rect.centerx - x) < span + rect.width and abs(rect.centery - y) < span + 40]
    markers = [(cx, cy, view.marker_radius(cid)) for cid, (cx, cy) in view.city_pos.items()
               if cid != city_id and abs(cx - x) < span and abs(cy - y) < span]
    chosen: list[Point] = []
    out = []
    half = size / 2
    for token in tokens:
        best: tuple[float, Point] | None = None
        ring = 0
        while best is None or ring < 2:
            d = reach + 0.72 * size + 1 + ring * (size + 2)
            for k in range(24):
                a = math.radians(-45 + k * 15)
                cx, cy = x + math.cos(a) * d, y + math.sin(a) * d
                if any(max(abs(cx - px), abs(cy - py)) < size + 1 for px, py in chosen):
                    continue
                box = (cx - half, cy - half, cx + half, cy + half)
                cost = ring * 40 + k * 0.05
                if (box[0] < bounds.left or box[1] < bounds.top or box[2] > bounds.right
                        or box[3] > bounds.bottom):
                    cost += 1000
                for weight, rect in labels:
                    if (rect.left < box[2] and rect.right > box[0] and rect.top < box[3]
                            and rect.bottom > box[1]):
                        cost += 100 * weight
                cost += 150 * sum(box_hits_circle(box, mx, my, mr) for mx, my, mr in markers)
                # A piece nearer to another city than to its own would read as that city's.
                own = math.hypot(cx - x, cy - y)
                cost += 120 * sum(math.hypot(cx - mx, cy - my) < own for mx, my, _ in markers)
                cost += 6 * sum(box_hits_quad(box, q) for q in quads)
                if best is None or cost < best[0]:
                    best = (cost, (cx, cy))
            ring += 1
            if ring > 6:
                break
        if best is None:                     # never: the seventh ring always has room
            best = (0.0, (x, y - reach - size * (len(chosen) + 1)))
        chosen.append(best[1])
        out.append((token, best[1]))
    return out


def _ink(rgb) -> tuple[int, int, int]:
    """A seat colour dark enough to read as text on a light tooltip."""
    return tuple(max(0, min(255, round(c * 0.75))) for c in rgb)


def city_lines(game_map: GameMap, city_id: str, tokens: Sequence[CityToken] = (),
               players: Sequence[str] = (), player_rgb: Sequence = ()) -> list[tuple]:
    """Tooltip lines (text, colour, bold) for a city: its name, what kind of place it is,
    and every piece on it."""
    city = game_map.cities[city_id]
    lines: list[tuple] = [(city.name, style.INK, True)]
    if city.is_sink:
        country = game_map.countries.get(city.country)
        name = country.name if country else city.country
        lines.append((f"{name}: a country — routes end here, paths never pass through",
                      style.INK_SOFT, False))
    if city.large:
        lines.append(("Large city", style.INK_SOFT, False))
    if city.forbidden_start:
        lines.append(("Nobody may start or place a marker here", style.INK_SOFT, False))
    grouped = group_tokens(tokens)
    if city.merchandise and not any(t.kind == "merchandise" for t in grouped):
        stack = game_map.merchandise.get(city.merchandise, ())
        if stack:
            lines.append((f"Merchandise ({city.merchandise}): {', '.join(map(str, stack))}",
                          style.INK_SOFT, False))
    for token in grouped:
        if token.kind == "coal":
            text = "a coal token" if token.count == 1 else f"{token.count} coal tokens"
        else:
            text = token.describe(tuple(players))
        seat = token.seat
        rgb = (_ink(player_rgb[seat]) if seat is not None and 0 <= seat < len(player_rgb)
               else style.INK_SOFT)
        lines.append((text[:1].upper() + text[1:], rgb, False))
    return lines


def stub_lines(game_map: GameMap, stub_id: str) -> list[tuple]:
    """Tooltip lines (text, colour, bold) for a stub: where it leads, and that it is
    not a route."""
    stub = next(s for s in game_map.stubs if s.id == stub_id)
    city = game_map.cities[stub.city].name if stub.city in game_map.cities else stub.city
    return [(f"{city} — towards {stub.to}", style.INK, True),
            (f"{plural(stub.length, 'space')} off the board · cannot be claimed", style.INK_SOFT,
             False)]
