"""The zoom control on the map's corner: zoom in, zoom out and the whole map.

Three small buttons stacked in a corner of the map's rectangle: in the margin
beside the board where there is one, else the corner of the drawn map that covers
no title plate and the fewest cities, labels and tracks, so a player sees that the map
zooms without knowing the keys. Hovering one names its key; a button that
would do nothing (zoom in at the limit, out or back at the whole map) is
drawn faint. The scene owns the clicks: ``button_at`` then ``press``.
"""

from __future__ import annotations

import math

import pygame

from ttr_desktop.ui import style

#: Button side and gap, in pixels.
SIZE = 28
GAP = 5
#: Zoom factor of one press of + or − (as the keys).
STEP = 1.25
BUTTONS = ("in", "out", "fit")
TIPS = {
    "in": [("Zoom in", style.INK, True), ("+ key, or the mouse wheel", style.INK_SOFT, False)],
    "out": [("Zoom out", style.INK, True), ("− key, or the mouse wheel", style.INK_SOFT, False)],
    "fit": [("The whole map", style.INK, True), ("0 key", style.INK_SOFT, False),
            ("Zoomed in, drag the map to move it", style.INK_SOFT, False)],
}


#: The title plate of a map picture (tools/build_map_art.py): in the corner of the board
#: freest of cities and track, PLATE_INSET board pixels in, at most PLATE_SIZE large.
PLATE_INSET = 28
PLATE_SIZE = (460, 60)
#: Corners of the view, preferred first: (right?, bottom?).
CORNERS = ((True, True), (True, False), (False, True), (False, False))


def _column(area: pygame.Rect, right: bool, bottom: bool) -> pygame.Rect:
    h = len(BUTTONS) * SIZE + (len(BUTTONS) - 1) * GAP
    x = area.right - 6 - SIZE if right else area.x + 6
    y = area.bottom - 6 - h if bottom else area.y + 6
    return pygame.Rect(x, y, SIZE, h)


def plate_corner(game_map) -> tuple[bool, bool]:
    """The corner of the board holding the picture's title plate: the one whose plate
    would stand farthest from every city and route (as the picture was drawn)."""
    pts = [(c.x, c.y) for c in game_map.cities.values()]
    for r in list(game_map.routes.values()) + list(game_map.stubs):
        line = list(r.polyline)
        for (ax, ay), (bx, by) in zip(line, line[1:]):
            n = max(1, round(math.dist((ax, ay), (bx, by)) / 8))
            pts += [(ax + (bx - ax) * j / n, ay + (by - ay) * j / n) for j in range(n)]
    w, h = PLATE_SIZE[0] * 0.6, PLATE_SIZE[1] * 0.6     # about the plate's own size
    best, where = -1.0, (True, True)
    for right in (False, True):
        x0 = game_map.width - PLATE_INSET - w if right else PLATE_INSET
        for bottom in (False, True):
            y0 = game_map.height - PLATE_INSET - h if bottom else PLATE_INSET
            gap = min((math.hypot(max(x0 - px, 0, px - x0 - w), max(y0 - py, 0, py - y0 - h))
                       for px, py in pts), default=0.0)
            if gap > best:
                best, where = gap, (right, bottom)
    return where


def _corner_cost(view, col: pygame.Rect, corner: tuple[bool, bool]) -> float:
    """What the column would cover at the whole-map view: the title plate (never),
    city markers and labels (much), train spaces (a little)."""
    b, s = view.board_rect, view.fit_scale
    if not b.colliderect(col):
        return 0.0                     # in the margin beside the board
    cost = 0.0
    if view.map.background and corner == plate_corner(view.map):
        pw, ph = PLATE_SIZE[0] * s, PLATE_SIZE[1] * s
        plate = pygame.Rect(b.right - (PLATE_INSET * s + pw) if corner[0] else b.x,
                            b.bottom - (PLATE_INSET * s + ph) if corner[1] else b.y,
                            PLATE_INSET * s + pw, PLATE_INSET * s + ph)
        if plate.colliderect(col):
            cost += 10 ** 6
    grown = col.inflate(8, 8)
    for c in view.map.cities.values():
        x, y = b.x + c.x * s, b.y + c.y * s
        if grown.collidepoint(x, y) or grown.inflate(16, 16).collidepoint(x, y):
            cost += 1000
    if not view.is_zoomed:
        cost += 1000 * sum(1 for _, rect in view.labels.values() if rect.colliderect(grown))
        cost += 50 * sum(1 for polys in (*view.polys.values(), *view.stub_polys.values())
                         for poly in polys
                         if grown.collidepoint(sum(x for x, _ in poly) / len(poly),
                                               sum(y for _, y in poly) / len(poly)))
    return cost


def _corner(view) -> tuple[bool, bool]:
    """The corner the control stands in: the emptiest of the drawn map at the whole-map
    view (bottom right where free), kept while zooming and panning."""
    key = (tuple(view.rect), tuple(view.board_rect), id(view.map))
    memo = getattr(view, "_zoom_corner", None)
    if memo is not None and (memo[0] == key or view.is_zoomed):
        return memo[1]
    costs = [(_corner_cost(view, _column(view.rect, *c), c), k, c)
             for k, c in enumerate(CORNERS)]
    corner = min(costs)[2]
    view._zoom_corner = (key, corner)
    return corner


def button_rects(view) -> dict[str, pygame.Rect]:
    """Where the buttons are: a column in a corner of the view's rectangle (see
    ``_corner``)."""
    col = _column(view.rect, *_corner(view))
    out, y = {}, col.y
    for name in BUTTONS:
        out[name] = pygame.Rect(col.x, y, SIZE, SIZE)
        y += SIZE + GAP
    return out


def button_at(view, pos) -> str | None:
    """The button under ``pos`` (or None)."""
    for name, rect in button_rects(view).items():
        if rect.collidepoint(pos):
            return name
    return None


def enabled(view, name: str) -> bool:
    """Whether pressing the button would change the view."""
    if name == "in":
        return view.zoom < view.MAX_ZOOM - 1e-6
    return view.is_zoomed


def press(view, name: str) -> bool:
    """Do what the button says; False when it changed nothing."""
    if name == "in":
        return view.zoom_at(view.board_rect.center, STEP)
    if name == "out":
        return view.zoom_at(view.board_rect.center, 1 / STEP)
    return view.reset_view()


def draw(surface: pygame.Surface, view, hover: str | None = None) -> None:
    """The three buttons, the hovered one lit."""
    for name, rect in button_rects(view).items():
        live = enabled(view, name)
        fill = (255, 244, 200) if hover == name and live else style.PANEL
        body = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(body, (*fill, 235 if live else 150), body.get_rect(), border_radius=6)
        pygame.draw.rect(body, (*style.PANEL_EDGE, 255 if live else 140), body.get_rect(), 1,
                         border_radius=6)
        ink = (*style.INK, 255) if live else (*style.INK_SOFT, 120)
        c = SIZE // 2
        arm = SIZE // 2 - 8
        if name in ("in", "out"):
            pygame.draw.line(body, ink, (c - arm, c), (c + arm, c), 3)
            if name == "in":
                pygame.draw.line(body, ink, (c, c - arm), (c, c + arm), 3)
        else:
            # The whole map: four corners of a frame.
            lo, hi, k = 7, SIZE - 8, 5
            for (x, y, dx, dy) in ((lo, lo, 1, 1), (hi, lo, -1, 1), (lo, hi, 1, -1),
                                   (hi, hi, -1, -1)):
                pygame.draw.line(body, ink, (x, y), (x + dx * k, y), 2)
                pygame.draw.line(body, ink, (x, y), (x, y + dy * k), 2)
        surface.blit(body, rect)
        if hover == name and live:
            pygame.draw.rect(surface, style.HIGHLIGHT, rect.inflate(4, 4), 2, border_radius=8)
