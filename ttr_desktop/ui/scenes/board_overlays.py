"""Overlays of the board: ticket choice, payment choice, tunnel payment, hand-over.

Each is a non-opaque scene over the board; the board stays visible (and
keeps animating) beneath it. Buttons are drawn here with the board's look.
"""

from __future__ import annotations

import math

import pygame

from ttr_desktop.rules import KeepTickets, Phase
from ttr_desktop.ui.log_text import pay_words, plural
from ttr_desktop.ui import style
from ttr_desktop.ui.buttons import Button, hover_buttons, press_button
from ttr_desktop.ui.cards import card_surface
from ttr_desktop.ui.route_plan import best_path
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.scenes.board_panels import drew_private
from ttr_desktop.ui.scenes.board_port import port_of

WILD_NAMES = frozenset({"locomotive", "locomotive_plus4", "coal"})


def draw_check(surface: pygame.Surface, box: pygame.Rect, color) -> None:
    """A tick mark inside ``box``."""
    pts = [(box.x + box.width * 0.2, box.y + box.height * 0.55),
           (box.x + box.width * 0.42, box.y + box.height * 0.78),
           (box.x + box.width * 0.82, box.y + box.height * 0.25)]
    pygame.draw.lines(surface, color, False, pts, 3)


class BoardOverlay(Scene):
    """Shared parts: a dim veil over the board and a panel."""

    opaque = False
    veil_alpha = 90
    #: H asks for the board's hint on the decision the overlay shows (tickets to keep, a
    #: home city, a marker, a tunnel's payment...), as it does on the board.
    hints = True

    def __init__(self, app, board) -> None:
        super().__init__(app)
        #: The board, through what panels may use of it (``board_port.BoardPort``).
        self.board = port_of(board)
        self.buttons: list[Button] = []
        self.mouse = (0, 0)

    def next_wake(self) -> float | None:
        """A panel over the board changes only with input (a pulsing ring on the map asks
        the board for frames; the board under it says when it moves)."""
        return None

    def draw_veil(self, surface: pygame.Surface, keep_map: bool = True) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((30, 20, 10, self.veil_alpha))
        if keep_map:
            pygame.draw.rect(veil, (0, 0, 0, 0), self.board.lay.map)
        surface.blit(veil, (0, 0))

    def handle_event(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            hover_buttons(self.buttons, event.pos)
            self.on_motion(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            if not press_button(self.buttons, event.pos, self.app.sound, self.on_button):
                self.on_click(event.pos)
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_z and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.on_take_back()
                return True
            return self.on_key(event)
        return True  # nothing reaches the board under an overlay

    def on_take_back(self) -> None:
        """Ctrl+Z over the board: the board's take-back (a claim from the step after it, a
        move of several steps from any of its steps), or why there is none."""
        self.board.take_back()

    def on_motion(self, pos) -> None:
        """Mouse moved."""

    def on_click(self, pos) -> None:
        """A click that hit no button."""

    def on_button(self, button: Button) -> None:
        """A button was clicked."""

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.board.open_pause()
        elif event.key == pygame.K_h and self.hints \
                and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            self.board.ask_hint()    # the decision this overlay asks for
        return True


class TicketChoiceOverlay(BoardOverlay):
    """Choose which drawn tickets to keep; each ticket's cities light up on the map."""

    def __init__(self, app, board) -> None:
        super().__init__(app, board)
        game = self.board.table
        self.seat = game.current_seat
        self.pending = list(game.view(self.seat).pending_tickets)
        self.initial = game.phase == Phase.CHOOSE_INITIAL_TICKETS
        rs = game.ruleset
        self.need = min(rs.initial_keep_min if self.initial else rs.ticket_keep_min,
                        len(self.pending))
        self.keep = [True] * len(self.pending)
        self.hover: int | None = None
        self.layout()

    def resize(self, size) -> None:
        if hasattr(self, "pending"):
            self.layout()

    def layout(self) -> None:
        """A panel over the map, on the side away from the drawn tickets' cities, never over
        the players' rows; the ticket cards shrink to fit any window from 1280x720."""
        lay = self.board.lay
        n = len(self.pending)
        gap = 8
        # First choice: the right column under the players, where no map is hidden.
        column = pygame.Rect(lay.right.x + 6, lay.players.bottom + 8, lay.right.width - 12,
                             lay.right.bottom - lay.players.bottom - 14)
        card_h = (column.height - 156) // max(n, 1) - gap
        if card_h >= 44:
            card_h = min(card_h, 84)
            self.panel = pygame.Rect(column.x, column.y, column.width,
                                     90 + n * (card_h + gap) + 66)
        else:
            # Else over the map, on the side with fewer of these tickets' cities.
            area = lay.map.inflate(-16, -16)
            card_h = max(44, min(84, (area.height - 170) // max(n, 1) - gap))
            self.panel = pygame.Rect(0, 0, min(360, area.width // 2), 0)
            self.panel.height = min(area.height, 90 + n * (card_h + gap) + 66)
            mv = self.board.map_view
            xs = [mv.city_pos[c][0] for t in self.pending for c in (t.a, t.b)
                  if c in mv.city_pos]
            left = sum(1 for x in xs if x < area.centerx)
            avoid = (area.left if left > len(xs) - left else area.right, area.centery)
            place_panel(self.panel, area, avoid)
        self.cards = [pygame.Rect(self.panel.x + 16, self.panel.y + 78 + i * (card_h + gap),
                                  self.panel.width - 32, card_h) for i in range(n)]
        self.ok = Button(pygame.Rect(0, 0, self.panel.width - 60, 44), "", primary=True)
        self.ok.rect.midbottom = (self.panel.centerx, self.panel.bottom - 14)
        self.buttons = [self.ok]
        self._refresh()

    def _refresh(self) -> None:
        kept = sum(self.keep)
        self.ok.label = f"Keep {plural(kept, 'ticket')}"
        self.ok.enabled = kept >= self.need

    def on_motion(self, pos) -> None:
        self.hover = next((i for i, r in enumerate(self.cards) if r.collidepoint(pos)), None)

    def on_click(self, pos) -> None:
        for i, rect in enumerate(self.cards):
            if rect.collidepoint(pos):
                self.keep[i] = not self.keep[i]
                self.app.sound.play("click")
                self._refresh()

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.ok.enabled:
            self.on_button(self.ok)
            return True
        if pygame.K_1 <= event.key <= pygame.K_9:
            i = event.key - pygame.K_1
            if i < len(self.keep):
                self.keep[i] = not self.keep[i]
                self._refresh()
            return True
        return super().on_key(event)

    def chosen_action(self) -> KeepTickets | None:
        """The legal KeepTickets action for the current selection (returns in drawn order)."""
        kept = tuple(t.id for t, k in zip(self.pending, self.keep) if k)
        returned = tuple(t.id for t, k in zip(self.pending, self.keep) if not k)
        for action in self.board.table.legal_actions():
            if action.kind == "keep_tickets" and action.tickets == kept and \
                    action.returned == returned:
                return action
        return None

    def on_button(self, button: Button) -> None:
        action = self.chosen_action()
        if action is None:
            self.app.toast(f"Keep at least {plural(self.need, 'ticket')}.", 3, "error")
            return
        self.app.pop(self)
        self.board.perform(action)

    def draw(self, surface: pygame.Surface) -> None:
        drew_private(self.seat, "tickets to choose")
        self.draw_veil(surface)
        game = self.board.table
        mv = self.board.map_view
        view = game.view(self.seat)
        names = {t: game.map.place_name(t) for tk in self.pending for t in (tk.a, tk.b)}
        focus = [self.hover] if self.hover is not None else [
            i for i, k in enumerate(self.keep) if k]
        for i in focus:
            t = self.pending[i]
            for rid in best_path(view, t.a, t.b, t):
                mv.draw_route_glow(surface, rid, style.HIGHLIGHT, 3)
            mv.draw_city_ring(surface, t.a, self.board.clock)
            mv.draw_city_ring(surface, t.b, self.board.clock + 0.5)
        style.panel(surface, self.panel, radius=14)
        title = ("Choose your starting tickets" if self.initial else "Choose tickets to keep")
        size = 22
        while size > 15 and style.font(size, True).size(title)[0] > self.panel.width - 36:
            size -= 1
        surface.blit(style.text(title, size, style.INK, bold=True),
                     (self.panel.x + 20, self.panel.y + 14))
        sub = (f"{game.players[self.seat]}: keep at least {self.need}. Click a ticket to "
               "return it; hover to see it on the map.")
        if game.final_round:
            sub += " Final round: a ticket you cannot finish now costs its points."
        for k, line in enumerate(style.wrap(sub, 14, self.panel.width - 40)):
            surface.blit(style.text(line, 14, style.INK_SOFT),
                         (self.panel.x + 20, self.panel.y + 40 + 17 * k))
        for i, (ticket, rect) in enumerate(zip(self.pending, self.cards)):
            kept = self.keep[i]
            fill = (255, 250, 236) if kept else (226, 220, 208)
            pygame.draw.rect(surface, fill, rect, border_radius=10)
            edge = style.ACCENT if kept else (170, 160, 145)
            pygame.draw.rect(surface, edge, rect, 3 if self.hover == i else 2, border_radius=10)
            if ticket.deck != "regular":
                badge = style.text(ticket.deck.upper(), 11, (255, 255, 255), bold=True)
                b = badge.get_rect(topright=(rect.right - 10, rect.y + 5)).inflate(10, 4)
                pygame.draw.rect(surface, (44, 72, 110) if ticket.deck == "long"
                                 else (70, 110, 70), b, border_radius=6)
                surface.blit(badge, badge.get_rect(center=b.center))
            ink = style.INK if kept else style.INK_SOFT
            size = 17 if rect.height >= 66 else 15
            line = size + 5
            y0 = rect.y + max(4, (rect.height - 2 * line - (18 if rect.height >= 66 else 0)) // 2)
            for k, place in enumerate((ticket.a, ticket.b)):
                label = style.text(names[place], size, ink, bold=True)
                room = rect.width - 44 - 60
                if label.get_width() > room:
                    label = style.text(names[place], size - 3, ink, bold=True)
                surface.blit(label, (rect.x + 44, y0 + k * line))
            pts = style.text(str(ticket.points), 30 if rect.height >= 56 else 24,
                             style.ACCENT if kept else ink, bold=True)
            surface.blit(pts, pts.get_rect(midright=(rect.right - 14, rect.centery + 4)))
            box = pygame.Rect(rect.x + 12, rect.centery - 11, 22, 22)
            pygame.draw.rect(surface, (255, 255, 255), box, border_radius=5)
            pygame.draw.rect(surface, style.GOOD if kept else (150, 140, 125), box, 2,
                             border_radius=5)
            if kept:
                draw_check(surface, box, style.GOOD)
            if rect.height >= 66:
                state = "keep" if kept else "return"
                surface.blit(style.text(state, 12, style.GOOD if kept else style.INK_SOFT, True),
                             (rect.x + 44, rect.bottom - 20))
        for b in self.buttons:
            b.draw(surface)


def action_words(action) -> str:
    """How a chooser row names an action: its payment when it has one, else describe()."""
    cards = getattr(action, "cards", None)
    text = pay_words(cards) if cards else action.describe()
    if action.kind == "decline":
        return action.describe().capitalize()
    return text[:1].upper() + text[1:]


def deck_sizes(game) -> str:
    """'Decks: short 23 left, long 23 left.' where tickets come from several decks."""
    sizes = game.view(game.current_seat).ticket_deck_sizes
    if len(sizes) < 2:
        return ""
    return "Decks: " + ", ".join(f"{deck} {n} left" for deck, n in sizes.items()) + "."


def place_panel(panel: pygame.Rect, area: pygame.Rect, avoid: tuple[float, float] | None,
                ) -> None:
    """Put ``panel`` inside ``area``, on the side away from the point ``avoid``."""
    panel.centery = area.centery
    if avoid is None:
        panel.centerx = area.centerx
    elif avoid[0] < area.centerx:
        panel.right = area.right - 16
    else:
        panel.left = area.left + 16
    panel.clamp_ip(area)


def place_beside(panel: pygame.Rect, area: pygame.Rect,
                 quads: list[list[tuple[float, float]]], gap: int = 12) -> bool:
    """Put ``panel`` inside ``area`` next to the shape made of ``quads`` (a route's train
    spaces on screen) without covering any of them: the nearest of the spots beside,
    above, below or at a corner of it, and beside each of its spaces. False (the panel
    left where it was) when no spot inside ``area`` keeps clear of the shape."""
    if not quads:
        return False
    boxes = []
    for quad in quads:
        xs, ys = [p[0] for p in quad], [p[1] for p in quad]
        boxes.append(pygame.Rect(math.floor(min(xs)), math.floor(min(ys)),
                                 math.ceil(max(xs) - min(xs)) + 1,
                                 math.ceil(max(ys) - min(ys)) + 1).inflate(gap, gap))
    whole = boxes[0].unionall(boxes[1:])
    cx, cy = whole.center
    w, h = panel.size
    spots = []
    for box in (whole, *boxes):
        for x in (box.left - w, box.centerx - w // 2, box.right):
            for y in (box.top - h, box.centery - h // 2, box.bottom):
                spots.append(pygame.Rect(x, y, w, h))
    best = None
    for spot in spots:
        spot.clamp_ip(area)
        if spot.collidelist(boxes) != -1:
            continue
        far = math.hypot(spot.centerx - cx, spot.centery - cy)
        if best is None or far < best[0]:
            best = (far, spot)
    if best is None:
        return False
    panel.topleft = best[1].topleft
    return True


#: Line height of a choice panel's title (22 px bold).
TITLE_LINE = 28


class ActionChooser(BoardOverlay):
    """Choose among the legal actions aimed at one thing (the ways to pay for a route, a
    station, a city marker...) or a step's options; kept clear of what it is about.

    ``cancellable=False`` for a decision the game waits on (Märklin's starting mix): no
    Cancel, as there is nothing to go back to; Esc opens the pause menu instead."""

    def __init__(self, app, board, title: str, actions: list, subtitle: str | None = None,
                 highlight_route: str | None = None,
                 highlight_city: str | None = None, cancellable: bool = True) -> None:
        super().__init__(app, board)
        self.title = title
        self.cancellable = cancellable
        self.actions = list(actions)
        self.route = highlight_route
        self.city = highlight_city
        self.subtitle = subtitle or self._default_subtitle()
        if any(getattr(a, "mix", ()) for a in self.actions):   # announced ticket mixes
            self.subtitle = " ".join(filter(None, (self.subtitle, deck_sizes(self.board.table))))
        #: The option in the first row: more options than rows are shown a page at a time.
        self.first = 0
        self.layout()

    def _default_subtitle(self) -> str:
        g = self.board.table
        if self.actions and all(getattr(a, "cards", None) for a in self.actions):
            if len(self.actions) == 1:
                text = "Confirm the cards to pay."
            else:
                text = "How do you want to pay? Fewest locomotives first."
            if self.route and g.map.routes[self.route].tunnel:
                text += (" This is a tunnel: 3 cards are then turned up, and each one of the "
                         "colour you pay (or a locomotive) costs 1 more card.")
            return text
        return g.prompt()

    def resize(self, size) -> None:
        if hasattr(self, "actions"):
            self.layout()

    def layout(self) -> None:
        area = self.board.lay.map.inflate(-16, -16)
        n = len(self.actions)
        width = min(420, area.width // 2 - 20) if self.route or self.city else min(440, area.width)
        if n > 6 and width * 2 + 40 <= area.width:
            # Two columns, inside the map; for a route or a city only while they leave it
            # in view (on a narrow map they span it, and would cover the very ferry paid for):
            # else in the band above or below it, when that shows more rows than one column.
            two = min(width, (area.width - 50) // 2)
            self._lay_out(area, 2, two)
            if not self._covers_aim():
                return
            self._lay_out(area, 1, width)
            one = self.shown
            band = self._clear_band(area)
            self._lay_out(band, 2, two)
            if self.shown > one and band.contains(self.panel) and not self._covers_aim():
                return
        self._lay_out(area, 1, width)

    def _aim_box(self) -> pygame.Rect | None:
        """The screen box of the route's spaces or of the city the choice is about."""
        mv = self.board.map_view
        if self.route:
            pts = [p for quad in mv.polys[self.route] for p in quad]
        elif self.city:
            x, y = mv.city_pos[self.city]
            pts = [(x - 12, y - 12), (x + 12, y + 12)]
        else:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return pygame.Rect(int(min(xs)), int(min(ys)), int(max(xs) - min(xs)) + 1,
                           int(max(ys) - min(ys)) + 1).inflate(12, 12)

    def _clear_band(self, area: pygame.Rect) -> pygame.Rect:
        """The taller of the strips of ``area`` above and below what the choice is about."""
        box = self._aim_box()
        if box is None:
            return area
        above = pygame.Rect(area.x, area.y, area.width, max(0, box.top - area.y))
        below = pygame.Rect(area.x, box.bottom, area.width, max(0, area.bottom - box.bottom))
        return above if above.height >= below.height else below

    def _covers_aim(self) -> bool:
        """Whether the panel hides the route's spaces or the city it is about."""
        box = self._aim_box()
        if box is None:
            return False
        mv = self.board.map_view
        if self.route:
            return any(self.panel.collidepoint(p) for p in mv.space_centers(self.route))
        return self.panel.collidepoint(mv.city_pos[self.city])

    def _lay_out(self, area: pygame.Rect, cols: int, width: int) -> None:
        """The panel in ``cols`` columns of rows ``width`` wide, placed in ``area``."""
        n = len(self.actions)
        row_h = 50
        self.sub_lines = style.wrap(self.subtitle, 15, width * cols - 20)
        # A long route's name ("Claim Barnard Castle – Middleton-in-Teesdale") goes on two
        # lines rather than out of the panel.
        self.title_lines = style.wrap(self.title, 22, width * cols + 10 * (cols - 1),
                                      bold=True)
        self.title_drop = TITLE_LINE * (len(self.title_lines) - 1)
        head = 50 + self.title_drop + 19 * len(self.sub_lines)
        rows_fit = max(1, (area.height - head - 80) // (row_h + 8))
        paged = (n + cols - 1) // cols > rows_fit
        if paged:   # a line saying which options show, and a "More" button, under the rows
            rows_fit = max(1, (area.height - head - 106) // (row_h + 8))
        rows = min((n + cols - 1) // cols, rows_fit)
        self.shown = min(n, rows * cols)
        foot = 96 if paged else 70 if self.cancellable else 30
        self.panel = pygame.Rect(0, 0, width * cols + 20 * (cols + 1) - 10 * (cols - 1),
                                 head + rows * (row_h + 8) + foot)
        avoid = None
        if self.route:
            avoid = self.board.map_view.route_center(self.route)
        elif self.city:
            avoid = self.board.map_view.city_pos[self.city]
        place_panel(self.panel, area, avoid)
        self.rows = []
        for i in range(self.shown):
            c, r = i % cols, i // cols
            self.rows.append(pygame.Rect(self.panel.x + 20 + c * (width + 10),
                                         self.panel.y + head + r * (row_h + 8), width, row_h))
        cancel = Button(pygame.Rect(0, 0, 160, 42), "Cancel")
        cancel.rect.midbottom = (self.panel.centerx, self.panel.bottom - 14)
        self.buttons = [cancel] if self.cancellable else []
        self.more: Button | None = None
        if paged:
            self.more = Button(pygame.Rect(0, 0, 120, 42), "More \u203a")
            self.more.rect.bottomleft = (self.panel.x + 20, self.panel.bottom - 14)
            cancel.rect.width = 140
            cancel.rect.bottomright = (self.panel.right - 20, self.panel.bottom - 14)
            self.buttons.append(self.more)
        #: Where the line saying which options show ("Ways 1–6 of 19") starts.
        self.page_at = (self.panel.x + 20, self.panel.bottom - 80)
        self.first = self.first if self.first < n else 0
        self.hover: int | None = None

    def row_action(self, i: int):
        """The option shown in row ``i`` (None: a row left empty on the last page)."""
        k = self.first + i
        return self.actions[k] if i < self.shown and k < len(self.actions) else None

    def page_words(self) -> str:
        """Which options the rows show, as "Ways 1–6 of 19" (empty when all show)."""
        n = len(self.actions)
        if self.more is None:
            return ""
        last = min(n, self.first + self.shown)
        what = "Ways" if all(getattr(a, "cards", None) for a in self.actions) else "Options"
        return f"{what} {self.first + 1}\u2013{last} of {n}"

    def next_page(self) -> None:
        """The next options (after the last, the first again)."""
        self.first = self.first + self.shown if self.first + self.shown < len(self.actions) \
            else 0
        self.hover = None

    def card_spots(self, i: int) -> list[tuple[str, int]]:
        """(card, x) of the small cards drawn in row ``i``: colours first, at most 8 of a
        kind, packed closer when they would take more than half the row."""
        rect = self.rows[i]
        cards = getattr(self.row_action(i), "cards", None) or ()
        ordered = sorted(cards, key=lambda p: (p[0] in WILD_NAMES, p[0]))
        shown = [(card, min(count, 8)) for card, count in ordered]
        step, gap = 14, 20
        need = sum(n for _, n in shown) * step + gap * len(shown)
        half = rect.width // 2
        if need > half and shown:
            scale = half / need
            step, gap = max(5, int(step * scale)), max(8, int(gap * scale))
        out = []
        x = rect.x + 32
        for card, n in shown:
            for _ in range(n):
                out.append((card, x))
                x += step
            x += gap
        return out

    def row_label(self, i: int) -> tuple[int, list[str], int]:
        """(x, lines, size) of row ``i``'s words, kept inside the row: one line shrunk down
        to 12, then two lines, then whole words left out."""
        rect = self.rows[i]
        spots = self.card_spots(i)
        x = (spots[-1][1] + 26 + 12) if spots else rect.x + 38
        room = rect.right - x - 8
        text = action_words(self.row_action(i))
        for size in (15, 14, 13, 12):
            if style.font(size).size(text)[0] <= room:
                return x, [text], size
        lines = style.wrap(text, 12, room)
        if len(lines) <= 2 and all(style.font(12).size(ln)[0] <= room for ln in lines):
            return x, lines, 12
        words = text.split(" ")
        first = lines[0] if style.font(12).size(lines[0])[0] <= room else ""
        rest = words[len(first.split(" ")):] if first else words
        while rest and style.font(12).size(" ".join(rest) + "…")[0] > room:
            rest.pop()
        second = (" ".join(rest) + "…") if rest else "…"
        return x, [ln for ln in (first, second) if ln], 12

    def choose(self, i: int) -> None:
        """Perform the option in row ``i``."""
        action = self.row_action(i)
        if action is None:
            return
        self.app.pop(self)
        self.board.perform(action)

    def on_motion(self, pos) -> None:
        self.hover = next((i for i, r in enumerate(self.rows) if r.collidepoint(pos)), None)

    def on_click(self, pos) -> None:
        for i, rect in enumerate(self.rows):
            if rect.collidepoint(pos):
                self.choose(i)
                return
        if not self.panel.collidepoint(pos) and self.cancellable:
            self.app.pop(self)

    def on_button(self, button: Button) -> None:
        if button is self.more:
            self.next_page()
            return
        self.app.pop(self)

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            if not self.cancellable:
                return super().on_key(event)
            self.app.pop(self)
        elif event.key == pygame.K_PAGEDOWN and self.more is not None:
            self.next_page()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and len(self.actions) == 1:
            self.choose(0)
        elif pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < self.shown:
            self.choose(event.key - pygame.K_1)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        drew_private(self.board.table.current_seat, "choice")
        self.draw_veil(surface)
        if self.route:
            self.board.map_view.draw_route_glow(surface, self.route)
        if self.city:
            self.board.map_view.draw_city_ring(surface, self.city, self.board.clock)
        style.panel(surface, self.panel, radius=14)
        for k, line in enumerate(self.title_lines):
            surface.blit(style.text(line, 22, style.INK, bold=True),
                         (self.panel.x + 20, self.panel.y + 14 + TITLE_LINE * k))
        for k, line in enumerate(self.sub_lines):
            surface.blit(style.text(line, 15, style.INK_SOFT),
                         (self.panel.x + 20, self.panel.y + 44 + self.title_drop + 19 * k))
        symbols = self.app.settings.colorblind_symbols
        for i, rect in enumerate(self.rows):
            if self.row_action(i) is None:
                continue
            fill = (255, 236, 170) if self.hover == i else (252, 248, 238)
            pygame.draw.rect(surface, fill, rect, border_radius=8)
            pygame.draw.rect(surface, style.PANEL_EDGE, rect, 1, border_radius=8)
            surface.blit(style.text(f"{i + 1}", 14, style.INK_SOFT), (rect.x + 10, rect.y + 15))
            for card, x in self.card_spots(i):
                surface.blit(card_surface(card, (26, 38), symbols), (x, rect.y + 6))
            x, lines, size = self.row_label(i)
            top = rect.centery - len(lines) * style.font(size).get_linesize() // 2
            for k, line in enumerate(lines):
                surface.blit(style.text(line, size, style.INK),
                             (x, top + k * style.font(size).get_linesize()))
        if self.more is not None:
            page = style.text(self.page_words(), 13, style.INK_SOFT)
            surface.blit(page, self.page_at)
        for b in self.buttons:
            b.draw(surface)


#: Kept for callers that knew the chooser as the payment dialog.
PaymentOverlay = ActionChooser


class StepOverlay(BoardOverlay):
    """The generic panel for a decision the board has no special overlay for: the engine's
    prompt and every legal action by its ``describe()``; actions aimed at the map can also be
    picked there (their targets glow). A person is never stuck."""

    veil_alpha = 40

    def __init__(self, app, board) -> None:
        super().__init__(app, board)
        self.version = self.board.table.version
        self.layout()

    def resize(self, size) -> None:
        self.layout()

    def layout(self) -> None:
        g = self.board.table
        self.actions = g.legal_actions()
        right = self.board.lay.right
        self.panel = pygame.Rect(right.x + 6, right.y + 8, right.width - 12, right.height - 16)
        self.title_lines = style.wrap(self.title_text(), 18, self.panel.width - 32)
        top = self.panel.y + 20 + 24 * len(self.title_lines) + 12
        # Until the last step of a move, Cancel takes the move back (as Ctrl+Z does).
        self.cancel: Button | None = None
        self.rows_bottom = self.panel.bottom - 16
        if self.board.can_take_back():
            self.cancel = Button(pygame.Rect(self.panel.x + 14, self.panel.bottom - 54,
                                             self.panel.width - 28, 40),
                                 "Cancel: take the move back")
            self.rows_bottom -= 50
        room = max(1, (self.rows_bottom - top) // 46)
        self.rows = [pygame.Rect(self.panel.x + 14, top + i * 46, self.panel.width - 28, 40)
                     for i in range(min(room, len(self.actions)))]
        self.buttons = [self.cancel] if self.cancel else []
        self.hover: int | None = None
        self.targets = {a.target() for a in self.actions if a.target() is not None}

    def title_text(self) -> str:
        """The panel's heading (a family's subclass may say more than the prompt)."""
        return self.board.table.prompt()

    def row_text(self, action) -> str:
        """How a row names ``action`` (a family's subclass may name it with the map)."""
        return action_words(action)

    def hint_words(self, action) -> str:
        """How the H hint names ``action`` (in a sentence: "Hint: <this>: <reason>")."""
        text = self.row_text(action)
        return text[:1].lower() + text[1:]

    def update(self, dt: float) -> None:
        if self.board.table.version != self.version:
            self.app.pop(self)

    def on_button(self, button: Button) -> None:
        if button is self.cancel:
            self.board.take_back()

    def on_motion(self, pos) -> None:
        self.hover = next((i for i, r in enumerate(self.rows) if r.collidepoint(pos)), None)
        self.board.mouse = pos
        self.board.update_hover(pos)

    def on_click(self, pos) -> None:
        for i, rect in enumerate(self.rows):
            if rect.collidepoint(pos):
                self.app.pop(self)
                self.board.perform(self.actions[i])
                return
        board = self.board
        board.update_hover(pos)
        target = self.aimed_at(board.hover_route, board.hover_city)
        if target in self.targets:
            self.app.pop(self)
            board.click_target(*target)
        elif target is not None and target[0] in {kind for kind, _ in self.targets}:
            board.click_target(*target)    # not a choice: the board says why (a toast)

    def aimed_at(self, route_id: str | None, city_id: str | None) -> tuple[str, str] | None:
        """What a click on the map chooses: the city, or the route, or, for a track of a
        double or triple whose other track is lit, that lit track (any lit track's group
        is a target)."""
        if city_id:
            return ("city", city_id)
        if not route_id:
            return None
        target = ("route", route_id)
        if target in self.targets:
            return target
        b = self.board.table.board
        siblings = {b.route_ids[s] for s in b.r_siblings[b.route_index[route_id]]}
        for action in self.actions:   # the panel's order: the first lit track of the group
            aim = action.target()
            if aim is not None and aim[0] == "route" and aim[1] in siblings:
                return aim
        return target

    def on_key(self, event) -> bool:
        if pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < len(self.rows):
            self.app.pop(self)
            self.board.perform(self.actions[event.key - pygame.K_1])
            return True
        return super().on_key(event)

    def draw(self, surface: pygame.Surface) -> None:
        drew_private(self.board.table.current_seat, "step")
        mv = self.board.map_view
        for kind, ident in self.targets:
            if kind == "route":
                mv.draw_route_glow(surface, ident, style.HIGHLIGHT, 3)
            else:
                mv.draw_city_ring(surface, ident, self.board.clock)
        style.panel(surface, self.panel, radius=14)
        y = self.panel.y + 16
        for line in self.title_lines:
            surface.blit(style.text(line, 18, style.INK, bold=True), (self.panel.x + 16, y))
            y += 24
        for i, rect in enumerate(self.rows):
            fill = (255, 236, 170) if self.hover == i else (252, 248, 238)
            pygame.draw.rect(surface, fill, rect, border_radius=8)
            pygame.draw.rect(surface, style.PANEL_EDGE, rect, 1, border_radius=8)
            text = f"{i + 1}. {self.row_text(self.actions[i])}" if i < 9 else \
                self.row_text(self.actions[i])
            lines = style.wrap(text, 14, rect.width - 16)[:2]
            # One line or two, centred in the row as the other choice lists are.
            top = rect.centery - (17 * (len(lines) - 1) + style.font(14).get_height()) // 2
            for k, line in enumerate(lines):
                surface.blit(style.text(line, 14, style.INK), (rect.x + 8, top + 17 * k))
        if len(self.rows) < len(self.actions):
            more = style.text(f"{len(self.actions) - len(self.rows)} more on the map", 13,
                              style.INK_SOFT)
            surface.blit(more, (self.panel.x + 16, self.rows_bottom - 6))
        for b in self.buttons:
            b.draw(surface)
        if self.board.hover_city is not None and self.app.top is self:
            self.board.draw_tooltip(surface)   # the city: a choice, or why it is not one


#: Overlays for phases (core or a module's): phase -> factory(board) -> overlay or None.
#: Rule families register theirs; a phase without one gets the StepOverlay.
PHASE_OVERLAYS: dict[str, object] = {}


def register_phase_overlay(phase: str, factory) -> None:
    """Use ``factory(board)`` for decisions in ``phase``."""
    PHASE_OVERLAYS[phase] = factory


def overlay_for(board, phase: str):
    """The overlay a person needs for the pending decision, or None (a plain turn)."""
    board = port_of(board)
    g = board.table
    if phase in (Phase.TURN, Phase.SECOND_CARD, Phase.GAME_OVER):
        return None
    factory = PHASE_OVERLAYS.get(phase)
    if factory is not None:
        made = factory(board)
        if made is not None:
            return made
    if phase in (Phase.CHOOSE_INITIAL_TICKETS, Phase.KEEP_TICKETS) and \
            g.view(g.current_seat).pending_tickets:
        return TicketChoiceOverlay(board.app, board)
    if phase == Phase.CHOOSE_INITIAL_TICKETS:
        acts = g.legal_actions()
        return ActionChooser(board.app, board, "Your starting tickets", acts,
                             "How many from each deck? " + g.prompt(), cancellable=False)
    return StepOverlay(board.app, board)


class TunnelOverlay(BoardOverlay):
    """A tunnel revealed its cards: pay the extra or give the route up; when the hand
    cannot pay, it says how many cards are missing."""

    def __init__(self, app, board) -> None:
        super().__init__(app, board)
        self.layout()

    def hint_words(self, action) -> str:
        """How the H hint names a choice: the payment in the window's words."""
        if action.kind == "pay_tunnel":
            return f"pay the tunnel with {pay_words(action.cards)}"
        return action.describe()

    def resize(self, size) -> None:
        self.layout()

    def _info(self) -> dict:
        g = self.board.table
        return g.view(g.current_seat).extra.get("tunnel") or {}

    def message(self) -> list[str]:
        """What the player reads above the buttons."""
        info = self._info()
        if not info:
            return []
        colour = next((c for c, _ in info.get("paid_cards", ()) if c not in WILD_NAMES), None)
        what = f"{colour} cards or locomotives" if colour else "locomotives"
        extra = info["extra"]
        text = (f"You played {info.get('paid', '')}. Each revealed card of that colour, and "
                f"each locomotive, costs one more: add {extra} more {what}, or give up and "
                "take your cards back.")
        if not any(a.kind == "pay_tunnel" for a in self.actions):
            g = self.board.table
            hand = g.view(g.current_seat).hand
            paid = dict(info.get("paid_cards", ()))
            have = hand.get("locomotive", 0) - paid.get("locomotive", 0)
            if colour:
                have += hand.get(colour, 0) - paid.get(colour, 0)
            text += (f" You cannot pay: you need {extra} more {what} and have {max(0, have)}.")
        return [text]

    def layout(self) -> None:
        self.actions = self.board.table.legal_actions()
        width = 560
        self.lines = [line for msg in self.message() for line in style.wrap(msg, 15, width - 40)]
        top = 92 + 20 * len(self.lines) + 86
        self.panel = pygame.Rect(0, 0, width, top + 50 * len(self.actions) + 10)
        info = self._info()
        area = self.board.lay.map.inflate(-16, -16)
        # Beside the tunnel, never over it (on a narrow map, above or below it); else on
        # the side away from it.
        mv = self.board.map_view
        if not (info and place_beside(self.panel, area, mv.polys.get(info["route"], []))):
            place_panel(self.panel, area, mv.route_center(info["route"]) if info else None)
        self.buttons = []
        for i, action in enumerate(self.actions):
            label = ("Give up and take my cards back" if action.kind == "decline_tunnel" else
                     "Pay " + pay_words(action.cards))
            b = Button(pygame.Rect(self.panel.x + 40, self.panel.y + top + i * 50,
                                   self.panel.width - 80, 42),
                       label, primary=action.kind == "pay_tunnel" and i == 0)
            b.action = action
            self.buttons.append(b)

    def on_button(self, button: Button) -> None:
        self.app.pop(self)
        self.board.perform(button.action)

    def draw(self, surface: pygame.Surface) -> None:
        drew_private(self.board.table.current_seat, "tunnel")
        self.draw_veil(surface)
        info = self._info()
        if info:
            self.board.map_view.draw_route_glow(surface, info["route"])
        style.panel(surface, self.panel, radius=14)
        surface.blit(style.text("Tunnel!", 24, style.INK, bold=True),
                     (self.panel.x + 20, self.panel.y + 14))
        for k, line in enumerate(self.lines):
            surface.blit(style.text(line, 15, style.INK_SOFT),
                         (self.panel.x + 20, self.panel.y + 48 + 20 * k))
        if info:
            x = self.panel.x + 40
            y = self.panel.y + 60 + 20 * len(self.lines)
            for card in info["revealed"]:
                surface.blit(card_surface(card, (48, 70), self.app.settings.colorblind_symbols),
                             (x, y))
                x += 58
        for b in self.buttons:
            b.draw(surface)


class HandOverOverlay(BoardOverlay):
    """Between two people: everything private is hidden until the next one clicks. The
    player who just moved may still take back a move that revealed nothing."""

    veil_alpha = 230
    hints = False   # nobody's private position is on screen

    def __init__(self, app, board, seat: int, handed_back: bool = False) -> None:
        super().__init__(app, board)
        self.seat = seat
        #: The screen goes back to this player because their move was taken back.
        self.handed_back = handed_back
        self.layout()

    def resize(self, size) -> None:
        self.layout()

    def layout(self) -> None:
        g = self.board.table
        name = g.players[self.seat]
        self.panel = pygame.Rect(0, 0, 540, 250)
        self.panel.center = (self.app.size[0] // 2, self.app.size[1] // 2)
        ok = Button(pygame.Rect(0, 0, 300, 52), f"I am {name}", primary=True)
        ok.rect.midbottom = (self.panel.centerx, self.panel.bottom - 24)
        self.buttons = [ok]
        who = self.board.undo_seat()
        self.back = None
        if who is not None and who != self.seat:
            self.back = Button(pygame.Rect(0, 0, 300, 36), f"Take back {g.players[who]}'s move")
            self.back.rect.midbottom = (self.panel.centerx, ok.rect.top - 10)
            self.buttons.append(self.back)

    def on_button(self, button: Button) -> None:
        self.app.pop(self)
        if button is self.back:
            self.board.undo()
            return
        self.board.hand_over_to(self.seat)

    def on_take_back(self) -> None:
        if self.back is not None:
            self.on_button(self.back)
        else:   # only the player who moved may take it back, once they have the screen
            self.board.refuse("Nothing to take back here: the player whose turn it is "
                               "takes a move back after clicking their name.")

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.on_button(self.buttons[0])
            return True
        return super().on_key(event)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_veil(surface, keep_map=False)
        style.panel(surface, self.panel, radius=16)
        name = self.board.table.players[self.seat]
        rgb = self.board.rgb[self.seat]
        pygame.draw.circle(surface, rgb, (self.panel.x + 40, self.panel.y + 44), 14)
        surface.blit(style.text(f"Pass the screen to {name}", 26, style.INK, bold=True),
                     (self.panel.x + 64, self.panel.y + 28))
        say = "Cards and tickets stay hidden until you click."
        if self.handed_back:
            say = f"{name}'s move was taken back. " + say
        for k, line in enumerate(style.wrap(say, 16, self.panel.width - 90)[:2]):
            surface.blit(style.text(line, 16, style.INK_SOFT),
                         (self.panel.x + 64, self.panel.y + 72 + 20 * k))
        for b in self.buttons:
            b.draw(surface)
