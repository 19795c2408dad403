"""What the board shows of an online table around the game: the connection banner
("Reconnecting…"), who is away ("Waiting for Ann", and the host's choice: keep waiting or
let a Normal bot play her seat), the chat beside the log and the turn timer.

The board scene owns a ``NetPanel`` when it plays a ``RemoteSession``; the panel reads
the table's messages each frame the board gets (``poll``), hands the events to the
board's one path (``BoardScene.land``) and says how soon it needs the next look
(``next_wake``): a short interval while the connection is open or being made again,
nothing once it is closed, so an idle window stays cheap.
"""

from __future__ import annotations

import math

import pygame

from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.board_overlays import Button

#: Seconds between two looks at the table's messages where a screen must look by itself
#: (the lobby); the board is woken by the link's watcher instead (``LinkWatcher``).
NET_POLL = 0.1
#: How often a clock on screen (the turn timer, "away for 0:42") is drawn again.
TICK = 1.0
#: Height of the chat panel under the log.
CHAT_H = 170
#: The longest chat line a person may send.
CHAT_LIMIT = 200


def clock_words(seconds: float) -> str:
    """'0:42', '12:05'."""
    s = max(0, math.ceil(seconds))
    return f"{s // 60}:{s % 60:02d}"


class NetPanel:
    """The table around the game, drawn over the board scene."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.session = scene.session
        self.chat_rect = pygame.Rect(0, 0, 0, 0)
        self.input_rect = pygame.Rect(0, 0, 0, 0)
        #: The chat line being typed (None: the chat has not got the keyboard).
        self.typing: str | None = None
        self.banner_rect: pygame.Rect | None = None
        self.buttons: dict[str, Button] = {}
        self._asking: int | None = None
        self._seen_chat = 0
        self._was_status = self.session.status

    # Layout ---------------------------------------------------------------------------
    def layout(self, lay) -> None:
        """The chat takes the lower part of the log's column."""
        log = lay.log
        h = min(CHAT_H, max(110, log.height // 2))
        self.chat_rect = pygame.Rect(log.x, log.bottom - h, log.width, h)
        lay.log = pygame.Rect(log.x, log.y, log.width, log.height - h - 8)
        self.input_rect = pygame.Rect(self.chat_rect.x + 8, self.chat_rect.bottom - 34,
                                      self.chat_rect.width - 16, 26)

    # The table's messages -------------------------------------------------------------
    def poll(self) -> None:
        """Read the table: events go to the board's one path, refusals become messages."""
        scene = self.scene
        for events, seat in self.session.poll():
            scene.land(events, seat)
        for text, kind in self.session.take_notices():
            scene._refuse(text) if kind == "error" else scene.app.toast(text, 4)
        if len(self.session.chat) != self._seen_chat:
            self._seen_chat = len(self.session.chat)
            scene.app.sound.play("click")
        if self.session.saved_file is not None:
            from ttr_desktop.ui.net.links import remember_hosted
            s = self.session
            remember_hosted(scene.app.paths, s.saved_file, s.seat, s.name_of(s.seat),
                            [(o, s.name_of(o)) for o in s.local_seats if o != s.seat])
            scene.app.toast(f"Table saved ({self.session.saved_file}): Host a game → Load a "
                            "table plays it on later.", 5)
            self.session.saved_file = None
        status = self.session.status
        if status != self._was_status:
            if status == "open" and self._was_status == "reconnecting":
                scene.app.toast("Connected again.", 2.5)
            self._was_status = status

    def next_wake(self) -> float | None:
        """Nothing while all stands still: the link's watcher wakes the window when the
        table sends something or the connection changes. A clock on screen (turn timer,
        how long a friend is away) is drawn again each second; a chat line being typed
        blinks its cursor."""
        if self.typing is not None:
            return 0.5
        clocks = self.session.timer_left() is not None or bool(self.session.missing())
        if clocks and self.session.status != "closed":
            return TICK
        return None

    def over_ready(self) -> bool:
        """True once the table has sent the final scores."""
        return self.session.over is not None

    # Host commands ---------------------------------------------------------------------
    def save_table(self) -> None:
        """Ctrl+S / the menu: the host asks the table for its save."""
        if not self.session.host_command("save"):
            self.scene.app.toast("Only the host can save this table.", 3)
            return
        self.scene.app.toast("Saving the table…", 2)

    def open_menu(self) -> None:
        """Esc: the table's menu (save, turn timer, leave)."""
        from ttr_desktop.ui.net.screens import TableMenu
        self.scene.app.push(TableMenu(self.scene.app, self.scene))

    def end_game(self) -> None:
        """The table sent the final scores: the end screen."""
        from ttr_desktop.ui.net.ending import open_end_screen
        open_end_screen(self.scene.app, self.session)

    # Input ----------------------------------------------------------------------------
    def handle_event(self, event) -> bool:
        """The chat and the host's buttons; True when the event was theirs."""
        from ttr_desktop.ui.net.remote import wake_event_type
        if event.type == wake_event_type():
            return True          # the table sent something: this frame reads it
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for key, button in self.buttons.items():
                if button.hit(event.pos):
                    self._press(key)
                    return True
            if self.input_rect.collidepoint(event.pos):
                self.typing = self.typing or ""
                return True
            if self.typing is not None and not self.chat_rect.collidepoint(event.pos):
                self.typing = None if not self.typing else self.typing
        if event.type == pygame.MOUSEMOTION:
            for button in self.buttons.values():
                button.hover = button.rect.collidepoint(event.pos)
        if event.type == pygame.KEYDOWN:
            if self.typing is None:
                if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.typing = ""
                    return True
                return False
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.session.send_chat(self.typing)
                self.typing = None
            elif event.key == pygame.K_ESCAPE:
                self.typing = None
            elif event.key == pygame.K_BACKSPACE:
                self.typing = self.typing[:-1]
            return True           # typing: the board's keys (D, T, H...) stay quiet
        if event.type == pygame.TEXTINPUT and self.typing is not None:
            self.typing = (self.typing + event.text)[:CHAT_LIMIT]
            return True
        return False

    def _press(self, key: str) -> None:
        seat = self._asking
        if seat is None:
            return
        if key == "wait":
            self.session.keep_waiting(seat)
            self.scene.app.toast(f"Waiting for {self.session.name_of(seat)}.", 2.5)
        elif key == "bot":
            self.session.let_bot_play(seat)
            self.scene.app.toast(f"A Normal bot plays for {self.session.name_of(seat)} "
                                 "until they return.", 3.5)
        self.buttons = {}
        self._asking = None

    # Drawing --------------------------------------------------------------------------
    def draw(self, surface) -> None:
        self._draw_chat(surface)
        self._draw_timer(surface)
        self._draw_banner(surface)

    def banner_lines(self) -> list[str]:
        """What the banner over the map says now ([] when all is well)."""
        s = self.session
        status = s.status
        if status == "closed":
            return ["Connection lost", (s.problem or "The table cannot be reached.")
                    + " Esc: leave the table."]
        if status in ("reconnecting", "connecting") and s.ready:
            return ["Reconnecting…", "The game resumes by itself when the table answers."]
        lines = []
        for seat in s.missing():
            p = s.presence.get(seat, {})
            name = s.name_of(seat)
            if p.get("bot_playing"):
                lines.append(f"A Normal bot plays for {name} until they return.")
                continue
            away = s.clock() - s.away_since.get(seat, s.clock())
            lines.append(f"Waiting for {name}" + (f" ({clock_words(away)})" if away >= 1
                                                  else "") + "…")
        return lines

    def _draw_banner(self, surface) -> None:
        lines = self.banner_lines()
        ask = self.session.away_to_ask() if self.session.status == "open" else None
        if ask != self._asking:
            self._asking = ask
            self.buttons = {}
        if not lines and ask is None:
            self.banner_rect = None
            return
        area = self.scene.lay.map
        width = min(area.width - 40, 560)
        body = []
        title = lines[0] if lines else ""
        for line in lines[1:]:
            body += style.wrap(line, 15, width - 32)
        if ask is not None:
            body += style.wrap(f"{self.session.name_of(ask)} has been away a while. Keep "
                               "waiting, or let a Normal bot play the seat until they "
                               "return?", 15, width - 32)
        h = 22 + 28 + 20 * len(body) + (54 if ask is not None else 0)
        rect = pygame.Rect(0, 0, width, h)
        rect.midtop = (area.centerx, area.y + 14)
        self.banner_rect = rect
        edge = style.BAD if self.session.status == "closed" else style.ACCENT
        style.panel(surface, rect, edge=edge)
        t = style.text(title, 20, edge, bold=True)
        surface.blit(t, t.get_rect(midtop=(rect.centerx, rect.y + 12)))
        y = rect.y + 44
        for line in body:
            t = style.text(line, 15, style.INK)
            surface.blit(t, t.get_rect(midtop=(rect.centerx, y)))
            y += 20
        if ask is not None:
            if not self.buttons:
                bw = 190
                self.buttons = {
                    "wait": Button(pygame.Rect(rect.centerx - bw - 8, y + 8, bw, 38),
                                   "Keep waiting"),
                    "bot": Button(pygame.Rect(rect.centerx + 8, y + 8, bw, 38),
                                  "Let a bot play", primary=True)}
            for button in self.buttons.values():
                button.draw(surface)

    def timer_text(self) -> tuple[str, float] | None:
        """The turn timer as shown ("Your turn: 0:42") with the seconds left."""
        left = self.session.timer_left()
        if left is None or self.session.game is None or self.session.game.is_over:
            return None
        seat, seconds = left
        alone = len(self.session.humans) == 1      # else several people take turns here
        who = "Your" if alone and seat == self.session.seat else \
            f"{self.session.name_of(seat)}'s"
        return f"{who} turn: {clock_words(seconds)}", seconds

    def _draw_timer(self, surface) -> None:
        shown = self.timer_text()
        if shown is None:
            return
        text, seconds = shown
        color = style.BAD if seconds <= 10 else style.INK
        t = style.text(text, 16, color, bold=True)
        area = self.scene.lay.map
        rect = t.get_rect(topright=(area.right - 14, area.y + 12)).inflate(20, 10)
        style.panel(surface, rect, edge=color)
        surface.blit(t, t.get_rect(center=rect.center))

    def chat_lines(self, width: int) -> list[tuple[str, tuple]]:
        """The chat as drawn: 'Ann: hello' lines wrapped to ``width``, newest last."""
        out: list[tuple[str, tuple]] = []
        rgb = self.scene.rgb
        for seat, name, text in self.session.chat[-20:]:
            color = tuple(max(0, c - 40) for c in rgb[seat]) if isinstance(seat, int) and \
                0 <= seat < len(rgb) else style.INK_SOFT
            for i, part in enumerate(style.wrap(f"{name}: {text}", 13, width)):
                out.append((part, color))
        return out

    def _draw_chat(self, surface) -> None:
        rect = self.chat_rect
        if rect.width <= 0:
            return
        style.panel(surface, rect)
        surface.blit(style.text("Table chat", 15, style.INK, bold=True), (rect.x + 10,
                                                                        rect.y + 7))
        lines = self.chat_lines(rect.width - 20)
        room = max(0, (self.input_rect.y - rect.y - 34) // 17)
        y = rect.y + 30
        for text, color in lines[-room:] if room else []:
            surface.blit(style.text(text, 13, color), (rect.x + 10, y))
            y += 17
        box = self.input_rect
        focused = self.typing is not None
        pygame.draw.rect(surface, (255, 252, 244), box, border_radius=6)
        pygame.draw.rect(surface, style.ACCENT if focused else style.PANEL_EDGE, box,
                         2 if focused else 1, border_radius=6)
        if focused:
            shown = self.typing + ("|" if int(self.scene.clock * 2) % 2 == 0 else "")
            t = style.text(shown, 14, style.INK)
            clip = surface.get_clip()
            surface.set_clip(box.inflate(-6, -2))
            # The end of a long line stays in sight.
            surface.blit(t, (min(box.x + 6, box.right - 6 - t.get_width()), box.y + 4))
            surface.set_clip(clip)
        else:
            t = style.text("Enter: say something to the table", 13, style.INK_SOFT)
            surface.blit(t, (box.x + 6, box.y + 5))
