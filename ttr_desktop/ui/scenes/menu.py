"""The title screen: new game, continue, load, settings, rules, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ttr_desktop import __version__
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import GuiScene, draw_track, draw_train
from ttr_desktop.ui.scenes.overlays import (
    ConfirmOverlay,
    LoadOverlay,
    MessageOverlay,
    load_and_open,
    read_summary,
)

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

TITLE = "ttr-desktop"
SUBTITLE = "Ticket to Ride for your desktop"
TRAIN_COLORS = ["red", "blue", "green", "yellow", "black"]


class MenuScene(GuiScene):
    """Title, a little train, and the six ways on; Enter starts a new game, Esc asks to quit."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.smoke = 0.0
        self.continue_hint = ""

    # Layout --------------------------------------------------------------
    def build(self) -> None:
        w, h = self.size
        self.title_y = max(40, int(h * 0.08))
        bw, bh = 340, 52
        gap = 12 if h < 800 else 16
        top = self.title_y + 170 + (0 if h < 800 else 30)
        x = w // 2 - bw // 2
        autosave = self.app.paths.autosave_file
        has_autosave = autosave.is_file()
        self.continue_hint = ""
        if has_autosave:
            summary = read_summary(autosave, autosave=True)
            when = f"{summary.when:%d %b, %H:%M}" if summary.when else ""
            self.continue_hint = (f"Damaged autosave — {when}" if summary.damaged else
                                  f"{summary.detail} — {when}")
        rows = [
            ("New game", self.new_game, "#primary", True, "Choose a map and players (Enter)"),
            ("Continue", self.continue_game, "#menu_button", has_autosave,
             "Resume the game you left" if has_autosave else "No game to resume yet"),
            ("Load", self.load, "#menu_button", True, "Open a saved game"),
            ("Settings", self.settings, "#menu_button", True, "Sound, animations, window"),
            ("Rules", self.rules, "#menu_button", True, "How to play, in short"),
            ("Quit", self.app.quit, "#menu_button", True, "Close the game"),
        ]
        self.buttons = {}
        y = top
        for label, action, oid, enabled, tip in rows:
            self.buttons[label] = self.button(pygame.Rect(x, y, bw, bh), label, action,
                                              object_id=oid, tooltip=tip, enabled=enabled)
            y += bh + gap
        self.column_bottom = y

    def resume(self) -> None:
        """Back from an overlay or screen: the autosave may have changed."""
        self.rebuild()

    # Actions -------------------------------------------------------------
    def new_game(self) -> None:
        """The setup screen."""
        from ttr_desktop.ui.scenes.setup import SetupScene
        self.app.push(SetupScene(self.app))

    def continue_game(self) -> None:
        """Load the autosave; a broken one is explained and left where it is."""
        path = self.app.paths.autosave_file
        problem = load_and_open(self.app, path, named=False)
        if problem:
            self.app.sound.play("error")
            self.app.push(MessageOverlay(
                self.app, "The last game could not be resumed",
                f"{problem}\n\nThe file was kept at {path} so nothing is lost.",
                error=True))

    def load(self) -> None:
        """Pick a saved game."""
        self.app.push(LoadOverlay(self.app))

    def settings(self) -> None:
        """The settings screen."""
        from ttr_desktop.ui.scenes.settings import SettingsScene
        self.app.push(SettingsScene(self.app))

    def rules(self) -> None:
        """The rules summary."""
        from ttr_desktop.ui.scenes.rules import RulesScene
        self.app.push(RulesScene(self.app))

    def ask_quit(self) -> None:
        """Esc: make sure before closing the window."""
        message = "Close ttr-desktop?"
        if self.app.paths.autosave_file.is_file():
            message += " Your last game is kept: Continue resumes it."
        self.app.push(ConfirmOverlay(self.app, "Quit the game?", message, self.app.quit,
                                     yes_label="Quit", no_label="Stay"))

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.new_game()
                return True
            if event.key == pygame.K_ESCAPE:
                self.ask_quit()
                return True
        return False

    def update(self, dt: float) -> None:
        super().update(dt)
        self.smoke = (self.smoke + dt * 0.6) % 1.0

    # Drawing -------------------------------------------------------------
    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        w, h = self.size
        cx = w // 2
        # Title with a soft shadow, subtitle, and a little route between two cities.
        title_size = 72 if h >= 800 else 64
        shadow = style.text(TITLE, title_size, (200, 182, 150), bold=True)
        title = style.text(TITLE, title_size, style.INK, bold=True)
        ty = self.title_y
        surface.blit(shadow, (cx - title.get_width() // 2 + 3, ty + 4))
        surface.blit(title, (cx - title.get_width() // 2, ty))
        sub = style.text(SUBTITLE, 24, style.INK_SOFT)
        sy = ty + title.get_height() + 2
        surface.blit(sub, (cx - sub.get_width() // 2, sy))
        self._draw_route(surface, cx, sy + sub.get_height() + 26, 210)

        # The train on its track along the bottom, left of the buttons.
        rail_y = h - 46
        draw_track(surface, 34, w - 34, rail_y, 0.9)
        scale = 0.82 if h < 800 else 1.0
        colors = [style.PLAYER_COLORS[c] for c in TRAIN_COLORS[:4]]
        draw_train(surface, 60, rail_y, colors, scale, self.smoke)
        self._draw_signal(surface, w - 120, rail_y, scale)

    def draw_front(self, surface: pygame.Surface) -> None:
        w = self.size[0]
        cont = self.buttons["Continue"].rect
        if self.continue_hint:
            lines = style.wrap(self.continue_hint, 15, max(120, w - cont.right - 60))[:2]
            y = cont.centery - 10 * len(lines)
            for line in lines:
                surface.blit(style.text(line, 15, style.INK_SOFT), (cont.right + 16, y))
                y += 20
        keys = style.text("Enter  new game    ·    Esc  quit", 15, style.INK_SOFT)
        surface.blit(keys, (w // 2 - keys.get_width() // 2, self.column_bottom + 4))
        ver = style.text(f"v{__version__}", 14, style.INK_SOFT)
        surface.blit(ver, (w - 40 - ver.get_width(), 34))

    def _draw_route(self, surface: pygame.Surface, cx: int, y: int, half: int) -> None:
        """Two cities joined by a route of six coloured cars, like on the board."""
        cars = 6
        span = 2 * half - 60
        car_w = span // cars - 6
        x = cx - half + 30
        for i in range(cars):
            rect = pygame.Rect(x + i * (car_w + 6) + 3, y - 7, car_w, 14)
            color = style.PLAYER_COLORS[TRAIN_COLORS[i % 2]] if i < 3 else style.CARD_RGB["gray"]
            pygame.draw.rect(surface, color, rect, border_radius=3)
            pygame.draw.rect(surface, style.INK_SOFT, rect, 1, border_radius=3)
        for end in (cx - half + 14, cx + half - 14):
            pygame.draw.circle(surface, style.PANEL, (end, y), 13)
            pygame.draw.circle(surface, style.ACCENT, (end, y), 13, 3)
            pygame.draw.circle(surface, style.ACCENT, (end, y), 5)

    def _draw_signal(self, surface: pygame.Surface, x: int, rail_y: int, scale: float) -> None:
        """A semaphore signal at the end of the line."""
        top = rail_y - int(120 * scale)
        pygame.draw.rect(surface, (92, 88, 84), (x, top, int(6 * scale), rail_y - top))
        arm = pygame.Rect(x + int(6 * scale), top + int(6 * scale), int(44 * scale),
                          int(10 * scale))
        pygame.draw.rect(surface, style.ACCENT, arm, border_radius=2)
        pygame.draw.rect(surface, (250, 245, 233), arm.inflate(-int(34 * scale), -4))
        pygame.draw.circle(surface, (255, 214, 64), (x + 3, top - int(6 * scale)),
                           int(7 * scale))
        pygame.draw.rect(surface, (60, 52, 44), (x - int(10 * scale), rail_y - 6,
                                                 int(26 * scale), 8), border_radius=2)
