"""The map on screen: background, routes as train spaces, cities with labels, hit-testing.

Everything static (background, unclaimed and claimed routes, cities, labels)
is rendered once into a cached base layer; a frame blits it and draws only
what moves (hover glow, highlights, a route filling car by car).
"""

from __future__ import annotations

import logging
import math

import pygame

from ttr_desktop.maps.geometry import CITY_RADIUS, TRACK_WIDTH, Space, route_at, train_spaces
from ttr_desktop.maps.model import GameMap
from ttr_desktop.resources import resource_path
from ttr_desktop.ui import style
from ttr_desktop.ui.symbols import draw_symbol

log = logging.getLogger("ttr_desktop.map")
_BACKGROUNDS: dict[str, pygame.Surface | None] = {}


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


def space_corners(space: Space, scale: float, ox: float, oy: float,
                  shrink: float = 0.0) -> list[tuple[float, float]]:
    """The four screen corners of a train space."""
    a = math.radians(space.angle)
    ca, sa = math.cos(a), math.sin(a)
    hl = (space.length / 2 - shrink) * scale
    hw = (space.width / 2 - shrink) * scale
    cx, cy = ox + space.x * scale, oy + space.y * scale
    return [(cx + ca * dx - sa * dy, cy + sa * dx + ca * dy)
            for dx, dy in ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))]


class MapView:
    """Draws one map into a screen rectangle."""

    def __init__(self, game_map: GameMap, rect: pygame.Rect, symbols: bool = True) -> None:
        self.map = game_map
        self.route_ids = list(game_map.routes)
        self.symbols = symbols
        self._spaces = {rid: train_spaces(r, CITY_RADIUS, TRACK_WIDTH)
                        for rid, r in game_map.routes.items()}
        self.rect = pygame.Rect(rect)
        self.base: pygame.Surface | None = None
        self._base_key: tuple | None = None
        self.layout(rect)

    # Geometry ------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        """Fit the board into ``rect`` (keeping its aspect)."""
        self.rect = pygame.Rect(rect)
        m = self.map
        self.scale = min(self.rect.width / m.width, self.rect.height / m.height)
        self.ox = self.rect.x + (self.rect.width - m.width * self.scale) / 2
        self.oy = self.rect.y + (self.rect.height - m.height * self.scale) / 2
        self.board_rect = pygame.Rect(round(self.ox), round(self.oy),
                                      round(m.width * self.scale), round(m.height * self.scale))
        self.polys = {rid: [space_corners(sp, self.scale, self.ox, self.oy) for sp in spaces]
                      for rid, spaces in self._spaces.items()}
        self.city_pos = {cid: self.to_screen(c.x, c.y) for cid, c in m.cities.items()}
        self.city_r = max(5.0, CITY_RADIUS * self.scale * 0.8)
        self.label_size = max(12, min(17, round(15 * self.scale / 0.75)))
        self._place_labels()
        self.base = None

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Board pixels -> screen pixels."""
        return self.ox + x * self.scale, self.oy + y * self.scale

    def to_board(self, sx: float, sy: float) -> tuple[float, float]:
        """Screen pixels -> board pixels."""
        return (sx - self.ox) / self.scale, (sy - self.oy) / self.scale

    def route_at(self, pos: tuple[int, int]) -> str | None:
        """The route under the screen point ``pos`` (or None)."""
        if not self.board_rect.collidepoint(pos):
            return None
        x, y = self.to_board(*pos)
        return route_at(self.map, x, y, tolerance=TRACK_WIDTH / 2 + 2 / self.scale)

    def city_at(self, pos: tuple[int, int]) -> str | None:
        """The city whose marker is under ``pos`` (or None)."""
        for cid, (x, y) in self.city_pos.items():
            if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= (self.city_r + 3) ** 2:
                return cid
        return None

    def route_center(self, route_id: str) -> tuple[float, float]:
        """Screen point in the middle of a route."""
        polys = self.polys[route_id]
        mid = polys[len(polys) // 2]
        return sum(p[0] for p in mid) / 4, sum(p[1] for p in mid) / 4

    def space_centers(self, route_id: str) -> list[tuple[float, float]]:
        """Screen centres of a route's spaces, from city a to city b."""
        return [(sum(p[0] for p in poly) / 4, sum(p[1] for p in poly) / 4)
                for poly in self.polys[route_id]]

    def _place_labels(self) -> None:
        """Put each city's name beside its marker where it covers no other marker or label."""
        size = self.label_size
        markers = [pygame.Rect(x - self.city_r, y - self.city_r, 2 * self.city_r,
                               2 * self.city_r) for x, y in self.city_pos.values()]
        space_boxes = [pygame.Rect(min(p[0] for p in poly), min(p[1] for p in poly),
                                   max(p[0] for p in poly) - min(p[0] for p in poly),
                                   max(p[1] for p in poly) - min(p[1] for p in poly))
                       for polys in self.polys.values() for poly in polys]
        placed: list[pygame.Rect] = []
        self.labels: dict[str, tuple[pygame.Surface, pygame.Rect]] = {}
        order = sorted(self.map.cities.values(), key=lambda c: (c.y, c.x))
        for city in order:
            surf = style.halo_text(city.name, size, style.INK, bold=True)
            x, y = self.city_pos[city.id]
            w, h = surf.get_size()
            gap = self.city_r + 1
            candidates = [(x + gap, y - h / 2), (x - gap - w, y - h / 2), (x - w / 2, y - gap - h),
                          (x - w / 2, y + gap), (x + gap * 0.7, y - gap * 0.7 - h),
                          (x - gap * 0.7 - w, y - gap * 0.7 - h), (x + gap * 0.7, y + gap * 0.7),
                          (x - gap * 0.7 - w, y + gap * 0.7)]
            best, best_cost = None, None
            for cx, cy in candidates:
                rect = pygame.Rect(round(cx), round(cy), w, h)
                cost = 0.0
                if not self.board_rect.contains(rect):
                    cost += 1000
                cost += 500 * len(rect.inflate(-2, -2).collidelistall(placed))
                cost += 300 * len(rect.inflate(-2, -2).collidelistall(markers))
                cost += 4 * len(rect.inflate(-4, -4).collidelistall(space_boxes))
                if best_cost is None or cost < best_cost:
                    best, best_cost = rect, cost
            placed.append(best)
            self.labels[city.id] = (surf, best)

    # Drawing -------------------------------------------------------------
    def render_base(self, owners: dict[str, int], player_rgb: list[tuple[int, int, int]],
                    stations: dict[str, int] | None = None, hide: frozenset[str] = frozenset(),
                    symbols: bool | None = None) -> pygame.Surface:
        """The cached static layer (rebuilt only when something on it changed)."""
        if symbols is not None:
            self.symbols = symbols
        key = (tuple(sorted(owners.items())), tuple(sorted((stations or {}).items())), hide,
               tuple(player_rgb), self.symbols, self.rect.size)
        if self.base is not None and key == self._base_key:
            return self.base
        surf = pygame.Surface(self.rect.size)
        surf.fill(style.PAPER_DARK)
        bg = load_background(self.map)
        dx, dy = -self.rect.x, -self.rect.y
        if bg is not None:
            scaled = pygame.transform.smoothscale(bg, self.board_rect.size)
            surf.blit(scaled, self.board_rect.move(dx, dy))
        else:
            pygame.draw.rect(surf, style.PAPER, self.board_rect.move(dx, dy))
        for rid, route in self.map.routes.items():
            owner = owners.get(rid)
            if rid in hide:
                owner = None
            self._draw_route(surf, rid, route, owner, player_rgb, dx, dy)
        for cid, (x, y) in self.city_pos.items():
            self._draw_city(surf, x + dx, y + dy, (stations or {}).get(cid), player_rgb)
        for cid, (label, rect) in self.labels.items():
            surf.blit(label, rect.move(dx, dy))
        self.base = surf
        self._base_key = key
        return surf

    def _draw_route(self, surf, rid, route, owner, player_rgb, dx, dy) -> None:
        polys = self.polys[rid]
        ferry = route.ferry_locomotives
        for i, poly in enumerate(polys):
            pts = [(x + dx, y + dy) for x, y in poly]
            if owner is None:
                fill = style.CARD_RGB.get(route.color, style.CARD_RGB["gray"])
                pygame.draw.polygon(surf, fill, pts)
                edge = (20, 16, 12) if route.tunnel else (70, 60, 48)
                pygame.draw.polygon(surf, edge, pts, 2 if route.tunnel else 1)
                if route.tunnel:
                    self._tunnel_marks(surf, pts)
                cx = sum(p[0] for p in pts) / 4
                cy = sum(p[1] for p in pts) / 4
                if i < ferry:
                    draw_symbol(surf, "locomotive", (cx, cy), TRACK_WIDTH * self.scale * 0.3,
                                (250, 246, 236), (40, 34, 28))
                elif self.symbols and route.color != "gray":
                    draw_symbol(surf, route.color, (cx, cy), TRACK_WIDTH * self.scale * 0.22,
                                style.CARD_TEXT[route.color], (30, 26, 20))
            else:
                self.draw_car(surf, pts, player_rgb[owner])

    @staticmethod
    def draw_car(surf: pygame.Surface, pts, rgb) -> None:
        """A plastic train on a space: wider than the track, raised by a shadow, with a
        light roof and a dark edge, so a claimed route never looks like open track."""
        cx = sum(p[0] for p in pts) / 4
        cy = sum(p[1] for p in pts) / 4
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

    @staticmethod
    def _tunnel_marks(surf, pts) -> None:
        """Short dark ticks across the long sides: the dashed look of a tunnel."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
        for t in (0.25, 0.5, 0.75):
            ax, ay = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            bx, by = x3 + (x2 - x3) * t, y3 + (y2 - y3) * t
            pygame.draw.line(surf, (20, 16, 12), (ax, ay), (ax + (bx - ax) * 0.25,
                                                            ay + (by - ay) * 0.25), 2)
            pygame.draw.line(surf, (20, 16, 12), (bx, by), (bx + (ax - bx) * 0.25,
                                                            by + (ay - by) * 0.25), 2)

    def _draw_city(self, surf, x, y, station_owner, player_rgb) -> None:
        r = self.city_r
        pygame.draw.circle(surf, (60, 40, 30), (x, y), r + 2)
        pygame.draw.circle(surf, (252, 248, 238), (x, y), r)
        pygame.draw.circle(surf, style.ACCENT, (x, y), max(2, r * 0.45))
        if station_owner is not None:
            rgb = player_rgb[station_owner]
            s = r * 1.1
            house = [(x - s, y + s * 0.2), (x, y - s * 1.2), (x + s, y + s * 0.2),
                     (x + s, y + s), (x - s, y + s)]
            house = [(px + r * 0.9, py - r * 0.9) for px, py in house]
            pygame.draw.polygon(surf, rgb, house)
            pygame.draw.polygon(surf, (15, 12, 10), house, 2)

    def draw(self, surface: pygame.Surface, base: pygame.Surface) -> None:
        """Blit the base layer."""
        surface.blit(base, self.rect)

    def draw_route_glow(self, surface: pygame.Surface, route_id: str, color=style.HIGHLIGHT,
                        width: int = 4) -> None:
        """A bright outline around every space of a route (hover, best path)."""
        for poly in self.polys[route_id]:
            pygame.draw.polygon(surface, color, poly, width)

    def draw_city_ring(self, surface: pygame.Surface, city_id: str, phase: float = 0.0,
                       color=style.HIGHLIGHT) -> None:
        """A pulsing ring around a city (ticket hover, ticket choice)."""
        x, y = self.city_pos[city_id]
        r = self.city_r + 6 + 3 * math.sin(phase * 5)
        pygame.draw.circle(surface, (40, 30, 20), (x, y), r + 2, 3)
        pygame.draw.circle(surface, color, (x, y), r, 4)

    def draw_partial_route(self, surface: pygame.Surface, route_id: str, cars: float,
                           rgb) -> None:
        """The first ``cars`` spaces of a route filled with trains (claim animation)."""
        polys = self.polys[route_id]
        whole = int(cars)
        for poly in polys[:whole]:
            self.draw_car(surface, poly, rgb)
        if whole < len(polys) and cars > whole:
            # The next car drops in: drawn growing from its centre.
            frac = cars - whole
            poly = polys[whole]
            cx = sum(p[0] for p in poly) / 4
            cy = sum(p[1] for p in poly) / 4
            pts = [(cx + (x - cx) * frac, cy + (y - cy) * frac) for x, y in poly]
            self.draw_car(surface, pts, rgb)
