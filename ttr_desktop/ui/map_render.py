"""Painting the map view: the cached base layer, the zoomed window of it, highlights.

A mixin of ``MapView`` (``map_view``): it reads the view's geometry (``polys``,
``city_pos``, ``labels``, ``leaders``, ``scale``, the offsets) and paints; it
never changes the view, only its cached layer.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence

import pygame

from ttr_desktop.maps.geometry import TRACK_WIDTH
from ttr_desktop.maps.model import GameMap
from ttr_desktop.resources import resource_path
from ttr_desktop.rules.tokens import CityToken
from ttr_desktop.ui import map_art, style
from ttr_desktop.ui.map_tokens import city_lines, place_tokens, stub_lines
from ttr_desktop.ui.token_art import draw_token, group_tokens, token_size

log = logging.getLogger("ttr_desktop.map")
_BACKGROUNDS: dict[str, pygame.Surface | None] = {}
#: A zoomed layer may cover the whole board up to this many times the view's area.
LAYER_BUDGET = 4.0


def load_background(game_map: GameMap) -> pygame.Surface | None:
    """The map's background image (cached), or None when it is missing or unreadable."""
    name = game_map.background
    if name in _BACKGROUNDS:
        return _BACKGROUNDS[name]
    image = None
    if name:
        path = resource_path("maps", name)
        try:
            image = pygame.image.load(str(path))
            if pygame.display.get_surface() is not None:
                image = image.convert()
        except (pygame.error, FileNotFoundError, OSError) as exc:
            log.warning("map background %s unusable: %s", path, exc)
    _BACKGROUNDS[name] = image
    return image


class MapPainting:
    """The drawing half of ``MapView``."""

    def render_base(self, owners: dict[str, int], player_rgb: list[tuple[int, int, int]],
                    stations: dict[str, int] | None = None, hide: frozenset[str] = frozenset(),
                    symbols: bool | None = None, *,
                    tokens: Mapping[str, Sequence[CityToken]] | None = None,
                    closed: frozenset[str] = frozenset()) -> pygame.Surface:
        """The cached static layer (rebuilt only when something on it changed).

        ``tokens`` maps a city id to the pieces on it (``PlayerView.city_tokens``);
        ``stations`` (city id -> seat) is the older way to pass stations only; ``closed``
        names the unclaimed tracks nobody may claim any more (``PlayerView.closed_routes``),
        drawn greyed and hatched with a cross."""
        if symbols is not None:
            self.symbols = symbols
        pieces = self._merge_tokens(tokens, stations)
        layer = self._layer_rect()
        closed = frozenset(r for r in closed if r not in owners)
        self.closed = closed
        key = (tuple(sorted(owners.items())), tuple(sorted(pieces.items())), hide, closed,
               tuple(map(tuple, player_rgb)), self.symbols, self.rect.size,
               self.board_rect.topleft, self.scale, None if layer is None else tuple(layer))
        if self.base is not None and key == self._base_key:
            return self.base
        if layer is None:
            surf = pygame.Surface(self.rect.size)
            surf.fill(style.PAPER_DARK)
            dx, dy = -self.rect.x, -self.rect.y
        else:
            surf = pygame.Surface(layer.size)
            dx, dy = -(self.ox + layer.x), -(self.oy + layer.y)
        self._paint_background(surf, layer, dx, dy)
        self._paint(surf, dx, dy, owners, player_rgb, pieces, hide, closed)
        self._layer, self._layer_scale = layer, self.scale
        self.base = surf
        self._base_key = key
        return surf

    @staticmethod
    def _merge_tokens(tokens, stations) -> dict[str, tuple[CityToken, ...]]:
        pieces = {cid: tuple(t) for cid, t in (tokens or {}).items() if t}
        for cid, seat in (stations or {}).items():
            station = CityToken("station", seat)
            if station not in pieces.get(cid, ()):
                pieces[cid] = pieces.get(cid, ()) + (station,)
        return pieces

    def _layer_rect(self) -> pygame.Rect | None:
        """The part of the zoomed board the base layer covers (None at zoom 1)."""
        if not self.is_zoomed:
            return None
        view = self.board_rect.move(-self.ox, -self.oy)
        full = pygame.Rect(0, 0, math.ceil(self.map.width * self.scale),
                           math.ceil(self.map.height * self.scale))
        if full.width * full.height <= LAYER_BUDGET * view.width * view.height:
            return full
        old = self._layer
        if old is not None and self._layer_scale == self.scale and old.contains(view):
            return old
        return view.inflate(view.width, view.height).clip(full)

    def _paint_background(self, surf, layer, dx, dy) -> None:
        bg = load_background(self.map)
        if layer is None:
            target = self.board_rect.move(dx, dy)
            key = ("fit", target.size)
        else:
            target = pygame.Rect(0, 0, *layer.size)
            key = ("zoom", self.scale, tuple(layer))
        if bg is None:
            pygame.draw.rect(surf, style.PAPER, target)
            return
        if self._bg is not None and self._bg[0] == key:
            scaled, at = self._bg[1]
        elif layer is None:
            scaled, at = pygame.transform.smoothscale(bg, target.size), (0, 0)
        else:
            # Only the visible part of the picture, scaled up.
            kx, ky = bg.get_width() / self.map.width, bg.get_height() / self.map.height
            s = self.scale
            x0 = max(0, math.floor(layer.x / s * kx) - 1)
            y0 = max(0, math.floor(layer.y / s * ky) - 1)
            x1 = min(bg.get_width(), math.ceil(layer.right / s * kx) + 1)
            y1 = min(bg.get_height(), math.ceil(layer.bottom / s * ky) + 1)
            part = bg.subsurface((x0, y0, x1 - x0, y1 - y0))
            size = (round((x1 - x0) / kx * s), round((y1 - y0) / ky * s))
            scaled = pygame.transform.smoothscale(part, size)
            at = (round(x0 / kx * s) - layer.x, round(y0 / ky * s) - layer.y)
        self._bg = (key, (scaled, at))
        surf.blit(scaled, (target.x + at[0], target.y + at[1]))

    def route_state(self, route_id: str) -> str:
        """How the last base layer drew a route: "claimed", "closed" or "open"."""
        if route_id in getattr(self, "_drawn_owners", {}):
            return "claimed"
        return "closed" if route_id in getattr(self, "closed", ()) else "open"

    def _paint(self, surf, dx, dy, owners, player_rgb, pieces, hide,
               closed: frozenset[str] = frozenset()) -> None:
        """Everything on the board, shifted by (dx, dy) from screen pixels."""
        track = TRACK_WIDTH * self.scale

        def moved(poly):
            return [(x + dx, y + dy) for x, y in poly]

        stubs = {s.id: s for s in self.map.stubs}
        for sid, polys in self.stub_polys.items():
            map_art.draw_stub(surf, [moved(p) for p in polys], stubs[sid].color, track)
        self._drawn_owners = {r: o for r, o in owners.items() if r not in hide}
        for rid, route in self.map.routes.items():
            owner = None if rid in hide else owners.get(rid)
            if owner is None and rid in closed:
                polys = self.polys[rid]
                for poly in polys:
                    map_art.draw_closed_space(surf, moved(poly))
                map_art.draw_closed_cross(surf, map_art.center_of(moved(polys[len(polys) // 2])),
                                          track)
                continue
            for i, poly in enumerate(self.polys[rid]):
                if owner is None:
                    map_art.draw_space(surf, moved(poly), route.color, track,
                                       tunnel=route.tunnel, ferry=i < route.ferry_locomotives,
                                       symbols=self.symbols)
                else:
                    map_art.draw_car(surf, moved(poly), player_rgb[owner])
        for a, b in self.leaders.values():
            map_art.draw_leader(surf, (a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy))
        for cid, city in self.map.cities.items():
            x, y = self.city_pos[cid]
            x, y = x + dx, y + dy
            homes = [t.seat for t in pieces.get(cid, ()) if t.kind == "home"]
            for k, seat in enumerate(homes):
                rgb = player_rgb[seat] if seat is not None and seat < len(player_rgb) else None
                map_art.draw_home_ring(surf, x, y, self.marker_radius(cid) + 3 + 4 * k,
                                       rgb or (150, 150, 150))
            if city.is_sink:
                map_art.draw_country_marker(surf, x, y, self.city_r, self._out[cid])
            else:
                map_art.draw_city_marker(surf, x, y, self.city_r * (1.45 if city.large else 1),
                                         city.large)
            if city.forbidden_start:
                map_art.draw_forbidden_mark(surf, x, y, self.city_r + 4)
        for label, rect in self.labels.values():
            surf.blit(label, rect.move(dx, dy))

        def seat_rgb(seat):
            return player_rgb[seat] if seat is not None and 0 <= seat < len(player_rgb) else None

        size = token_size(self.scale)
        for cid, toks in pieces.items():
            if cid not in self.city_pos:
                continue
            tint = style.CARD_RGB.get(self.map.cities[cid].merchandise)
            for token, (x, y) in self.token_places(cid, toks):
                draw_token(surf, token, (x + dx, y + dy), size, seat_rgb, tint)

    def token_places(self, city_id: str,
                     tokens: Sequence[CityToken]) -> list[tuple[CityToken, tuple[float, float]]]:
        """Where each piece on a city is drawn (screen centres), none hiding another."""
        toks = group_tokens(tokens)
        homes = sum(1 for t in toks if t.kind == "home")
        reach = self.marker_radius(city_id) + (4 * homes + 2 if homes else 0)
        return place_tokens(self, city_id, toks, reach, token_size(self.scale))

    def token_rects(self, city_id: str, tokens: Sequence[CityToken]) -> list[pygame.Rect]:
        """The screen boxes of the pieces on a city (for tests and tooltips)."""
        size = token_size(self.scale)
        out = []
        for _, (x, y) in self.token_places(city_id, tokens):
            rect = pygame.Rect(0, 0, size, size)
            rect.center = (round(x), round(y))
            out.append(rect)
        return out

    def city_lines(self, city_id: str, tokens: Sequence[CityToken] = (),
                   players: Sequence[str] = (), player_rgb: Sequence = ()) -> list[tuple]:
        """Tooltip lines (text, colour, bold) for a city and the pieces on it."""
        return city_lines(self.map, city_id, tokens, players, player_rgb)

    def stub_lines(self, stub_id: str) -> list[tuple]:
        """Tooltip lines (text, colour, bold) for a stub."""
        return stub_lines(self.map, stub_id)

    #: A pulsing ring was drawn over the map since its base was last drawn: the scene
    #: showing it needs every frame (``Scene.next_wake``).
    pulsing = False

    def draw(self, surface: pygame.Surface, base: pygame.Surface) -> None:
        """Blit the base layer (when zoomed: the visible part of it, inside board_rect)."""
        self.pulsing = False
        layer = self._layer
        if layer is None or base.get_size() != layer.size:
            surface.blit(base, self.rect)
            return
        view = self.board_rect
        for strip in (pygame.Rect(self.rect.x, self.rect.y, self.rect.width, view.y - self.rect.y),
                      pygame.Rect(self.rect.x, view.bottom, self.rect.width,
                                  self.rect.bottom - view.bottom),
                      pygame.Rect(self.rect.x, view.y, view.x - self.rect.x, view.height),
                      pygame.Rect(view.right, view.y, self.rect.right - view.right,
                                  view.height)):
            if strip.width > 0 and strip.height > 0:
                surface.fill(style.PAPER_DARK, strip)
        area = view.move(-(self.ox + layer.x), -(self.oy + layer.y))
        surface.blit(base, view, area)

    def _clipped(self, surface: pygame.Surface):
        """A context that clips drawing to the board while zoomed."""
        return _Clip(surface, self.board_rect if self.is_zoomed else None)

    def draw_route_glow(self, surface: pygame.Surface, route_id: str, color=style.HIGHLIGHT,
                        width: int = 4) -> None:
        """A bright outline around every space of a route (hover, best path, a claim being
        made); the city names it runs through stay on top."""
        with self._clipped(surface):
            for poly in self.polys[route_id]:
                pygame.draw.polygon(surface, color, poly, width)
        self.draw_labels_over(surface, (route_id,))

    def draw_labels_over(self, surface: pygame.Surface, route_ids=(), city_ids=()) -> None:
        """Draw again, on top, the city names that the glow of these routes or the rings
        of these cities run through: a highlight never hides a name. Every glow, ring and
        claim animation the map view draws calls this for what it touched, whoever draws
        it (the board, an overlay, a family's painter)."""
        areas = [pygame.Rect(min(x for x, _ in pts), min(y for _, y in pts),
                             max(x for x, _ in pts) - min(x for x, _ in pts) + 1,
                             max(y for _, y in pts) - min(y for _, y in pts) + 1)
                 for rid in route_ids for pts in self.polys.get(rid, ())]
        for cid in city_ids:
            if cid in self.city_pos:
                x, y = self.city_pos[cid]
                r = self.marker_radius(cid) + 12
                areas.append(pygame.Rect(x - r, y - r, 2 * r, 2 * r))
        if not areas:
            return
        areas = [a.inflate(12, 12) for a in areas]
        with self._clipped(surface):
            for label, rect in self.labels.values():
                if rect.collidelist(areas) >= 0:
                    surface.blit(label, rect)

    def draw_city_ring(self, surface: pygame.Surface, city_id: str, phase: float = 0.0,
                       color=style.HIGHLIGHT) -> None:
        """A pulsing ring around a city (ticket hover, ticket choice); given a country (a
        ticket may name one), a ring around each of its end points."""
        if city_id not in self.city_pos:
            for cid, c in self.map.cities.items():
                if c.country == city_id and cid in self.city_pos:
                    self.draw_city_ring(surface, cid, phase, color)
            return
        x, y = self.city_pos[city_id]
        self.pulsing = True
        r = self.marker_radius(city_id) + 4 + 3 * math.sin(phase * 5)
        with self._clipped(surface):
            pygame.draw.circle(surface, (40, 30, 20), (x, y), r + 2, 3)
            pygame.draw.circle(surface, color, (x, y), r, 4)
        self.draw_labels_over(surface, (), (city_id,))

    def draw_partial_route(self, surface: pygame.Surface, route_id: str, cars: float,
                           rgb) -> None:
        """The first ``cars`` spaces of a route filled with trains (claim animation)."""
        polys = self.polys[route_id]
        whole = int(cars)
        with self._clipped(surface):
            for poly in polys[:whole]:
                self.draw_car(surface, poly, rgb)
            if whole < len(polys) and cars > whole:
                # The next car drops in: drawn growing from its centre.
                frac = cars - whole
                poly = polys[whole]
                cx, cy = map_art.center_of(poly)
                pts = [(cx + (x - cx) * frac, cy + (y - cy) * frac) for x, y in poly]
                self.draw_car(surface, pts, rgb)
        self.draw_labels_over(surface, (route_id,))

    draw_car = staticmethod(map_art.draw_car)


class _Clip:
    """Set a clip rectangle for a ``with`` block and restore the old one after."""

    def __init__(self, surface: pygame.Surface, rect: pygame.Rect | None) -> None:
        self.surface, self.rect, self.old = surface, rect, None

    def __enter__(self) -> None:
        if self.rect is not None:
            self.old = self.surface.get_clip()
            self.surface.set_clip(self.rect.clip(self.old))

    def __exit__(self, *exc) -> None:
        if self.rect is not None:
            self.surface.set_clip(self.old)
