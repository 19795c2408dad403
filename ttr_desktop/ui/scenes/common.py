"""What the menu-side scenes share: a scene with its own pygame-gui manager, the paper
background, the train decoration and the dimmed overlay panel.

Button clicks are bound as commands and run *after* the manager has finished with the
event, so an action may rebuild the widgets or change the scene stack safely.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ttr_desktop.ui import style
from ttr_desktop.ui.scene import Scene

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

_INPUT = frozenset({pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION,
                    pygame.MOUSEWHEEL, pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT})
#: What the widgets report through the event queue (a pressed button, a picked list entry,
#: a changed drop-down): pygame-gui posts these while it handles a click, and a report can
#: lead to the next one (list item pressed -> selection -> drop-down changed).
GUI_REPORTS = tuple(sorted({value for name, value in vars(pygame_gui).items()
                            if name.startswith("UI_") and type(value) is int}))
#: Input that acts on what the screen shows: what the clicks before it chose must have
#: taken effect first.
_ACTS = frozenset({pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN})
#: Most rounds of reports one input settles (a report may post the next one).
SETTLE_ROUNDS = 8
#: Seconds the widgets keep getting every frame after input: hover colours settle and a
#: button's tooltip (shown after pygame-gui's 1 s hover delay) appears.
LIVELY = 1.5
#: While a text field has the focus its cursor blinks (every 0.4 s): a frame this often.
BLINK_POLL = 0.1


class GuiScene(Scene):
    """A scene whose widgets live in their own UIManager, rebuilt on every resize."""

    #: Play the click sound when a button's action runs.
    sound_on_click = True

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ui: pygame_gui.UIManager | None = None
        self.size: tuple[int, int] = app.size
        self._pending: list[Callable[[], None]] = []
        #: Seconds of frames since the last input (or since the widgets were built).
        self.quiet_for = 0.0
        #: Keys pressed here and perhaps still held (pygame-gui repeats some itself).
        self._held: set[int] = set()

    # Layout --------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        """A fresh manager at the new size, then the widgets again (state lives in the scene)."""
        self.size = size
        self.quiet_for = 0.0
        self.ui = pygame_gui.UIManager(size, self.app.theme_path)
        self.build()

    def build(self) -> None:
        """Create the widgets for ``self.size`` (subclasses)."""

    def rebuild(self) -> None:
        """Lay out again at the current size (after the scene's state changed)."""
        self.resize(self.size)

    def button(self, rect: pygame.Rect, text: str, action: Callable[[], None],
               object_id: str | None = None, tooltip: str | None = None,
               enabled: bool = True) -> UIButton:
        """A button that runs ``action`` once the click has been processed."""
        btn = UIButton(rect, text, self.ui, object_id=object_id, tool_tip_text=tooltip,
                       command=lambda: self._pending.append(action))
        if not enabled:
            btn.disable()
        return btn

    # Events --------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Widgets first, then the scene's own keys; queued button actions run last."""
        self.quiet_for = 0.0
        if event.type in _ACTS and self.app.top is self and not self.settle_widgets():
            # A report moved this screen off the top: the input is the new top's.
            self.app.dispatch(event)
            return True
        if event.type == pygame.KEYDOWN:
            self._held.add(event.key)
        consumed = bool(self.ui is not None and self.ui.process_events(event))
        # Input the widgets took stays theirs (Esc excepted); widget reports always come here.
        if not consumed or event.type not in _INPUT or (
                event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            consumed = self.on_event(event) or consumed
        self.run_pending()
        return consumed

    def settle_widgets(self) -> bool:
        """Let the reports still queued from earlier input take effect before the next key
        or click is read. A click on a list entry reaches the scene only frames later (the
        entry's button, then the list, then the drop-down each post a report), so Return
        pressed within those frames would otherwise act on the entry chosen before. False
        when a report took this scene off the top of the stack."""
        for _ in range(SETTLE_ROUNDS):
            reports = pygame.event.get(eventtype=GUI_REPORTS, pump=False)
            if not reports:
                break
            for report in reports:
                self.app.dispatch(report)
        return self.app.top is self

    def run_pending(self) -> None:
        """Run the actions queued by button clicks."""
        while self._pending:
            action = self._pending.pop(0)
            if self.sound_on_click:
                self.app.sound.play("click")
            action()

    def on_event(self, event: pygame.event.Event) -> bool:
        """The scene's own reaction to an event the widgets did not take."""
        return False

    def text_entry_focused(self) -> bool:
        """True while the player types into a text field."""
        if self.ui is None:
            return False
        focused = self.ui.get_focus_set()
        return any(isinstance(el, pygame_gui.elements.UITextEntryLine) for el in focused or ())

    def update(self, dt: float) -> None:
        """Advance the widgets."""
        self.quiet_for += dt
        if self.ui is not None:
            self.ui.update(dt)

    def resume(self) -> None:
        """Uncovered again: the widgets get frames to show their hover states."""
        self.quiet_for = 0.0

    def next_wake(self) -> float | None:
        """Every frame for a moment after input and while a mouse button or a key is held
        (a scrollbar arrow, a slider, Backspace in a field); a text field's blinking cursor
        now and then; else the widgets stand still until input comes."""
        if self.quiet_for < LIVELY or any(pygame.mouse.get_pressed()) or self.keys_held():
            return 0.0
        if self.cursor_blinking():
            return BLINK_POLL
        return None

    def keys_held(self) -> bool:
        """True while a key pressed on this screen is still down."""
        if self._held:
            pressed = pygame.key.get_pressed()
            self._held = {key for key in self._held if pressed[key]}
        return bool(self._held)

    def cursor_blinking(self) -> bool:
        """True while a text field has the keyboard (clicked, or focused by the scene)."""
        if self.ui is None:
            return False
        return self.text_entry_focused() or any(
            isinstance(el, pygame_gui.elements.UITextEntryLine) and el.is_focused
            for el in self.ui.get_sprite_group().sprites())

    def draw(self, surface: pygame.Surface) -> None:
        """Background, the scene's drawing, the widgets, then anything on top of them."""
        self.draw_back(surface)
        if self.ui is not None:
            self.ui.draw_ui(surface)
        self.draw_front(surface)

    def draw_back(self, surface: pygame.Surface) -> None:
        """Paint under the widgets (default: the paper background)."""
        surface.blit(paper_background(self.size), (0, 0))

    def draw_front(self, surface: pygame.Surface) -> None:
        """Paint over the widgets."""


class OverlayScene(GuiScene):
    """A centred panel over the dimmed scene below; Esc closes it."""

    opaque = False
    panel_size = (520, 300)

    def __init__(self, app: App, title: str = "") -> None:
        super().__init__(app)
        self.title = title
        self.panel_rect = pygame.Rect(0, 0, *self.panel_size)

    def resize(self, size: tuple[int, int]) -> None:
        w, h = self.panel_size
        self.panel_rect = pygame.Rect(0, 0, min(w, size[0] - 40), min(h, size[1] - 40))
        self.panel_rect.center = (size[0] // 2, size[1] // 2)
        super().resize(size)

    def close(self) -> None:
        """Leave the overlay."""
        if self in self.app.scenes:
            self.app.pop(self)

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return True
        # Nothing below an overlay reacts while it is open.
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN,
                              pygame.MOUSEWHEEL)

    def draw_back(self, surface: pygame.Surface) -> None:
        dim = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        dim.fill((20, 14, 8, 120))
        surface.blit(dim, (0, 0))
        style.panel(surface, self.panel_rect, radius=14)
        band = pygame.Rect(self.panel_rect.x, self.panel_rect.y, self.panel_rect.w, 6)
        pygame.draw.rect(surface, style.ACCENT, band, border_top_left_radius=14,
                         border_top_right_radius=14)
        if self.title:
            t = style.text(self.title, 26, style.INK, bold=True)
            surface.blit(t, (self.panel_rect.x + 28, self.panel_rect.y + 22))

    @property
    def content_top(self) -> int:
        """Where the panel's content starts, under its title."""
        return self.panel_rect.y + (70 if self.title else 24)


def preload_fonts(ui: pygame_gui.UIManager, fonts: list[tuple[int, bool]],
                  name: str = "noto_sans") -> None:
    """Load the game's font at these ``(size, bold)`` before widgets use them. A size the
    theme has loaded already is skipped: pygame-gui warns when one is loaded twice (the
    title screen's scaled button fonts can meet the theme's, e.g. 22 bold at 1600x840)."""
    loaded = ui.get_theme().get_font_dictionary()
    wanted = []
    for size, bold in dict.fromkeys(fonts):
        if not loaded.check_font_preloaded(loaded.create_font_id(size, name, bold, False)):
            wanted.append({"name": name, "point_size": size,
                           "style": "bold" if bold else "regular"})
    if wanted:
        ui.preload_fonts(wanted)


# Drawing helpers ---------------------------------------------------------------
@lru_cache(maxsize=4)
def paper_background(size: tuple[int, int]) -> pygame.Surface:
    """Warm paper with a soft vignette, fibres, faint map lines and a double frame."""
    w, h = size
    surf = pygame.Surface(size).convert() if pygame.display.get_surface() else \
        pygame.Surface(size)
    surf.fill(style.PAPER)

    # Vignette: a tiny gradient image, smoothly scaled up.
    small = pygame.Surface((32, 18), pygame.SRCALPHA)
    for y in range(18):
        for x in range(32):
            dx, dy = (x - 15.5) / 16, (y - 8.5) / 9
            d = min(1.0, math.hypot(dx, dy))
            small.set_at((x, y), (*style.PAPER_DARK, int(150 * d ** 2.2)))
    surf.blit(pygame.transform.smoothscale(small, size), (0, 0))

    # Fibres and specks (seeded: the same paper every time).
    rng = random.Random(11)
    specks = pygame.Surface(size, pygame.SRCALPHA)
    for _ in range(w * h // 900):
        x, y = rng.randrange(w), rng.randrange(h)
        shade = rng.choice((style.INK_SOFT, style.PANEL_EDGE, (255, 252, 240)))
        specks.fill((*shade, rng.randrange(10, 28)), (x, y, rng.choice((1, 1, 2)), 1))
    # Faint meridians and parallels, like an old map.
    for i in range(1, 9):
        x0 = w * i / 9
        pts = [(x0 + 40 * math.sin(t / 6 + i) * (t / 20 - 0.5), h * t / 20) for t in range(21)]
        pygame.draw.aalines(specks, (*style.PANEL_EDGE, 38), False, pts)
    for j in range(1, 6):
        y0 = h * j / 6
        pts = [(w * t / 24, y0 + 18 * math.sin(t / 4 + j)) for t in range(25)]
        pygame.draw.aalines(specks, (*style.PANEL_EDGE, 38), False, pts)
    surf.blit(specks, (0, 0))

    # A double frame.
    pygame.draw.rect(surf, style.PANEL_EDGE, surf.get_rect().inflate(-20, -20), 2,
                     border_radius=6)
    pygame.draw.rect(surf, (*style.PANEL_EDGE,), surf.get_rect().inflate(-30, -30), 1,
                     border_radius=4)
    return surf


def draw_track(surface: pygame.Surface, x0: int, x1: int, y: int, scale: float = 1.0) -> None:
    """A straight rail track from ``x0`` to ``x1``, rails at height ``y``."""
    tie = max(4, int(6 * scale))
    gap = max(10, int(18 * scale))
    for x in range(x0, x1, gap):
        pygame.draw.rect(surface, (120, 92, 64), (x, y - int(3 * scale), tie, int(12 * scale)),
                         border_radius=2)
    for dy in (0, int(6 * scale)):
        pygame.draw.line(surface, (92, 88, 84), (x0, y + dy), (x1, y + dy), max(2, int(2 * scale)))


def _wheel(surface: pygame.Surface, center: tuple[int, int], r: int) -> None:
    pygame.draw.circle(surface, (40, 36, 32), center, r)
    pygame.draw.circle(surface, (150, 140, 120), center, max(2, r - 3))
    pygame.draw.circle(surface, (40, 36, 32), center, max(1, r // 3))


def draw_wagon(surface: pygame.Surface, x: int, rail_y: int, color: tuple[int, int, int],
               scale: float = 1.0) -> int:
    """A small goods wagon standing on the rail at ``rail_y``; returns its width."""
    w, h = int(78 * scale), int(34 * scale)
    r = int(8 * scale)
    body = pygame.Rect(x, rail_y - r - h + 2, w, h)
    pygame.draw.rect(surface, color, body, border_radius=int(5 * scale))
    dark = tuple(max(0, c - 50) for c in color)
    pygame.draw.rect(surface, dark, body, 2, border_radius=int(5 * scale))
    for i in range(1, 4):
        xx = body.x + i * w // 4
        pygame.draw.line(surface, dark, (xx, body.y + 5), (xx, body.bottom - 5), 1)
    pygame.draw.rect(surface, (60, 52, 44), (x - int(4 * scale), rail_y - r - 4, w + int(8 * scale),
                                             int(5 * scale)), border_radius=2)
    for cx in (x + int(16 * scale), x + w - int(16 * scale)):
        _wheel(surface, (cx, rail_y - r + 2), r)
    return w


def draw_locomotive(surface: pygame.Surface, x: int, rail_y: int, scale: float = 1.0,
                    color: tuple[int, int, int] = (52, 62, 58)) -> int:
    """A little steam engine facing right, standing on the rail; returns its width."""
    s = scale
    r_big, r_small = int(12 * s), int(8 * s)
    deck = rail_y - r_big - int(4 * s)
    trim = style.ACCENT
    # Cab (left), boiler, chimney, dome, cow-catcher.
    cab = pygame.Rect(x, deck - int(56 * s), int(38 * s), int(56 * s))
    pygame.draw.rect(surface, color, cab, border_radius=int(4 * s))
    pygame.draw.rect(surface, trim, (cab.x - int(3 * s), cab.y - int(6 * s), cab.w + int(6 * s),
                                     int(8 * s)), border_radius=int(3 * s))
    pygame.draw.rect(surface, (250, 228, 160), (cab.x + int(9 * s), cab.y + int(10 * s),
                                                int(20 * s), int(16 * s)), border_radius=3)
    boiler = pygame.Rect(cab.right - 2, deck - int(36 * s), int(66 * s), int(34 * s))
    pygame.draw.rect(surface, color, boiler, border_radius=int(14 * s))
    for i in (1, 2):
        xx = boiler.x + i * boiler.w // 3
        pygame.draw.line(surface, trim, (xx, boiler.y + 3), (xx, boiler.bottom - 3),
                         max(2, int(3 * s)))
    chimney = pygame.Rect(boiler.right - int(20 * s), boiler.y - int(22 * s), int(12 * s),
                          int(24 * s))
    pygame.draw.rect(surface, color, chimney)
    pygame.draw.rect(surface, (30, 30, 30), (chimney.x - int(4 * s), chimney.y - int(5 * s),
                                             chimney.w + int(8 * s), int(7 * s)), border_radius=2)
    dome = pygame.Rect(0, 0, int(16 * s), int(12 * s))
    dome.midbottom = (boiler.x + boiler.w // 2 - int(6 * s), boiler.y + int(4 * s))
    pygame.draw.ellipse(surface, color, dome)
    pygame.draw.rect(surface, (214, 170, 60), (dome.x - 1, dome.bottom - int(5 * s), dome.w + 2,
                                               max(2, int(3 * s))))
    lamp = (boiler.right - int(4 * s), boiler.y + int(10 * s))
    pygame.draw.circle(surface, (255, 222, 120), lamp, int(5 * s))
    frame = pygame.Rect(x - int(2 * s), deck - 2, cab.w + boiler.w + int(4 * s), int(6 * s))
    pygame.draw.rect(surface, (60, 52, 44), frame, border_radius=2)
    nose = boiler.right
    pygame.draw.polygon(surface, trim, [(nose, deck), (nose + int(16 * s), rail_y - 2),
                                        (nose, rail_y - 2)])
    _wheel(surface, (cab.x + int(20 * s), rail_y - r_big + 2), r_big)
    _wheel(surface, (cab.x + int(50 * s), rail_y - r_big + 2), r_big)
    _wheel(surface, (boiler.right - int(14 * s), rail_y - r_small + 2), r_small)
    pygame.draw.line(surface, (150, 140, 120), (cab.x + int(20 * s), rail_y - r_big + 2),
                     (cab.x + int(50 * s), rail_y - r_big + 2), max(2, int(3 * s)))
    return nose + int(16 * s) - x


def draw_train(surface: pygame.Surface, x: int, rail_y: int, colors: list[tuple[int, int, int]],
               scale: float = 1.0, smoke_phase: float = 0.0,
               smoke: float = 1.0) -> pygame.Rect:
    """Wagons in ``colors`` pulled by a locomotive (to the right), with puffs of smoke
    (``smoke``: how thick, 0 for none)."""
    cx = x
    gap = int(8 * scale)
    for c in colors:
        cx += draw_wagon(surface, cx, rail_y, c, scale) + gap
    loco_w = draw_locomotive(surface, cx, rail_y, scale)
    # Smoke: a few soft circles drifting up and back from the chimney.
    chimney_x = cx + int(38 * scale) + int(66 * scale) - int(14 * scale)
    chimney_y = rail_y - int(16 * scale) - int(36 * scale) - int(30 * scale)
    if smoke <= 0:
        return pygame.Rect(x, rail_y - int(100 * scale), cx + loco_w - x, int(100 * scale))
    puffs = pygame.Surface((int(260 * scale), int(120 * scale)), pygame.SRCALPHA)
    for i in range(5):
        t = (i + smoke_phase) / 5
        px = int(puffs.get_width() - 30 * scale - t * 200 * scale)
        py = int(puffs.get_height() - 20 * scale - t * 70 * scale - 10 * scale * math.sin(t * 6))
        rad = int((8 + 16 * t) * scale)
        pygame.draw.circle(puffs, (255, 255, 255, int((150 * (1 - t) + 30) * min(1.0, smoke))),
                           (px, py), rad)
    surface.blit(puffs, (chimney_x - puffs.get_width() + int(30 * scale),
                         chimney_y - puffs.get_height() + int(20 * scale)))
    return pygame.Rect(x, rail_y - int(100 * scale), cx + loco_w - x, int(100 * scale))


def blit_lines(surface: pygame.Surface, lines: list[str], pos: tuple[int, int], size: int,
               color=style.INK, bold: bool = False, line_height: int | None = None,
               center_x: int | None = None) -> int:
    """Draw ``lines`` from ``pos``; returns the y under the last line."""
    x, y = pos
    step = line_height or int(size * 1.45)
    for line in lines:
        t = style.text(line, size, color, bold)
        if center_x is not None:
            surface.blit(t, (center_x - t.get_width() // 2, y))
        else:
            surface.blit(t, (x, y))
        y += step
    return y
