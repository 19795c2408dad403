"""Host a game: the setup screen of a local game, where each seat is played at this
computer (the host), by a friend over the network, or by a bot on the host; and who may
join (this computer only, or the local network — asked first) and the turn timer.

Host opens the table (``links.Hosting``) and shows the lobby with an invite per friend.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu

from ttr_desktop.ui import style
from ttr_desktop.ui.net.links import (
    LAN, LOOPBACK, Hosting, hosted_others, hosted_seat, saved_tables, tables_dir,
)
from ttr_desktop.ui.net.screens import TIMER_CHOICES, LobbyScene
from ttr_desktop.ui.scenes.common import OverlayScene, blit_lines, paper_background
from ttr_desktop.ui.scenes.setup import HUMAN, SEED_FIXED, SetupScene
from ttr_desktop.ui.session import BOT_LEVELS, SEAT_OPTIONS, VARIANT_CHOICES, SeatConfig

HERE = "At this computer"
REMOTE = "Friend, online"
NET_KIND_LABELS = [HERE, REMOTE] + [f"Bot · {label}" for label in BOT_LEVELS.values()]
#: Who may join: label -> the address the table listens on.
LISTEN_CHOICES = {"This computer only": LOOPBACK, "My local network": LAN}


def net_kind_label(seat: SeatConfig) -> str:
    if seat.kind == "remote":
        return REMOTE
    if seat.is_bot:
        return f"Bot · {BOT_LEVELS.get(seat.level, seat.level)}"
    return HERE


class HostSetupScene(SetupScene):
    """The setup screen for a table played over the network."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.listen_label = next(iter(LISTEN_CHOICES))
        self.timer_label = next(iter(TIMER_CHOICES))
        # The first person at this computer (the host), the others friends unless they
        # are bots (more people at this computer: choose "At this computer" for them).
        here = False
        for seat in self.seats:
            if not seat.is_bot:
                if here:
                    seat.kind = "remote"
                here = True

    def build(self) -> None:
        super().build()
        # Each seat: at this computer, a friend online, or a bot.
        menus = []
        for seat, menu in zip(self.seats, self.kind_menus):
            rect = menu.relative_rect.copy()
            menu.kill()
            menus.append(UIDropDownMenu(NET_KIND_LABELS, net_kind_label(seat),
                                        rect,
                                        self.ui))
        self.kind_menus = menus
        # The seed's place: who may join, and the turn timer (the table keeps its seed).
        self.seed_menu.hide()
        self.seed_entry.hide()
        lx, lw = self.left.x + 24, self.left.w - 48
        self.listen_menu = UIDropDownMenu(list(LISTEN_CHOICES), self.listen_label,
                                          pygame.Rect(lx, self.seed_y + 44, lw, 42), self.ui)
        self.timer_menu = UIDropDownMenu(list(TIMER_CHOICES), self.timer_label,
                                         pygame.Rect(lx, self.seed_y + 130, lw, 42), self.ui)
        self.start_button.set_text("Host table")
        reset = self.reset_button.rect
        self.load_button = self.button(
            pygame.Rect(reset.right + 16, reset.y, 200, reset.h), "Load a table",
            self.load_table, enabled=bool(saved_tables(self.app.paths)),
            tooltip="Play on a table you saved (Esc → Save table during the game)")

    # Seats --------------------------------------------------------------------------------
    def add_seat(self, kind: str) -> None:
        # A person added is a friend online once someone plays at this computer (several
        # people may play here: choose "At this computer" for them).
        before = len(self.seats)
        super().add_seat(kind)
        if len(self.seats) == before:
            return
        seat = self.seats[-1]
        if kind == "human" and any(s.kind == "human" for s in self.seats[:-1]):
            seat.kind = "remote"
            self.rebuild()

    def set_kind(self, index: int, label: str) -> None:
        seat = self.seats[index]
        if label in (HERE, REMOTE):
            super().set_kind(index, HUMAN)
            seat.kind = "human" if label == HERE else "remote"
            # Several people at this computer take turns at the window (hot-seat).
            return
        super().set_kind(index, label)

    def problems(self) -> str:
        problem = super().problems()
        if problem:
            return problem
        if not any(s.kind == "human" for s in self.seats):
            return "Choose the seat you play: a seat 'At this computer'."
        return ""

    # Hosting ------------------------------------------------------------------------------
    def start(self) -> None:
        """Check the choices; asked first when the table would listen on the network."""
        self.error = self.problems()
        if self.error:
            self.app.sound.play("error")
            return
        if LISTEN_CHOICES[self.listen_label] != LOOPBACK:
            from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay
            self.app.push(ConfirmOverlay(
                self.app, "Open the table to your network?",
                "Other computers on your network will be able to reach this table (it "
                "listens on every network address of this computer, not only 127.0.0.1). "
                "Only people with an invite can take a seat. Your system may ask to allow "
                "the connection.", self.host, yes_label="Open to my network",
                no_label="Cancel"))
            return
        self.host()

    def create_message(self) -> dict:
        """The ``create`` message for this setup."""
        from ttr_desktop.net.protocol import APP, PROTOCOL_VERSION
        variant, options, _ = VARIANT_CHOICES[self.variant_key]
        options = dict(options)
        seats = [SeatConfig(s.name.strip(), "human" if s.kind == "remote" else s.kind,
                            s.level, s.color) for s in self.seats]
        if variant in SEAT_OPTIONS:
            options.update(SEAT_OPTIONS[variant](seats))
        if self.first_player is not None:
            options["first_player"] = self.first_player
        else:
            options["first_player"] = "random"
        msg = {"type": "create", "protocol": PROTOCOL_VERSION, "app": APP,
               "variant": variant, "options": options, "autostart": False,
               "seats": [{"kind": "bot", "name": s.name.strip(), "level": s.level,
                          "color": s.color}
                         if s.is_bot else {"kind": "remote", "name": s.name.strip(),
                                           "color": s.color}
                         for s in self.seats],
               "turn_timer": TIMER_CHOICES[self.timer_label]}
        if self.seed_mode == SEED_FIXED and self.seed_text.strip().isdigit():
            msg["seed"] = int(self.seed_text.strip())
        return msg

    def host(self) -> None:
        """Open the table and show the lobby (the server starts on its own thread)."""
        from ttr_desktop.ui.net.remote import RemoteSession
        here = [i for i, s in enumerate(self.seats) if s.kind == "human"]
        names = [self.seats[i].name.strip() for i in here]
        name = names[0]
        try:
            create = self.create_message()
        except ValueError as exc:
            self.error = f"This table cannot be set: {exc}"
            self.app.sound.play("error")
            return
        self.remember([SeatConfig(s.name.strip(), "human" if s.kind == "remote" else s.kind,
                                  s.level, s.color) for s in self.seats])
        hosting = Hosting(tables_dir(self.app.paths), create, here, names,
                          listen=LISTEN_CHOICES[self.listen_label])
        session = RemoteSession(None, local_name=name)
        session.timer_seconds = TIMER_CHOICES[self.timer_label]
        self.app.replace(LobbyScene(self.app, session, hosting=hosting))

    def load_table(self) -> None:
        """Pick a saved table to host again."""
        self.app.push(LoadTableOverlay(self.app, self))

    def host_saved(self, path) -> None:
        """Host the saved table ``path`` (its friends' old invites still work)."""
        from ttr_desktop.net.protocol import APP, PROTOCOL_VERSION
        from ttr_desktop.ui.net.remote import RemoteSession
        seat, name = hosted_seat(self.app.paths, path.name) or (0, "")
        load = {"type": "load", "protocol": PROTOCOL_VERSION, "app": APP, "file": path.name,
                "autostart": False}
        others = hosted_others(self.app.paths, path.name)   # more people here (hot-seat)
        hosting = Hosting(tables_dir(self.app.paths), load, [seat] + [s for s, _ in others],
                          [name] + [n for _, n in others],
                          listen=LISTEN_CHOICES[self.listen_label])
        session = RemoteSession(None, local_name=name)
        self.app.replace(LobbyScene(self.app, session, hosting=hosting))

    # Events and drawing -------------------------------------------------------------------
    def on_event(self, event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.listen_menu:
                self.listen_label = event.text
                return True
            if event.ui_element is self.timer_menu:
                self.timer_label = event.text
                return True
        return super().on_event(event)

    def draw_back(self, surface) -> None:
        super().draw_back(surface)
        # The title and the seed's part of the left panel say what hosting asks.
        x0 = self.left.x
        head = pygame.Rect(x0 - 4, self.left.y - 100, self.right.right - x0 + 8, 96)
        surface.blit(paper_background(self.size), head, area=head)
        surface.blit(style.text("Host a game", 40, style.INK, bold=True), (x0, self.left.y - 96))
        surface.blit(style.text("Choose the map and who plays each seat: you at this "
                                "computer, friends online, or bots on your table.", 18,
                                style.INK_SOFT), (x0 + 2, self.left.y - 42))
        lx = self.left.x + 24
        part = pygame.Rect(self.left.x + 8, self.seed_y, self.left.w - 16,
                           self.left.bottom - 10 - self.seed_y)
        pygame.draw.rect(surface, style.PANEL, part)
        surface.blit(style.text("Who may join", 20, style.INK, bold=True), (lx, self.seed_y + 8))
        surface.blit(style.text("Turn timer", 20, style.INK, bold=True), (lx, self.seed_y + 96))
        lines, y = self.hint_lines()
        blit_lines(surface, lines, (lx, y), 15, style.INK_SOFT, line_height=self.HINT_LINE)

    #: The line height of the note under the turn timer.
    HINT_LINE = 18

    def hint_lines(self) -> tuple[list[str], int]:
        """The note saying who may join, wrapped, and the top of its first line: under the
        turn timer, raised as far as it must be to end inside the panel."""
        hint = ("Only windows on this computer can join (127.0.0.1)."
                if LISTEN_CHOICES[self.listen_label] == LOOPBACK else
                "Computers on your network can reach the table; invites say where.")
        lines = style.wrap(hint, 15, self.left.w - 48)[:3]
        bottom = self.left.bottom - 12
        return lines, min(self.seed_y + 186, bottom - self.HINT_LINE * len(lines))


class LoadTableOverlay(OverlayScene):
    """The tables saved on this computer's server, newest first: one is hosted again."""

    panel_size = (620, 470)

    def __init__(self, app, setup: HostSetupScene) -> None:
        super().__init__(app, "Load a table")
        self.setup = setup
        self.files = saved_tables(app.paths)[:6]

    def build(self) -> None:
        from datetime import datetime

        from ttr_desktop.ui.scenes.save_info import when_words
        p = self.panel_rect
        y = self.content_top
        for path in self.files:
            when = when_words(datetime.fromtimestamp(path.stat().st_mtime))
            self.button(pygame.Rect(p.x + 28, y, p.w - 56, 44), f"{path.stem} — {when}",
                        lambda path=path: self.pick(path))
            y += 52
        self.button(pygame.Rect(p.right - 28 - 150, p.bottom - 64, 150, 44), "Cancel",
                    self.close)

    def buttons_for_test(self):
        """The saved tables' buttons, newest first."""
        from pygame_gui.elements import UIButton
        return [el for el in self.ui.get_sprite_group().sprites()
                if isinstance(el, UIButton) and el.text != "Cancel"]

    def pick(self, path) -> None:
        self.close()
        self.setup.host_saved(path)
