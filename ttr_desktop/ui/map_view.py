"""The map on screen: background, routes as train spaces, cities, labels, tokens, zoom.

Everything static (background, routes, stubs, cities, labels, the pieces on
cities) is rendered into a cached base layer; a frame blits it and draws only
what moves (hover glow, highlights, a route filling car by car).

Zoom and pan: the board always fills ``board_rect`` (the rectangle it fits in
at zoom 1); zooming scales it around a point and panning slides it, clamped
so no edge ever comes inside. ``polys``, ``city_pos``, ``labels``,
``route_at``, ``city_at`` and the highlight painters always speak screen
pixels of the current view. Labels are placed once per zoom level; panning
only shifts them. When zoomed, the base layer covers the whole zoomed board
(or, when that would be huge, the view plus half a view on every side), so
panning is a blit from a different spot and re-renders only on leaving it.

Wiring in a scene (the board scene owns the events)::

    def handle_event(self, event):
        if self.map_view.handle_view_event(event, self.mouse):
            return True     # wheel over the board, or a right/middle-button drag
        ...
    # Keys: 0 or Home -> map_view.reset_view(); + / - -> zoom_at(board centre, 1.25 ** ±1).

or by hand: ``MOUSEWHEEL`` over ``board_rect`` -> ``zoom_at(mouse, WHEEL_STEP ** event.y)``;
``MOUSEMOTION`` with the right or middle button held -> ``pan_by(*event.rel)``. Left
clicks stay free for claiming routes; a left press on an empty spot of the zoomed
board may start a drag (``begin_left_drag``; on release ``end_left_drag`` says
whether it was a click after all). Tooltips: ``city_at`` then
``city_lines(city, view.city_tokens.get(city, ()), players, rgb)``; over a stub
(``stub_at``) ``stub_lines(stub)``. Tokens: ``render_base(..., tokens=view.city_tokens)``.
"""

from __future__ import annotations

import math

import pygame

from ttr_desktop.maps.geometry import (
    CITY_RADIUS,
    TRACK_WIDTH,
    Space,
    point_polyline_distance,
    route_at,
    train_spaces,
)
from ttr_desktop.maps.model import GameMap
from ttr_desktop.ui import map_art, style
from ttr_desktop.ui.map_labels import LabelSite, PlacedLabel, place_labels
from ttr_desktop.ui.map_render import MapPainting, load_background
from ttr_desktop.ui.map_tokens import city_lines, country_direction, stub_lines

#: The drawn frame of a map's picture (tools/build_map_art.py): a paper margin of 16
#: board pixels, its inner line reaching one more. Labels stay inside it, LABEL_FRAME_GAP
#: screen pixels clear of the line.
FRAME_INSET = 17
LABEL_FRAME_GAP = 1
#: Label placements by (map object id, scale): shared by every view of a map.
_LABELS: dict[tuple, tuple[GameMap, dict[str, PlacedLabel], dict[str, tuple[str, ...]]]] = {}

__all__ = ["MapView", "city_lines", "load_background", "space_corners", "stub_lines"]


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


class MapView(MapPainting):
    """Draws one map into a screen rectangle, at a zoom, with hit-testing."""

    MIN_ZOOM = 1.0
    MAX_ZOOM = 4.0
    #: Zoom factor of one mouse-wheel notch.
    WHEEL_STEP = 1.25
    #: End points of one country closer than this many widths of their label (or
    #: SHARE_REACH label sizes, for a short name) share one label: copies of a name
    #: nearer than that read as a stack, not as names of separate places.
    SHARE_WIDTHS = 1.6
    SHARE_REACH = 6.0
    #: How far (pixels) a left press on an empty spot must move before it pans.
    DRAG_SLOP = 5

    def __init__(self, game_map: GameMap, rect: pygame.Rect, symbols: bool = True) -> None:
        self.map = game_map
        self.route_ids = list(game_map.routes)
        self.symbols = symbols
        self._spaces = {rid: train_spaces(r, CITY_RADIUS, TRACK_WIDTH)
                        for rid, r in game_map.routes.items()}
        self._stub_spaces = {s.id: train_spaces(s, CITY_RADIUS, TRACK_WIDTH)
                             for s in game_map.stubs if len(s.polyline) >= 2 and s.length > 0}
        self._out = {cid: country_direction(game_map, cid)
                     for cid, c in game_map.cities.items() if c.is_sink}
        self._zoom = 1.0
        self.scale = 1.0
        self.ox = self.oy = 0
        self.base: pygame.Surface | None = None
        self._base_key: tuple | None = None
        self._layer: pygame.Rect | None = None
        self._layer_scale = 0.0
        self._bg: tuple[tuple, pygame.Surface] | None = None
        self._drag: int | None = None
        #: A left press on an empty spot of the zoomed board: [where, moved yet].
        self._left: list | None = None
        self.rect = pygame.Rect(rect)
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.layout(rect)

    # Geometry ------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        """Fit the board into ``rect`` (keeping its aspect, the zoom and the board point at
        the centre of the view)."""
        centre = self.to_board(*self.board_rect.center) if self.board_rect.width else None
        self.rect = pygame.Rect(rect)
        m = self.map
        self.fit_scale = min(self.rect.width / m.width, self.rect.height / m.height)
        self.board_rect = pygame.Rect(
            round(self.rect.x + (self.rect.width - m.width * self.fit_scale) / 2),
            round(self.rect.y + (self.rect.height - m.height * self.fit_scale) / 2),
            round(m.width * self.fit_scale), round(m.height * self.fit_scale))
        if centre is None:
            centre = (m.width / 2, m.height / 2)
        self._set_view(self._zoom, centre, self.board_rect.center, rescaled=True)

    def _set_view(self, zoom: float, board_pt, screen_pt, rescaled: bool) -> None:
        """Zoom ``zoom`` with board point ``board_pt`` at screen point ``screen_pt``
        (clamped so the board covers ``board_rect``), then recompute the geometry."""
        self._zoom = max(self.MIN_ZOOM, min(self.MAX_ZOOM, zoom))
        self.scale = self.fit_scale * self._zoom
        self.ox = screen_pt[0] - board_pt[0] * self.scale
        self.oy = screen_pt[1] - board_pt[1] * self.scale
        self._clamp()
        self._refresh(rescaled)

    def _clamp(self) -> None:
        """Keep the board over the whole view; integer offsets keep panning exact."""
        view = self.board_rect
        if not self.is_zoomed:
            self.ox, self.oy = view.x, view.y
            return
        bw, bh = self.map.width * self.scale, self.map.height * self.scale
        self.ox = min(view.x, max(math.ceil(view.right - bw), round(self.ox)))
        self.oy = min(view.y, max(math.ceil(view.bottom - bh), round(self.oy)))

    def _refresh(self, rescaled: bool) -> None:
        """Screen geometry for the current view (labels are re-placed only on a new scale)."""
        s, ox, oy = self.scale, self.ox, self.oy
        self.polys = {rid: [space_corners(sp, s, ox, oy) for sp in spaces]
                      for rid, spaces in self._spaces.items()}
        self.stub_polys = {sid: [space_corners(sp, s, ox, oy) for sp in spaces]
                           for sid, spaces in self._stub_spaces.items()}
        self.city_pos = {cid: self.to_screen(c.x, c.y) for cid, c in self.map.cities.items()}
        self.city_r = max(5.0, CITY_RADIUS * s * 0.8)
        # Labels grow slower than the board, so zooming in also makes room for them.
        fit_size = max(12, min(17, round(15 * self.fit_scale / 0.75)))
        self.label_size = min(max(fit_size, 20), round(fit_size * math.sqrt(self._zoom)))
        if rescaled or not hasattr(self, "_placed"):
            self._placed = self._place_labels()
        self.labels: dict[str, tuple[pygame.Surface, pygame.Rect]] = {
            cid: (p.surf, p.rect.move(ox, oy)) for cid, p in self._placed.items()}
        self.leaders = {cid: ((p.leader[0][0] + ox, p.leader[0][1] + oy),
                              (p.leader[1][0] + ox, p.leader[1][1] + oy))
                        for cid, p in self._placed.items() if p.leader is not None}
        if rescaled:
            self.base = None

    @property
    def named_by(self) -> dict[str, str]:
        """City id -> the id of the label that names it (its own, or the one label of
        several end points of a country close together)."""
        out = {}
        for cid, placed in self._placed.items():
            out[cid] = cid
            for other in self._shared.get(cid, ()):
                out[other] = cid
        return out

    @property
    def hidden_labels(self) -> frozenset[str]:
        """Cities whose names are not on the board at this zoom (only with no room at all
        off the markers; ``city_lines`` still names them in a tooltip)."""
        return frozenset(self.map.cities) - frozenset(self.named_by)

    def marker_radius(self, city_id: str) -> float:
        """How far a city's marker reaches from its centre, in screen pixels (labels keep
        out of it; ``city_at`` answers a little beyond)."""
        city = self.map.cities[city_id]
        r = self.city_r
        if city.is_sink:
            reach = r * 1.95 + 1
        elif city.large:
            reach = r * 1.45 + 2
        else:
            reach = r + 2
        if city.forbidden_start:
            reach = max(reach, r + 5)
        return reach

    def _place_labels(self) -> dict[str, PlacedLabel]:
        """Labels for the current scale in zoomed-board pixels (cached per map and scale)."""
        s = self.scale
        key = (id(self.map), round(s, 4), self.label_size)
        hit = _LABELS.get(key)
        if hit is not None and hit[0] is self.map:
            self._shared = hit[2]
            return hit[1]
        degree = {cid: 0 for cid in self.map.cities}
        for route in self.map.routes.values():
            degree[route.a] += 1
            degree[route.b] += 1
        shared = self._country_groups()
        sites = [LabelSite(cid, c.name, c.x * s, c.y * s, self.marker_radius(cid), degree[cid],
                           shared.get(cid, ()))
                 for cid, c in self.map.cities.items()]
        quads = [space_corners(sp, s, 0, 0) for spaces in
                 (*self._spaces.values(), *self._stub_spaces.values()) for sp in spaces]
        bounds = pygame.Rect(0, 0, math.floor(self.map.width * s), math.floor(self.map.height * s))
        if self.map.background:
            inset = math.ceil(FRAME_INSET * s) + LABEL_FRAME_GAP
            bounds = bounds.inflate(-2 * inset, -2 * inset)
        placed = place_labels(sites, quads, bounds, self.label_size,
                              max(10, self.label_size - 2),
                              leader_grace=(CITY_RADIUS + TRACK_WIDTH) * s)
        if len(_LABELS) > 24:
            _LABELS.clear()
        _LABELS[key] = (self.map, placed, shared)
        self._shared = shared
        return placed

    def _country_groups(self) -> dict[str, tuple[str, ...]]:
        """End points of one country close together on screen (within ``SHARE_WIDTHS``
        label widths or ``SHARE_REACH`` label sizes of another), which say the
        country's name once: first id -> the others. Zoomed in far enough, each gets
        its own label again."""
        by_country: dict[str, list[str]] = {}
        for cid, c in self.map.cities.items():
            if c.is_sink:
                by_country.setdefault(c.country or c.name, []).append(cid)
        out: dict[str, tuple[str, ...]] = {}
        cities = self.map.cities
        for members in by_country.values():
            width = style.font(self.label_size, True).size(cities[members[0]].name)[0]
            reach = max(self.SHARE_REACH * self.label_size,
                        self.SHARE_WIDTHS * width) / self.scale      # in board pixels
            left = list(members)
            while left:
                group = [left.pop(0)]
                grew = True
                while grew:
                    grew = False
                    for cid in list(left):
                        if any(math.hypot(cities[cid].x - cities[g].x,
                                          cities[cid].y - cities[g].y) <= reach
                               for g in group):
                            group.append(cid)
                            left.remove(cid)
                            grew = True
                if len(group) > 1:
                    out[group[0]] = tuple(group[1:])
        return out

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Board pixels -> screen pixels."""
        return self.ox + x * self.scale, self.oy + y * self.scale

    def to_board(self, sx: float, sy: float) -> tuple[float, float]:
        """Screen pixels -> board pixels."""
        return (sx - self.ox) / self.scale, (sy - self.oy) / self.scale

    def route_at(self, pos: tuple[int, int]) -> str | None:
        """The route under the screen point ``pos`` (or None); stubs are never routes."""
        if not self.board_rect.collidepoint(pos):
            return None
        x, y = self.to_board(*pos)
        return route_at(self.map, x, y, tolerance=TRACK_WIDTH / 2 + 2 / self.scale)

    def city_at(self, pos: tuple[int, int]) -> str | None:
        """The city whose marker is under ``pos`` (or None)."""
        if not self.board_rect.collidepoint(pos):
            return None
        for cid, (x, y) in self.city_pos.items():
            if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= (self.marker_radius(cid) + 1) ** 2:
                return cid
        return None

    def stub_at(self, pos: tuple[int, int]) -> str | None:
        """The stub (off-board track) under ``pos``, for a tooltip; never claimable."""
        if not self.board_rect.collidepoint(pos) or self.route_at(pos) is not None:
            return None
        x, y = self.to_board(*pos)
        for stub in self.map.stubs:
            if point_polyline_distance(x, y, stub.polyline) <= TRACK_WIDTH / 2 + 2 / self.scale:
                return stub.id
        return None

    def route_center(self, route_id: str) -> tuple[float, float]:
        """Screen point in the middle of a route."""
        polys = self.polys[route_id]
        return map_art.center_of(polys[len(polys) // 2])

    def space_centers(self, route_id: str) -> list[tuple[float, float]]:
        """Screen centres of a route's spaces, from city a to city b."""
        return [map_art.center_of(poly) for poly in self.polys[route_id]]

    # Zoom and pan --------------------------------------------------------
    @property
    def zoom(self) -> float:
        """The current zoom (1 = the whole board fits)."""
        return self._zoom

    @property
    def is_zoomed(self) -> bool:
        """True when zoomed in (then the board can be panned)."""
        return self._zoom > 1.0 + 1e-6

    def zoom_at(self, screen_pos: tuple[float, float], factor: float) -> bool:
        """Zoom by ``factor`` keeping the board point under ``screen_pos`` in place (the
        view's centre when ``screen_pos`` is off the board); False when at a limit."""
        new = max(self.MIN_ZOOM, min(self.MAX_ZOOM, self._zoom * factor))
        if abs(new - 1.0) < 0.02:
            new = 1.0
        if abs(new - self._zoom) < 1e-6:
            return False
        if not self.board_rect.collidepoint(screen_pos):
            screen_pos = self.board_rect.center
        self._set_view(new, self.to_board(*screen_pos), screen_pos, rescaled=True)
        return True

    def pan_by(self, dx: float, dy: float) -> bool:
        """Slide the zoomed board by (dx, dy) screen pixels, clamped; False if it did not
        move (not zoomed, or already at the edge)."""
        if not self.is_zoomed:
            return False
        before = (self.ox, self.oy)
        self.ox += dx
        self.oy += dy
        self._clamp()
        if (self.ox, self.oy) == before:
            return False
        self._refresh(False)
        return True

    def reset_view(self) -> bool:
        """Back to the whole board (zoom 1); False if it already was."""
        if not self.is_zoomed:
            return False
        self._set_view(1.0, (0, 0), self.board_rect.topleft, rescaled=True)
        return True

    def begin_left_drag(self, pos: tuple[int, int]) -> bool:
        """A left press on an empty spot of the zoomed board (the scene has checked that
        no route or city is there): moving more than ``DRAG_SLOP`` before the release
        pans the board; otherwise ``end_left_drag`` gives the press back as a click.
        False (nothing started) at zoom 1 or off the board."""
        if not self.is_zoomed or not self.board_rect.collidepoint(pos):
            return False
        self._left = [tuple(pos), False]
        return True

    @property
    def left_pressed(self) -> bool:
        """True between ``begin_left_drag`` and ``end_left_drag``."""
        return self._left is not None

    @property
    def left_dragging(self) -> bool:
        """True while a left press is panning the board."""
        return self._left is not None and self._left[1]

    def end_left_drag(self) -> tuple[int, int] | None:
        """The left button went up: the press position when it was a plain click (it
        never moved beyond the slop), else None."""
        left, self._left = self._left, None
        if left is None or left[1]:
            return None
        return left[0]

    def handle_view_event(self, event: pygame.event.Event,
                          mouse: tuple[int, int] | None = None) -> bool:
        """Wheel over the board zooms at the mouse; a right or middle-button drag pans, and
        so does a left drag begun with ``begin_left_drag``. True when the event was used
        (left presses and releases are never used here: the scene decides what they are)."""
        if event.type == pygame.MOUSEMOTION and self._left is not None:
            if not getattr(event, "buttons", (1, 0, 0))[0]:
                self._left = None            # released where we could not see it
                return False
            (x0, y0), moved = self._left
            if moved:
                self.pan_by(*event.rel)
            elif math.hypot(event.pos[0] - x0, event.pos[1] - y0) > self.DRAG_SLOP:
                self._left[1] = True
                self.pan_by(event.pos[0] - x0, event.pos[1] - y0)
            return True
        if event.type == pygame.MOUSEWHEEL:
            pos = mouse if mouse is not None else pygame.mouse.get_pos()
            if self.board_rect.collidepoint(pos) and event.y:
                self.zoom_at(pos, self.WHEEL_STEP ** max(-3, min(3, event.y)))
                return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (2, 3):
            if self.board_rect.collidepoint(event.pos):
                self._drag = event.button
                return True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == self._drag:
            self._drag = None
            return True
        elif event.type == pygame.MOUSEMOTION and self._drag is not None:
            if getattr(event, "buttons", (0, 1, 1))[self._drag - 1]:
                self.pan_by(*event.rel)
            else:
                self._drag = None
        return False
