"""Loading a saved game: the save list (read cheaply, damaged files included) and the
load overlay. Loading goes through ``GameSession.load``; a SaveError is shown, never fatal.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import OverlayScene, blit_lines
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SaveError

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App


def open_board(app: App, session: GameSession) -> None:
    """Show the board for ``session`` (imported late: the board scene is heavy)."""
    from ttr_desktop.ui.scenes.board import BoardScene
    app.replace(BoardScene(app, session))


def load_and_open(app: App, path: Path, named: bool = True) -> str | None:
    """Load the save at ``path`` and open the board; the SaveError message on failure."""
    try:
        session = GameSession.load(path)
    except SaveError as exc:
        return str(exc)
    # Where "Save" writes next time: the named file it came from (never the autosave).
    session.save_path = path if named else None
    open_board(app, session)
    return None



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


def list_saves(app: App) -> list[SaveSummary]:
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

    def __init__(self, app: App) -> None:
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
