"""The Legacy campaign in the window (rules.md §3.8).

- ``CampaignListOverlay``: the title screen's "Legacy campaign": continue one of the
  campaigns in the user's folder, or start a new one;
- ``CampaignSetupScene``: 2 to 5 companies (the colour is the company), each run by a
  person or a bot level;
- ``CampaignScene``: the campaign between games: the standings (vaults game by game as a
  table and a line chart), the caboose, the retired events, who plays the next game, and
  the button that plays it (or resumes it);
- ``RetireOverlay``: after a game, the caboose holder retires one event from the event
  discard pile (a person chooses here; a bot's choice is made at once and shown);
- ``after_campaign_game``: the scoring screen's hook: records a finished campaign game in
  its campaign file at once and gives the "Continue campaign" action.

A campaign game's save carries ``campaign = {path, game}`` (``GameSession.links``), and
the campaign file names the game's autosave, so a campaign survives quitting mid-game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu, UITextEntryLine

from ttr_desktop.campaign import (
    Campaign,
    CampaignError,
    Company,
    bot_retire_choice,
    next_game,
    new_campaign,
    record_game,
    retire_choices,
    retire_event,
    start_game,
)
from ttr_desktop.persistence.autosaves import new_autosave_path
from ttr_desktop.persistence.campaign import (
    CampaignFileError,
    campaigns_dir,
    list_campaigns,
    new_campaign_path,
    read_campaign,
    save_campaign,
)
from ttr_desktop.rules.modules.legacy import COMPANY_COLOURS, EVENT_BY_ID
from ttr_desktop.ui import style
from ttr_desktop.ui.families.legacy_campaign_chart import company_rgb, draw_chart, draw_table
from ttr_desktop.ui.scenes.common import GuiScene, OverlayScene, blit_lines, draw_wagon
from ttr_desktop.ui.scenes.dialogs import MessageOverlay
from ttr_desktop.ui.session import BOT_LEVELS, GameSession, SaveError, SeatConfig, choice_key

if TYPE_CHECKING:
    from ttr_desktop.rules import Game
    from ttr_desktop.ui.app import App

HUMAN = "Person"
KIND_LABELS = [HUMAN] + [f"Bot · {label}" for label in BOT_LEVELS.values()]
NAME_LIMIT = 24


def company_label(campaign: Campaign, colour: str) -> str:
    """'Ann (blue)' or 'Bot 2 (red, Normal bot)'."""
    c = campaign.company(colour)
    who = f"{colour}, {BOT_LEVELS.get(c.level, c.level)} bot" if c.is_bot else colour
    return f"{c.player} ({who})"


def kind_label(company: Company) -> str:
    """The 'played by' choice shown for a company."""
    return f"Bot · {BOT_LEVELS.get(company.level, company.level)}" if company.is_bot else HUMAN


def seats_of(campaign: Campaign, order: list[str]) -> list[SeatConfig]:
    """The window's seats for a game with these companies in turn order."""
    out = []
    for colour in order:
        c = campaign.company(colour)
        out.append(SeatConfig(c.player, c.kind, c.level, colour))
    return out


# ----------------------------------------------------------------------
# Playing and recording games
def play_next_game(app: App, path: Path, campaign: Campaign,
                   present: list[str] | None = None) -> str:
    """Start (or resume) the campaign's next game on the board; why not, in player words."""
    from ttr_desktop.ui.scenes.load import open_board
    playing = campaign.playing
    note = ""
    if playing is not None and playing.save:
        save = Path(playing.save)
        if save.is_file():
            try:
                session = GameSession.load(save, autosave_to=save)
                session.save_path = None
                link = session.links.get("campaign", {})
                if link.get("game") == playing.number and \
                        Path(str(link.get("path", ""))) == path:
                    open_board(app, session)
                    return ""
                note = "its save belongs to another campaign"
            except SaveError as exc:
                note = str(exc)
        else:
            note = "its save is no longer there"
    try:
        setup = next_game(campaign, present)
    except CampaignError as exc:
        return str(exc).capitalize() + "."
    autosave = new_autosave_path(app.paths.autosaves_dir, "legacy")
    start_game(campaign, setup, str(autosave))
    try:
        save_campaign(campaign, path)
    except CampaignFileError as exc:
        return str(exc)
    game = setup.new_game()
    session = GameSession(game, seats_of(campaign, setup.order), choice_key(game))
    session.links = {"campaign": {"path": str(path), "game": setup.number}}
    session.autosave_path = autosave
    open_board(app, session)
    if note:
        app.push(MessageOverlay(
            app, f"Game {setup.number} starts again",
            f"The game in progress could not be resumed: {note}.\n\nGame {setup.number} "
            "starts again from its beginning, with the same cards."))
    return ""


def settle_bot_retire(campaign: Campaign, game: "Game | None" = None) -> str:
    """When a bot holds the caboose, it retires its event at once; the event's id or ""."""
    if not campaign.pending_retire:
        return ""
    holder = campaign.company(campaign.caboose)
    if not holder.is_bot:
        return ""
    choice = bot_retire_choice(campaign, holder.level, game,
                               random.Random(campaign.seed + len(campaign.games)))
    if choice:
        retire_event(campaign, choice)
    return choice


def after_campaign_game(app: App, session: GameSession) -> Callable[[], None] | None:
    """For a finished campaign game: put it into its campaign file now (so leaving from the
    scoring screen loses nothing) and return what "Continue campaign" does; None for a game
    outside a campaign."""
    link = getattr(session, "links", {}).get("campaign")
    if not isinstance(link, dict) or not session.game.is_over:
        return None
    path = Path(str(link.get("path", "")))
    number = link.get("game")
    campaign: Campaign | None = None
    problem = ""
    try:
        campaign = read_campaign(path)
        record_game(campaign, session.game, number if isinstance(number, int) else None)
        settle_bot_retire(campaign, session.game)
        save_campaign(campaign, path)
    except (CampaignFileError, CampaignError) as exc:
        problem = str(exc)
    game = session.game

    def go_on() -> None:
        if campaign is None or problem:
            from ttr_desktop.ui.scenes.menu import MenuScene
            app.replace(MenuScene(app))
            app.push(MessageOverlay(app, "The campaign could not be updated",
                                    f"{problem}\n\nThe campaign file is kept as it is: "
                                    f"{path}.", error=True))
            return
        app.replace(CampaignScene(app, path, campaign, game=game))

    return go_on


# ----------------------------------------------------------------------
class CampaignScene(GuiScene):
    """A campaign between games: standings, caboose, retired events, the next game."""

    def __init__(self, app: App, path: Path, campaign: Campaign, game: "Game | None" = None,
                 note: str = "") -> None:
        super().__init__(app)
        self.path = Path(path)
        self.campaign = campaign
        self.game = game
        self.note = note
        self.error = ""
        self.present = [c for c in campaign.colours
                        if campaign.playing is None or c in campaign.playing.order]
        self.toggle_buttons: dict[str, object] = {}
        self._asked = False

    # Layout --------------------------------------------------------------
    def build(self) -> None:
        w, h = self.size
        c = self.campaign
        self.margin = 40
        self.table_rect = pygame.Rect(self.margin, 116, w - 2 * self.margin - 150, 200)
        chart_top = 116 + 32 + 30 * len(c.companies) + 24
        self.chart_rect = pygame.Rect(self.margin, chart_top, int((w - 2 * self.margin) * 0.6),
                                      h - chart_top - 96)
        self.side_rect = pygame.Rect(self.chart_rect.right + 24, chart_top,
                                     w - self.margin - self.chart_rect.right - 24,
                                     self.chart_rect.h)
        by = h - 72
        self.menu_button = self.button(pygame.Rect(self.margin, by, 180, 50), "Main menu",
                                       self.main_menu)
        self.toggle_buttons = {}
        self.play_button = None
        self.retire_button = None
        if c.pending_retire:
            holder = c.company(c.caboose)
            self.retire_button = self.button(
                pygame.Rect(w - self.margin - 300, by, 300, 50), "Retire an event",
                self.ask_retire, object_id="#primary",
                tooltip=f"{holder.player} holds the caboose and retires one event")
        elif not c.over:
            resuming = c.playing is not None
            label = (f"Continue game {c.next_number}" if resuming else
                     f"Play game {c.next_number} of {c.length}")
            self.play_button = self.button(pygame.Rect(w - self.margin - 300, by, 300, 50),
                                           label, self.play, object_id="#primary")
            if not resuming:
                x = self.table_rect.x + self.table_rect.w + 16
                for i, colour in enumerate(c.colours):
                    y = 116 + 30 + 30 * i
                    plays = colour in self.present
                    self.toggle_buttons[colour] = self.button(
                        pygame.Rect(x, y, 120, 28), "plays" if plays else "misses",
                        lambda col=colour: self.toggle(col),
                        tooltip=f"Whether {c.company(colour).player} plays game "
                                f"{c.next_number}")

    def enter(self) -> None:
        self.maybe_ask()

    def resume(self) -> None:
        self.rebuild()

    def maybe_ask(self) -> None:
        """A person holding the caboose is asked at once which event to retire."""
        c = self.campaign
        if c.pending_retire and c.company(c.caboose).is_bot:
            choice = settle_bot_retire(c, self.game)
            try:
                save_campaign(c, self.path)
            except CampaignFileError as exc:
                self.error = str(exc)
            self.note = f"{c.company(c.caboose).player} retired '{EVENT_BY_ID[choice].title}'."
            self.rebuild()
        if c.pending_retire and not c.company(c.caboose).is_bot and not self._asked:
            self._asked = True
            self.ask_retire()

    # Actions -------------------------------------------------------------
    def ask_retire(self) -> None:
        """Open the retire-an-event choice."""
        if self.campaign.pending_retire:
            self.app.push(RetireOverlay(self.app, self))

    def retire(self, event_id: str) -> str:
        """The holder retires ``event_id``; the campaign is saved. Why not, or ""."""
        try:
            retire_event(self.campaign, event_id)
        except CampaignError as exc:
            return str(exc)
        try:
            save_campaign(self.campaign, self.path)
        except CampaignFileError as exc:
            self.error = str(exc)
        self.rebuild()
        return ""

    def toggle(self, colour: str) -> None:
        """Mark a company as playing or missing the next game (at least two play)."""
        if colour in self.present:
            if len(self.present) <= 2:
                self.error = "At least two companies must play each game."
                self.app.sound.play("error")
                return
            self.present.remove(colour)
        else:
            self.present.append(colour)
        self.error = ""
        self.rebuild()

    def play(self) -> None:
        """Play (or resume) the next game."""
        problem = play_next_game(self.app, self.path, self.campaign, list(self.present))
        if problem:
            self.error = problem
            self.app.sound.play("error")

    def main_menu(self) -> None:
        """Back to the title screen (the campaign is saved after every change)."""
        from ttr_desktop.ui.scenes.menu import MenuScene
        self.app.replace(MenuScene(self.app))

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.main_menu()
            return True
        return False

    # Drawing -------------------------------------------------------------
    def headline(self) -> tuple[str, str]:
        """The title and the line under it."""
        c = self.campaign
        if c.over:
            ranking = c.ranking()
            best = c.company(ranking[0])
            return (f"{c.name}: {best.player} wins the campaign",
                    f"All {c.length} games played. The {ranking[0]} company's vault holds "
                    f"${c.vaults()[ranking[0]]}.")
        done = len(c.games)
        sub = (f"{done} of {c.length} games played" if done else
               f"{c.length} games of Legacy, every one on the first game's board")
        return c.name, sub

    def info_lines(self) -> list[tuple[str, tuple[int, int, int], bool]]:
        """The side panel: caboose, last game, retired events, missed games."""
        c = self.campaign
        out: list[tuple[str, tuple[int, int, int], bool]] = []
        holder = c.company(c.caboose)
        out.append(("Caboose", style.INK, True))
        first = "goes first next game" if not c.over else "came last in the final game"
        out.append((f"The {c.caboose} company ({holder.player}) holds it and {first}.",
                    style.INK, False))
        if c.games:
            g = c.games[-1]
            out.append(("", style.INK, False))
            out.append((f"Game {g.number}", style.INK, True))
            ranking = sorted(g.slips, key=lambda k: -g.slips[k])
            out.append((f"Best slip: {c.company(ranking[0]).player} ${g.slips[ranking[0]]}. "
                        f"Last: {c.company(g.last).player}.", style.INK, False))
            if g.retired:
                out.append((f"{c.company(g.last).player} retired "
                            f"'{EVENT_BY_ID[g.retired].title}'.", style.INK, False))
            elif not g.discard:
                out.append(("No newspaper came up: no event to retire.", style.INK_SOFT, False))
        out.append(("", style.INK, False))
        out.append(("Retired events", style.INK, True))
        if c.retired:
            for e in c.retired:
                out.append((f"· {EVENT_BY_ID[e].title}", style.INK_SOFT, False))
        else:
            out.append(("none yet", style.INK_SOFT, False))
        missed = [(col, c.missed(col)) for col in c.colours if c.missed(col)]
        if missed:
            out.append(("", style.INK, False))
            out.append(("Games missed (each scores that game's lowest slip at the end)",
                        style.INK, True))
            for col, games in missed:
                out.append((f"· {c.company(col).player}: {', '.join(map(str, games))}",
                            style.INK_SOFT, False))
        return out

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        w, h = self.size
        title, sub = self.headline()
        surface.blit(style.text(title, 34, style.INK, bold=True), (self.margin, 26))
        surface.blit(style.text(sub, 18, style.INK_SOFT), (self.margin + 2, 72))
        if self.toggle_buttons:
            first = next(iter(self.toggle_buttons.values())).rect
            head = style.text(f"Game {self.campaign.next_number}", 14, style.INK_SOFT, True)
            surface.blit(head, (first.centerx - head.get_width() // 2, first.y - 24))
        panel = self.table_rect.inflate(20, 0)
        panel.h = 32 + 30 * len(self.campaign.companies) + 10
        panel.y -= 6
        style.panel(surface, panel, radius=10)
        draw_table(surface, self.table_rect, self.campaign, 16)
        style.panel(surface, self.chart_rect.inflate(20, 12), radius=10)
        surface.blit(style.text("Vaults after each game", 15, style.INK_SOFT, bold=True),
                     (self.chart_rect.x + 4, self.chart_rect.y - 2))
        draw_chart(surface, self.chart_rect.inflate(0, -22).move(0, 11), self.campaign, 14)
        style.panel(surface, self.side_rect.inflate(20, 12), radius=10)
        y = self.side_rect.y + 2
        for text, rgb, bold in self.info_lines():
            if not text:
                y += 8
                continue
            for line in style.wrap(text, 15, self.side_rect.w - 8, bold):
                if y > self.side_rect.bottom - 18:
                    break
                surface.blit(style.text(line, 15, rgb, bold), (self.side_rect.x + 4, y))
                y += 20

    def draw_front(self, surface: pygame.Surface) -> None:
        message = self.error or self.note
        if message:
            x = self.menu_button.rect.right + 20
            right = (self.play_button or self.retire_button or self.menu_button).rect.x - 20
            if right <= x:
                right = self.size[0] - self.margin
            lines = style.wrap(message, 16, right - x, bold=bool(self.error))[:3]
            y = self.menu_button.rect.centery - 10 * len(lines)
            for line in lines:
                surface.blit(style.text(line, 16, style.BAD if self.error else style.INK_SOFT,
                                        bool(self.error)), (x, y))
                y += 20


# ----------------------------------------------------------------------
ROW_TOP, ROW_H = 60, 68


class RetireOverlay(OverlayScene):
    """The caboose holder picks one event of the event discard pile to retire."""

    panel_size = (820, 600)

    def __init__(self, app: App, scene: CampaignScene) -> None:
        c = scene.campaign
        self.scene = scene
        self.choices = retire_choices(c)
        self.panel_size = (860, min(680, 200 + ROW_H * len(self.choices)))
        super().__init__(app, "Retire an event")
        self.error = ""

    def build(self) -> None:
        r = self.panel_rect
        y = self.content_top + ROW_TOP
        self.choice_buttons = []
        for event_id in self.choices:
            ev = EVENT_BY_ID[event_id]
            self.choice_buttons.append(self.button(
                pygame.Rect(r.right - 28 - 130, y + 10, 130, 44), "Retire",
                lambda e=event_id: self.choose(e), tooltip=f"Retire '{ev.title}'"))
            y += ROW_H
        self.later_button = self.button(pygame.Rect(r.right - 28 - 130, r.bottom - 62, 130, 44),
                                        "Later", self.close,
                                        tooltip="Decide later; the next game waits for it")

    def choose(self, event_id: str) -> None:
        """Retire ``event_id``."""
        problem = self.scene.retire(event_id)
        if problem:
            self.error = problem
            self.app.sound.play("error")
            return
        self.close()

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        c = self.scene.campaign
        r = self.panel_rect
        holder = c.company(c.caboose)
        g = c.games[-1]
        intro = (f"{holder.player} came last in game {g.number} and takes the caboose: the "
                 f"{c.caboose} company goes first next game and retires one event from the "
                 "event discard pile. A retired event never returns.")
        blit_lines(surface, style.wrap(intro, 17, r.w - 56)[:3], (r.x + 28, self.content_top),
                   17, style.INK, line_height=22)
        y = self.content_top + ROW_TOP
        text_w = r.w - 56 - 150
        for k, event_id in enumerate(self.choices):
            ev = EVENT_BY_ID[event_id]
            if k % 2 == 0:
                pygame.draw.rect(surface, (244, 236, 218), (r.x + 18, y, r.w - 36, ROW_H - 4),
                                 border_radius=8)
            kind = "instant" if ev.instant else "ongoing"
            surface.blit(style.text(ev.title, 17, style.INK, True), (r.x + 28, y + 4))
            surface.blit(style.text(kind, 14, style.ACCENT, True),
                         (r.x + 36 + style.font(17, True).size(ev.title)[0], y + 7))
            blit_lines(surface, style.wrap(ev.text, 14, text_w)[:2], (r.x + 28, y + 28), 14,
                       style.INK_SOFT, line_height=18)
            y += ROW_H
        if self.error:
            surface.blit(style.text(self.error[:90], 15, style.BAD, True),
                         (r.x + 28, r.bottom - 50))


# ----------------------------------------------------------------------
class CampaignListOverlay(OverlayScene):
    """Continue a campaign from the user's folder, or start a new one."""

    panel_size = (860, 560)
    SHOWN = 5

    def __init__(self, app: App) -> None:
        super().__init__(app, "Legacy campaign")
        self.entries = list_campaigns(campaigns_dir(app.paths.data_dir))

    def build(self) -> None:
        r = self.panel_rect
        y = self.content_top + 40
        self.row_buttons = []
        for path, campaign, problem in self.entries[:self.SHOWN]:
            label = "Continue" if campaign is not None else "Why?"
            self.row_buttons.append(self.button(
                pygame.Rect(r.right - 28 - 150, y + 4, 150, 44), label,
                lambda p=path, c=campaign, e=problem: self.open(p, c, e)))
            y += 64
        self.new_button = self.button(pygame.Rect(r.x + 28, r.bottom - 70, 240, 50),
                                      "New campaign", self.new, object_id="#primary")
        self.close_button = self.button(pygame.Rect(r.right - 28 - 140, r.bottom - 70, 140, 50),
                                        "Close", self.close)

    def new(self) -> None:
        """The campaign setup screen."""
        self.close()
        self.app.push(CampaignSetupScene(self.app))

    def open(self, path: Path, campaign: Campaign | None, problem: str) -> None:
        """Continue ``campaign``, or explain why it cannot be opened."""
        if campaign is None:
            self.app.sound.play("error")
            self.app.push(MessageOverlay(
                self.app, "This campaign cannot be opened",
                f"{problem}\n\nThe file is kept as it is: {path}. Nothing overwrites it "
                "without keeping a copy.", error=True))
            return
        self.app.replace(CampaignScene(self.app, path, campaign))

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        r = self.panel_rect
        x = r.x + 28
        if not self.entries:
            blit_lines(surface, style.wrap(
                "No campaign yet. A campaign is twelve games of Legacy for the same companies: "
                "the money of every game goes into each company's vault, the last place takes "
                "the caboose and retires an event.", 17, r.w - 56), (x, self.content_top),
                17, style.INK_SOFT, line_height=23)
            return
        surface.blit(style.text("Continue a campaign:", 17, style.INK_SOFT),
                     (x, self.content_top))
        y = self.content_top + 40
        for path, campaign, problem in self.entries[:self.SHOWN]:
            if campaign is None:
                surface.blit(style.text(path.name, 17, style.BAD, True), (x, y + 4))
                surface.blit(style.text(problem[:96], 14, style.BAD), (x, y + 28))
            else:
                surface.blit(style.text(campaign.name[:60], 17, style.INK, True), (x, y + 4))
                done = len(campaign.games)
                state = ("finished" if campaign.over else
                         f"game {len(campaign.games)} played, an event to retire"
                         if campaign.pending_retire else
                         f"game {campaign.next_number} under way" if campaign.playing else
                         f"{done} of {campaign.length} games played")
                players = ", ".join(c.player for c in campaign.companies)
                surface.blit(style.text(f"{state} · {players}"[:90], 14, style.INK_SOFT),
                             (x, y + 28))
                dx = x + 560
                for c in campaign.companies:
                    pygame.draw.circle(surface, company_rgb(c.colour), (dx, y + 18), 7)
                    dx += 18
            y += 64
        more = len(self.entries) - self.SHOWN
        if more > 0:
            surface.blit(style.text(f"and {more} older in {self.entries[0][0].parent}", 14,
                                    style.INK_SOFT), (x, y))


# ----------------------------------------------------------------------
class CampaignSetupScene(GuiScene):
    """Pick 2 to 5 companies and who runs each; Start saves the campaign and shows it."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.name = "Legacy campaign"
        self.active = {c: k < 2 for k, c in enumerate(COMPANY_COLOURS)}
        self.companies = {c: Company(c, "Player 1" if k == 0 else f"Bot {k + 1}",
                                     "human" if k == 0 else "bot", "greedy")
                          for k, c in enumerate(COMPANY_COLOURS)}
        self.error = ""

    def build(self) -> None:
        w, h = self.size
        self.x0 = max(40, (w - 1000) // 2)
        self.name_entry = UITextEntryLine(pygame.Rect(self.x0 + 200, 110, 420, 42), self.ui,
                                          initial_text=self.name)
        self.name_entry.set_text_length_limit(60)
        self.row_y = {}
        self.in_buttons, self.name_entries, self.kind_menus = {}, {}, {}
        y = 200
        for colour in COMPANY_COLOURS:
            c = self.companies[colour]
            on = self.active[colour]
            self.row_y[colour] = y
            self.in_buttons[colour] = self.button(
                pygame.Rect(self.x0 + 260, y + 8, 120, 42), "plays" if on else "out",
                lambda col=colour: self.toggle(col),
                tooltip=f"Whether the {colour} company is in the campaign")
            entry = UITextEntryLine(pygame.Rect(self.x0 + 400, y + 8, 300, 42), self.ui,
                                    initial_text=c.player, placeholder_text="Name")
            entry.set_text_length_limit(NAME_LIMIT)
            menu = UIDropDownMenu(KIND_LABELS, kind_label(c),
                                  pygame.Rect(self.x0 + 720, y + 8, 220, 42), self.ui)
            if not on:
                entry.hide()
                menu.hide()
            self.name_entries[colour] = entry
            self.kind_menus[colour] = menu
            y += 66
        by = h - 84
        self.back_button = self.button(pygame.Rect(self.x0, by, 160, 52), "Back", self.back)
        self.start_button = self.button(pygame.Rect(self.x0 + 1000 - 260, by, 260, 52),
                                        "Start campaign", self.start, object_id="#primary")

    def toggle(self, colour: str) -> None:
        """Put a company in or out of the campaign (2 to 5 companies)."""
        on = not self.active[colour]
        if not on and sum(self.active.values()) <= 2:
            self.error = "A campaign needs at least two companies."
            self.app.sound.play("error")
            return
        self.active[colour] = on
        self.error = ""
        self.rebuild()

    def set_kind(self, colour: str, label: str) -> None:
        """Person or bot level for a company."""
        c = self.companies[colour]
        if label == HUMAN:
            c.kind = "human"
        else:
            level_label = label.split("·", 1)[1].strip()
            c.kind = "bot"
            c.level = next(k for k, v in BOT_LEVELS.items() if v == level_label)

    def chosen(self) -> list[Company]:
        """The companies in the campaign, in table order."""
        return [Company(c.colour, c.player.strip(), c.kind, c.level)
                for colour, c in self.companies.items() if self.active[colour]]

    def start(self) -> None:
        """Make the campaign, save it and show it."""
        try:
            campaign = new_campaign(self.chosen(), name=self.name.strip() or "Legacy campaign",
                                    created=_now())
        except CampaignError as exc:
            self.error = str(exc).capitalize() + "."
            self.app.sound.play("error")
            return
        folder = campaigns_dir(self.app.paths.data_dir)
        path = new_campaign_path(folder, campaign.name)
        try:
            save_campaign(campaign, path)
        except CampaignFileError as exc:
            self.error = str(exc)
            self.app.sound.play("error")
            return
        self.app.replace(CampaignScene(self.app, path, campaign))

    def back(self) -> None:
        """Return to the title screen."""
        from ttr_desktop.ui.scenes.menu import MenuScene
        self.app.replace(MenuScene(self.app))

    def on_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            if event.ui_element is self.name_entry:
                self.name = event.text
            for colour, entry in self.name_entries.items():
                if event.ui_element is entry:
                    self.companies[colour].player = event.text
            self.error = ""
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for colour, menu in self.kind_menus.items():
                if event.ui_element is menu:
                    self.set_kind(colour, event.text)
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return True
        return False

    def draw_back(self, surface: pygame.Surface) -> None:
        super().draw_back(surface)
        x0 = self.x0
        surface.blit(style.text("New Legacy campaign", 40, style.INK, bold=True), (x0, 30))
        surface.blit(style.text("Campaign name", 18, style.INK_SOFT), (x0, 120))
        surface.blit(style.text(
            "Each colour is a company. Pick 2 to 5 and who runs each; the caboose goes to a "
            "company at random before game 1.", 16, style.INK_SOFT), (x0, 168))
        for k, colour in enumerate(COMPANY_COLOURS):
            y = self.row_y[colour]
            if k % 2:
                pygame.draw.rect(surface, (244, 236, 218), (x0 - 8, y, 1000 + 16, 58),
                                 border_radius=8)
            on = self.active[colour]
            draw_wagon(surface, x0 + 4, y + 50, company_rgb(colour), 0.74)
            surface.blit(style.text(f"{colour.capitalize()} company", 19,
                                    style.INK if on else style.INK_SOFT, on), (x0 + 96, y + 18))
            if not on:
                surface.blit(style.text("not in this campaign", 16, style.INK_SOFT),
                             (x0 + 404, y + 20))

    def draw_front(self, surface: pygame.Surface) -> None:
        if self.error:
            r = self.start_button.rect
            t = style.text(self.error, 17, style.BAD, True)
            surface.blit(t, (r.x - 24 - t.get_width(), r.centery - t.get_height() // 2))


def _now() -> str:
    from datetime import datetime, timezone
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


__all__ = ["CampaignListOverlay", "CampaignScene", "CampaignSetupScene", "RetireOverlay",
           "after_campaign_game", "play_next_game", "settle_bot_retire"]
