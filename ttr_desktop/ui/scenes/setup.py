"""The setup screen: map, players (person or bot, name, colour), who goes first and seed,
then Start.

A family with several games (USA 1910) is one entry of the map list; under it, a row per
game (its name and a line on what differs) and an on/off row per switch (Stations). The
Rules button opens the rules at the chosen family's section.

The number of seats follows the chosen variant's ruleset; the last game's map and
players are filled in again (``last_setup.toml`` beside the settings).
"""

from __future__ import annotations

import random
import re
from dataclasses import asdict
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu, UITextEntryLine

from ttr_desktop.persistence.last_setup import LastSetupError, load_last_setup, save_last_setup
from ttr_desktop.ui import style
from ttr_desktop.ui.families import NOTES as FAMILY_NOTES
from ttr_desktop.ui.scenes.common import GuiScene, blit_lines, draw_wagon
from ttr_desktop.ui.scenes.load import open_board
from ttr_desktop.ui.scenes.settings import close_open_dropdown
from ttr_desktop.ui.scenes.setup_choices import (
    COLORS,
    NAME_LIMIT,
    SEED_DIGITS,
    default_seats,
    entry_label,
    game_and_switches,
    grouped_family,
    menu_entries,
    seat_range,
    seats_from_memory,
    seed_problem,
)
from ttr_desktop.ui.session import BOT_LEVELS, VARIANT_CHOICES, GameSession, SeatConfig

if TYPE_CHECKING:
    from ttr_desktop.ui.app import App

HUMAN = "Human"
KIND_LABELS = [HUMAN] + [f"Bot · {label}" for label in BOT_LEVELS.values()]
SEED_RANDOM, SEED_FIXED = "Random", "Fixed number"
#: The first player is drawn at random (from the game's seed) unless a seat is chosen.
FIRST_RANDOM = "Random"
#: Setup choice key -> its description (the families' descriptors fill it).
VARIANT_NOTES = FAMILY_NOTES
_DEFAULT_NAME = re.compile(r"^(Player|Bot) (\d+)$")
#: Height of a game's row and of a switch's row under the map list; the seed's block.
GAME_ROW_H, SWITCH_ROW_H, SEED_BLOCK_H = 40, 38, 220
#: Where the game rows start below the map panel's top.
CHOICES_TOP = 108
#: The map's description under the list: (text size, line height), largest first.
NOTE_SIZES = ((16, 22), (15, 20), (14, 19))
#: The players' panel at its narrowest: every column of a seat's row, names 170 px wide.
PLAYERS_MIN_W = 48 + 586 + 170


def left_height(key: str) -> int:
    """How tall the map panel must be for the choice ``key``: its family's game and switch
    rows (if any) between the map list and the seed."""
    family = grouped_family(key)
    if family is None:
        return 0
    return (CHOICES_TOP + GAME_ROW_H * len(family.games) + 8
            + SWITCH_ROW_H * len(family.switches) + 8 + SEED_BLOCK_H)


def kind_label(seat: SeatConfig) -> str:
    """The 'played by' choice shown for ``seat``."""
    return f"Bot · {BOT_LEVELS.get(seat.level, seat.level)}" if seat.is_bot else HUMAN


class SetupScene(GuiScene):
    """Choose the variant, the seats and the seed; Start opens the board."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.variant_key = next(iter(VARIANT_CHOICES))
        self.seats = default_seats()
        #: Family id -> the setup choice last picked in it (its game and switches), so that
        #: going back to the family in the list finds them again.
        self.family_keys: dict[str, str] = {}
        #: The game rows and switch rows of the chosen family: (rect, variant / option).
        self.game_rects: list[tuple[pygame.Rect, str]] = []
        self.switch_rects: list[tuple[pygame.Rect, str]] = []
        #: True when the last game's map and players were filled in.
        self.remembered = False
        try:
            memory = load_last_setup(app.paths.last_setup_file)
        except LastSetupError as exc:
            memory = None
            app.toast(f"{exc} The default players are offered.", 8, "error")
        restored = seats_from_memory(memory) if memory else None
        if restored is not None:
            self.remembered = restored != (self.variant_key, self.seats)
            self.variant_key, self.seats = restored
            family = grouped_family(self.variant_key)
            if family is not None:
                self.family_keys[family.id] = self.variant_key
        self.seed_mode = SEED_RANDOM
        self.seed_text = ""
        #: The seat that goes first, or None: drawn at random, as at a real table.
        self.first_player: int | None = None
        self.first_menu: UIDropDownMenu | None = None
        self.error = ""
        self.name_entries: list[UITextEntryLine] = []
        self.kind_menus: list[UIDropDownMenu] = []
        self.dot_rects: list[list[tuple[pygame.Rect, str]]] = []
        self.swatch_rects: list[pygame.Rect] = []

    @property
    def min_seats(self) -> int:
        """Fewest seats the chosen variant allows."""
        return seat_range(self.variant_key)[0]

    @property
    def max_seats(self) -> int:
        """Most seats the chosen variant allows."""
        return seat_range(self.variant_key)[1]

    @property
    def seed_problem(self) -> str:
        """What is wrong with the typed seed ("" when fine or when the seed is random)."""
        return seed_problem(self.seed_text) if self.seed_mode == SEED_FIXED else ""

    # Layout --------------------------------------------------------------
    def build(self) -> None:
        w, h = self.size
        cw = min(1300, w - 100)
        x0 = (w - cw) // 2
        max_seats = self.max_seats

        def rows(seats: int) -> tuple[int, int]:
            # Rows shrink (down to 48 px) so that every seat, the title and the buttons fit.
            fit = (h - 118 - 24 - 52 - 30 - 180) // seats
            row_h = max(48, min(58 if h < 800 else 66, fit))
            return row_h, max(470, 96 + seats * row_h + 84)

        self.row_h = rows(max_seats)[0]
        # The panels are as tall as the map with the most seats needs, whatever map is
        # chosen: the map list then opens in the same place every time, so an entry is
        # picked where it was seen.
        panel_h = max(max(rows(seat_range(k)[1])[1], left_height(k)) for k in VARIANT_CHOICES)
        # Title (100) + panels + gap (24) + buttons (52), centred in the window.
        top = max(118, (h - (100 + panel_h + 24 + 52)) // 2 + 100)
        # The map panel takes what the players' rows leave of 350 px (330 at least).
        left_w = max(330, min(350, cw - 20 - PLAYERS_MIN_W))
        self.left = pygame.Rect(x0, top, left_w, panel_h)
        self.right = pygame.Rect(self.left.right + 20, top, cw - left_w - 20, panel_h)

        # Map and seed (left).
        lx, lw = self.left.x + 24, self.left.w - 48
        labels = [label for label, _ in menu_entries()]
        self.variant_menu = UIDropDownMenu(labels, entry_label(self.variant_key),
                                           pygame.Rect(lx, self.left.y + 56, lw, 42), self.ui)
        self.rules_button = self.button(
            pygame.Rect(self.left.right - 24 - 96, self.left.y + 14, 96, 34), "Rules",
            self.open_rules, tooltip=f"How to play {entry_label(self.variant_key)}")
        self.game_rects, self.switch_rects = [], []
        family = grouped_family(self.variant_key)
        if family is not None:
            y = self.left.y + CHOICES_TOP
            for game in family.games:
                self.game_rects.append((pygame.Rect(lx - 8, y, lw + 16, GAME_ROW_H - 2),
                                        game.variant))
                y += GAME_ROW_H
            y += 8
            for switch in family.switches:
                self.switch_rects.append((pygame.Rect(lx - 8, y, lw + 16, SWITCH_ROW_H - 2),
                                          switch.option))
                y += SWITCH_ROW_H
        self.seed_y = self.left.bottom - SEED_BLOCK_H
        self.seed_menu = UIDropDownMenu([SEED_RANDOM, SEED_FIXED], self.seed_mode,
                                        pygame.Rect(lx, self.seed_y + 44, lw, 42), self.ui)
        self.seed_entry = UITextEntryLine(pygame.Rect(lx, self.seed_y + 96, lw, 42), self.ui,
                                          initial_text=self.seed_text,
                                          placeholder_text="a whole number")
        # Any text may be typed; a seed that is not a whole number is explained beside it.
        self.seed_entry.set_text_length_limit(SEED_DIGITS + 6)
        if self.seed_mode == SEED_RANDOM:
            self.seed_entry.hide()

        # Players (right); who goes first at the top right.
        rx = self.right.x + 24
        self.first_menu = None
        self.first_rect = pygame.Rect(self.right.right - 24 - 250, self.right.y + 12, 250, 42)
        self.build_first_menu()
        y = self.right.y + 96
        self.name_entries, self.kind_menus, self.remove_buttons = [], [], []
        self.dot_rects, self.swatch_rects = [], []
        # swatch 78 | name | 12 | kind 164 | 20 | dots 6x34 | 16 | remove 92
        name_w = max(170, min(300, self.right.w - 48 - 586))
        for i, seat in enumerate(self.seats):
            row_mid = y + self.row_h // 2
            self.swatch_rects.append(pygame.Rect(rx, row_mid - 20, 62, 40))
            x = rx + 78
            entry = UITextEntryLine(pygame.Rect(x, row_mid - 21, name_w, 42), self.ui,
                                    initial_text=seat.name, placeholder_text="Name")
            entry.set_text_length_limit(NAME_LIMIT)
            self.name_entries.append(entry)
            x += name_w + 12
            menu = UIDropDownMenu(KIND_LABELS, kind_label(seat),
                                  pygame.Rect(x, row_mid - 21, 164, 42), self.ui)
            self.kind_menus.append(menu)
            x += 164 + 20
            dots = []
            for c in COLORS:
                dots.append((pygame.Rect(x, row_mid - 15, 30, 30), c))
                x += 34
            self.dot_rects.append(dots)
            self.remove_buttons.append(self.button(
                pygame.Rect(self.right.right - 24 - 92, row_mid - 20, 92, 40), "Remove",
                lambda i=i: self.remove_seat(i), tooltip=f"Remove {seat.name}",
                enabled=len(self.seats) > self.min_seats))
            y += self.row_h
        full = len(self.seats) >= max_seats
        add_y = self.right.y + 96 + max_seats * self.row_h + 12
        self.add_bot_button = self.button(pygame.Rect(rx, add_y, 170, 44), "+ Add a bot",
                                          lambda: self.add_seat("bot"), enabled=not full)
        self.add_human_button = self.button(pygame.Rect(rx + 184, add_y, 190, 44),
                                            "+ Add a person", lambda: self.add_seat("human"),
                                            enabled=not full)

        # Bottom bar.
        by = self.left.bottom + 24
        self.back_button = self.button(pygame.Rect(x0, by, 160, 52), "Back", self.back)
        self.reset_button = self.button(
            pygame.Rect(x0 + 176, by, 210, 52), "Default players", self.reset_seats,
            tooltip="Start again from one person and one bot")
        self.start_button = self.button(pygame.Rect(x0 + cw - 240, by, 240, 52), "Start game",
                                        self.start, object_id="#primary")

    # Who goes first --------------------------------------------------------
    def first_label(self, index: int) -> str:
        """The first-player choice for seat ``index`` ("2. Ann")."""
        return f"{index + 1}. {self.seats[index].name.strip() or 'Player ' + str(index + 1)}"

    @property
    def first_title(self) -> str:
        """What the first-player choice is called (Legacy: the caboose holder goes first)."""
        return "Caboose (goes first)" if VARIANT_CHOICES[self.variant_key][0] == "legacy" else \
            "First player"

    def build_first_menu(self) -> None:
        """The first-player list: Random, then each seat by number and name."""
        if self.first_menu is not None:
            self.first_menu.kill()
        if self.first_player is not None and self.first_player >= len(self.seats):
            self.first_player = None
        labels = [FIRST_RANDOM] + [self.first_label(i) for i in range(len(self.seats))]
        current = FIRST_RANDOM if self.first_player is None else \
            self.first_label(self.first_player)
        self.first_menu = UIDropDownMenu(labels, current, self.first_rect, self.ui)

    def set_first(self, label: str) -> None:
        """Choose who goes first from the list's ``label``."""
        self.first_player = None if label == FIRST_RANDOM else int(label.split(".", 1)[0]) - 1

    # Seats ---------------------------------------------------------------
    def _unique_default(self, kind: str, number: int, skip: int | None = None) -> str:
        base = "Bot" if kind == "bot" else "Player"
        taken = {s.name.strip().lower() for j, s in enumerate(self.seats) if j != skip}
        while f"{base} {number}".lower() in taken:
            number += 1
        return f"{base} {number}"

    def add_seat(self, kind: str) -> None:
        """A new seat (a Normal bot or a person) with the first free colour."""
        if len(self.seats) >= self.max_seats:
            return
        used = {s.color for s in self.seats}
        color = next(c for c in COLORS if c not in used)
        name = self._unique_default(kind, len(self.seats) + 1)
        self.seats.append(SeatConfig(name, kind, "greedy", color))
        self.renumber_defaults()
        self.error = ""
        self.rebuild()

    def remove_seat(self, index: int) -> None:
        """Drop seat ``index`` (never below the variant's fewest seats)."""
        if len(self.seats) > self.min_seats and 0 <= index < len(self.seats):
            del self.seats[index]
            if self.first_player is not None and self.first_player >= index:
                self.first_player = None if self.first_player == index else \
                    self.first_player - 1
            self.renumber_defaults()
            self.error = ""
            self.rebuild()

    def renumber_defaults(self) -> None:
        """Seats still called by a default name ("Player 3", "Bot 2") take their seat's
        number again, so the names follow the seats after one is removed or added; a name
        the player typed is kept."""
        for i, seat in enumerate(self.seats):
            match = _DEFAULT_NAME.match(seat.name.strip())
            if match and int(match.group(2)) != i + 1:
                seat.name = ""                  # free the old name before choosing
                kind = "bot" if match.group(1) == "Bot" else "human"
                seat.name = self._unique_default(kind, i + 1, skip=i)

    def reset_seats(self) -> None:
        """Back to one person and one bot (the remembered setup is not used)."""
        self.seats = default_seats()
        self.remembered = False
        self.error = ""
        self.fit_seats()
        self.rebuild()

    def set_variant(self, key: str) -> None:
        """Choose the variant; seats beyond what it allows are dropped (or bots added)."""
        self.variant_key = key
        family = grouped_family(key)
        if family is not None:
            self.family_keys[family.id] = key
        self.error = ""
        self.fit_seats()
        self.rebuild()

    def pick_entry(self, label: str) -> None:
        """Choose an entry of the map list: a family with games finds the game and
        switches last picked in it (at first its first game, every switch off)."""
        key = next(k for lab, k in menu_entries() if lab == label)
        family = grouped_family(key)
        if family is not None:
            key = self.family_keys.get(family.id, key)
        self.set_variant(key)

    def choose_game(self, variant: str) -> None:
        """Play the chosen family's game ``variant``, with the same switches."""
        family = grouped_family(self.variant_key)
        if family is None:
            return
        _, on = game_and_switches(self.variant_key)
        self.set_variant(family.choice_key(variant, on))

    def toggle_switch(self, option: str) -> None:
        """Switch the chosen family's ``option`` (Stations) on or off."""
        family = grouped_family(self.variant_key)
        if family is None:
            return
        variant, on = game_and_switches(self.variant_key)
        self.set_variant(family.choice_key(variant, on ^ {option}))

    def open_rules(self) -> None:
        """The rules, opened at the chosen family's section."""
        from ttr_desktop.ui.scenes.rules import RulesScene
        self.app.push(RulesScene(self.app, VARIANT_CHOICES[self.variant_key][0]))

    def fit_seats(self) -> None:
        """Make the number of seats fit the variant."""
        low, high = seat_range(self.variant_key)
        if len(self.seats) > high:
            self.error = f"{VARIANT_CHOICES[self.variant_key][2]} is for at most {high} players."
            del self.seats[high:]
        while len(self.seats) < low:
            used = {s.color for s in self.seats}
            color = next(c for c in COLORS if c not in used)
            self.seats.append(SeatConfig(self._unique_default("bot", len(self.seats) + 1),
                                         "bot", "greedy", color))

    def set_kind(self, index: int, label: str) -> None:
        """Person or bot level; a default name follows the change ('Player 2' -> 'Bot 2')."""
        seat = self.seats[index]
        if label == HUMAN:
            new_kind, level = "human", seat.level
        else:
            level_label = label.split("·", 1)[1].strip()
            new_kind = "bot"
            level = next(k for k, v in BOT_LEVELS.items() if v == level_label)
        match = _DEFAULT_NAME.match(seat.name.strip())
        if new_kind != seat.kind and match:
            seat.name = self._unique_default(new_kind, int(match.group(2)), skip=index)
            self.name_entries[index].set_text(seat.name)
        seat.kind, seat.level = new_kind, level

    def set_color(self, index: int, color: str) -> None:
        """Give seat ``index`` a colour; whoever had it takes this seat's old colour."""
        seat = self.seats[index]
        for other in self.seats:
            if other is not seat and other.color == color:
                other.color = seat.color
        seat.color = color

    # Start / back --------------------------------------------------------
    def problems(self) -> str:
        """What stops the game from starting ("" when nothing)."""
        if not self.seats:
            return "Add at least one player."
        names = [s.name.strip() for s in self.seats]
        for i, name in enumerate(names, start=1):
            if not name:
                return f"Player {i} needs a name."
        lowered = [n.lower() for n in names]
        for name in names:
            if lowered.count(name.lower()) > 1:
                return f"Two players are called '{name}'; names must differ."
        if self.seed_problem:
            return "The seed must be a whole number (or choose Random)."
        return ""

    def start(self) -> None:
        """Check the choices, then deal and open the board."""
        self.error = self.problems()
        if self.error:
            self.app.sound.play("error")
            return
        seats = [SeatConfig(s.name.strip(), s.kind, s.level, s.color) for s in self.seats]
        seed = int(self.seed_text.strip()) if self.seed_mode == SEED_FIXED else \
            random.SystemRandom().randrange(1, 2 ** 31)
        first = "random" if self.first_player is None else self.first_player
        try:
            session = GameSession.new(self.variant_key, seats, seed, first_player=first)
        except ValueError as exc:
            self.error = f"This game cannot start: {exc}"
            self.app.sound.play("error")
            return
        self.remember(seats)
        open_board(self.app, session)

    def remember(self, seats: list[SeatConfig]) -> None:
        """Keep this setup for the next game (a failure only loses the convenience)."""
        _, options, _ = VARIANT_CHOICES[self.variant_key]
        try:
            save_last_setup(self.app.paths.last_setup_file, self.variant_key, options,
                            [asdict(s) for s in seats])
        except (OSError, TypeError, ValueError):
            pass

    def back(self) -> None:
        """Return to the title screen."""
        if len(self.app.scenes) > 1 and self.app.top is self:
            self.app.pop(self)
        else:
            from ttr_desktop.ui.scenes.menu import MenuScene
            self.app.replace(MenuScene(self.app))

    # Events --------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            if event.ui_element in self.name_entries:
                self.seats[self.name_entries.index(event.ui_element)].name = event.text
                self.build_first_menu()
                self.error = ""
            elif event.ui_element is self.seed_entry:
                self.seed_text = event.text
                self.error = ""
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.variant_menu:
                self.pick_entry(event.text)
            elif event.ui_element is self.seed_menu:
                self.seed_mode = event.text
                if self.seed_mode == SEED_FIXED:
                    if not self.seed_text:
                        self.seed_text = str(random.randrange(1, 100000))
                        self.seed_entry.set_text(self.seed_text)
                    self.seed_entry.show()
                else:
                    self.seed_entry.hide()
                self.error = ""
            elif event.ui_element is self.first_menu:
                self.set_first(event.text)
            elif event.ui_element in self.kind_menus:
                self.set_kind(self.kind_menus.index(event.ui_element), event.text)
                self.build_first_menu()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and \
                not self.variant_menu_open():
            for rect, variant in self.game_rects:
                if rect.collidepoint(event.pos):
                    self.app.sound.play("click")
                    self.choose_game(variant)
                    return True
            for rect, option in self.switch_rects:
                if rect.collidepoint(event.pos):
                    self.app.sound.play("click")
                    self.toggle_switch(option)
                    return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, dots in enumerate(self.dot_rects):
                for rect, color in dots:
                    if rect.collidepoint(event.pos):
                        self.set_color(i, color)
                        self.app.sound.play("click")
                        return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                menus = [self.variant_menu, self.seed_menu, self.first_menu, *self.kind_menus]
                if not close_open_dropdown(menus):
                    self.back()
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and \
                    not self.text_entry_focused():
                self.start()
                return True
        return False

    def variant_menu_open(self) -> bool:
        """True while the map list is open (it covers the game rows)."""
        menu = self.variant_menu
        return menu.current_state is menu.menu_states.get("expanded")

    # Drawing -------------------------------------------------------------
    def draw_choices(self, surface: pygame.Surface) -> None:
        """The chosen family's game rows (a round mark, the name, what differs) and switch
        rows (a tick box, the name, what it does)."""
        family = grouped_family(self.variant_key)
        if family is None:
            return
        variant, on = game_and_switches(self.variant_key)
        mouse = pygame.mouse.get_pos()
        games = {g.variant: g for g in family.games}
        for rect, v in self.game_rects:
            game, chosen = games[v], v == variant
            if chosen or rect.collidepoint(mouse):
                pygame.draw.rect(surface, (255, 240, 200) if chosen else (248, 240, 224), rect,
                                 border_radius=8)
            if chosen:
                pygame.draw.rect(surface, style.PANEL_EDGE, rect, 1, border_radius=8)
            c = (rect.x + 18, rect.y + 12)
            pygame.draw.circle(surface, style.INK, c, 8, 2)
            if chosen:
                pygame.draw.circle(surface, style.INK, c, 4)
            self.draw_row_words(surface, rect, game.label, game.aside, game.line)
        switches = {s.option: s for s in family.switches}
        for rect, option in self.switch_rects:
            switch, ticked = switches[option], option in on
            if rect.collidepoint(mouse):
                pygame.draw.rect(surface, (248, 240, 224), rect, border_radius=8)
            box = pygame.Rect(rect.x + 10, rect.y + 4, 17, 17)
            pygame.draw.rect(surface, (255, 252, 244), box, border_radius=3)
            pygame.draw.rect(surface, style.INK, box, 2, border_radius=3)
            if ticked:
                pygame.draw.lines(surface, style.INK, False, [
                    (box.x + 3, box.centery), (box.x + 7, box.bottom - 4),
                    (box.right - 3, box.y + 3)], 3)
            self.draw_row_words(surface, rect, switch.label, switch.aside, switch.line)

    @staticmethod
    def draw_row_words(surface: pygame.Surface, rect: pygame.Rect, name: str, aside: str,
                       line: str) -> None:
        """A game's or switch's row: its name in bold, a few words beside it, and its line
        below (a size smaller when it would not fit)."""
        x, room = rect.x + 34, rect.right - 6 - (rect.x + 34)
        head = style.text(name, 16, style.INK, bold=True)
        surface.blit(head, (x, rect.y + 2))
        if aside:
            surface.blit(style.text(aside, 14, style.INK_SOFT),
                         (x + head.get_width() + 8, rect.y + 4))
        if line:
            size = next((s for s in (14, 13, 12)
                         if style.text(line, s, style.INK_SOFT).get_width() <= room), 12)
            surface.blit(style.text(line, size, style.INK_SOFT), (x, rect.y + 21))

    def note_block(self) -> tuple[list[str], int, int]:
        """The chosen map's description under the map list: (lines, size, line height).
        Every word of it, a size smaller when it would not fit above the seed; cut short
        with '…' only when even the smallest size is too long."""
        text = VARIANT_NOTES.get(self.variant_key) or FAMILY_NOTES.get(self.variant_key, "")
        room = self.seed_y - (self.left.y + 112)
        width = self.left.w - 48
        for size, line_h in NOTE_SIZES:
            lines = style.wrap(text, size, width)
            if len(lines) * line_h <= room:
                return lines, size, line_h
        keep = max(1, room // line_h)
        if len(lines) > keep:
            lines = lines[:keep]
            lines[-1] = lines[-1].rstrip(" ,.;") + "…"
        return lines, size, line_h

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        x0 = self.left.x
        surface.blit(style.text("New game", 40, style.INK, bold=True), (x0, self.left.y - 96))
        sub = ("Your last game's map and players are filled in: change anything, then press "
               "Start." if self.remembered else "Pick a map, who plays, and press Start.")
        surface.blit(style.text(sub, 18, style.INK_SOFT), (x0 + 2, self.left.y - 42))
        for rect in (self.left, self.right):
            style.panel(surface, rect, radius=12)

        # Left: map and seed.
        lx = self.left.x + 24
        surface.blit(style.text("Map", 20, style.INK, bold=True), (lx, self.left.y + 20))
        if grouped_family(self.variant_key) is not None:
            self.draw_choices(surface)
        else:
            lines, size, line_h = self.note_block()
            blit_lines(surface, lines, (lx, self.left.y + 112), size, style.INK_SOFT,
                       line_height=line_h)
        surface.blit(style.text("Seed", 20, style.INK, bold=True), (lx, self.seed_y + 8))
        problem = self.seed_problem
        hint = problem or ("Each game is dealt at random." if self.seed_mode == SEED_RANDOM else
                           "The same seed and players deal the same cards again.")
        hy = self.seed_y + (100 if self.seed_mode == SEED_RANDOM else 150)
        blit_lines(surface, style.wrap(hint, 15, self.left.w - 48)[:3], (lx, hy), 15,
                   style.BAD if problem else style.INK_SOFT, line_height=20)

        # Right: the players.
        rx = self.right.x + 24
        surface.blit(style.text("Players", 20, style.INK, bold=True), (rx, self.right.y + 20))
        count = style.text(f"{len(self.seats)} of {self.max_seats}", 16, style.INK_SOFT)
        surface.blit(count, (rx + 90, self.right.y + 24))
        first = style.text(self.first_title, 16, style.INK_SOFT)
        surface.blit(first, first.get_rect(midright=(self.first_rect.x - 12,
                                                     self.first_rect.centery)))
        if self.name_entries:
            heads = [("Name", self.name_entries[0].rect.x), ("Played by",
                                                             self.kind_menus[0].rect.x),
                     ("Train colour", self.dot_rects[0][0][0].x)]
            for label, x in heads:
                surface.blit(style.text(label, 15, style.INK_SOFT), (x + 2, self.right.y + 66))
        for i, seat in enumerate(self.seats):
            if i % 2 == 1:
                band = pygame.Rect(self.right.x + 8, self.swatch_rects[i].centery - self.row_h // 2,
                                   self.right.w - 16, self.row_h)
                pygame.draw.rect(surface, (244, 236, 218), band, border_radius=8)
            sw = self.swatch_rects[i]
            draw_wagon(surface, sw.x + 2, sw.bottom + 4, style.PLAYER_COLORS[seat.color], 0.74)
        hint = "Click a colour to take it; whoever had it gets yours."
        surface.blit(style.text(hint, 15, style.INK_SOFT),
                     (self.add_human_button.rect.right + 24, self.add_human_button.rect.y + 12))

    def draw_front(self, surface: pygame.Surface) -> None:
        mouse = pygame.mouse.get_pos()
        menu = self.first_menu
        state = menu.current_state if menu is not None else None
        listed = getattr(state, "options_selection_list", None)
        covered = listed.rect if listed is not None and \
            state is menu.menu_states["expanded"] else None   # the open first-player list
        for i, dots in enumerate(self.dot_rects):
            mine = self.seats[i].color
            others = {s.color for j, s in enumerate(self.seats) if j != i}
            for rect, color in dots:
                if covered is not None and covered.colliderect(rect):
                    continue
                rgb = style.PLAYER_COLORS[color]
                c = rect.center
                if color == mine:
                    pygame.draw.circle(surface, style.INK, c, 15)
                    pygame.draw.circle(surface, (255, 252, 244), c, 12)
                    pygame.draw.circle(surface, rgb, c, 10)
                else:
                    r = 11 if rect.collidepoint(mouse) else 9
                    pygame.draw.circle(surface, rgb, c, r)
                    if color in others:
                        # Taken by someone else: a paper-coloured notch.
                        pygame.draw.circle(surface, (255, 252, 244), c, 3)
        if self.error:
            start = self.start_button.rect
            room = start.x - 24 - (self.reset_button.rect.right + 20)
            lines = style.wrap(self.error, 17, room, bold=True)[:2]
            y = start.centery - 11 * len(lines)
            for line in lines:
                msg = style.text(line, 17, style.BAD, bold=True)
                surface.blit(msg, msg.get_rect(topright=(start.x - 24, y)))
                y += 22
