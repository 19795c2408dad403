"""Loading a game: the load overlay (recent games' autosaves, then named saves), and the
one way every screen opens a game (``open_board``) or loads one (``load_and_open``).

Loading goes through ``GameSession.load``; a SaveError is explained in player words,
never fatal. Loading over a game in progress asks first (that game stays autosaved).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from ttr_desktop.persistence.autosaves import adopt_legacy_autosave, new_autosave_path
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import OverlayScene, blit_lines
from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay
from ttr_desktop.ui.scenes.save_actions import ask_delete, ask_rename
from ttr_desktop.ui.scenes.save_info import (
    Problem,
    SaveSummary,
    explain_problem,
    list_autosaves,
    list_named_saves,
    when_words,
)
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SaveError

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App


# Opening a game ----------------------------------------------------------------------
def ensure_autosave_path(app: App, session: GameSession) -> None:
    """Give ``session`` its own autosave file when it has none yet (a session made
    elsewhere that wrote the old single ``autosave.toml`` takes that file along)."""
    if session.autosave_path is not None:
        return
    folder = app.paths.autosaves_dir
    session.autosave_path = adopt_legacy_autosave(app.paths.autosave_file, folder) or \
        new_autosave_path(folder, session.game.map.id)


def open_board(app: App, session: GameSession) -> None:
    """Show the board for ``session`` (imported late: the board scene is heavy), saying
    what of its save was damaged and replaced by defaults. Building the board takes a
    moment (the map's layout and city names): the window says so first, and the keys and
    clicks made meanwhile are dropped rather than acting on the board."""
    from ttr_desktop.ui.scenes.board import BoardScene
    if not session.game.is_over:
        ensure_autosave_path(app, session)
    app.show_busy("Setting up the board…")
    board = BoardScene(app, session)
    app.drop_pending_input()
    app.replace(board)
    for note in session.load_notes:      # what of its save was damaged and fell back
        app.toast(note, 10, "error")
    session.load_notes = []


def load_and_open(app: App, path: Path, autosave: bool = False) -> Problem | None:
    """Load the save at ``path`` and open the board; why it failed, in player words.

    A game loaded from an autosave goes on writing that autosave; one loaded from a
    named save gets an autosave of its own, and Save writes back to the named file."""
    try:
        session = GameSession.load(path, autosave_to=path if autosave else None)
    except SaveError as exc:
        return explain_problem(path, exc)
    if autosave:
        session.save_path = None
    open_board(app, session)
    return None


def running_session(app: App) -> GameSession | None:
    """The game in progress under the current screens, if any."""
    for scene in reversed(app.scenes):
        session = getattr(scene, "session", None)
        if isinstance(session, GameSession) and not session.game.is_over:
            return session
    return None


def leave_game(app: App, session: GameSession) -> None:
    """Write the autosave of a game about to be left, and wait until it is on disk."""
    ensure_autosave_path(app, session)
    session.autosave()
    session.wait_for_autosave()


def game_words(session: GameSession) -> str:
    """'USA game with Ann and Bot 2'."""
    label = VARIANT_CHOICES.get(session.variant_key, ("", {}, session.game.map.name))[2]
    names = [s.name for s in session.seats]
    who = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
    return f"{label} game with {who}"


# The overlay ---------------------------------------------------------------------------
@dataclass
class Row:
    """One line of the list: a section heading, an 'empty' note, or a save."""

    kind: str                 # "head", "note" or "save"
    text: str
    y: int                    # top, in list coordinates
    h: int
    index: int = -1           # into LoadOverlay.saves for a save row


class LoadOverlay(OverlayScene):
    """Pick a recent game or a save and load it; delete or rename one. Damaged files are
    listed (with the reason) but cannot load."""

    panel_size = (840, 640)
    ROW, HEAD, NOTE = 62, 36, 40

    def __init__(self, app: App) -> None:
        super().__init__(app, "Load a game")
        self.running = running_session(app)
        self.scroll = 0
        self.selected: int | None = None
        self.error = ""
        self.status = ""
        self._last_click = (-1, 0)
        self.refresh()
        self.selected = next((i for i, s in enumerate(self.saves)
                              if not s.damaged and not self.is_running_autosave(s)), None)

    # Contents ------------------------------------------------------------
    def refresh(self, keep: Path | None = None) -> None:
        """Read the folders again (after a delete or rename); select ``keep`` if given."""
        self.autosaves = list_autosaves(self.app.paths.autosaves_dir)
        self.named = list_named_saves(self.app.paths.saves_dir)
        self.saves: list[SaveSummary] = self.autosaves + self.named
        self.rows: list[Row] = []
        y = 0

        def add(kind: str, text: str, h: int, index: int = -1) -> None:
            nonlocal y
            self.rows.append(Row(kind, text, y, h, index))
            y += h

        add("head", "Recent games — kept automatically, the last 5", self.HEAD)
        if not self.autosaves:
            add("note", "None yet: every game you play is kept here as you go.", self.NOTE)
        for i in range(len(self.autosaves)):
            add("save", "", self.ROW, i)
        add("head", "Saved games", self.HEAD)
        if not self.named:
            add("note", "None yet: during a game, press Esc and choose Save.", self.NOTE)
        for i in range(len(self.named)):
            add("save", "", self.ROW, len(self.autosaves) + i)
        self.content_h = y
        if keep is not None:
            self.selected = next((i for i, s in enumerate(self.saves) if s.path == keep), None)
        elif self.selected is not None and self.selected >= len(self.saves):
            self.selected = len(self.saves) - 1 if self.saves else None
        if hasattr(self, "list_rect"):
            self.scroll = max(0, min(self.scroll, self.max_scroll))
            self.refresh_buttons()

    def is_running_autosave(self, save: SaveSummary) -> bool:
        """True for the autosave of the game being played under this overlay."""
        return self.running is not None and save.path == self.running.autosave_path

    # Layout --------------------------------------------------------------
    def build(self) -> None:
        p = self.panel_rect
        self.list_rect = pygame.Rect(p.x + 24, self.content_top, p.w - 48,
                                     p.bottom - 136 - self.content_top)
        by = p.bottom - 72
        self.delete_button = self.button(pygame.Rect(p.x + 24, by, 120, 48), "Delete",
                                         self.delete, tooltip="Delete the selected save (Del)")
        self.rename_button = self.button(pygame.Rect(p.x + 156, by, 140, 48), "Rename…",
                                         self.rename, tooltip="Rename the selected save (F2)")
        self.review_button = self.button(pygame.Rect(p.x + 308, by, 130, 48), "Review",
                                         self.review,
                                         tooltip="Each of your decisions next to what the "
                                                 "Hard bot would have done (R)")
        self.cancel_button = self.button(pygame.Rect(p.right - 340, by, 150, 48),
                                         "Cancel", self.close)
        self.load_button = self.button(pygame.Rect(p.right - 178, by, 150, 48),
                                       "Load", self.load, object_id="#primary")
        self.scroll = max(0, min(self.scroll, self.max_scroll))
        self.refresh_buttons()

    def refresh_buttons(self) -> None:
        """Load needs a readable save; the game in progress is not deleted or renamed."""
        chosen = self.chosen
        readable = chosen is not None and not chosen.damaged
        for button, ok in ((self.load_button, readable), (self.review_button, readable),
                           (self.delete_button, chosen is not None
                            and not self.is_running_autosave(chosen)),
                           (self.rename_button, chosen is not None
                            and not self.is_running_autosave(chosen))):
            if ok:
                button.enable()
            else:
                button.disable()

    @property
    def chosen(self) -> SaveSummary | None:
        """The selected save."""
        return self.saves[self.selected] if self.selected is not None else None

    @property
    def max_scroll(self) -> int:
        return max(0, self.content_h - self.list_rect.h)

    def row_rect(self, index: int) -> pygame.Rect:
        """Where save ``index`` is drawn now (it may be scrolled out of the list)."""
        row = next(r for r in self.rows if r.index == index)
        return pygame.Rect(self.list_rect.x, self.list_rect.y + row.y - self.scroll,
                           self.list_rect.w, row.h)

    def select(self, index: int) -> None:
        """Select save ``index`` and keep it in view."""
        if not self.saves:
            return
        index = max(0, min(len(self.saves) - 1, index))
        self.selected = index
        self.error = ""
        rect = self.row_rect(index)
        if rect.y < self.list_rect.y:
            self.scroll -= self.list_rect.y - rect.y
        elif rect.bottom > self.list_rect.bottom:
            self.scroll += rect.bottom - self.list_rect.bottom
        if index == len(self.autosaves) or index == 0:   # show the section heading too
            self.scroll = max(0, self.scroll - self.HEAD)
        self.scroll = max(0, min(self.scroll, self.max_scroll))
        self.refresh_buttons()

    # Actions -------------------------------------------------------------
    def load(self) -> None:
        """Load the selected save (asking first when a game is in progress)."""
        chosen = self.chosen
        if chosen is None:
            return
        if chosen.damaged:
            self.error = f"{_cap(self.name_of(chosen))} is damaged and cannot be loaded: " \
                f"{chosen.damaged}."
            self.app.sound.play("error")
            return
        if self.running is not None:
            self.app.push(ConfirmOverlay(
                self.app, "Leave this game?",
                f"Your {game_words(self.running)} is autosaved and can be continued from "
                f"Load. Load {self.name_of(chosen)} now?",
                lambda: self._load(chosen), yes_label="Leave and load",
                no_label="Keep playing"))
            return
        self._load(chosen)

    def _load(self, chosen: SaveSummary) -> None:
        if self.running is not None:
            leave_game(self.app, self.running)
        problem = load_and_open(self.app, chosen.path, autosave=chosen.autosave)
        if problem:
            self.error = f"{_cap(self.name_of(chosen))} cannot be loaded: {problem.words}."
            self.app.sound.play("error")

    def review(self) -> None:
        """Review the selected save's game (finished or not): each of a person's decisions
        next to what Hard would have done. The game in progress is not touched."""
        chosen = self.chosen
        if chosen is None or chosen.damaged:
            return
        from ttr_desktop.ui.scenes.review import ReviewScene
        try:
            scene = ReviewScene.for_save(self.app, chosen.path)
        except SaveError as exc:
            problem = explain_problem(chosen.path, exc)
            self.error = f"{_cap(self.name_of(chosen))} cannot be reviewed: {problem.words}."
            self.app.sound.play("error")
            return
        self.app.push(scene)

    def name_of(self, save: SaveSummary) -> str:
        """How a row is called in messages: "'Sunday'" or 'the recent game Europe · Ann…'."""
        if save.autosave:
            return f"the recent game {save.game_words} ({when_words(save.when)})"
        return f"'{save.title}'"

    def delete(self) -> None:
        """Ask, then delete the selected save."""
        chosen = self.chosen
        if chosen is not None and not self.is_running_autosave(chosen):
            ask_delete(self.app, chosen, self.after_delete)

    def after_delete(self, save: SaveSummary) -> None:
        if self.running is not None and self.running.save_path == save.path:
            self.running.save_path = None
        self.refresh()
        self.error = ""
        self.status = f"Deleted {self.name_of(save)}."

    def rename(self) -> None:
        """Ask for a new name (an autosave renamed becomes a named save)."""
        chosen = self.chosen
        if chosen is not None and not self.is_running_autosave(chosen):
            ask_rename(self.app, chosen, self.after_rename)

    def after_rename(self, save: SaveSummary, new_path: Path) -> None:
        if self.running is not None and self.running.save_path == save.path:
            self.running.save_path = new_path
        self.refresh(keep=new_path)
        self.error = ""
        self.status = f"Renamed to '{new_path.stem}'." if not save.autosave else \
            f"Kept as the saved game '{new_path.stem}'."

    # Events --------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(self.max_scroll, self.scroll - event.y * 40))
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.list_rect.collidepoint(event.pos):
            y = event.pos[1] - self.list_rect.y + self.scroll
            row = next((r for r in self.rows if r.y <= y < r.y + r.h), None)
            if row is not None and row.kind == "save":
                now = pygame.time.get_ticks()
                double = self._last_click[0] == row.index and now - self._last_click[1] < 400
                self._last_click = (row.index, now)
                self.select(row.index)
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
            if event.key == pygame.K_DELETE:
                self.delete()
                return True
            if event.key == pygame.K_F2:
                self.rename()
                return True
            if event.key == pygame.K_r:
                self.review()
                return True
        return super().on_event(event)

    # Drawing -------------------------------------------------------------
    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        r = self.list_rect
        pygame.draw.rect(surface, (255, 252, 244), r, border_radius=8)
        clip = surface.get_clip()
        surface.set_clip(r)
        mouse = pygame.mouse.get_pos()
        width = r.w - (12 if self.max_scroll else 0)      # room for the scroll bar
        for row in self.rows:
            rect = pygame.Rect(r.x, r.y + row.y - self.scroll, width, row.h)
            if rect.bottom < r.y or rect.y > r.bottom:
                continue
            if row.kind == "head":
                surface.blit(style.text(row.text, 16, style.ACCENT, bold=True),
                             (rect.x + 14, rect.y + 10))
                pygame.draw.line(surface, (232, 222, 200), (rect.x + 12, rect.bottom - 2),
                                 (rect.right - 12, rect.bottom - 2))
            elif row.kind == "note":
                surface.blit(style.text(row.text, 15, style.INK_SOFT), (rect.x + 22, rect.y + 10))
            else:
                self._draw_row(surface, self.saves[row.index], rect,
                               selected=row.index == self.selected, mouse=mouse)
        surface.set_clip(clip)
        pygame.draw.rect(surface, style.PANEL_EDGE, r, 1, border_radius=8)
        if self.max_scroll:
            track = pygame.Rect(r.right - 8, r.y + 4, 4, r.h - 8)
            frac = r.h / self.content_h
            thumb = pygame.Rect(track.x, track.y + int(track.h * self.scroll / self.content_h),
                                4, max(20, int(track.h * frac)))
            pygame.draw.rect(surface, style.PANEL_EDGE, thumb, border_radius=2)
        p = self.panel_rect
        chosen = self.chosen
        if self.error:
            lines, color = style.wrap(self.error, 15, p.w - 48)[:2], style.BAD
        elif self.status:
            lines, color = style.wrap(self.status, 15, p.w - 48)[:2], style.GOOD
        elif chosen is not None and self.is_running_autosave(chosen):
            lines = style.wrap("This is the game you are playing: it is kept as you go. To "
                               "keep it under a name, use Save as… in the pause menu.", 15,
                               p.w - 48)[:2]
            color = style.INK_SOFT
        else:
            lines = style.wrap(f"Saves folder: {self.app.paths.saves_dir}", 14, p.w - 48)[:2]
            color = style.INK_SOFT
        blit_lines(surface, lines, (p.x + 24, r.bottom + 10), 15, color, line_height=20)

    def _draw_row(self, surface: pygame.Surface, save: SaveSummary, rect: pygame.Rect,
                  selected: bool, mouse: tuple[int, int]) -> None:
        inner = rect.inflate(-8, -6)
        if selected:
            pygame.draw.rect(surface, (246, 224, 196), inner, border_radius=6)
            pygame.draw.rect(surface, style.ACCENT, inner, 2, border_radius=6)
        elif inner.collidepoint(mouse) and self.list_rect.collidepoint(mouse):
            pygame.draw.rect(surface, (247, 239, 222), inner, border_radius=6)
        x = inner.x + 14
        when = style.text(when_words(save.when).capitalize(), 15, style.INK_SOFT)
        surface.blit(when, (inner.right - 14 - when.get_width(), inner.y + 8))
        title_text = save.game_words if save.autosave else save.title
        title_w = inner.w - 28 - when.get_width() - 16
        title = style.text(_fit(title_text, 18, title_w, bold=True), 18,
                           style.INK_SOFT if save.damaged else style.INK, bold=True)
        surface.blit(title, (x, inner.y + 5))
        parts = [save.detail]
        if save.autosave and not save.damaged:
            if self.is_running_autosave(save):
                parts.append("the game in progress")
            elif save is self.autosaves[0]:
                parts.append("Continue resumes this one")
        detail = _fit(" · ".join(p for p in parts if p), 15, inner.w - 28)
        surface.blit(style.text(detail, 15, style.BAD if save.damaged else style.INK_SOFT),
                     (x, inner.y + 31))


def _cap(text: str) -> str:
    """``text`` with a capital first letter."""
    return text[:1].upper() + text[1:]


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with '…' to fit ``width`` pixels."""
    f = style.font(size, bold)
    if f.size(text)[0] <= width:
        return text
    while len(text) > 1 and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"
