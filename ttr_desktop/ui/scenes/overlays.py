"""Overlays drawn over the game: the pause menu and save as. The small dialogs live in
``dialogs.py`` and the load screen in ``load.py``; both are re-exported here.

All saving goes through ``session.save(path)`` (SaveError is shown, never fatal);
all loading through ``GameSession.load`` (the same).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from ttr_desktop.persistence.autosaves import check_file, keep_damaged_copy
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import OverlayScene, blit_lines
from ttr_desktop.ui.scenes.dialogs import (
    ConfirmOverlay,
    MessageOverlay,
    TextPromptOverlay,
    check_save_name,
)
from ttr_desktop.ui.scenes.load import (
    LoadOverlay,
    leave_game,
    load_and_open,
    open_board,
    running_session,
)
from ttr_desktop.ui.scenes.save_info import SaveSummary, read_summary
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SaveError

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.scene import Scene

__all__ = ["ConfirmOverlay", "LoadOverlay", "MessageOverlay", "PauseOverlay", "SaveAsOverlay",
           "SaveSummary", "TextPromptOverlay", "check_save_name", "leave_game", "load_and_open",
           "open_board", "read_summary", "running_session"]




def default_save_name(session: GameSession) -> str:
    """A name like 'USA 2024-05-01 14.32'."""
    label = VARIANT_CHOICES.get(session.variant_key, ("", {}, session.variant_key))[2]
    return f"{label} {datetime.now():%Y-%m-%d %H.%M}"


class SaveAsOverlay(OverlayScene):
    """Ask for a name and save into the saves folder (confirming an overwrite)."""

    panel_size = (600, 310)

    def __init__(self, app: App, session: GameSession,
                 on_saved: Callable[[Path], None] | None = None) -> None:
        super().__init__(app, "Save game as")
        self.session = session
        self.on_saved = on_saved
        current = session.save_path
        self.name = Path(current).stem if current else default_save_name(session)
        self.error = ""

    def build(self) -> None:
        p = self.panel_rect
        self.entry = UITextEntryLine(pygame.Rect(p.x + 28, self.content_top + 30, p.w - 56, 44),
                                     self.ui, initial_text=self.name)
        self.entry.set_text_length_limit(60)
        self.entry.focus()
        # The suggested name is selected: typing replaces it, an arrow key keeps it.
        self.entry.select_range = [0, len(self.name)]
        self.entry.edit_position = len(self.name)
        self.cancel_button = self.button(pygame.Rect(p.right - 340, p.bottom - 72, 150, 48),
                                         "Cancel", self.close)
        self.save_button = self.button(pygame.Rect(p.right - 178, p.bottom - 72, 150, 48),
                                       "Save", self.save, object_id="#primary")

    def target(self) -> Path:
        """The file the current name saves to."""
        return self.app.paths.saves_dir / f"{self.name.strip()}.toml"

    def save(self, overwrite: bool = False) -> None:
        """Check the name, confirm an overwrite, then save."""
        problem = check_save_name(self.name)
        if problem:
            self.error = problem
            self.app.sound.play("error")
            return
        path = self.target()
        if path.exists() and not overwrite:
            self.app.push(ConfirmOverlay(
                self.app, "Replace this save?",
                f"A save called '{self.name.strip()}' already exists. Replace it with this game?",
                lambda: self.save(overwrite=True), yes_label="Replace"))
            return
        kept = _keep_if_damaged(path)
        try:
            written = self.session.save(path)
        except SaveError as exc:
            self.error = str(exc)
            self.app.sound.play("error")
            return
        self.session.save_path = written
        self.close()
        self.app.toast(f"Saved as '{written.stem}'." + (
            f" The old, damaged save was kept as {kept.name} in the damaged folder."
            if kept else ""), 6 if kept else 3.5)
        if self.on_saved:
            self.on_saved(written)

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.entry:
            self.name = self.entry.get_text()
            self.error = ""
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.name = self.entry.get_text()
            self.save()
            return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        p = self.panel_rect
        surface.blit(style.text("Name of the save", 17, style.INK, bold=True),
                     (p.x + 28, self.content_top))
        if self.error:
            lines = style.wrap(self.error, 16, p.w - 56)[:3]
            blit_lines(surface, lines, (p.x + 28, self.content_top + 84), 16, style.BAD)
        else:
            folder = str(self.app.paths.saves_dir)
            hint = style.wrap(f"Saved in {folder}", 15, p.w - 56)[:2]
            blit_lines(surface, hint, (p.x + 28, self.content_top + 84), 15, style.INK_SOFT)


def _keep_if_damaged(path: Path) -> Path | None:
    """A copy of the damaged save at ``path`` (about to be replaced), or None."""
    if not path.is_file():
        return None
    _, damage = check_file(path)
    return keep_damaged_copy(path) if damage is not None and damage.is_damage else None


# The pause menu ----------------------------------------------------------------
class PauseOverlay(OverlayScene):
    """Esc during a game: resume, take back (when the board can), save, load, settings,
    rules, quit to menu."""

    panel_size = (440, 580)

    def __init__(self, app: App, session: GameSession, board_scene: Scene) -> None:
        super().__init__(app, "Paused")
        self.session = session
        self.board_scene = board_scene
        self.status = ""
        self.status_bad = False

    def build(self) -> None:
        p = self.panel_rect
        x, w = p.x + 40, p.w - 80
        y = self.content_top + 4
        rows = [("Resume", self.close, "#primary")]
        if getattr(self.board_scene, "can_take_back", lambda: False)():
            rows.append(("Take back the last move", self.take_back, None))
        rows += [("Save", self.save, None),
                ("Save as…", self.save_as, None), ("Load…", self.load, None),
                ("Settings", self.settings, None), ("Rules", self.rules, None),
                ("Quit to menu", self.quit_to_menu, None)]
        step = min(62, (p.bottom - 64 - y) // len(rows))
        self.buttons = {}
        for label, action, oid in rows:
            self.buttons[label] = self.button(pygame.Rect(x, y, w, step - 10), label, action,
                                              object_id=oid)
            y += step

    def take_back(self) -> None:
        """The board's take-back (Ctrl+Z), from the menu: back to the game at the position
        before the move."""
        self.close()
        self.board_scene.take_back()

    def save(self) -> None:
        """Save to the game's file, or ask for a name the first time."""
        path = self.session.save_path
        if path is None:
            self.save_as()
            return
        try:
            written = self.session.save(path)
        except SaveError as exc:
            self.set_status(str(exc), bad=True)
            self.app.sound.play("error")
            return
        self.set_status(f"Saved to '{Path(written).stem}'.")

    def save_as(self) -> None:
        """Ask for a name and save there."""
        self.app.push(SaveAsOverlay(self.app, self.session,
                                    on_saved=lambda p: self.set_status(f"Saved as '{p.stem}'.")))

    def open_save_as(self) -> None:
        """Ctrl+S on the board before the first save: ask for a name, then back to the game."""
        self.app.push(SaveAsOverlay(self.app, self.session, on_saved=lambda p: self.close()))

    def load(self) -> None:
        """Pick a save to load instead of this game."""
        self.app.push(LoadOverlay(self.app))

    def settings(self) -> None:
        """The settings screen over the game."""
        from ttr_desktop.ui.scenes.settings import SettingsScene
        self.app.push(SettingsScene(self.app))

    def rules(self) -> None:
        """The rules summary over the game, opened at the section of the family it plays."""
        from ttr_desktop.ui.scenes.rules import RulesScene
        self.app.push(RulesScene(self.app, self.session.game.variant))

    def quit_to_menu(self) -> None:
        """Confirm, then leave for the title screen (the game is autosaved)."""
        self.app.push(ConfirmOverlay(
            self.app, "Quit to the menu?",
            "Your game is kept: Continue on the title screen resumes it.",
            self._to_menu, yes_label="Quit to menu", no_label="Keep playing"))

    def _to_menu(self) -> None:
        if not self.session.game.is_over:
            leave_game(self.app, self.session)
        from ttr_desktop.ui.scenes.menu import MenuScene
        self.app.replace(MenuScene(self.app))

    def set_status(self, message: str, bad: bool = False) -> None:
        """A line under the buttons (saved / why saving failed)."""
        self.status = message
        self.status_bad = bad

    def draw_front(self, surface: pygame.Surface) -> None:
        p = self.panel_rect
        if self.status:
            color = style.BAD if self.status_bad else style.GOOD
            message = self.status
        else:
            color = style.INK_SOFT
            message = "Esc resumes. The game is also kept automatically after every turn."
        lines = style.wrap(message, 15, p.w - 48)[-3:]
        blit_lines(surface, lines, (p.x + 24, p.bottom - 20 - 21 * len(lines)), 15, color,
                   line_height=21)
