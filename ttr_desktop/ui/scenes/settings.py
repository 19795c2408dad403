"""The settings screen: sound, animations, help options and the window.

Changes are a draft until Save (``app.apply_settings``). Esc first closes an open list;
leaving with unsaved changes asks whether to save or discard them.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UICheckBox, UIDropDownMenu, UIHorizontalSlider

from ttr_desktop.persistence.settings import (
    ANIMATION_SPEEDS, BOT_PAUSES, HARD_BUDGETS, Settings,
)
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import GuiScene
from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

MIN_WINDOW = (1280, 720)
WINDOW_SIZES = [(1280, 720), (1366, 768), (1600, 900), (1920, 1080), (2560, 1440)]
SPEED_LABELS = {"slow": "Slow", "normal": "Normal", "fast": "Fast", "instant": "Instant"}


def budget_label(seconds: float) -> str:
    """'1 s per move' for the Hard bot's thinking time."""
    return f"{seconds:g} s per move"


def pause_label(seconds: float) -> str:
    """'Wait 1.5 s' before a bot moves ('Move at once' for none)."""
    return f"Wait {seconds:g} s" if seconds else "Move at once"


def size_label(size: tuple[int, int]) -> str:
    """'1600 × 900'."""
    return f"{size[0]} × {size[1]}"


def window_choices(current: tuple[int, int]) -> list[tuple[int, int]]:
    """Sizes that fit the screen (all of them when the screen size is unknown), plus ``current``."""
    try:
        desktops = pygame.display.get_desktop_sizes()
    except pygame.error:
        desktops = []
    sizes = list(WINDOW_SIZES)
    if desktops and desktops[0][0] >= MIN_WINDOW[0] and desktops[0][1] >= MIN_WINDOW[1]:
        dw, dh = desktops[0]
        sizes = [s for s in sizes if s[0] <= dw and s[1] <= dh] or [MIN_WINDOW]
    if current not in sizes:
        sizes.append(current)
    return sorted(set(sizes))


def close_open_dropdown(menus: list[UIDropDownMenu]) -> bool:
    """Fold up whichever of ``menus`` is open; True when one was."""
    for menu in menus:
        if menu.current_state is menu.menu_states["expanded"]:
            menu.current_state.should_transition = True
            menu.update(0.0)
            return True
    return False


def apply_window(app: App, settings: Settings) -> None:
    """Resize the window (or go full screen) as ``settings`` say, and lay every scene out."""
    try:
        if settings.fullscreen:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            if screen.get_width() < MIN_WINDOW[0] or screen.get_height() < MIN_WINDOW[1]:
                screen = pygame.display.set_mode(MIN_WINDOW, pygame.FULLSCREEN | pygame.SCALED)
        else:
            screen = pygame.display.set_mode((settings.window_width, settings.window_height),
                                             pygame.RESIZABLE)
    except pygame.error as exc:
        app.toast(f"The window could not be changed: {exc}", 6, "error")
        return
    app.screen = screen
    if not settings.fullscreen:
        try:  # keep the resized window on the screen
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
            window.position = pygame.WINDOWPOS_CENTERED
        except (AttributeError, pygame.error):
            pass
    for scene in app.scenes:
        scene.resize(app.size)


class SettingsScene(GuiScene):
    """An opaque screen (also over the pause menu) editing a draft of the settings."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.draft: Settings = app.settings
        w, h = app.size
        if not app.settings.fullscreen and w >= MIN_WINDOW[0] and h >= MIN_WINDOW[1]:
            self.draft = replace(self.draft, window_width=w, window_height=h)
        #: The settings as they were on arrival: anything else is an unsaved change.
        self.original: Settings = self.draft
        self._last_preview = -1000

    # Layout --------------------------------------------------------------
    def build(self) -> None:
        w, h = self.size
        d = self.draft
        pw = min(820, w - 100)
        self.row_h = 48 if h < 800 else 62
        ph = 9 * self.row_h + 56
        top = max(120, (h - ph - 110) // 2 + 40)
        self.panel = pygame.Rect((w - pw) // 2, top, pw, ph)
        cx = self.panel.x + 290
        cw = self.panel.right - 40 - cx
        self.rows: list[tuple[str, int]] = []

        def row(label: str) -> int:
            y = self.panel.y + 28 + len(self.rows) * self.row_h
            self.rows.append((label, y))
            return y

        y = row("Sound volume")
        self.volume_slider = UIHorizontalSlider(pygame.Rect(cx, y, min(360, cw - 90), 36),
                                                round(d.volume * 100), (0, 100), self.ui,
                                                click_increment=5)
        y = row("Mute")
        self.mute_box = UICheckBox(pygame.Rect(cx, y + 6, 24, 24), "Mute all sounds", self.ui,
                                   initial_state=d.mute)
        y = row("Animations")
        self.speed_menu = UIDropDownMenu([SPEED_LABELS[s] for s in ANIMATION_SPEEDS],
                                         SPEED_LABELS[d.animation_speed],
                                         pygame.Rect(cx, y, 240, 38), self.ui)
        y = row("Colour-blind help")
        self.symbols_box = UICheckBox(pygame.Rect(cx, y + 6, 24, 24),
                                      "Show a symbol for each card colour", self.ui,
                                      initial_state=d.colorblind_symbols)
        y = row("Claiming routes")
        self.confirm_box = UICheckBox(pygame.Rect(cx, y + 6, 24, 24),
                                      "Ask before claiming a route", self.ui,
                                      initial_state=d.confirm_claims)
        y = row("Hard bot")
        self.budgets = list(HARD_BUDGETS)
        self.budget_menu = UIDropDownMenu([budget_label(b) for b in self.budgets],
                                          budget_label(d.hard_budget),
                                          pygame.Rect(cx, y, 240, 38), self.ui)
        y = row("Before a bot moves")
        self.pauses = list(BOT_PAUSES)
        self.pause_menu = UIDropDownMenu([pause_label(b) for b in self.pauses],
                                         pause_label(d.bot_pause),
                                         pygame.Rect(cx, y, 240, 38), self.ui)
        y = row("Window size")
        self.sizes = window_choices((d.window_width, d.window_height))
        self.size_menu = UIDropDownMenu([size_label(s) for s in self.sizes],
                                        size_label((d.window_width, d.window_height)),
                                        pygame.Rect(cx, y, 240, 38), self.ui)
        if d.fullscreen:
            self.size_menu.disable()
        y = row("Full screen")
        self.fullscreen_box = UICheckBox(pygame.Rect(cx, y + 6, 24, 24), "Play in full screen",
                                         self.ui, initial_state=d.fullscreen)

        by = self.panel.bottom + 24
        self.back_button = self.button(pygame.Rect(self.panel.x, by, 150, 52), "Back",
                                       self.back, tooltip="Leave (Esc); asks about changes")
        self.defaults_button = self.button(pygame.Rect(self.panel.x + 166, by, 170, 52),
                                           "Defaults", self.defaults,
                                           tooltip="Put back the original settings")
        self.save_button = self.button(pygame.Rect(self.panel.right - 200, by, 200, 52),
                                       "Save", self.save, object_id="#primary")

    # Actions -------------------------------------------------------------
    def defaults(self) -> None:
        """The factory settings (the window keeps its size)."""
        self.draft = replace(Settings(), window_width=self.draft.window_width,
                             window_height=self.draft.window_height,
                             fullscreen=self.draft.fullscreen)
        self.app.sound.configure(self.draft)
        self.rebuild()

    def save(self) -> None:
        """Use and store the draft; the window follows a new size or full screen."""
        try:
            new = self.draft.validated()
        except ValueError as exc:
            self.app.toast(f"These settings cannot be used: {exc}", 6, "error")
            return
        old = self.app.settings
        window_changed = new.fullscreen != old.fullscreen or (
            not new.fullscreen and (new.window_width, new.window_height) != self.app.size)
        self.app.apply_settings(new)
        self.leave()
        if window_changed:
            apply_window(self.app, new)
        self.app.toast("Settings saved.")

    @property
    def changed(self) -> bool:
        """True when the draft differs from the settings the screen opened with."""
        return self.draft != self.original

    def back(self) -> None:
        """Leave; with unsaved changes, ask whether to save or discard them first."""
        if not self.changed:
            self.discard()
            return
        self.app.push(ConfirmOverlay(
            self.app, "Save your changes?",
            "You changed some settings. Save them, or leave them as they were? "
            "(Esc keeps you here.)",
            self.save, yes_label="Save changes", no_label="Discard", on_no=self.discard))

    def discard(self) -> None:
        """Leave without saving (the sound goes back to the saved volume)."""
        self.app.sound.configure(self.app.settings)
        self.leave()

    @property
    def dropdowns(self) -> list[UIDropDownMenu]:
        """The lists on this screen."""
        return [self.speed_menu, self.budget_menu, self.pause_menu, self.size_menu]

    def leave(self) -> None:
        """Return to the screen below (the title screen when there is none)."""
        if len(self.app.scenes) > 1 and self in self.app.scenes:
            self.app.pop(self)
        else:
            from ttr_desktop.ui.scenes.menu import MenuScene
            self.app.replace(MenuScene(self.app))

    # Events --------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> bool:
        d = self.draft
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and \
                event.ui_element is self.volume_slider:
            self.draft = replace(d, volume=max(0, min(100, int(event.value))) / 100)
            self.app.sound.configure(self.draft)      # hear the new level at once
            now = pygame.time.get_ticks()
            if now - self._last_preview > 150:
                self._last_preview = now
                self.app.sound.play("click")
            return True
        if event.type in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
            on = event.type == pygame_gui.UI_CHECK_BOX_CHECKED
            el = event.ui_element
            if el is self.mute_box:
                self.draft = replace(d, mute=on)
                self.app.sound.configure(self.draft)
            elif el is self.symbols_box:
                self.draft = replace(d, colorblind_symbols=on)
            elif el is self.confirm_box:
                self.draft = replace(d, confirm_claims=on)
            elif el is self.fullscreen_box:
                self.draft = replace(d, fullscreen=on)
                if on:
                    self.size_menu.disable()
                else:
                    self.size_menu.enable()
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.speed_menu:
                speed = next(k for k, v in SPEED_LABELS.items() if v == event.text)
                self.draft = replace(d, animation_speed=speed)
            elif event.ui_element is self.budget_menu:
                budget = next(b for b in self.budgets if budget_label(b) == event.text)
                self.draft = replace(d, hard_budget=budget)
            elif event.ui_element is self.pause_menu:
                pause = next(b for b in self.pauses if pause_label(b) == event.text)
                self.draft = replace(d, bot_pause=pause)
            elif event.ui_element is self.size_menu:
                size = next(s for s in self.sizes if size_label(s) == event.text)
                self.draft = replace(d, window_width=size[0], window_height=size[1])
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if not close_open_dropdown(self.dropdowns):
                self.back()
            return True
        return False

    # Drawing -------------------------------------------------------------
    def pause_note(self) -> tuple[str, int]:
        """The words beside "Before a bot moves" and where they start: the longest that
        ends inside the row's rule line."""
        x = self.pause_menu.rect.right + 14
        room = self.panel.right - 24 - x
        choices = ("time to take your move back (Ctrl+Z)", "time to take back (Ctrl+Z)",
                   "to take back (Ctrl+Z)")
        fits = [c for c in choices if style.font(15).size(c)[0] <= room]
        return (fits[0] if fits else choices[-1]), x

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        p = self.panel
        surface.blit(style.text("Settings", 40, style.INK, bold=True), (p.x, p.y - 100))
        note = ("You have unsaved changes: press Save to use them." if self.changed else
                "Changes take effect when you press Save.")
        surface.blit(style.text(note, 18, style.INK_SOFT), (p.x + 2, p.y - 46))
        style.panel(surface, p, radius=12)
        for i, (label, y) in enumerate(self.rows):
            if i:
                pygame.draw.line(surface, (232, 222, 200), (p.x + 24, y - 10),
                                 (p.right - 24, y - 10))
            surface.blit(style.text(label, 19, style.INK, bold=True), (p.x + 32, y + 6))
        s = self.volume_slider.rect
        pct = "muted" if self.draft.mute else f"{round(self.draft.volume * 100)} %"
        surface.blit(style.text(pct, 17, style.INK_SOFT), (s.right + 16, s.y + 7))
        r = self.pause_menu.rect
        note, x = self.pause_note()
        surface.blit(style.text(note, 15, style.INK_SOFT), (x, r.y + 9))
        if self.draft.fullscreen:
            r = self.size_menu.rect
            surface.blit(style.text("(used when not full screen)", 15, style.INK_SOFT),
                         (r.right + 14, r.y + 9))
