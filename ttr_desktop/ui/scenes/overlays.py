"""Overlays drawn over the scene below: confirm, message, pause, save as, load.

All saving goes through ``session.save(path)`` (SaveError is shown, never fatal);
all loading through ``GameSession.load`` (the same).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import OverlayScene, blit_lines
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SaveError

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.scene import Scene


def open_board(app: "App", session: GameSession) -> None:
    """Show the board for ``session`` (imported late: the board scene is heavy)."""
    from ttr_desktop.ui.scenes.board import BoardScene
    app.replace(BoardScene(app, session))


def load_and_open(app: "App", path: Path, named: bool = True) -> str | None:
    """Load the save at ``path`` and open the board; the SaveError message on failure."""
    try:
        session = GameSession.load(path)
    except SaveError as exc:
        return str(exc)
    # Where "Save" writes next time: the named file it came from (never the autosave).
    session.save_path = path if named else None  # type: ignore[attr-defined]
    open_board(app, session)
    return None


# Simple dialogs ----------------------------------------------------------------
class ConfirmOverlay(OverlayScene):
    """A question with Yes/Cancel; Enter answers yes, Esc cancels."""

    panel_size = (560, 260)

    def __init__(self, app: "App", title: str, message: str, on_yes: Callable[[], None],
                 yes_label: str = "Yes", no_label: str = "Cancel") -> None:
        super().__init__(app, title)
        self.message = message
        self.on_yes = on_yes
        self.yes_label = yes_label
        self.no_label = no_label

    def build(self) -> None:
        p = self.panel_rect
        self.lines = style.wrap(self.message, 18, p.w - 56)
        yes_w = max(150, style.font(19, True).size(self.yes_label)[0] + 44)
        no_w = max(150, style.font(17).size(self.no_label)[0] + 44)
        yes = pygame.Rect(p.right - 28 - yes_w, p.bottom - 72, yes_w, 48)
        self.no_button = self.button(pygame.Rect(yes.x - 12 - no_w, yes.y, no_w, 48),
                                     self.no_label, self.close)
        self.yes_button = self.button(yes, self.yes_label, self.yes, object_id="#primary")

    def yes(self) -> None:
        """Close, then do what was asked."""
        self.close()
        self.on_yes()

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.yes()
            return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        blit_lines(surface, self.lines, (self.panel_rect.x + 28, self.content_top), 18,
                   style.INK_SOFT)


class MessageOverlay(OverlayScene):
    """A message with one OK button (errors the player should read)."""

    panel_size = (620, 300)

    def __init__(self, app: "App", title: str, message: str, ok_label: str = "OK",
                 error: bool = False) -> None:
        super().__init__(app, title)
        self.message = message
        self.ok_label = ok_label
        self.error = error

    def build(self) -> None:
        p = self.panel_rect
        self.lines = style.wrap(self.message, 17, p.w - 56)
        self.ok_button = self.button(pygame.Rect(p.right - 178, p.bottom - 72, 150, 48),
                                     self.ok_label, self.close, object_id="#primary")

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.close()
            return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        color = style.BAD if self.error else style.INK_SOFT
        blit_lines(surface, self.lines[:7], (self.panel_rect.x + 28, self.content_top), 17, color)


# Save names --------------------------------------------------------------------
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
             *(f"lpt{i}" for i in range(1, 10))}
_BAD_CHARS = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def check_save_name(name: str) -> str | None:
    """Why ``name`` cannot name a save file, or None when it is fine."""
    name = name.strip()
    if not name:
        return "Please type a name for the save."
    if len(name) > 60:
        return "That name is too long (60 characters at most)."
    if _BAD_CHARS.search(name):
        return 'A save name cannot contain / \\ : * ? " < > |.'
    if name.startswith(".") or name.endswith("."):
        return "A save name cannot start or end with a dot."
    if name.split(".")[0].lower() in _RESERVED or name.lower() == "autosave":
        return f"'{name}' is reserved; please choose another name."
    return None


def default_save_name(session: GameSession) -> str:
    """A name like 'USA 2024-05-01 14.32'."""
    label = VARIANT_CHOICES.get(session.variant_key, ("", {}, session.variant_key))[2]
    return f"{label} {datetime.now():%Y-%m-%d %H.%M}"


class SaveAsOverlay(OverlayScene):
    """Ask for a name and save into the saves folder (confirming an overwrite)."""

    panel_size = (600, 310)

    def __init__(self, app: "App", session: GameSession,
                 on_saved: Callable[[Path], None] | None = None) -> None:
        super().__init__(app, "Save game as")
        self.session = session
        self.on_saved = on_saved
        current = getattr(session, "save_path", None)
        self.name = Path(current).stem if current else default_save_name(session)
        self.error = ""

    def build(self) -> None:
        p = self.panel_rect
        self.entry = UITextEntryLine(pygame.Rect(p.x + 28, self.content_top + 30, p.w - 56, 44),
                                     self.ui, initial_text=self.name)
        self.entry.set_text_length_limit(60)
        self.entry.focus()
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
        try:
            written = self.session.save(path)
        except SaveError as exc:
            self.error = str(exc)
            self.app.sound.play("error")
            return
        self.session.save_path = written  # type: ignore[attr-defined]
        self.close()
        self.app.toast(f"Saved as '{written.stem}'.")
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


# The pause menu ----------------------------------------------------------------
class PauseOverlay(OverlayScene):
    """Esc during a game: resume, save, load, settings, rules, quit to menu."""

    panel_size = (440, 580)

    def __init__(self, app: "App", session: GameSession, board_scene: "Scene") -> None:
        super().__init__(app, "Paused")
        self.session = session
        self.board_scene = board_scene
        self.status = ""
        self.status_bad = False

    def build(self) -> None:
        p = self.panel_rect
        x, w = p.x + 40, p.w - 80
        y = self.content_top + 4
        rows = [("Resume", self.close, "#primary"), ("Save", self.save, None),
                ("Save as…", self.save_as, None), ("Load…", self.load, None),
                ("Settings", self.settings, None), ("Rules", self.rules, None),
                ("Quit to menu", self.quit_to_menu, None)]
        step = min(62, (p.bottom - 64 - y) // len(rows))
        self.buttons = {}
        for label, action, oid in rows:
            self.buttons[label] = self.button(pygame.Rect(x, y, w, step - 10), label, action,
                                              object_id=oid)
            y += step

    def save(self) -> None:
        """Save to the game's file, or ask for a name the first time."""
        path = getattr(self.session, "save_path", None)
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

    def load(self) -> None:
        """Pick a save to load instead of this game."""
        self.app.push(LoadOverlay(self.app))

    def settings(self) -> None:
        """The settings screen over the game."""
        from ttr_desktop.ui.scenes.settings import SettingsScene
        self.app.push(SettingsScene(self.app))

    def rules(self) -> None:
        """The rules summary over the game."""
        from ttr_desktop.ui.scenes.rules import RulesScene
        self.app.push(RulesScene(self.app))

    def quit_to_menu(self) -> None:
        """Confirm, then leave for the title screen (the game is autosaved)."""
        self.app.push(ConfirmOverlay(
            self.app, "Quit to the menu?",
            "Your game is kept: Continue on the title screen resumes it.",
            self._to_menu, yes_label="Quit to menu", no_label="Keep playing"))

    def _to_menu(self) -> None:
        if not self.session.game.is_over:
            thread = self.session.autosave(self.app.paths.autosave_file)
            thread.join(timeout=5)
        from ttr_desktop.ui.scenes.menu import MenuScene
        self.app.replace(MenuScene(self.app))

    def set_status(self, message: str, bad: bool = False) -> None:
        """A line under the buttons (saved / why saving failed)."""
        self.status = message
        self.status_bad = bad

    def draw_front(self, surface: pygame.Surface) -> None:
        if self.status:
            p = self.panel_rect
            color = style.BAD if self.status_bad else style.GOOD
            lines = style.wrap(self.status, 15, p.w - 48)[-3:]
            blit_lines(surface, lines, (p.x + 24, p.bottom - 20 - 21 * len(lines)), 15, color,
                       line_height=21)


# Loading -----------------------------------------------------------------------
@dataclass
class SaveSummary:
    """What the load list shows about one file, read without replaying the game."""

    path: Path
    title: str
    when: datetime | None
    variant: str = ""
    players: list[str] | None = None
    damaged: str = ""          # why it cannot be loaded ("" when it looks fine)
    autosave: bool = False

    @property
    def detail(self) -> str:
        """'USA · Ann, Bot 2' or the reason it is damaged."""
        if self.damaged:
            return f"Damaged: {self.damaged}"
        return f"{self.variant} · {', '.join(self.players or [])}"


def _variant_label(data: dict[str, Any]) -> str:
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    key = meta.get("variant_key")
    if key in VARIANT_CHOICES:
        return VARIANT_CHOICES[key][2]
    variant = str(data.get("variant", "?"))
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    for v, opts, label in VARIANT_CHOICES.values():
        if v == variant and opts == options:
            return label
    return variant.replace("-", " ").title()


def read_summary(path: Path, autosave: bool = False) -> SaveSummary:
    """Name, time, variant and players of a save (a broken file is 'damaged', never an error)."""
    title = "Autosave" if autosave else path.stem
    try:
        mtime = datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        mtime = None
    try:
        if path.stat().st_size > 20_000_000:
            raise ValueError("the file is far too large")
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players) \
                or not isinstance(data.get("variant"), str) or "state" not in data:
            raise ValueError("it is not a ttr-desktop save")
        when = mtime
        saved_at = data.get("saved_at")
        if isinstance(saved_at, str):
            try:
                when = datetime.fromisoformat(saved_at).astimezone().replace(tzinfo=None)
            except ValueError:
                pass
        return SaveSummary(path, title, when, _variant_label(data), players, autosave=autosave)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as exc:
        reason = "not readable" if isinstance(exc, OSError) else \
            "not a text save" if isinstance(exc, UnicodeDecodeError) else \
            "cut short or edited" if isinstance(exc, tomllib.TOMLDecodeError) else str(exc)
        return SaveSummary(path, title, mtime, damaged=reason, autosave=autosave)


def list_saves(app: "App") -> list[SaveSummary]:
    """The autosave and every save in the saves folder, newest first."""
    found: list[SaveSummary] = []
    if app.paths.autosave_file.is_file():
        found.append(read_summary(app.paths.autosave_file, autosave=True))
    try:
        files = sorted(p for p in app.paths.saves_dir.glob("*.toml")
                       if p.is_file() and not p.name.startswith("."))
    except OSError:
        files = []
    found.extend(read_summary(p) for p in files)
    found.sort(key=lambda s: s.when or datetime.min, reverse=True)
    return found


class LoadOverlay(OverlayScene):
    """Pick a save (newest first) and load it; damaged files are listed but cannot load."""

    panel_size = (780, 600)
    ROW = 62

    def __init__(self, app: "App") -> None:
        super().__init__(app, "Load a game")
        self.saves = list_saves(app)
        self.selected = next((i for i, s in enumerate(self.saves) if not s.damaged), None)
        self.scroll = 0
        self.error = ""
        self._last_click = (-1, 0)

    def build(self) -> None:
        p = self.panel_rect
        self.list_rect = pygame.Rect(p.x + 24, self.content_top, p.w - 48,
                                     p.bottom - 150 - self.content_top)
        self.cancel_button = self.button(pygame.Rect(p.right - 340, p.bottom - 72, 150, 48),
                                         "Cancel", self.close)
        self.load_button = self.button(pygame.Rect(p.right - 178, p.bottom - 72, 150, 48),
                                       "Load", self.load, object_id="#primary")
        self.refresh_buttons()

    def refresh_buttons(self) -> None:
        """Load only works on a readable save."""
        if self.selected is not None and not self.saves[self.selected].damaged:
            self.load_button.enable()
        else:
            self.load_button.disable()

    @property
    def visible_rows(self) -> int:
        return max(1, self.list_rect.h // self.ROW)

    def select(self, index: int) -> None:
        """Select row ``index`` and keep it in view."""
        if not self.saves:
            return
        index = max(0, min(len(self.saves) - 1, index))
        self.selected = index
        self.error = ""
        if index < self.scroll:
            self.scroll = index
        elif index >= self.scroll + self.visible_rows:
            self.scroll = index - self.visible_rows + 1
        self.refresh_buttons()

    def load(self) -> None:
        """Load the selected save; its error stays in the overlay."""
        if self.selected is None:
            return
        chosen = self.saves[self.selected]
        if chosen.damaged:
            self.error = f"'{chosen.title}' is damaged ({chosen.damaged}); it cannot be loaded."
            return
        problem = load_and_open(self.app, chosen.path, named=not chosen.autosave)
        if problem:
            self.error = problem
            self.app.sound.play("error")

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            limit = max(0, len(self.saves) - self.visible_rows)
            self.scroll = max(0, min(limit, self.scroll - event.y))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.list_rect.collidepoint(event.pos):
            index = self.scroll + (event.pos[1] - self.list_rect.y) // self.ROW
            if index < len(self.saves):
                now = pygame.time.get_ticks()
                double = self._last_click[0] == index and now - self._last_click[1] < 400
                self._last_click = (index, now)
                self.select(index)
                if double:
                    self.load()
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_DOWN:
                self.select((self.selected if self.selected is not None else -1) + 1)
                return True
            if event.key == pygame.K_UP:
                self.select((self.selected or 0) - 1)
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.load()
                return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        r = self.list_rect
        pygame.draw.rect(surface, (255, 252, 244), r, border_radius=8)
        if not self.saves:
            msg = ["No saved games yet.", "During a game, press Esc and choose Save."]
            blit_lines(surface, msg, (0, r.y + r.h // 2 - 30), 18, style.INK_SOFT,
                       center_x=r.centerx)
        clip = surface.get_clip()
        surface.set_clip(r)
        mouse = pygame.mouse.get_pos()
        for row in range(self.visible_rows + 1):
            i = self.scroll + row
            if i >= len(self.saves):
                break
            self._draw_row(surface, self.saves[i], pygame.Rect(r.x, r.y + row * self.ROW, r.w,
                                                                self.ROW),
                           selected=i == self.selected, mouse=mouse)
        surface.set_clip(clip)
        pygame.draw.rect(surface, style.PANEL_EDGE, r, 1, border_radius=8)
        if len(self.saves) > self.visible_rows:
            track = pygame.Rect(r.right - 8, r.y + 4, 4, r.h - 8)
            frac = self.visible_rows / len(self.saves)
            thumb = pygame.Rect(track.x, track.y + int(track.h * self.scroll / len(self.saves)),
                                4, max(20, int(track.h * frac)))
            pygame.draw.rect(surface, style.PANEL_EDGE, thumb, border_radius=2)
        p = self.panel_rect
        if self.error:
            lines = style.wrap(self.error, 15, p.w - 48)[:3]
            blit_lines(surface, lines, (p.x + 24, r.bottom + 10), 15, style.BAD, line_height=20)
        else:
            hint = style.wrap(f"Saves folder: {self.app.paths.saves_dir}", 14, p.w - 48)[:2]
            blit_lines(surface, hint, (p.x + 24, r.bottom + 12), 14, style.INK_SOFT,
                       line_height=19)

    def _draw_row(self, surface: pygame.Surface, save: SaveSummary, rect: pygame.Rect,
                  selected: bool, mouse: tuple[int, int]) -> None:
        inner = rect.inflate(-8, -6)
        if selected:
            pygame.draw.rect(surface, (246, 224, 196), inner, border_radius=6)
            pygame.draw.rect(surface, style.ACCENT, inner, 2, border_radius=6)
        elif inner.collidepoint(mouse):
            pygame.draw.rect(surface, (247, 239, 222), inner, border_radius=6)
        x = inner.x + 14
        name_color = style.INK_SOFT if save.damaged else style.INK
        title = style.text(save.title, 18, name_color, bold=True)
        surface.blit(title, (x, inner.y + 5))
        if save.autosave:
            tag = style.text("resumes with Continue", 13, style.INK_SOFT)
            surface.blit(tag, (x + title.get_width() + 10, inner.y + 10))
        when = f"{save.when:%d %b %Y, %H:%M}" if save.when else ""
        t = style.text(when, 15, style.INK_SOFT)
        surface.blit(t, (inner.right - 14 - t.get_width(), inner.y + 8))
        detail = save.detail
        max_w = inner.w - 28
        f = style.font(15)
        while f.size(detail)[0] > max_w and len(detail) > 4:
            detail = detail[:-5] + "…"
        surface.blit(style.text(detail, 15, style.BAD if save.damaged else style.INK_SOFT),
                     (x, inner.y + 31))
