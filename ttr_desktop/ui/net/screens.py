"""The screens around an online table: joining (the invite and a name), the lobby (who
is seated and who is missing, the host's invite to copy, Start) and the table's menu
during play (save, turn timer, leave).

Every screen here reads the table through a ``RemoteSession`` and looks at it on a short
interval while the link lives (``NET_POLL``), never waiting for the network.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu, UITextEntryLine

from ttr_desktop.ui import style
from ttr_desktop.ui.net.panel import NET_POLL, clock_words
from ttr_desktop.ui.scenes.common import GuiScene, OverlayScene, blit_lines

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.net.remote import RemoteSession

#: The turn timer's choices: label -> seconds (None: no timer).
TIMER_CHOICES = {"No turn timer": None, "30 s a turn": 30, "1 min a turn": 60,
                 "2 min a turn": 120, "5 min a turn": 300}


def copy_text(text: str) -> bool:
    """Put ``text`` on the clipboard (pygame-ce's clipboard, else pygame.scrap); False
    when neither works here (the text stays on screen to select)."""
    try:
        put = getattr(pygame.scrap, "put_text", None)
        if put is not None:
            put(text)
            return True
    except (pygame.error, AttributeError, NotImplementedError):
        pass
    try:
        if not pygame.scrap.get_init():
            pygame.scrap.init()
        pygame.scrap.put(pygame.SCRAP_TEXT, text.encode("utf-8"))
        return True
    except (pygame.error, AttributeError, NotImplementedError):
        return False


def paste_text() -> str:
    """The clipboard's text ("" when none can be read)."""
    try:
        get = getattr(pygame.scrap, "get_text", None)
        if get is not None:
            return get() or ""
    except (pygame.error, AttributeError, NotImplementedError):
        pass
    return ""


def invite_parts(invite: str) -> tuple[str, str]:
    """('192.168.1.5:8765', 'K7QX2-M4P9R') from 'ws://192.168.1.5:8765/join/K7QX2-M4P9R'
    (('', '') when it is not an invite)."""
    if "/join/" not in invite:
        return "", ""
    url, code = invite.rsplit("/join/", 1)
    return url.split("://", 1)[-1], code


def back_to_title(app: App) -> None:
    from ttr_desktop.ui.scenes.menu import MenuScene
    app.replace(MenuScene(app))


class JoinScene(GuiScene):
    """Join a game: paste the invite, say your name, Join."""

    def __init__(self, app: App, invite: str = "", name: str = "") -> None:
        super().__init__(app)
        self.invite = invite
        self.name = name
        self.error = ""

    def build(self) -> None:
        w, h = self.size
        self.box = pygame.Rect(0, 0, min(760, w - 80), 420)
        self.box.center = (w // 2, h // 2 + 20)
        x, bw = self.box.x + 32, self.box.w - 64
        self.invite_entry = UITextEntryLine(pygame.Rect(x, self.box.y + 104, bw - 130, 44),
                                            self.ui, initial_text=self.invite,
                                            placeholder_text="ws://192.168.1.5:8765/join/K7QX2-M4P9R")
        self.invite_entry.set_text_length_limit(300)
        self.paste_button = self.button(pygame.Rect(x + bw - 120, self.box.y + 104, 120, 44),
                                        "Paste", self.paste, tooltip="Paste the invite")
        self.name_entry = UITextEntryLine(pygame.Rect(x, self.box.y + 210, 320, 44), self.ui,
                                          initial_text=self.name,
                                          placeholder_text="Your name")
        self.name_entry.set_text_length_limit(24)
        by = self.box.bottom - 70
        self.back_button = self.button(pygame.Rect(x, by, 150, 48), "Back", self.back)
        self.join_button = self.button(pygame.Rect(self.box.right - 32 - 200, by, 200, 48),
                                       "Join", self.join, object_id="#primary")
        if not self.invite:
            self.invite_entry.focus()

    def paste(self) -> None:
        text = paste_text().strip()
        if text:
            self.invite = text
            self.invite_entry.set_text(text)
        else:
            self.error = "The clipboard has no text: type the invite or paste it with Ctrl+V."

    def back(self) -> None:
        back_to_title(self.app)

    def join(self) -> None:
        """Connect with the invite; the lobby shows the table (or why it cannot be
        reached)."""
        invite = self.invite.strip()
        if not invite:
            self.error = "Paste the invite your host gave you."
            self.app.sound.play("error")
            return
        from ttr_desktop.ui.net.links import open_link
        try:
            link = open_link(invite, name=self.name.strip())
        except ValueError as exc:
            self.error = str(exc)
            self.app.sound.play("error")
            return
        from ttr_desktop.ui.net.remote import RemoteSession
        session = RemoteSession(link, local_name=self.name.strip())
        self.app.replace(LobbyScene(self.app, session, invite=invite))

    def on_event(self, event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            if event.ui_element is self.invite_entry:
                self.invite = event.text
            elif event.ui_element is self.name_entry:
                self.name = event.text
            self.error = ""
            return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.join()
                return True
            if event.key == pygame.K_ESCAPE:
                self.back()
                return True
        return False

    def draw_back(self, surface) -> None:
        super().draw_back(surface)
        box = self.box
        surface.blit(style.text("Join a game", 40, style.INK, bold=True),
                     (box.x, box.y - 80))
        style.panel(surface, box, radius=12)
        x = box.x + 32
        surface.blit(style.text("Invite", 20, style.INK, bold=True), (x, box.y + 28))
        surface.blit(style.text("The address and code your host copied to you.", 16,
                                style.INK_SOFT), (x, box.y + 60))
        surface.blit(style.text("Your name", 20, style.INK, bold=True), (x, box.y + 170))
        surface.blit(style.text("Left a game? Join again with the same invite: your seat "
                                "is kept for you.", 15, style.INK_SOFT), (x, box.y + 316))
        if self.error:
            blit_lines(surface, style.wrap(self.error, 16, box.w - 64)[:2],
                       (x, box.y + 270), 16, style.BAD, line_height=20)


class LobbyScene(GuiScene):
    """The table before the game: who is seated, who is missing; the host's invite to
    copy and Start. Opens the board once the table sends the first position."""

    def __init__(self, app: App, session: RemoteSession, invite: str = "",
                 invites: list[str] | None = None, hosting=None) -> None:
        super().__init__(app)
        self.session = session
        self.invite = invite
        #: The host's invites, one per remote seat: (seat, text).
        self.invites: list[tuple[int, str]] = []
        self.hosting = hosting
        if invites:
            self.set_invites(invites)
        self.note = ""
        self.copied_at = -10.0
        self.clock = 0.0
        self.copy_buttons: list = []

    def set_invites(self, invites) -> None:
        self.invites = [(i, text) for i, text in enumerate(invites) if text]

    def set_invites_by_seat(self, invites: dict[int, str]) -> None:
        self.invites = [(seat, text) for seat, text in sorted(invites.items()) if text]

    # Layout -----------------------------------------------------------------------------
    def build(self) -> None:
        w, h = self.size
        self.box = pygame.Rect(0, 0, min(980, w - 80), min(500, h - 200))
        self.box.center = (w // 2, h // 2 + 20)
        x = self.box.x + 28
        by = self.box.bottom + 16
        self.leave_button = self.button(pygame.Rect(self.box.x, by, 170, 50), "Leave",
                                        self.leave)
        self.start_button = None
        if self.session.is_host:
            self.start_button = self.button(
                pygame.Rect(self.box.right - 220, by, 220, 50), "Start game", self.start,
                object_id="#primary",
                tooltip="Start now: a seat nobody took yet waits for its player")
        self.copy_buttons = []
        self.invite_entries = []
        col = pygame.Rect(self.box.centerx + 10, self.box.y + 60, self.box.w // 2 - 38, 0)
        y = col.y + 34
        for seat, text in self.invites:
            entry = UITextEntryLine(pygame.Rect(col.x, y + 24, col.w - 96, 38), self.ui,
                                    initial_text=text)
            self.invite_entries.append(entry)
            self.copy_buttons.append(self.button(
                pygame.Rect(col.right - 86, y + 24, 86, 38), "Copy",
                lambda t=text: self.copy(t), tooltip="Copy this invite"))
            y += 78
        self.col = col
        del x

    def rebuild_if_needed(self) -> None:
        want = self.session.is_host
        if want and self.start_button is None:
            self.rebuild()

    # Actions -------------------------------------------------------------------------------
    def copy(self, text: str) -> None:
        if copy_text(text):
            self.note = "Invite copied: send it to your friend."
        else:
            self.note = "Select the invite's text and copy it (the clipboard is not " \
                        "available here)."
        self.copied_at = self.clock

    def start(self) -> None:
        if self.session.start():
            self.note = "Starting…"

    def leave(self) -> None:
        self.session.close()
        if self.hosting is not None:
            self.hosting.stop()
        back_to_title(self.app)

    # Loop -----------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        self.clock += dt
        if self.hosting is not None and not self.session.link:
            self.hosting.step(self)
        if self.session.link is None:
            return
        self.session.poll()
        for text, _ in self.session.take_notices():
            self.note = text
        self.rebuild_if_needed()
        if self.session.ready and self.session.started:
            self.open_board()

    def open_board(self) -> None:
        from ttr_desktop.ui.scenes.board import BoardScene
        board = BoardScene(self.app, self.session)
        if self.hosting is not None:
            board.hosting = self.hosting
        self.app.replace(board)

    def next_wake(self) -> float | None:
        """While the host's table is being set, a look every NET_POLL; then the link's
        watcher wakes the window when the table says something."""
        own = super().next_wake()
        if self.hosting is not None and self.session.link is None and \
                not self.hosting.problem:
            return NET_POLL if own is None else min(own, NET_POLL)
        return own

    def on_event(self, event) -> bool:
        from ttr_desktop.ui.net.remote import wake_event_type
        if event.type == wake_event_type():
            return True          # the table said something: this frame reads it
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave()
            return True
        return False

    # Drawing -------------------------------------------------------------------------------
    def status_words(self) -> tuple[str, tuple]:
        s = self.session
        if self.hosting is not None and s.link is None:
            return self.hosting.words(), (style.BAD if self.hosting.problem else style.INK_SOFT)
        if s.status == "closed":
            return (s.problem or "The table cannot be reached."), style.BAD
        if s.status in ("connecting", "reconnecting"):
            return ("Connecting to the table…" if s.status == "connecting"
                    else "Reconnecting…"), style.INK_SOFT
        missing = [s.name_of(i) for i in s.missing()]
        if missing:
            return (f"Waiting for {', '.join(missing)}. " +
                    ("Start when you are ready." if s.is_host
                     else "The host starts the game.")), style.INK_SOFT
        return ("Everyone is here. " + ("Start the game!" if s.is_host
                                         else "The host starts the game.")), style.GOOD

    def draw_back(self, surface) -> None:
        super().draw_back(surface)
        box = self.box
        s = self.session
        title = "Your table" if s.is_host else "The table"
        surface.blit(style.text(title, 40, style.INK, bold=True), (box.x, box.y - 96))
        words, color = self.status_words()
        blit_lines(surface, style.wrap(words, 18, box.w)[:2], (box.x + 2, box.y - 44), 18,
                   color, line_height=22)
        style.panel(surface, box, radius=12)
        x = box.x + 28
        variant = s.game.map.name if s.game is not None else ""
        surface.blit(style.text("Seats" + (f" — {variant}" if variant else ""), 20,
                                style.INK, bold=True), (x, box.y + 20))
        y = box.y + 64
        rgb = [style.PLAYER_COLORS.get(seat.color, (90, 90, 90)) for seat in s.seats] or \
            [(90, 90, 90)]
        for i, seat in enumerate(s.lobby):
            name = str(seat.get("name") or f"Seat {i + 1}")
            kind = seat.get("kind")
            here = i == s.seat
            if kind == "bot":
                state, scol = "Bot · plays on the host", style.INK_SOFT
            elif seat.get("connected"):
                state, scol = ("You" if here else "Seated"), style.GOOD
            else:
                state, scol = "Missing — not joined yet", style.BAD
            pygame.draw.circle(surface, rgb[i % len(rgb)], (x + 12, y + 14), 10)
            surface.blit(style.text(name, 19, style.INK, bold=here), (x + 32, y + 2))
            surface.blit(style.text(state, 15, scol), (x + 32, y + 26))
            y += 56
        if not s.lobby:
            surface.blit(style.text("Waiting for the table…", 17, style.INK_SOFT), (x, y))
        if self.invites:
            col = self.col
            surface.blit(style.text("Invites", 20, style.INK, bold=True),
                         (col.x, box.y + 20))
            surface.blit(style.text("Copy each friend their own invite.", 15,
                                    style.INK_SOFT), (col.x, box.y + 52))
            y = col.y + 34
            for seat, text in self.invites:
                surface.blit(style.text(f"For {s.name_of(seat)}", 16, style.INK_SOFT),
                             (col.x, y))
                where, code = invite_parts(text)
                if where:
                    t = style.text(f"Address {where} · code {code}", 14, style.INK_SOFT)
                    surface.blit(t, t.get_rect(topright=(col.right, y + 1)))
                y += 78
            if self.hosting is not None:
                addr = self.hosting.address_words()
                blit_lines(surface, style.wrap(addr, 15, col.w)[:3], (col.x, y + 6), 15,
                           style.INK_SOFT, line_height=19)
        if self.note:
            t = style.text(self.note, 16, style.ACCENT)
            surface.blit(t, t.get_rect(midbottom=(box.centerx, box.bottom - 14)))


class TableMenu(OverlayScene):
    """Esc during an online game: back to the game, save the table, the turn timer,
    leave."""

    panel_size = (520, 380)

    def __init__(self, app: App, board) -> None:
        super().__init__(app, "Online table")
        self.board = board
        self.session = board.session

    def build(self) -> None:
        p = self.panel_rect
        x, w = p.x + 28, p.w - 56
        y = self.content_top + 6
        self.button(pygame.Rect(x, y, w, 46), "Back to the game", self.close,
                    object_id="#primary")
        y += 58
        host = self.session.is_host
        self.button(pygame.Rect(x, y, w, 46), "Save table", self.save, enabled=host,
                    tooltip="Keep the table to play it on later" if host else
                    "Only the host saves the table")
        y += 58
        self.timer_menu = UIDropDownMenu(list(TIMER_CHOICES), self._timer_label(),
                                         pygame.Rect(x, y, w, 44), self.ui)
        if not host:
            self.timer_menu.disable()
        y += 58
        self.button(pygame.Rect(x, y, w, 46), "Leave the table", self.leave,
                    tooltip="Your seat waits for you: join again with the same invite")

    def _timer_label(self) -> str:
        """The choice the table's timer is at (a time not offered: the nearest one)."""
        seconds = getattr(self.session, "timer_seconds", None)
        if not seconds:
            return next(iter(TIMER_CHOICES))
        timed = [(label, value) for label, value in TIMER_CHOICES.items() if value]
        return min(timed, key=lambda lv: abs(lv[1] - seconds))[0]

    def save(self) -> None:
        self.close()
        self.board.net.save_table()

    def leave(self) -> None:
        self.session.close()
        hosting = getattr(self.board, "hosting", None)
        if hosting is not None:
            hosting.stop()
        back_to_title(self.app)

    def on_event(self, event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and \
                event.ui_element is self.timer_menu:
            seconds = TIMER_CHOICES.get(event.text)
            self.session.timer_seconds = seconds
            self.session.host_command("timer", seconds=seconds or 0)
            self.app.toast("Turn timer: " + (f"{clock_words(seconds)} a turn." if seconds
                                             else "off."), 2.5)
            return True
        return super().on_event(event)
