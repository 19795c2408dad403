"""The title screen: new game, continue, load, settings, rules, quit; beside them the
Legacy campaign and the online table (host a game, join a game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ttr_desktop import __version__
from ttr_desktop.persistence.autosaves import adopt_legacy_autosave, set_damaged_aside
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import GuiScene, draw_track, draw_train, preload_fonts
from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay, MessageOverlay
from ttr_desktop.ui.scenes.load import LoadOverlay, load_and_open
from ttr_desktop.ui.scenes.save_info import SaveSummary, list_autosaves, when_words

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

TITLE = "ttr-desktop"
SUBTITLE = "Ticket to Ride for your desktop"
TRAIN_COLORS = ["red", "blue", "green", "yellow", "black"]
#: The title screen is laid out for this window and scaled (keeping proportions) to others.
DESIGN = (1280, 720)
#: The engine puffs smoke for this many seconds after the screen opens or after input,
#: then lets it thin away over a second and stands still (no frames, no CPU) until the
#: player moves again.
SMOKE_SECONDS = 4.0


class MenuScene(GuiScene):
    """Title, a little train, and the six ways on; Enter starts a new game, Esc asks to quit."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.smoke = 0.0
        #: How thick the smoke is now (0: the engine rests).
        self.puff = 1.0
        self.continue_hint = ""
        self.latest: SaveSummary | None = None
        self.scale = 1.0
        #: What went wrong at start (a damaged settings file...), shown while this screen lasts.
        self.notes: list[str] = app.take_notices()

    # Layout --------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        """Everything is measured on a 1280×720 design and scaled to the window."""
        self.scale = max(0.5, min(size[0] / DESIGN[0], size[1] / DESIGN[1]))
        super().resize(size)
        self._scale_button_fonts()

    def _scale_button_fonts(self) -> None:
        """Button text grows with the buttons (the theme's sizes are for 1280×720)."""
        s = self.scale
        if abs(s - 1.0) < 0.05 or self.ui is None:
            return
        menu_size, primary_size = round(22 * s), round(19 * s)
        preload_fonts(self.ui, [(menu_size, False), (primary_size, True)])
        self.ui.get_theme().load_theme({
            "#menu_button": {"font": {"name": "noto_sans", "size": str(menu_size)}},
            "#primary": {"font": {"name": "noto_sans", "size": str(primary_size), "bold": "1"}},
        })
        for button in self.buttons.values():
            button.rebuild_from_changed_theme_data()

    def px(self, value: float) -> int:
        """A design length at the window's scale."""
        return round(value * self.scale)

    def build(self) -> None:
        w, h = self.size
        s = self.scale
        # The design's block (title, route, six buttons, hint) is centred in the window.
        block_h = self.px(DESIGN[1])
        top0 = (h - block_h) // 2
        self.title_y = top0 + self.px(40)
        bw, bh, gap = self.px(340), self.px(52), self.px(12)
        top = self.title_y + self.px(170)
        x = w // 2 - bw // 2
        adopt_legacy_autosave(self.app.paths.autosave_file, self.app.paths.autosaves_dir)
        autosaves = list_autosaves(self.app.paths.autosaves_dir)
        self.latest = autosaves[0] if autosaves else None
        has_autosave = self.latest is not None
        self.continue_hint = ""
        if self.latest is not None:
            when = when_words(self.latest.when).capitalize()
            self.continue_hint = (f"Damaged autosave — {when}" if self.latest.damaged else
                                  f"{self.latest.game_words} — {when}")
        self.title_size = max(40, round(64 * s))
        self.buttons = {}
        rows = [
            ("New game", self.new_game, "#primary", True, "Choose a map and players (Enter)"),
            ("Continue", self.continue_game, "#menu_button", has_autosave,
             "Resume the game you left" if has_autosave else "No game to resume yet"),
            ("Load", self.load, "#menu_button", True, "Open a saved game"),
            ("Settings", self.settings, "#menu_button", True, "Sound, animations, window"),
            ("Rules", self.rules, "#menu_button", True, "How to play, in short"),
            ("Quit", self.app.quit, "#menu_button", True, "Close the game"),
        ]
        y = top
        for label, action, oid, enabled, tip in rows:
            self.buttons[label] = self.button(pygame.Rect(x, y, bw, bh), label, action,
                                              object_id=oid, tooltip=tip, enabled=enabled)
            y += bh + gap
        self.column_bottom = y
        column = self.buttons["New game"].rect
        left = self.px(40)
        self.note_rect = pygame.Rect(left, column.y, max(0, column.x - self.px(28) - left),
                                     self.column_bottom - gap - column.y)
        # Beside New game: the Legacy campaign (new or continue).
        first = self.buttons["New game"].rect
        self.buttons["Legacy campaign"] = self.button(
            pygame.Rect(first.right + gap, first.y, self.px(210), bh), "Legacy campaign",
            self.campaign, object_id="#menu_button",
            tooltip="Twelve games of Legacy: start a campaign or continue one")
        # Beside Load and Settings: play with friends on other computers.
        for label, row, action, tip in (
                ("Host a game", "Load", self.host_game,
                 "Set a table that friends join over the network"),
                ("Join a game", "Settings", self.join_game,
                 "Take your seat at a friend's table with their invite")):
            beside = self.buttons[row].rect
            self.buttons[label] = self.button(
                pygame.Rect(beside.right + gap, beside.y, self.px(210), bh), label, action,
                object_id="#menu_button", tooltip=tip)

    def resume(self) -> None:
        """Back from an overlay or screen: the autosave may have changed."""
        self.rebuild()

    # Actions -------------------------------------------------------------
    def new_game(self) -> None:
        """The setup screen."""
        from ttr_desktop.ui.scenes.setup import SetupScene
        self.app.push(SetupScene(self.app))

    def continue_game(self) -> None:
        """Resume the most recent game; a damaged autosave is set aside (a copy is kept in
        ``damaged/``) and explained, so Continue then offers the game before it."""
        latest = self.latest
        if latest is None:
            return
        problem = load_and_open(self.app, latest.path, autosave=True)
        if not problem:
            return
        self.app.sound.play("error")
        what = latest.describe()
        what = what[0].upper() + what[1:]
        if problem.is_damage:
            kept = set_damaged_aside(latest.path)
            where = (f"A copy was kept as {kept.name} in the folder {kept.parent}." if kept
                     else f"The file was left where it is: {latest.path}.")
            message = f"{what} is damaged: {problem.words}. It cannot be resumed.\n\n{where}"
            others = len(list_autosaves(self.app.paths.autosaves_dir))
            if kept and others:
                message += "\n\nContinue now resumes the game you played before it."
        else:
            message = (f"{what} cannot be resumed: {problem.words}.\n\n"
                       f"The file is kept as it is: {latest.path}.")
        self.app.push(MessageOverlay(self.app, "The last game could not be resumed", message,
                                     error=True))

    def host_game(self) -> None:
        """Set up a table friends join over the network."""
        from ttr_desktop.ui.net.host_setup import HostSetupScene
        self.app.push(HostSetupScene(self.app))

    def join_game(self) -> None:
        """Join a friend's table with their invite."""
        from ttr_desktop.ui.net.screens import JoinScene
        self.app.push(JoinScene(self.app))

    def campaign(self) -> None:
        """Start or continue a Legacy campaign."""
        from ttr_desktop.ui.families.legacy_campaign import CampaignListOverlay
        self.app.push(CampaignListOverlay(self.app))

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
        if self.latest is not None and not self.latest.damaged:
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
        puffing = self.quiet_for < SMOKE_SECONDS
        self.puff = min(1.0, self.puff + dt) if puffing else max(0.0, self.puff - dt)
        if self.puff > 0:
            self.smoke = (self.smoke + dt * 0.6) % 1.0

    def next_wake(self) -> float | None:
        """Every frame while the smoke drifts; then still until input."""
        if self.puff > 0 or self.quiet_for < SMOKE_SECONDS:
            return 0.0
        return super().next_wake()

    # Drawing -------------------------------------------------------------
    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        w, h = self.size
        cx = w // 2
        # Title with a soft shadow, subtitle, and a little route between two cities.
        size = self.title_size
        shadow = style.text(TITLE, size, (200, 182, 150), bold=True)
        title = style.text(TITLE, size, style.INK, bold=True)
        ty = self.title_y
        surface.blit(shadow, (cx - title.get_width() // 2 + self.px(3), ty + self.px(4)))
        surface.blit(title, (cx - title.get_width() // 2, ty))
        sub = style.text(SUBTITLE, self.px(24), style.INK_SOFT)
        sy = ty + title.get_height() + 2
        surface.blit(sub, (cx - sub.get_width() // 2, sy))
        self._draw_route(surface, cx, sy + sub.get_height() + self.px(26), self.px(210))

        # The train on its track along the bottom, left of the buttons.
        rail_y = h - self.px(46)
        draw_track(surface, 34, w - 34, rail_y, 0.9 * self.scale)
        scale = 0.82 * self.scale
        colors = [style.PLAYER_COLORS[c] for c in TRAIN_COLORS[:4]]
        draw_train(surface, self.px(60), rail_y, colors, scale, self.smoke, self.puff)
        self._draw_signal(surface, w - self.px(120), rail_y, scale)

    def title_rect(self) -> pygame.Rect:
        """Where the title is drawn (for layout checks)."""
        rect = style.text(TITLE, self.title_size, style.INK, bold=True).get_rect()
        rect.midtop = (self.size[0] // 2, self.title_y)
        return rect

    def toast_area(self) -> pygame.Rect:
        """Toasts ("Settings saved.") stand right of the buttons, under the Continue line
        and the online buttons, clear of the title, the buttons and the notes on the
        left."""
        column = self.buttons["New game"].rect
        below = self.buttons["Rules"].rect.y
        left = column.right + self.px(12)
        return pygame.Rect(left, below, max(0, self.size[0] - self.px(40) - left),
                           self.column_bottom - below)

    def draw_front(self, surface: pygame.Surface) -> None:
        w = self.size[0]
        cont = self.buttons["Continue"].rect
        small = self.px(15)
        if self.continue_hint:
            color = style.BAD if self.latest and self.latest.damaged else style.INK_SOFT
            lines = style.wrap(self.continue_hint, small,
                               max(120, w - cont.right - self.px(60)))[:2]
            step = self.px(20)
            y = cont.centery - step * len(lines) // 2
            for line in lines:
                surface.blit(style.text(line, small, color), (cont.right + self.px(16), y))
                y += step
        keys = style.text("Enter  new game    ·    Esc  quit", small, style.INK_SOFT)
        surface.blit(keys, (w // 2 - keys.get_width() // 2, self.column_bottom + self.px(4)))
        ver = style.text(f"v{__version__}", self.px(14), style.INK_SOFT)
        surface.blit(ver, (w - 40 - ver.get_width(), 34))
        if self.notes:
            self._draw_notes(surface)

    def note_lines(self) -> list[str]:
        """The start-up notes as drawn beside the buttons (wrapped, as many as fit)."""
        size, pad = self.px(15), self.px(14)
        width = self.note_rect.w - 2 * pad
        lines: list[str] = []
        for note in self.notes:
            if lines:
                lines.append("")
            lines += style.wrap(note, size, max(40, width))
        fit = max(1, (self.note_rect.h - 2 * pad) // self.px(20))
        return lines[:fit]

    def _draw_notes(self, surface: pygame.Surface) -> None:
        """What went wrong at start, in a panel left of the buttons (the program carries on)."""
        rect = self.note_rect
        if rect.w < 80:
            return
        lines = self.note_lines()
        pad, step = self.px(14), self.px(20)
        box = pygame.Rect(rect.x, rect.y, rect.w, min(rect.h, 2 * pad + step * len(lines)))
        style.panel(surface, box, edge=style.BAD)
        clip = surface.get_clip()
        surface.set_clip(box.inflate(-pad, -4))
        y = box.y + pad
        for line in lines:
            surface.blit(style.text(line, self.px(15), style.BAD), (box.x + pad, y))
            y += step
        surface.set_clip(clip)

    def _draw_route(self, surface: pygame.Surface, cx: int, y: int, half: int) -> None:
        """Two cities joined by a route of six coloured cars, like on the board."""
        cars, px = 6, self.px
        gap = px(6)
        span = 2 * half - px(60)
        car_w = span // cars - gap
        x = cx - half + px(30)
        for i in range(cars):
            rect = pygame.Rect(x + i * (car_w + gap) + px(3), y - px(7), car_w, px(14))
            color = style.PLAYER_COLORS[TRAIN_COLORS[i % 2]] if i < 3 else style.CARD_RGB["gray"]
            pygame.draw.rect(surface, color, rect, border_radius=px(3))
            pygame.draw.rect(surface, style.INK_SOFT, rect, 1, border_radius=px(3))
        for end in (cx - half + px(14), cx + half - px(14)):
            pygame.draw.circle(surface, style.PANEL, (end, y), px(13))
            pygame.draw.circle(surface, style.ACCENT, (end, y), px(13), max(2, px(3)))
            pygame.draw.circle(surface, style.ACCENT, (end, y), px(5))

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
