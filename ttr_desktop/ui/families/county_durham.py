"""County Durham (Coal Country) in the window: Robert Bettles' map with its coal.

- The setup screen offers it.
- Coal lumps sit on the stations (the map draws the view's ``city_tokens``); each seat's
  coal is shown in the player rows (the module's ``seat_stats``).
- Paying with coal needs nothing here: the engine lists coal in the payments like any
  card ("2 red + 2 coal") and the board's payment chooser shows them.
- After a claim with coal at both ends, a small panel asks which token to take (the two
  stations also glow on the map and may be clicked instead); its Cancel takes the claim
  back.
- Log lines for coal taken and coal left; the score parts already have their labels.
"""

from __future__ import annotations

import pygame

from ttr_desktop.rules.modules.county_durham import TAKE_COAL
from ttr_desktop.ui import log_text, style
from ttr_desktop.ui.families import SetupChoice, WindowFamily
from ttr_desktop.ui.scenes import board_overlays as ov
from ttr_desktop.ui.token_art import draw_coal

VARIANT = "county-durham"
NOTE = ("Robert Bettles' map of the Durham coalfield: 48 stations, 45 trains each. Take "
        "the coal at the stations you reach; 2 coal pay as 1 locomotive. +10 for the most "
        "coal left, \u22125 for the least.")


def _city(game, cid: str) -> str:
    return game.map.cities[cid].name


def _coal_taken(ev, game) -> str:
    who = game.players[ev.seat]
    held = ev.data.get("held")
    tail = f" ({log_text.plural(held, 'coal token')} now)." if held is not None else "."
    return f"{who} took the coal at {_city(game, ev.data['city'])}{tail}"


def _coal_left(ev, game) -> str:
    who = game.players[ev.seat]
    names = " and ".join(_city(game, c) for c in ev.data.get("cities", ()))
    return f"{who} left the coal at {names}." if names else f"{who} took no coal."


def _coal_card(surf: pygame.Surface, inner: pygame.Rect) -> None:
    """Coal in the payment chooser: a lump on a pale sand face, never taken for the
    black train card."""
    pygame.draw.rect(surf, (226, 214, 188), inner, border_radius=3)
    pygame.draw.rect(surf, (120, 104, 80), inner, 1, border_radius=3)
    draw_coal(surf, inner.center, inner.width * 0.95, 1)




class CoalChoiceOverlay(ov.BoardOverlay):
    """Which coal token to take after a claim: one row per station (a coal lump and the
    station's name), plus "leave it" when the game lets coal be left. The stations glow on
    the map and clicking one there chooses it too. Cancel (as Ctrl+Z) takes the claim back
    whole, with nothing spent, while it can be taken back (not after a tunnel showed its
    cards)."""

    veil_alpha = 60

    def __init__(self, app, board) -> None:
        super().__init__(app, board)
        self.version = self.board.table.version
        self.layout()

    def resize(self, size) -> None:
        self.layout()

    def layout(self) -> None:
        g = self.board.table
        self.actions = g.legal_actions()
        self.cities = [a.city_id for a in self.actions if a.kind == "take_coal"]
        area = self.board.lay.map.inflate(-16, -16)
        width = min(380, area.width - 20)
        self.sub_lines = style.wrap(g.prompt(), 15, width - 40)
        head = 52 + 19 * len(self.sub_lines)
        row_h = 48
        back = self.board.can_take_back()
        self.panel = pygame.Rect(0, 0, width, head + len(self.actions) * (row_h + 8)
                                 + (64 if back else 12))
        mv = self.board.map_view
        pts = [mv.city_pos[c] for c in self.cities if c in mv.city_pos]
        avoid = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)) \
            if pts else None
        ov.place_panel(self.panel, area, avoid)
        self.rows = [pygame.Rect(self.panel.x + 20, self.panel.y + head + i * (row_h + 8),
                                 width - 40, row_h) for i in range(len(self.actions))]
        # The choice panels' Cancel: under the rows, in the middle.
        self.cancel: ov.Button | None = None
        if back:
            self.cancel = ov.Button(pygame.Rect(0, 0, 160, 42), "Cancel")
            self.cancel.rect.midbottom = (self.panel.centerx, self.panel.bottom - 14)
        self.buttons = [self.cancel] if self.cancel else []
        self.hover: int | None = None

    def update(self, dt: float) -> None:
        if self.board.table.version != self.version:
            self.app.pop(self)

    def choose(self, i: int) -> None:
        self.app.pop(self)
        self.board.perform(self.actions[i])

    def on_button(self, button: ov.Button) -> None:
        if button is self.cancel:
            self.board.take_back()

    def on_motion(self, pos) -> None:
        self.hover = next((i for i, r in enumerate(self.rows) if r.collidepoint(pos)), None)
        self.board.mouse = pos
        self.board.update_hover(pos)

    def on_click(self, pos) -> None:
        for i, rect in enumerate(self.rows):
            if rect.collidepoint(pos):
                self.choose(i)
                return
        board = self.board
        board.update_hover(pos)
        if board.hover_city in self.cities:
            self.choose(self.cities.index(board.hover_city))

    def on_key(self, event) -> bool:
        if pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < len(self.rows):
            self.choose(event.key - pygame.K_1)
            return True
        return super().on_key(event)

    def row_text(self, i: int) -> str:
        action = self.actions[i]
        if action.kind == "take_coal":
            return f"Take the coal at {_city(self.board.table, action.city_id)}"
        return "Leave the coal where it is"

    def row_label(self, i: int) -> tuple[int, int, list[str], int]:
        """(x, top, lines, size) of row ``i``'s words, kept inside the row: one line, shrunk
        down to 14, else two lines ("Take the coal at" / "Middleton-in-Teesdale")."""
        rect = self.rows[i]
        x = rect.x + 70
        room = rect.right - x - 8
        text = self.row_text(i)
        lines, size = [text], 16
        for size in (16, 15, 14):
            if style.font(size).size(text)[0] <= room:
                break
        else:
            size = 14
            lines = style.wrap(text, size, room)[:2]
            while size > 12 and any(style.font(size).size(ln)[0] > room for ln in lines):
                size -= 1
                lines = style.wrap(text, size, room)[:2]
        step = style.font(size).get_linesize()
        return x, rect.centery - step * len(lines) // 2, lines, size

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_veil(surface)
        mv = self.board.map_view
        for cid in self.cities:
            mv.draw_city_ring(surface, cid, self.board.clock)
        style.panel(surface, self.panel, radius=14)
        surface.blit(style.text("Take one coal token", 22, style.INK, bold=True),
                     (self.panel.x + 20, self.panel.y + 14))
        for k, line in enumerate(self.sub_lines):
            surface.blit(style.text(line, 15, style.INK_SOFT),
                         (self.panel.x + 20, self.panel.y + 46 + 19 * k))
        for i, rect in enumerate(self.rows):
            fill = (255, 236, 170) if self.hover == i else (252, 248, 238)
            pygame.draw.rect(surface, fill, rect, border_radius=8)
            pygame.draw.rect(surface, style.PANEL_EDGE, rect, 1, border_radius=8)
            surface.blit(style.text(str(i + 1), 14, style.INK_SOFT), (rect.x + 10, rect.y + 15))
            if self.actions[i].kind == "take_coal":
                draw_coal(surface, (rect.x + 44, rect.centery), 30, 1)
            x, y, lines, size = self.row_label(i)
            for k, line in enumerate(lines):
                surface.blit(style.text(line, size, style.INK),
                             (x, y + k * style.font(size).get_linesize()))
        for b in self.buttons:
            b.draw(surface)


def _coal_overlay(board):
    if board.table.variant != VARIANT and not board.table.has_module("county_durham"):
        return None
    return CoalChoiceOverlay(board.app, board)


WINDOW = WindowFamily(
    VARIANT,
    choices=(SetupChoice(VARIANT, VARIANT, "County Durham (coal)", {}, NOTE),),
    overlays={TAKE_COAL: _coal_overlay},
    event_lines={"coal_taken": _coal_taken, "coal_left": _coal_left},
    part_labels={"most_coal": "Most coal", "least_coal": "Least coal"},
    card_painters={"coal": _coal_card},
    rules_page="10-county-durham.md",
    rules_section="County Durham",
)
