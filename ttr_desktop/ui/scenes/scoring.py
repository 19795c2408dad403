"""The scoring screen: the final map, an animated tally per player, the winner, the score
track over the rounds and the game's statistics.

The tally reveals one line at a time, player by player, one line per score part the
engine returns (each ticket on its own line) while each player's total counts up; a
click or Space shows everything at once. The chart follows the tally: a player's final
jump appears when their count starts and grows with it. The player whose card has the
focus (the one being counted, or the one hovered or clicked) gets their longest path
glowing on the map; hovering a ticket line rings its two cities green (done) or red
(failed). Shortened texts show in full in a tooltip.

Static parts (map layer, cards, every tally line, the chart, the table) are rendered
once per layout; a frame blits them and draws only what moves.
"""

from __future__ import annotations

import math
from collections import deque

import pygame

from ttr_desktop.rules.scoring import TicketResult
from ttr_desktop.rules.words import plural
from ttr_desktop.ui import style
from ttr_desktop.ui.animations import SPEED
from ttr_desktop.ui.map_view import MapView
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.buttons import Button, hover_buttons, press_button
from ttr_desktop.ui.scenes.scoring_chart import ScoreChart
from ttr_desktop.ui.scenes.scoring_parts import (  # noqa: F401  (tie_break_text re-exported)
    DASH,
    DONE_GREEN,
    FAIL_RED,
    GOLD,
    GOLD_DARK,
    STEP,
    Amounts,
    draw_tooltip,
    fit_text,
    margin_text,
    tally_rows,
    tie_break_text,
    winner_title,
)
from ttr_desktop.ui.scenes.scoring_stats import StatsTable, game_stats
from ttr_desktop.ui.scenes.scoring_tally import TallyLayout
from ttr_desktop.ui.scenes.scoring_words import PART_MEASURES, SLIP_WORDS, rounds_text
from ttr_desktop.ui.session import BOT_LEVELS, GameSession

TABS = ("chart", "stats")


class ScoringScene(Scene):
    """The end of a game: who won, and why."""

    opaque = True

    def __init__(self, app, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        # A campaign game goes into its campaign now; the main button then continues it.
        from ttr_desktop.ui.families.legacy_campaign import after_campaign_game
        self.campaign_next = after_campaign_game(app, session)
        game = session.game
        self.game = game
        self.amounts = Amounts.of(game)
        self.result = game.result()
        self.scores = self.result.scores
        self.n = game.num_players
        self.names = list(game.players)
        self.rgb = [style.PLAYER_COLORS.get(s.color, (90, 90, 90)) for s in session.seats]
        self.kinds = [f"{BOT_LEVELS.get(s.level, s.level)} bot" if s.is_bot else "Player"
                      for s in session.seats]
        self.panel_title = "Final scores"
        if game.variant in SLIP_WORDS:
            self.panel_title, caption = SLIP_WORDS[game.variant]
            self.kinds = [caption(game, i, k) for i, k in enumerate(self.kinds)]  # type: ignore
        view = game.view(0)
        self.owners = dict(view.route_owners)
        #: Tracks of a double or triple that were closed at this player count (drawn so).
        self.closed = view.closed_routes
        self.stations = dict(view.extra.get("stations") or {})
        self.city_names = {cid: game.map.place_name(cid)   # tickets may name a country
                           for cid in (*game.map.countries, *game.map.cities)}
        station_points = getattr(game.ruleset, "station_points", 4)
        self.rows = [tally_rows(sc, sum(1 for o in self.owners.values() if o == sc.seat),
                                self.city_names, station_points, view.route_tally(sc.seat),
                                {part: fn(view, sc.seat)  # type: ignore[operator]
                                 for part, fn in PART_MEASURES.items() if part in sc.parts})
                     for sc in self.scores]
        self.steps = [(seat, i) for seat in range(self.n) for i in range(len(self.rows[seat]))]
        self.title = winner_title(self.result, self.names)
        self.subtitle = tie_break_text(self.result, self.names, self.amounts) or \
            margin_text(self.result, self.names, self.amounts)
        self.history = [list(p) for p in session.history] or [list(view.points)]
        self.turns = max(0, len(self.history) - 1)
        self.rounds_text = rounds_text(self.turns, self.n)
        self.stats = game_stats(game, self.scores, self.owners)
        self.route_lengths = sorted({r.length for r in game.map.routes.values()})
        # Tally state.
        self.pos = 0                        # steps revealed
        self.timer = 0.0
        self.clock = 0.0
        self.reveal_time: dict[tuple[int, int], float] = {}
        self.targets = [0] * self.n
        self.displayed = [0.0] * self.n
        self.chart_end: list[float | None] = [None] * self.n
        self.done = False
        self.done_at = 0.0
        self._last_ticket_sound = -1.0
        # Focus, hover, tabs.
        self.tab = "chart"
        self.pinned: int | None = None
        self.hover_seat: int | None = None
        self.hover_row: tuple[int, int] | None = None
        self.hover_tab: str | None = None
        self.tip: list[tuple[str, tuple[int, int, int]]] = []
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
        self.scale = max(1.0, min(1.5, w / 1280, h / 720))
        px = self.px
        pad = 12
        frac = {2: 0.58, 3: 0.52}.get(self.n, 0.46)
        left_w = int(w * frac)
        aspect = self.game.map.width / max(1, self.game.map.height)
        bottom_min = max(px(200), min(px(330), int(h * 0.28)))
        map_h = min(h - bottom_min, int((left_w - 12) / aspect) + 12)
        self.map_rect = pygame.Rect(0, 0, left_w, map_h)
        self.map_view.layout(self.map_rect.inflate(-12, -12))
        self._dim = None
        self.box_rect = pygame.Rect(pad, map_h + pad // 2, left_w - pad - pad // 2,
                                    h - map_h - pad - pad // 2)
        result_h = max(px(150), min(px(200), int(h * 0.2)))
        self.panel_rect = pygame.Rect(left_w + pad, pad, w - left_w - 2 * pad,
                                      h - result_h - 2 * pad - pad // 2)
        self.result_rect = pygame.Rect(self.panel_rect.x, self.panel_rect.bottom + pad,
                                       self.panel_rect.width, h - self.panel_rect.bottom - 2 * pad)
        self.tally = TallyLayout(self.panel_rect, self.rows, self.names, self.kinds, self.rgb,
                                 self.amounts, self.panel_title,
                                 [f"{self.game.map.name} · {self.rounds_text}", self.rounds_text],
                                 self.scale)
        self._layout_result()
        self._layout_box()
        self._update_hover(self.mouse)

    def px(self, value: float) -> int:
        """``value`` pixels at the window's scale (1 at 1280x720, up to 1.5)."""
        return round(value * self.scale)

    # Layout: the box under the map (chart / statistics) ---------------------
    def _layout_box(self) -> None:
        box = self.box_rect
        px = self.px
        inner = box.inflate(-24, -16).move(0, -2)
        self.tab_rects: dict[str, pygame.Rect] = {}
        self.tab_labels = {"chart": f"{self.amounts.what} after each round",
                           "stats": "Statistics"}
        self.tab_size = px(15)
        x = inner.x
        for key in TABS:
            t = style.font(self.tab_size, True).size(self.tab_labels[key])[0]
            self.tab_rects[key] = pygame.Rect(x, inner.y, t + px(24), px(28))
            x += t + px(24) + 6
        top = px(36)
        self.content_rect = pygame.Rect(inner.x, inner.y + top, inner.width, inner.height - top)
        self._build_chart()
        self.table = StatsTable(self.content_rect, self.stats, self.names, self.rgb,
                                self.amounts, self.route_lengths, self.scale)
        bg = pygame.Surface((box.width + 16, box.height + 16), pygame.SRCALPHA)
        style.panel(bg, pygame.Rect(8, 8, box.width, box.height).inflate(0, -8).move(0, -3),
                    radius=12)
        self.box_bg = bg

    def _build_chart(self) -> None:
        shown = [v for v in self.chart_end if v is not None]
        self.chart = ScoreChart(self.content_rect, self.history, self.n, self.rgb, self.names,
                                self.amounts, shown, self.scale)

    # Layout: result box and buttons ---------------------------------------
    def _layout_result(self) -> None:
        box = self.result_rect
        px = self.px
        bh = px(44)
        gap = 12
        w_main = (box.width - 2 * 16 - 2 * gap) * 9 // 20
        w_review = (box.width - 2 * 16 - 2 * gap) * 5 // 20
        w_menu = box.width - 2 * 16 - 2 * gap - w_main - w_review
        y = box.bottom - 14 - bh
        label = "Play again (same seats)"
        if style.font(18, True).size(label)[0] > w_main - 16:
            label = "Play again"
        if self.campaign_next is not None:
            label = "Continue campaign"
        label = getattr(self.session, "again_label", label)    # an online table's own
        self.play_again_button = Button(pygame.Rect(box.x + 16, y, w_main, bh), label,
                                        primary=True, on_press=self.play_again)
        # Review: each of a person's decisions next to Hard's (ui/scenes/review.py).
        self.review_button = Button(pygame.Rect(box.x + 16 + w_main + gap, y, w_review, bh),
                                    "Review", on_press=self.review)
        self.menu_button = Button(pygame.Rect(box.x + 16 + w_main + w_review + 2 * gap, y,
                                              w_menu, bh), "Main menu", on_press=self.main_menu)
        self.buttons = [self.play_again_button, self.review_button, self.menu_button]
        hover_buttons(self.buttons, self.mouse)
        winners = self.result.winners
        dots = 30 + 8 * (min(3, len(winners)) - 1)
        text_w = box.width - 40 - dots
        room_h = y - box.y - 10 - 8
        title = fit_text(self.title, px(30), text_w, True, max_lines=2, min_size=px(18))
        title_h = len(title.lines) * style.font(title.size, True).get_linesize()
        sub_room = max(1, (room_h - title_h) // style.font(px(16)).get_linesize())
        sub = fit_text(self.subtitle, px(16), box.width - 40, max_lines=min(2, sub_room),
                       min_size=px(13))
        self.title_fit, self.subtitle_fit = title, sub
        banner = pygame.Surface(box.size, pygame.SRCALPHA)
        ty = 10
        line_h = style.font(title.size, True).get_linesize()
        for k, rgb in enumerate([self.rgb[s] for s in winners][:3]):
            cx, cy = 20 + 11 + k * 8, ty + line_h // 2
            pygame.draw.circle(banner, (30, 24, 18), (cx, cy + 1), 11)
            pygame.draw.circle(banner, rgb, (cx, cy), 10)
        for k, line in enumerate(title.lines):
            banner.blit(style.text(line, title.size, style.INK, True), (20 + dots, ty + k * line_h))
        sy = ty + title_h + 2
        sub_lh = style.font(sub.size).get_linesize()
        for k, line in enumerate(sub.lines):
            banner.blit(style.text(line, sub.size, style.INK_SOFT), (20, sy + k * sub_lh))
        self.banner_surf = banner
        bg = pygame.Surface((box.width + 16, box.height + 16), pygame.SRCALPHA)
        style.panel(bg, pygame.Rect(8, 8, box.width, box.height).inflate(0, -8).move(0, -3),
                    radius=12)
        self.result_bg = bg
        self.hint_surf = style.text("Counting the score…", px(22), style.INK, True)
        hint = fit_text("Click or press Space to see everything at once.", px(15),
                        box.width - 40, max_lines=1, min_size=12)
        self.hint2_surf = style.text(hint.lines[0], hint.size, style.INK_SOFT)

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
        if self.chart_end[seat] is None:
            self.chart_end[seat] = float(self.history[-1][seat])
        if not quiet and row.kind == "ticket" and row.ticket.done and \
                self.clock - self._last_ticket_sound > 0.6:
            self.app.sound.play("ticket")
            self._last_ticket_sound = self.clock

    def skip(self) -> None:
        """Show the whole tally and the winner at once."""
        while self.pos < len(self.steps):
            self._reveal_next(quiet=True)
        self.displayed = [float(t) for t in self.targets]
        self.chart_end = [float(t) for t in self.targets]
        self._rescale_chart()
        self._finish()

    def _finish(self) -> None:
        if not self.done:
            self.done = True
            self.done_at = self.clock

    def shown_totals(self) -> list[int]:
        """The totals as displayed now (the real totals once the tally is done)."""
        return [round(d) for d in self.displayed]

    def total_text(self, seat: int) -> str:
        """The total of ``seat`` as its card shows it now ('68', '$68')."""
        return self.amounts.total(round(self.displayed[seat]))

    def chart_ends(self) -> list[float | None]:
        """Each seat's end value on the chart now (None: not drawn yet)."""
        return list(self.chart_end)

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
            settled &= self._approach(self.displayed, seat, dt, step)
            if self.chart_end[seat] is not None:
                settled &= self._approach(self.chart_end, seat, dt, step)
        self._rescale_chart()
        if settled and self.pos >= len(self.steps):
            self._finish()

    def _approach(self, values: list, seat: int, dt: float, step: float) -> bool:
        """Move ``values[seat]`` toward the seat's target; True once it is there."""
        diff = self.targets[seat] - values[seat]
        if abs(diff) < 0.5:
            values[seat] = float(self.targets[seat])
            return True
        move = max(30.0 * dt / max(step, 0.05) * 0.35, abs(diff) * min(1.0, dt * 7))
        values[seat] += math.copysign(min(abs(diff), move), diff)
        return False

    def _rescale_chart(self) -> None:
        """A new chart scale when a revealed value has left the current one."""
        if not self.chart.covers(v for v in self.chart_end if v is not None):
            self._build_chart()

    def next_wake(self) -> float | None:
        """Every frame while the tally counts, its last line's glow and the winner's banner
        fade in, or a ring pulses on the map; then nothing until input."""
        if not self.done or self.clock - self.done_at < 0.6 or self.map_view.pulsing:
            return 0.0
        return None

    # Events --------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._update_hover(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._update_hover(event.pos)
            if press_button(self.buttons, event.pos, self.app.sound):
                return True
            if self.hover_tab is not None:
                self.show_tab(self.hover_tab)
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
            if event.key == pygame.K_TAB:
                self.show_tab(TABS[(TABS.index(self.tab) + 1) % len(TABS)])
                return True
            if event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER) and \
                    not self.done:
                self.skip()
                return True
            if pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < self.n:
                self.pinned = event.key - pygame.K_1
                return True
        return False

    def show_tab(self, tab: str) -> None:
        """Show the chart or the statistics (the statistics finish the count first: they
        would give the totals away)."""
        if tab == "stats" and not self.done:
            self.skip()
        if tab != self.tab:
            self.app.sound.play("click")
        self.tab = tab
        self._update_hover(self.mouse)

    def _update_hover(self, pos) -> None:
        hover_buttons(self.buttons, pos)
        self.hover_seat = self.tally.seat_at(pos)
        self.hover_row = None
        self.tip = []
        hit = self.tally.row_at(pos)
        if hit is not None:
            seat, k = hit
            row = self.tally.boxes[seat].rows[k]
            if self.revealed(seat) > row.entry[0]:
                self.hover_row = hit
                if row.shortened:
                    self.tip = [(line, style.INK) for line in row.full]
        if self.hover_seat is not None and not self.tip:
            box = self.tally.boxes[self.hover_seat]
            if box.name.shortened and box.name_rect.collidepoint(pos):
                self.tip = [(self.names[self.hover_seat], style.INK)]
        self.hover_tab = next((k for k, r in self.tab_rects.items() if r.collidepoint(pos)),
                              None)
        if self.tab == "stats" and not self.tip:
            text = self.table.tip_at(pos)
            if text:
                self.tip = [(text, style.INK)]

    def hovered_tickets(self) -> list[tuple[int, TicketResult]]:
        """The ticket(s) of the hovered tally line."""
        if self.hover_row is None:
            return []
        seat, k = self.hover_row
        entry = self.tally.boxes[seat].rows[k].entry
        return [(seat, r.ticket) for r in (self.rows[seat][i] for i in entry)
                if r.ticket is not None]

    # Actions -------------------------------------------------------------
    def play_again(self) -> None:
        """A new game with the same seats."""
        if self.campaign_next is not None:
            self.campaign_next()
            return
        if hasattr(self.session, "play_again"):    # an online table decides
            self.session.play_again(self.app)
            return
        from ttr_desktop.ui.scenes.load import open_board
        open_board(self.app, self.session.rematch())

    def review(self) -> None:
        """Review the game: each of a person's decisions next to what Hard would have done."""
        from ttr_desktop.ui.scenes.review import ReviewScene
        self.app.push(ReviewScene.for_session(self.app, self.session))

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
                              self.app.settings.colorblind_symbols, closed=self.closed)
        mv.draw(surface, self._dimmed(base))
        self._draw_map_focus(surface)
        surface.blit(self.tally.surface, self.tally.pos)
        self._draw_tally(surface)
        self._draw_box(surface)
        self._draw_result(surface)
        if self.tip:
            draw_tooltip(surface, self.tip, self.mouse)

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
        """Routes drawn again over the wash, on a band of ``color``; the city names they
        run through stay on top, as over every glow on the map."""
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
        mv.draw_labels_over(surface, routes)

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
                           f"({self.amounts.signed(t.value)})")
                self._map_caption(surface, caption, style.GOOD if t.done else style.BAD)
            return
        seat = self.focus
        sc = self.scores[seat]
        name = self.names[seat]
        if sc.longest_path and sc.longest_path_routes:
            self._spotlight(surface, sc.longest_path_routes, style.HIGHLIGHT)
            bonus = sc.parts.get("longest_path")
            bonus = f" — {self.amounts.signed(bonus)} bonus" if bonus else ""
            caption = f"{name}'s longest path: {plural(sc.longest_path, 'train')}{bonus}"
        elif self.stats[seat].routes:
            # A family without the longest path (the engine did not measure it): all routes.
            mine = [rid for rid, o in self.owners.items() if o == seat]
            self._spotlight(surface, mine, style.HIGHLIGHT)
            st = self.stats[seat]
            caption = f"{name}'s routes: {st.routes}, {plural(st.trains, 'train')}"
        else:
            caption = f"{name} has no routes"
        self._map_caption(surface, caption, tuple(max(0, c - 50) for c in self.rgb[seat]))

    def _map_caption(self, surface: pygame.Surface, caption: str, rgb) -> None:
        board = self.map_view.board_rect
        key = (caption, rgb, board.width)
        pill = self._captions.get(key)
        if pill is None:
            fitted = fit_text(caption, self.px(16), board.width - 44, True, min_size=13)
            t = style.text(fitted.lines[0], fitted.size, rgb, bold=True)
            pill = pygame.Surface((t.get_width() + 28, t.get_height() + 10), pygame.SRCALPHA)
            pygame.draw.rect(pill, (252, 248, 238, 235), pill.get_rect(), border_radius=14)
            pygame.draw.rect(pill, style.PANEL_EDGE, pill.get_rect(), 1, border_radius=14)
            pill.blit(t, (14, 5))
            if len(self._captions) > 64:
                self._captions.clear()
            self._captions[key] = pill
        surface.blit(pill, (board.x + 8, min(board.bottom, self.map_rect.bottom)
                            - pill.get_height() - 8))

    def _draw_tally(self, surface: pygame.Surface) -> None:
        focus = self.focus
        for box in self.tally.boxes:
            seat = box.seat
            rect = box.rect
            winner = self.done and seat in self.result.winners
            if winner:
                pygame.draw.rect(surface, GOLD, rect.inflate(4, 4), 3, border_radius=11)
            if seat == focus:
                pygame.draw.rect(surface, self.rgb[seat], rect, 2, border_radius=9)
            shown = self.revealed(seat)
            for k, row in enumerate(box.rows):
                if shown <= row.entry[0]:
                    break
                r = row.rect
                if self.hover_row == (seat, k):
                    pygame.draw.rect(surface, (255, 236, 170), r, border_radius=5)
                else:
                    # The newest line glows briefly.
                    at = max(self.reveal_time.get((seat, i), -9.0) for i in row.entry)
                    fade = 1.0 - (self.clock - at) / 0.6
                    if fade > 0:
                        c = tuple(round(a + (b - a) * fade) for a, b in
                                  zip((255, 252, 244), (255, 226, 140)))
                        pygame.draw.rect(surface, c, r, border_radius=5)
                surface.blit(row.surface, r)
            total = style.text(self.total_text(seat), box.total_size, style.INK, bold=True)
            surface.blit(total, total.get_rect(**{box.total_anchor: box.total_pos}))
            if winner:
                badge = style.text("WINNER", self.px(12), (255, 255, 255), bold=True)
                where = badge.get_rect(**{box.badge_anchor: box.badge_pos})
                pygame.draw.rect(surface, GOLD_DARK, where.inflate(10, 4), border_radius=6)
                surface.blit(badge, where)

    def _draw_box(self, surface: pygame.Surface) -> None:
        box = self.box_rect
        surface.blit(self.box_bg, (box.x - 8, box.y - 8))
        for key, r in self.tab_rects.items():
            active = key == self.tab
            if active:
                pygame.draw.rect(surface, (255, 252, 244), r, border_radius=8)
                pygame.draw.rect(surface, style.PANEL_EDGE, r, 1, border_radius=8)
            elif self.hover_tab == key:
                pygame.draw.rect(surface, (240, 228, 204), r, border_radius=8)
            t = style.text(self.tab_labels[key], self.tab_size,
                           style.INK if active else style.INK_SOFT, bold=active)
            surface.blit(t, t.get_rect(center=r.center))
        if self.tab == "chart":
            self.chart.draw(surface, self.chart_end)
        else:
            self.table.draw(surface)

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
            surface.blit(self.hint_surf, (box.x + 20, box.y + 14))
            surface.blit(self.hint2_surf, (box.x + 20, box.y + 18 + self.hint_surf.get_height()))
        for b in self.buttons:
            b.draw(surface)
