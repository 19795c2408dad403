"""The scoring screen: the final map, an animated tally per player, the winner, and the
score track over the game.

The tally reveals one line at a time, player by player (route points, each ticket,
the longest path, unbuilt stations) while each player's total counts up; a click or
Space shows everything at once. The player whose column has the focus (the one being
counted, or the one hovered or clicked) gets their longest path glowing on the map;
hovering a ticket line rings its two cities green (done) or red (failed).

Static parts (map layer, column headers, every tally line, the chart) are rendered
once per layout; a frame blits them and draws only what moves.
"""

from __future__ import annotations

import math
from collections import deque

import pygame

from ttr_desktop.rules.scoring import TicketResult
from ttr_desktop.ui import style
from ttr_desktop.ui.animations import SPEED
from ttr_desktop.ui.map_view import MapView
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.scenes.board_overlays import Button
from ttr_desktop.ui.scenes.scoring_chart import ScoreChart
from ttr_desktop.ui.scenes.scoring_parts import (
    DASH, DONE_GREEN, FAIL_RED, STEP, Column, draw_tick, fit,
    margin_text, number, row_label, signed, tally_rows, tie_break_text,
    winner_title,
)
from ttr_desktop.ui.session import BOT_LEVELS, GameSession

class ScoringScene(Scene):
    """The end of a game: who won, and why."""

    opaque = True

    def __init__(self, app, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        game = session.game
        self.game = game
        self.result = game.result()
        self.scores = self.result.scores
        self.n = game.num_players
        self.names = list(game.players)
        self.rgb = [style.PLAYER_COLORS.get(s.color, (90, 90, 90)) for s in session.seats]
        view = game.view(0)
        self.owners = dict(view.route_owners)
        self.stations = dict(view.extra.get("stations") or {})
        self.stations_in_play = game.has_module("stations")
        city_names = {cid: c.name for cid, c in game.map.cities.items()}
        self.city_names = city_names
        station_points = getattr(game.ruleset, "station_points", 4)
        self.rows = [tally_rows(sc, sum(1 for o in self.owners.values() if o == sc.seat),
                                city_names, self.stations_in_play, station_points)
                     for sc in self.scores]
        self.steps = [(seat, i) for seat in range(self.n) for i in range(len(self.rows[seat]))]
        self.title = winner_title(self.result, self.names)
        self.subtitle = tie_break_text(self.result, self.names) or \
            margin_text(self.result, self.names)
        history = [list(p) for p in session.history] or [list(game.state.points)]
        self.history = history
        # Tally state.
        self.pos = 0                        # steps revealed
        self.timer = 0.0
        self.clock = 0.0
        self.reveal_time: dict[tuple[int, int], float] = {}
        self.targets = [0] * self.n
        self.displayed = [0.0] * self.n
        self.done = False
        self.done_at = 0.0
        self._last_ticket_sound = -1.0
        # Focus and hover.
        self.pinned: int | None = None
        self.hover_seat: int | None = None
        self.hover_row: tuple[int, int] | None = None
        self.mouse = (0, 0)
        self._path_cache: dict[tuple[int, str], list[str]] = {}
        self.map_view = MapView(game.map, pygame.Rect(0, 0, 640, 400),
                                symbols=app.settings.colorblind_symbols)
        self.buttons: list[Button] = []
        self._dim: tuple[pygame.Surface, pygame.Surface] | None = None
        self._captions: dict[tuple, pygame.Surface] = {}
        self.size = app.size
        self.resize(app.size)

    # Scene hooks ---------------------------------------------------------
    def enter(self) -> None:
        self.app.sound.play("end")
        if self.step_time <= 0:
            self.skip()

    @property
    def step_time(self) -> float:
        """Seconds per tally line at the current animation speed."""
        return STEP * SPEED.get(self.app.settings.animation_speed, 1.0)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        w, h = size
        pad = 12
        chart_h = max(176, min(270, int(h * 0.27)))
        map_w = int(w * (0.6 if self.n <= 2 else 0.55 if self.n == 3 else 0.52))
        self.map_rect = pygame.Rect(0, 0, map_w, h - chart_h)
        self.map_view.layout(self.map_rect.inflate(-12, -12))
        self.panel_rect = pygame.Rect(map_w + pad, pad, w - map_w - 2 * pad,
                                      h - chart_h - pad - pad // 2)
        self.chart_rect = pygame.Rect(pad, h - chart_h + pad // 2, map_w - pad - pad // 2,
                                      chart_h - pad - pad // 2)
        self.result_rect = pygame.Rect(self.panel_rect.x, self.chart_rect.y,
                                       self.panel_rect.width, self.chart_rect.height)
        self._layout_columns()
        self._layout_result()
        self._build_chart()

    # Layout: tally columns -------------------------------------------------
    def _layout_columns(self) -> None:
        panel = self.panel_rect
        gap = 8
        inner = panel.inflate(-20, -20)
        top = inner.y + 36
        col_w = (inner.width - gap * (self.n - 1)) // self.n
        self.wide = col_w >= 200
        self.header_h = 74 if self.wide else 100
        self.columns: list[Column] = []
        avail = inner.bottom - top - self.header_h - 8
        most = max(len(r) for r in self.rows)
        self.line_h = max(17, min(26, avail // max(1, most)))
        self.row_size = 15 if self.line_h >= 21 and col_w >= 150 else 13
        self.capacity = max(3, avail // self.line_h)
        for seat in range(self.n):
            rect = pygame.Rect(inner.x + seat * (col_w + gap), top, col_w, inner.bottom - top)
            col = Column(rect, rect.y + self.header_h)
            if self.wide:
                col.total_pos, col.total_anchor = (rect.right - 12, rect.y + 10), "topright"
            else:
                col.total_pos, col.total_anchor = (rect.x + 12, rect.y + 52), "topleft"
            self.columns.append(col)
        self._shown_rows = [self._visible_rows(seat) for seat in range(self.n)]
        for seat, col in enumerate(self.columns):
            col.row_rects = [pygame.Rect(col.rect.x + 4, col.rows_top + k * self.line_h,
                                         col.rect.width - 8, self.line_h)
                             for k in range(len(self._shown_rows[seat]))]
            col.row_surfs = [self._row_surface(seat, entry, col.rect.width - 8)
                             for entry in self._shown_rows[seat]]
        self._build_panel()

    def _visible_rows(self, seat: int) -> list[list[int]]:
        """Display rows as lists of tally-row indices: one each, except that tickets beyond
        the panel's height share one summary line."""
        rows = self.rows[seat]
        if len(rows) <= self.capacity:
            return [[i] for i in range(len(rows))]
        tickets = [i for i, r in enumerate(rows) if r.kind == "ticket"]
        keep = max(1, len(tickets) - (len(rows) - self.capacity) - 1)
        folded = set(tickets[keep:])
        out: list[list[int]] = []
        for i in range(len(rows)):
            if i in folded:
                if not out or out[-1][0] not in folded:
                    out.append([])
                out[-1].append(i)
            else:
                out.append([i])
        return out

    def _row_surface(self, seat: int, entry: list[int], width: int) -> pygame.Surface:
        size = self.row_size
        surf = pygame.Surface((width, self.line_h), pygame.SRCALPHA)
        rows = [self.rows[seat][i] for i in entry]
        value = sum(r.value for r in rows)
        mid = self.line_h // 2
        x = 4
        if len(rows) > 1:
            label = f"{len(rows)} more tickets ({sum(r.ticket.done for r in rows)} done)"
            if style.font(size).size(label)[0] > width - 40:
                label = f"{len(rows)} more"
            ink = style.INK_SOFT
            vink = style.GOOD if value > 0 else style.BAD if value < 0 else style.INK_SOFT
        else:
            row = rows[0]
            label, ink, vink = row.label, style.INK, row.ink
            if row.kind == "ticket" and width >= 190:
                draw_tick(surf, (x + 7, mid), min(14, self.line_h - 4), row.ticket.done)
                x += 18
            elif row.kind == "longest" and not row.value:
                vink = style.INK_SOFT
        vt = style.text(signed(value), size + 1, vink, bold=True)
        surf.blit(vt, vt.get_rect(midright=(width - 4, mid)))
        room = width - x - vt.get_width() - 8
        bold = rows[0].kind == "routes"
        if len(rows) == 1:
            label = row_label(rows[0], size, room, bold)
        lt = style.text(fit(label, size, room, bold), size, ink, bold)
        surf.blit(lt, lt.get_rect(midleft=(x, mid)))
        return surf

    def _build_panel(self) -> None:
        """The tally panel without anything that changes: title, boxes, names."""
        panel = self.panel_rect
        m = 8  # room for the shadow
        surf = pygame.Surface((panel.width + 2 * m, panel.height + 2 * m), pygame.SRCALPHA)
        ox, oy = panel.x - m, panel.y - m
        style.panel(surf, panel.move(-ox, -oy), radius=12)
        inner = panel.inflate(-20, -20).move(-ox, -oy)
        surf.blit(style.text("Final scores", 22, style.INK, bold=True), (inner.x, inner.y - 2))
        info = f"{self.game.map.name} · {max(0, len(self.history) - 1)} turns"
        t = style.text(info, 14, style.INK_SOFT)
        surf.blit(t, t.get_rect(topright=(inner.right, inner.y + 6)))
        for seat, col in enumerate(self.columns):
            rect = col.rect.move(-ox, -oy)
            rows_top = col.rows_top - oy
            pygame.draw.rect(surf, (255, 252, 244), rect, border_radius=9)
            pygame.draw.rect(surf, style.PANEL_EDGE, rect, 1, border_radius=9)
            strip = pygame.Rect(rect.x, rect.y, rect.width, 7)
            pygame.draw.rect(surf, self.rgb[seat], strip, border_top_left_radius=9,
                             border_top_right_radius=9)
            seat_cfg = self.session.seats[seat]
            name_w = rect.width - (110 if self.wide else 20)
            surf.blit(style.text(fit(self.names[seat], 18, name_w, True), 18, style.INK, True),
                      (rect.x + 12, rect.y + 12))
            kind = (f"{BOT_LEVELS.get(seat_cfg.level, seat_cfg.level)} bot" if seat_cfg.is_bot
                    else "Player")
            surf.blit(style.text(fit(kind, 13, rect.width - 24), 13, style.INK_SOFT),
                      (rect.x + 12, rect.y + 35))
            y = rows_top - 4
            pygame.draw.line(surf, (226, 216, 196), (rect.x + 8, y), (rect.right - 8, y))
        self.panel_surf = surf
        self.panel_pos = (panel.x - m, panel.y - m)

    # Layout: result box and buttons ---------------------------------------
    def _layout_result(self) -> None:
        box = self.result_rect
        bh = 44
        gap = 12
        w_main = (box.width - 2 * 16 - gap) * 3 // 5
        w_menu = box.width - 2 * 16 - gap - w_main
        y = box.bottom - 16 - bh
        self.play_again_button = Button(pygame.Rect(box.x + 16, y, w_main, bh),
                                        "Play again (same seats)", primary=True)
        self.menu_button = Button(pygame.Rect(box.x + 16 + w_main + gap, y, w_menu, bh),
                                  "Main menu")
        self.buttons = [self.play_again_button, self.menu_button]
        for b in self.buttons:
            b.hover = b.rect.collidepoint(self.mouse)
        text_w = box.width - 40
        size = 30
        while size > 20 and style.font(size, True).size(self.title)[0] > text_w - 34:
            size -= 2
        self.title_size = size
        bg = pygame.Surface((box.width + 16, box.height + 16), pygame.SRCALPHA)
        style.panel(bg, pygame.Rect(8, 8, box.width, box.height).inflate(0, -8).move(0, -3),
                    radius=12)
        self.result_bg = bg
        banner = pygame.Surface(box.size, pygame.SRCALPHA)
        x = 20
        title = style.text(fit(self.title, size, text_w - 34, True), size, style.INK, True)
        ty = 14
        win_rgb = [self.rgb[s] for s in self.result.winners]
        for k, rgb in enumerate(win_rgb[:3]):
            pygame.draw.circle(banner, (30, 24, 18), (x + 11 + k * 8, ty + title.get_height() // 2
                                                     + 1), 11)
            pygame.draw.circle(banner, rgb, (x + 11 + k * 8, ty + title.get_height() // 2), 10)
        tx = x + 30 + 8 * (min(3, len(win_rgb)) - 1)
        banner.blit(title, (tx, ty))
        lines = style.wrap(self.subtitle, 16, text_w)
        for k, line in enumerate(lines[:2]):
            banner.blit(style.text(line, 16, style.INK_SOFT), (x, ty + title.get_height() + 4 +
                                                             k * 20))
        self.banner_surf = banner
        self.hint_surf = style.text("Counting the score…", 22, style.INK, True)
        self.hint2_surf = style.text("Click or press Space to see everything at once.", 15,
                                     style.INK_SOFT)

    # Layout: chart ---------------------------------------------------------
    def _build_chart(self) -> None:
        finals = [sc.total for sc in self.scores]
        self.chart = ScoreChart(self.chart_rect, self.history, finals, self.rgb, self.names)
        self.final_segments = self.chart.final_segments

    # Tally -----------------------------------------------------------------
    def revealed(self, seat: int) -> int:
        """How many of ``seat``'s tally lines are shown."""
        before = sum(len(self.rows[s]) for s in range(seat))
        return max(0, min(len(self.rows[seat]), self.pos - before))

    def seat_complete(self, seat: int) -> bool:
        """True once every line of ``seat`` is shown."""
        return self.revealed(seat) >= len(self.rows[seat])

    def _reveal_next(self, quiet: bool = False) -> None:
        seat, i = self.steps[self.pos]
        self.pos += 1
        row = self.rows[seat][i]
        self.targets[seat] += row.value
        self.reveal_time[(seat, i)] = self.clock
        if not quiet and row.kind == "ticket" and row.ticket.done and \
                self.clock - self._last_ticket_sound > 0.6:
            self.app.sound.play("ticket")
            self._last_ticket_sound = self.clock

    def skip(self) -> None:
        """Show the whole tally and the winner at once."""
        while self.pos < len(self.steps):
            self._reveal_next(quiet=True)
        self.displayed = [float(t) for t in self.targets]
        self._finish()

    def _finish(self) -> None:
        if not self.done:
            self.done = True
            self.done_at = self.clock

    def shown_totals(self) -> list[int]:
        """The totals as displayed now (the real totals once the tally is done)."""
        return [round(d) for d in self.displayed]

    @property
    def counting_seat(self) -> int | None:
        """The player being counted (None once all are counted)."""
        if self.pos >= len(self.steps):
            return None
        if self.pos == 0:
            return self.steps[0][0]
        return self.steps[self.pos - 1][0]

    @property
    def focus(self) -> int:
        """The player shown on the map."""
        if self.hover_seat is not None:
            return self.hover_seat
        if not self.done and self.counting_seat is not None:
            return self.counting_seat
        if self.pinned is not None:
            return self.pinned
        return self.result.winners[0]

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.done:
            return
        step = self.step_time
        if step <= 0:
            self.skip()
            return
        self.timer -= dt
        while self.timer <= 0 and self.pos < len(self.steps):
            self._reveal_next()
            nxt = self.steps[self.pos][0] if self.pos < len(self.steps) else None
            new_seat = nxt is not None and nxt != self.steps[self.pos - 1][0]
            self.timer += step * (2.5 if new_seat else 1.0)
        settled = True
        for seat in range(self.n):
            diff = self.targets[seat] - self.displayed[seat]
            if abs(diff) < 0.5:
                self.displayed[seat] = float(self.targets[seat])
                continue
            settled = False
            move = max(30.0 * dt / max(step, 0.05) * 0.35, abs(diff) * min(1.0, dt * 7))
            self.displayed[seat] += math.copysign(min(abs(diff), move), diff)
        if settled and self.pos >= len(self.steps):
            self._finish()

    # Events --------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._update_hover(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._update_hover(event.pos)
            for b in self.buttons:
                if b.hit(event.pos):
                    self.app.sound.play("click")
                    if b is self.play_again_button:
                        self.play_again()
                    else:
                        self.main_menu()
                    return True
            if not self.done:
                self.skip()
            elif self.hover_seat is not None:
                self.pinned = self.hover_seat
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.main_menu()
                return True
            if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER) and \
                    not self.done:
                self.skip()
                return True
            if pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < self.n:
                self.pinned = event.key - pygame.K_1
                return True
        return False

    def _update_hover(self, pos) -> None:
        for b in self.buttons:
            b.hover = b.rect.collidepoint(pos)
        self.hover_seat = None
        self.hover_row = None
        for seat, col in enumerate(self.columns):
            if col.rect.collidepoint(pos):
                self.hover_seat = seat
                for k, rect in enumerate(col.row_rects):
                    entry = self._shown_rows[seat][k]
                    if rect.collidepoint(pos) and self.revealed(seat) > entry[0]:
                        self.hover_row = (seat, k)
                break

    def hovered_tickets(self) -> list[tuple[int, TicketResult]]:
        """The ticket(s) of the hovered tally line."""
        if self.hover_row is None:
            return []
        seat, k = self.hover_row
        rows = [self.rows[seat][i] for i in self._shown_rows[seat][k]]
        return [(seat, r.ticket) for r in rows if r.ticket is not None]

    # Actions -------------------------------------------------------------
    def play_again(self) -> None:
        """A new game with the same seats."""
        from ttr_desktop.ui.scenes.board import BoardScene
        self.app.replace(BoardScene(self.app, self.session.rematch()))

    def main_menu(self) -> None:
        """Back to the title screen (or close the window if there is none)."""
        try:
            from ttr_desktop.ui.scenes.menu import MenuScene
        except ImportError:
            self.app.quit()
            return
        self.app.replace(MenuScene(self.app))

    # Drawing -------------------------------------------------------------
    def _ticket_path(self, seat: int, ticket: TicketResult) -> list[str]:
        """Routes joining a done ticket's cities over the player's (and borrowed) routes."""
        key = (seat, ticket.id)
        if key in self._path_cache:
            return self._path_cache[key]
        usable = {rid for rid, o in self.owners.items() if o == seat}
        usable.update(self.scores[seat].borrowed_routes)
        routes = self.game.map.routes
        prev: dict[str, tuple[str, str] | None] = {ticket.a: None}
        queue = deque([ticket.a])
        while queue:
            city = queue.popleft()
            if city == ticket.b:
                break
            for rid in usable:
                r = routes[rid]
                if city in (r.a, r.b):
                    other = r.b if r.a == city else r.a
                    if other not in prev:
                        prev[other] = (city, rid)
                        queue.append(other)
        path: list[str] = []
        if ticket.b in prev:
            city = ticket.b
            while prev[city] is not None:
                city, rid = prev[city]
                path.append(rid)
        self._path_cache[key] = path
        return path

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(style.PAPER_DARK)
        mv = self.map_view
        base = mv.render_base(self.owners, self.rgb, self.stations, frozenset(),
                              self.app.settings.colorblind_symbols)
        mv.draw(surface, self._dimmed(base))
        self._draw_map_focus(surface)
        surface.blit(self.panel_surf, self.panel_pos)
        self._draw_columns(surface)
        surface.blit(self.chart.surface, self.chart_rect)
        self._draw_chart_finals(surface)
        self._draw_result(surface)

    def _dimmed(self, base: pygame.Surface) -> pygame.Surface:
        """The map layer under a light wash, so the highlighted routes stand out."""
        if self._dim is None or self._dim[0] is not base:
            dim = base.copy()
            board = self.map_view.board_rect.move(-self.map_view.rect.x, -self.map_view.rect.y)
            wash = pygame.Surface(board.size, pygame.SRCALPHA)
            wash.fill((248, 242, 228, 115))
            dim.blit(wash, board)
            self._dim = (base, dim)
        return self._dim[1]

    def _spotlight(self, surface: pygame.Surface, routes, color) -> None:
        """Routes drawn again over the wash, on a band of ``color``."""
        mv = self.map_view
        for rid in routes:
            for poly in mv.polys[rid]:
                pygame.draw.polygon(surface, (30, 24, 18), poly, 12)
        for rid in routes:
            for poly in mv.polys[rid]:
                pygame.draw.polygon(surface, color, poly, 8)
        for rid in routes:
            owner = self.owners.get(rid)
            rgb = self.rgb[owner] if owner is not None else (170, 170, 170)
            for poly in mv.polys[rid]:
                mv.draw_car(surface, poly, rgb)

    def _draw_map_focus(self, surface: pygame.Surface) -> None:
        mv = self.map_view
        tickets = self.hovered_tickets()
        if tickets:
            routes = [rid for seat, t in tickets if t.done for rid in self._ticket_path(seat, t)]
            self._spotlight(surface, routes, DONE_GREEN)
            for k, (seat, t) in enumerate(tickets):
                color = DONE_GREEN if t.done else FAIL_RED
                mv.draw_city_ring(surface, t.a, self.clock + k * 0.3, color)
                mv.draw_city_ring(surface, t.b, self.clock + k * 0.3 + 0.5, color)
            if len(tickets) == 1:
                seat, t = tickets[0]
                state = "completed" if t.done else "not completed"
                caption = (f"{self.city_names[t.a]} {DASH} {self.city_names[t.b]}: {state} "
                           f"({signed(t.value)})")
                self._map_caption(surface, caption, style.GOOD if t.done else style.BAD)
            return
        seat = self.focus
        sc = self.scores[seat]
        self._spotlight(surface, sc.longest_path_routes, style.HIGHLIGHT)
        bonus = f" — +{sc.parts['longest_path']} bonus" if sc.parts.get("longest_path") else ""
        caption = (f"{self.names[seat]}'s longest path: {sc.longest_path} trains{bonus}"
                   if sc.longest_path else f"{self.names[seat]} has no routes")
        self._map_caption(surface, caption, tuple(max(0, c - 50) for c in self.rgb[seat]))

    def _map_caption(self, surface: pygame.Surface, caption: str, rgb) -> None:
        key = (caption, rgb)
        pill = self._captions.get(key)
        if pill is None:
            t = style.text(caption, 16, rgb, bold=True)
            pill = pygame.Surface((t.get_width() + 28, t.get_height() + 10), pygame.SRCALPHA)
            pygame.draw.rect(pill, (252, 248, 238, 235), pill.get_rect(), border_radius=14)
            pygame.draw.rect(pill, style.PANEL_EDGE, pill.get_rect(), 1, border_radius=14)
            pill.blit(t, (14, 5))
            if len(self._captions) > 64:
                self._captions.clear()
            self._captions[key] = pill
        board = self.map_view.board_rect
        surface.blit(pill, (board.x + 8, min(board.bottom, self.map_rect.bottom)
                            - pill.get_height() - 8))

    def _draw_columns(self, surface: pygame.Surface) -> None:
        focus = self.focus
        hover_tickets = self.hover_row
        for seat, col in enumerate(self.columns):
            rect = col.rect
            winner = self.done and seat in self.result.winners
            if winner:
                pygame.draw.rect(surface, (214, 168, 40), rect.inflate(4, 4), 3, border_radius=11)
            if seat == focus:
                pygame.draw.rect(surface, self.rgb[seat], rect, 2, border_radius=9)
            shown = self.revealed(seat)
            for k, entry in enumerate(self._shown_rows[seat]):
                if shown <= entry[0]:
                    break
                r = col.row_rects[k]
                if hover_tickets == (seat, k):
                    pygame.draw.rect(surface, (255, 236, 170), r, border_radius=5)
                else:
                    # The newest line glows briefly.
                    at = max(self.reveal_time.get((seat, i), -9.0) for i in entry)
                    fade = 1.0 - (self.clock - at) / 0.6
                    if fade > 0:
                        c = tuple(round(a + (b - a) * fade) for a, b in
                                  zip((255, 252, 244), (255, 226, 140)))
                        pygame.draw.rect(surface, c, r, border_radius=5)
                surface.blit(col.row_surfs[k], r)
            total = style.text(number(round(self.displayed[seat])), 30, style.INK, bold=True)
            surface.blit(total, total.get_rect(**{col.total_anchor: col.total_pos}))
            if winner:
                badge = style.text("WINNER", 12, (255, 255, 255), bold=True)
                box = badge.get_rect()
                if self.wide:
                    box.topright = (rect.right - 12, rect.y + 48)
                elif rect.width - 34 - total.get_width() >= box.width:
                    box.midright = (rect.right - 12, col.total_pos[1] + 20)
                else:
                    box.center = (rect.centerx, rect.y + 3)
                pygame.draw.rect(surface, (196, 148, 30), box.inflate(10, 4), border_radius=6)
                surface.blit(badge, box)

    def _draw_chart_finals(self, surface: pygame.Surface) -> None:
        self.chart.draw_finals(surface, [self.seat_complete(i) for i in range(self.n)])

    def _draw_result(self, surface: pygame.Surface) -> None:
        box = self.result_rect
        surface.blit(self.result_bg, (box.x - 8, box.y - 8))
        if self.done:
            alpha = min(1.0, (self.clock - self.done_at) / 0.4)
            if alpha < 1.0:
                fade = self.banner_surf.copy()
                fade.set_alpha(round(255 * alpha))
                surface.blit(fade, box.move(0, round(8 * (1 - alpha))))
            else:
                surface.blit(self.banner_surf, box)
        else:
            surface.blit(self.hint_surf, (box.x + 20, box.y + 16))
            surface.blit(self.hint2_surf, (box.x + 20, box.y + 50))
        for b in self.buttons:
            b.draw(surface)
