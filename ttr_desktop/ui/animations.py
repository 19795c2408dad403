"""Animations: cards sliding, routes filling car by car, banners. Pure drawing, no game state."""

from __future__ import annotations

import math

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.cards import card_back, card_surface

#: Animation speed setting -> duration multiplier.
SPEED = {"slow": 1.6, "normal": 1.0, "fast": 0.45, "instant": 0.0}


def ease(t: float) -> float:
    """Smooth start and stop."""
    t = max(0.0, min(1.0, t))
    return t * t * (3 - 2 * t)


class Animation:
    """Base: ``update(dt)`` advances; ``done`` when finished; ``blocking`` holds bot moves."""

    blocking = True
    #: Drawn on the map (under the panels' flying cards and banners), with the city
    #: names it runs through kept on top.
    on_map = False

    def __init__(self, duration: float, delay: float = 0.0) -> None:
        self.duration = max(duration, 1e-6)
        self.t = -delay

    @property
    def progress(self) -> float:
        """0..1."""
        return max(0.0, min(1.0, self.t / self.duration))

    @property
    def done(self) -> bool:
        """True when finished."""
        return self.t >= self.duration

    def update(self, dt: float) -> None:
        """Advance."""
        self.t += dt

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the current frame."""


class CardFlight(Animation):
    """A card sliding from one place to another (face down when ``card`` is None)."""

    def __init__(self, card: str | None, start, end, size=(48, 70), duration=0.45,
                 delay=0.0, symbols=True, owner: int | None = None) -> None:
        super().__init__(duration, delay)
        self.card, self.start, self.end, self.size = card, start, end, size
        self.symbols = symbols
        #: The seat the card goes to (a hidden face is drawn only while that seat looks).
        self.owner = owner

    def draw(self, surface: pygame.Surface) -> None:
        if self.t < 0:
            return
        p = ease(self.progress)
        x = self.start[0] + (self.end[0] - self.start[0]) * p
        y = self.start[1] + (self.end[1] - self.start[1]) * p - math.sin(p * math.pi) * 40
        surf = (card_surface(self.card, self.size, self.symbols) if self.card
                else card_back(self.size))
        scale = 1.0 + 0.15 * math.sin(p * math.pi)
        if scale != 1.0:
            surf = pygame.transform.smoothscale(
                surf, (int(self.size[0] * scale), int(self.size[1] * scale)))
        surface.blit(surf, surf.get_rect(center=(x, y)))


class RouteFill(Animation):
    """A claimed route filling car by car; the map view draws the cars (and the names of
    the cities the route passes over them)."""

    on_map = True

    def __init__(self, map_view, route_id: str, rgb, per_car: float = 0.09) -> None:
        n = len(map_view.polys[route_id])
        super().__init__(per_car * n + 0.15)
        self.map_view, self.route_id, self.rgb, self.n = map_view, route_id, rgb, n

    def draw(self, surface: pygame.Surface) -> None:
        cars = min(self.n, self.t / max(self.duration - 0.15, 1e-6) * self.n)
        self.map_view.draw_route_glow(surface, self.route_id, (255, 255, 255), 3)
        self.map_view.draw_partial_route(surface, self.route_id, cars, self.rgb)


class Banner(Animation):
    """A large message across a rectangle (final round, game over)."""

    blocking = False

    def __init__(self, rect: pygame.Rect, title: str, subtitle: str = "",
                 duration: float = 3.0) -> None:
        super().__init__(duration)
        self.rect, self.title, self.subtitle = rect, title, subtitle

    def draw(self, surface: pygame.Surface) -> None:
        p = self.progress
        alpha = min(1.0, p / 0.12, (1 - p) / 0.2)
        if alpha <= 0:
            return
        h = 110 if self.subtitle else 80
        band = pygame.Surface((self.rect.width, h), pygame.SRCALPHA)
        band.fill((120, 36, 28, int(215 * alpha)))
        pygame.draw.line(band, (240, 210, 150, int(255 * alpha)), (0, 4),
                         (self.rect.width, 4), 2)
        pygame.draw.line(band, (240, 210, 150, int(255 * alpha)), (0, h - 5),
                         (self.rect.width, h - 5), 2)
        t = style.text(self.title, 40, (255, 246, 226), bold=True)
        t.set_alpha(int(255 * alpha))
        band.blit(t, t.get_rect(center=(self.rect.width // 2, 38)))
        if self.subtitle:
            s = style.text(self.subtitle, 20, (255, 236, 200))
            s.set_alpha(int(255 * alpha))
            band.blit(s, s.get_rect(center=(self.rect.width // 2, 80)))
        surface.blit(band, (self.rect.x, self.rect.centery - h // 2))


class TunnelReveal(Animation):
    """The cards a tunnel turned up, shown in a small panel by the route when no payment
    panel asks about them (nothing more to pay, or another seat's tunnel)."""

    blocking = False
    CARD = (48, 70)

    def __init__(self, rect: pygame.Rect, title: str, cards: list[str], verdict: str,
                 duration: float = 3.5, symbols: bool = True) -> None:
        super().__init__(duration)
        self.rect, self.title, self.cards, self.verdict = rect, title, list(cards), verdict
        self.symbols = symbols

    @staticmethod
    def size(n_cards: int, verdict: str) -> tuple[int, int]:
        """The panel's size for ``n_cards`` revealed cards and the verdict line."""
        text_w = max(style.font(15, True).size(verdict)[0], 200)
        return max(text_w, 58 * max(3, n_cards)) + 32, 56 + TunnelReveal.CARD[1] + 34

    def draw(self, surface: pygame.Surface) -> None:
        p = self.progress
        alpha = min(1.0, p / 0.08, (1 - p) / 0.15)
        if alpha <= 0:
            return
        panel = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        pygame.draw.rect(panel, (255, 252, 244, 245), panel.get_rect(), border_radius=10)
        pygame.draw.rect(panel, (*style.PANEL_EDGE, 255), panel.get_rect(), 2, border_radius=10)
        panel.blit(style.text(self.title, 17, style.INK, bold=True), (16, 10))
        x = 16
        for card in self.cards:
            panel.blit(card_surface(card, self.CARD, self.symbols), (x, 38))
            x += 58
        panel.blit(style.text(self.verdict, 15, style.GOOD if "Nothing" in self.verdict
                              else style.INK, bold=True), (16, 44 + self.CARD[1]))
        panel.set_alpha(int(255 * alpha))
        surface.blit(panel, self.rect)


class Pause(Animation):
    """Nothing to draw: a beat between moves so people can follow."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
