"""Small dialogs over any scene: a question, a message, and a one-line text prompt.

Each panel grows with its text (up to what fits the window), so a long
explanation is never cut off at 1280×720.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.common import OverlayScene, blit_lines

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

TEXT_SIZE = 18
LINE = 26


class _TextPanel(OverlayScene):
    """An overlay whose panel height follows its wrapped message."""

    width = 600
    extra = 0          # room for more than the message (a text field...)

    def __init__(self, app: App, title: str, message: str) -> None:
        super().__init__(app, title)
        self.message = message
        self.lines: list[str] = []

    def resize(self, size: tuple[int, int]) -> None:
        width = min(self.width, size[0] - 40)
        self.lines = style.wrap(self.message, TEXT_SIZE, width - 56)
        height = 70 + LINE * len(self.lines) + self.extra + 100
        self.panel_size = (width, max(240, min(height, size[1] - 40)))
        super().resize(size)

    @property
    def visible_lines(self) -> list[str]:
        """The lines that fit above the buttons."""
        room = (self.panel_rect.bottom - 96 - self.extra - self.content_top) // LINE
        return self.lines[:max(1, room)]

    def buttons_row(self, labels: list[tuple[str, Callable[[], None], str | None]]) -> list:
        """Buttons right-aligned along the bottom of the panel, last one rightmost."""
        p = self.panel_rect
        x = p.right - 28
        made = []
        for label, action, oid in reversed(labels):
            bold = oid == "#primary"
            w = max(150, style.font(19 if bold else 17, bold).size(label)[0] + 44)
            x -= w
            made.append(self.button(pygame.Rect(x, p.bottom - 72, w, 48), label, action,
                                    object_id=oid))
            x -= 12
        return list(reversed(made))


class ConfirmOverlay(_TextPanel):
    """A question with Yes/Cancel (and an optional third answer); Enter answers yes, Esc
    cancels (nothing happens)."""

    def __init__(self, app: App, title: str, message: str, on_yes: Callable[[], None],
                 yes_label: str = "Yes", no_label: str = "Cancel",
                 on_no: Callable[[], None] | None = None) -> None:
        super().__init__(app, title, message)
        self.on_yes = on_yes
        self.on_no = on_no
        self.yes_label = yes_label
        self.no_label = no_label

    def build(self) -> None:
        self.no_button, self.yes_button = self.buttons_row(
            [(self.no_label, self.no, None), (self.yes_label, self.yes, "#primary")])

    def yes(self) -> None:
        """Close, then do what was asked."""
        self.close()
        self.on_yes()

    def no(self) -> None:
        """Close, then run the 'no' answer when there is one."""
        self.close()
        if self.on_no is not None:
            self.on_no()

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.yes()
            return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        blit_lines(surface, self.visible_lines, (self.panel_rect.x + 28, self.content_top),
                   TEXT_SIZE, style.INK_SOFT, line_height=LINE)


class MessageOverlay(_TextPanel):
    """A message with one OK button (errors the player should read)."""

    width = 680

    def __init__(self, app: App, title: str, message: str, ok_label: str = "OK",
                 error: bool = False) -> None:
        super().__init__(app, title, message)
        self.ok_label = ok_label
        self.error = error

    def build(self) -> None:
        (self.ok_button,) = self.buttons_row([(self.ok_label, self.close, "#primary")])

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.close()
            return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        # An error's first paragraph (what went wrong) in red, the rest (what now) in ink.
        red = self.lines.index("") if self.error and "" in self.lines else \
            (len(self.lines) if self.error else 0)
        y = self.content_top
        for i, line in enumerate(self.visible_lines):
            color = style.BAD if i < red else style.INK
            surface.blit(style.text(line, TEXT_SIZE, color), (self.panel_rect.x + 28, y))
            y += LINE


class TextPromptOverlay(_TextPanel):
    """A message, a text field and OK/Cancel; ``on_ok(text)`` returns why the text is
    refused (shown under the field, the prompt stays open) or None to close."""

    extra = 104

    def __init__(self, app: App, title: str, message: str, initial: str,
                 on_ok: Callable[[str], str | None], ok_label: str = "OK",
                 max_chars: int = 120) -> None:
        super().__init__(app, title, message)
        self.text = initial
        self.on_ok = on_ok
        self.ok_label = ok_label
        self.max_chars = max_chars
        self.error = ""

    def build(self) -> None:
        p = self.panel_rect
        y = self.content_top + LINE * len(self.visible_lines) + 8
        self.entry = UITextEntryLine(pygame.Rect(p.x + 28, y, p.w - 56, 44), self.ui,
                                     initial_text=self.text)
        self.entry.set_text_length_limit(self.max_chars)
        self.entry.focus()
        self.entry.select_range = [0, len(self.text)]
        self.entry.edit_position = len(self.text)
        self.cancel_button, self.ok_button = self.buttons_row(
            [("Cancel", self.close, None), (self.ok_label, self.ok, "#primary")])

    def ok(self) -> None:
        """Offer the text; close unless it is refused."""
        problem = self.on_ok(self.text)
        if problem:
            self.error = problem
            self.app.sound.play("error")
        else:
            self.close()

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.entry:
            self.text = self.entry.get_text()
            self.error = ""
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.text = self.entry.get_text()
            self.ok()
            return True
        return super().on_event(event)

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        p = self.panel_rect
        blit_lines(surface, self.visible_lines, (p.x + 28, self.content_top), TEXT_SIZE,
                   style.INK_SOFT, line_height=LINE)
        if self.error:
            lines = style.wrap(self.error, 16, p.w - 56)[:2]
            blit_lines(surface, lines, (p.x + 28, self.entry.rect.bottom + 8), 16, style.BAD,
                       line_height=21)


# Save names --------------------------------------------------------------------
MAX_NAME = 60
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
             *(f"lpt{i}" for i in range(1, 10))}
_BAD_CHARS = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


def check_save_name(name: str) -> str | None:
    """Why ``name`` cannot name a save file, or None when it is fine."""
    name = name.strip()
    if not name:
        return "Please type a name for the save."
    if len(name) > MAX_NAME:
        return f"That name is too long ({MAX_NAME} characters at most)."
    if _BAD_CHARS.search(name):
        return 'A save name cannot contain / \\ : * ? " < > |.'
    if name.startswith(".") or name.endswith("."):
        return "A save name cannot start or end with a dot."
    if name.split(".")[0].lower() in _RESERVED or name.lower() == "autosave":
        return f"'{name}' is reserved; please choose another name."
    return None


__all__ = ["ConfirmOverlay", "MessageOverlay", "TextPromptOverlay", "check_save_name"]
