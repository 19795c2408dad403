"""The Review screen: a person's decisions, one by one, next to what Hard would have done.

Opened from the scoring screen after a game, or for a saved game from the load screen.
The review itself (``bots/review.py``) runs in a worker process (``review_worker``) while
a progress bar fills; Cancel stops it after the decision being reviewed, keeping what is
done. The list shows every decision of the person — the round, what they did, what Hard
suggests and how many points of final lead their choice cost or gained by Hard's estimate
— with the three costliest marked. Selecting a decision shows the board as it was at that
moment from that person's seat: their hand and tickets, nobody else's; their move and
Hard's are highlighted on the map.

Keys: Up/Down choose a decision (Page Up/Down, Home/End jump), Esc leaves.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from ttr_desktop.bots.review import (
    DEFAULT_ROUNDS,
    DecisionReview,
    action_words,
    costliest,
    game_record,
    replay,
)
from ttr_desktop.rules.words import plural
from ttr_desktop.ui import style
from ttr_desktop.ui.cards import card_surface
from ttr_desktop.ui.map_view import MapView
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.buttons import Button, hover_buttons, press_button
from ttr_desktop.ui.scenes.review_worker import ReviewJob
from ttr_desktop.ui.scenes.scoring_parts import draw_tooltip

if TYPE_CHECKING:
    from ttr_desktop.rules.view import PlayerView
    from ttr_desktop.ui.session import GameSession

#: Colours of the two moves on the map and in the list.
YOURS = style.HIGHLIGHT
HARDS = (64, 196, 96)
MARK_RGB = (196, 52, 40)
MINUS = "\u2212"
#: Rollout rounds per decision in the window (the review's default).
ROUNDS = DEFAULT_ROUNDS
#: Complete reviews kept for opening again (per game, seat and rounds), the newest last.
_FINISHED: dict[tuple, ReviewJob] = {}
KEPT_REVIEWS = 4
#: How a decision's phase is called.
PHASE_WORDS = {"turn": "turn", "second_card": "second card",
               "keep_tickets": "tickets to keep", "choose_initial_tickets": "starting tickets",
               "pay_tunnel": "tunnel payment"}


class Moment:
    """One decision of the reviewed seat as the window lists it: where it is in the game,
    the seat's view just before it (the board as it was) and the move made."""

    def __init__(self, index: int, view: PlayerView, taken: Any, choices: int) -> None:
        self.index = index
        self.view = view
        self.taken = taken
        self.choices = choices
        self.round = view.turn // max(1, view.num_players) + 1
        self.words = action_words(view, taken)
        self.review: DecisionReview | None = None


def moments(record: dict[str, Any], seat: int) -> list[Moment]:
    """Every decision of ``seat`` in the game of ``record``, with its view (replayed here:
    a few milliseconds; the rollouts are the worker's)."""
    out = []
    for index, game, action in replay(record):
        if game.current_seat == seat:
            out.append(Moment(index, game.view(seat), action, len(game.legal_actions())))
    return out


def cost_text(review: DecisionReview | None, choices: int) -> tuple[str, tuple[int, int, int]]:
    """The list's last column: the points the person's move gained (+) or lost (−) against
    Hard's, 'same', 'only move' or '…' (not reviewed yet)."""
    if choices <= 1:
        return "only move", style.INK_SOFT
    if review is None or review.cost is None:
        return "…", style.INK_SOFT
    if review.same:
        return "same", style.GOOD
    gained = -review.cost
    text = f"{'+' if gained >= 0 else MINUS}{abs(gained):.1f}"
    if review.cost > max(0.5, review.cost_se):
        return text, style.BAD
    if gained > max(0.5, review.cost_se):
        return text, style.GOOD
    return text, style.INK_SOFT


class ReviewScene(Scene):
    """One seat's decisions reviewed by Hard; the board as it was at each."""

    opaque = True

    def __init__(self, app, record: dict[str, Any], names: list[str],
                 colors: list[tuple[int, int, int]], people: list[int],
                 seat: int | None = None, rounds: int | None = None,
                 title: str = "", use_process: bool = True, private: bool = False) -> None:
        super().__init__(app)
        #: A game still going on between several people at one screen: a seat's cards and
        #: tickets show only once its player says "I am …" (as on the hand-over screen).
        self.private = private
        self.confirmed = not private
        self.record = record
        self.names = names
        self.rgb = colors
        #: Seats that can be reviewed, in order (people's seats; every seat if none).
        self.people = people or list(range(len(names)))
        self.rounds = rounds if rounds is not None else ROUNDS
        self.title = title
        self.use_process = use_process
        self.job: ReviewJob | None = None
        self.buttons: list[Button] = []
        self.mouse = (0, 0)
        self.scroll = 0
        self.selected = 0
        self.clock = 0.0
        self.tip: list[tuple[str, tuple[int, int, int]]] = []
        self.map_view: MapView | None = None
        self.game_map: Any = None
        self._map_laid: pygame.Rect | None = None
        self.size = app.size
        self.start(seat if seat is not None else self.people[0])

    # Making one -----------------------------------------------------------------------
    @classmethod
    def for_session(cls, app, session: GameSession, **kw: Any) -> "ReviewScene":
        """The review of ``session``'s game (finished or not): the first person's seat."""
        from ttr_desktop.ui.scenes.load import game_words
        game = session.game
        colors = [style.PLAYER_COLORS.get(s.color, (90, 90, 90)) for s in session.seats]
        kw.setdefault("private", not game.is_over and len(session.humans) > 1)
        return cls(app, game_record(game), list(game.players), colors, session.humans,
                   title=game_words(session), **kw)

    @classmethod
    def for_save(cls, app, path: Path, **kw: Any) -> "ReviewScene":
        """The review of the game saved at ``path``; raises SaveError (in player words)."""
        from ttr_desktop.ui.session import GameSession
        return cls.for_session(app, GameSession.load(path), **kw)

    def start(self, seat: int) -> None:
        """Review ``seat`` (a new worker; the previous one is stopped)."""
        if self.job is not None:
            self.job.close()
        self.seat = seat
        self.moments = moments(self.record, seat)
        self.by_index = {m.index: m for m in self.moments}
        self.selected = 0
        self.scroll = 0
        #: The decisions reviewed so far, in order.
        self.landed: list[DecisionReview] = []
        self.job = None
        self.confirmed = not self.private
        if self.moments and self.confirmed:
            self.job = self._job()
        if self.moments:
            self.game_map = self.moments[0].view.map
        self.resize(self.app.size)

    def _job(self) -> ReviewJob:
        """The review of the current seat: a finished one of the same game kept from
        before (opening Review again costs nothing), else a new worker."""
        key = (repr(self.record), self.seat, self.rounds)
        kept = _FINISHED.get(key)
        if kept is not None:
            return kept
        return ReviewJob(self.record, self.seat, self.rounds, use_process=self.use_process)

    def _keep(self, job: ReviewJob) -> None:
        """Remember a complete review for when the same game is reviewed again."""
        if len(_FINISHED) >= KEPT_REVIEWS:
            _FINISHED.pop(next(iter(_FINISHED)))
        _FINISHED[(repr(self.record), job.seat, job.rounds)] = job

    def confirm(self) -> None:
        """The seat's player is at the screen ("I am …"): show and review its decisions."""
        if self.confirmed:
            return
        self.confirmed = True        # until another seat is chosen (``start`` asks again)
        if self.moments:
            self.job = self._job()
        self.resize(self.app.size)

    # Scene hooks ------------------------------------------------------------------------
    def exit(self) -> None:
        if self.job is not None:
            self.job.close()

    def update(self, dt: float) -> None:
        self.clock += dt
        job = self.job
        if job is None:
            return
        was_running = job.running
        job.poll()
        if len(job.decisions) > len(self.landed) or was_running != job.running:
            for d in job.decisions[len(self.landed):]:
                m = self.by_index.get(d.index)
                if m is not None:
                    m.review = d
                self.landed.append(d)
            costliest(self.landed)
            self._refresh_buttons()
            if job.complete:
                self._keep(job)

    def next_wake(self) -> float | None:
        """A frame every tenth of a second while the review runs (the progress bar), then
        only on input."""
        return 0.1 if self.running else None

    @property
    def running(self) -> bool:
        """True while the worker is reviewing."""
        return self.job is not None and self.job.running

    # Layout -----------------------------------------------------------------------------
    def px(self, value: float) -> int:
        """``value`` pixels at the window's scale (1 at 1280x720, up to 1.5)."""
        return round(value * self.scale)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        w, h = size
        self.scale = max(1.0, min(1.5, w / 1280, h / 720))
        px = self.px
        pad = 12
        top = px(66)
        left_w = int(w * 0.5)
        bottom_h = px(168)
        map_h = h - top - bottom_h - pad
        if self.game_map is not None:      # no taller than the board needs
            m = self.game_map
            map_h = min(map_h, int((left_w - pad - 8) * m.height / max(1, m.width)) + 8)
        self.map_rect = pygame.Rect(pad, top, left_w - pad, map_h)
        inner = self.map_rect.inflate(-8, -8)
        # Laid out once per size (placing the city names takes a moment on a big map).
        if self.game_map is not None and self.map_view is None:
            self.map_view = MapView(self.game_map, inner,
                                    symbols=self.app.settings.colorblind_symbols)
        elif self.map_view is not None and inner != self._map_laid:
            self.map_view.layout(inner)
        self._map_laid = inner
        self.moment_rect = pygame.Rect(pad, self.map_rect.bottom + pad // 2, left_w - pad,
                                       h - self.map_rect.bottom - pad - pad // 2)
        right = pygame.Rect(left_w + pad, top, w - left_w - 2 * pad, h - top - pad)
        self.status_rect = pygame.Rect(right.x, right.y, right.w, px(58))
        self.detail_rect = pygame.Rect(right.x, right.bottom - px(190), right.w, px(190))
        self.list_rect = pygame.Rect(right.x, self.status_rect.bottom + pad, right.w,
                                     self.detail_rect.y - pad - self.status_rect.bottom - pad)
        self.row_h = px(30)
        self.head_h = px(26)
        bh = px(38)
        self.back_button = Button(pygame.Rect(w - pad - px(110), px(14), px(110), bh), "Back",
                                  on_press=self.leave)
        self.seat_button = Button(pygame.Rect(self.back_button.rect.x - pad - px(200),
                                              px(14), px(200), bh), "",
                                  on_press=lambda: self.start(self.next_seat()))
        self.cancel_button = Button(pygame.Rect(self.status_rect.right - px(110) - 10,
                                                self.status_rect.y + (self.status_rect.h - bh) // 2,
                                                px(110), bh), "Cancel", on_press=self.cancel)
        self.iam_button = Button(pygame.Rect(0, 0, px(260), px(48)),
                                 f"I am {_fit(self.names[self.seat], px(18), px(180))}",
                                 primary=True, on_press=self.confirm)
        self.iam_button.rect.center = (w // 2, h // 2 + px(50))
        self.buttons = [self.back_button]
        if not self.confirmed:
            self.buttons.append(self.iam_button)
        if self.running:
            self.buttons.append(self.cancel_button)
        if len(self.people) > 1:
            self.buttons.append(self.seat_button)
        self._refresh_buttons()
        self.scroll = max(0, min(self.scroll, self.max_scroll))

    def _refresh_buttons(self) -> None:
        if not hasattr(self, "cancel_button"):
            return
        self.cancel_button.enabled = self.running and not self.job.cancelled
        if not self.running and self.cancel_button in self.buttons:
            self.buttons.remove(self.cancel_button)
        nxt = self.next_seat()
        self.seat_button.label = f"Review {_fit(self.names[nxt], 16, self.px(120))}"
        hover_buttons(self.buttons, self.mouse)

    def next_seat(self) -> int:
        """The seat the seat button reviews next."""
        k = self.people.index(self.seat) if self.seat in self.people else -1
        return self.people[(k + 1) % len(self.people)]

    @property
    def max_scroll(self) -> int:
        return max(0, len(self.moments) * self.row_h - (self.list_rect.h - self.head_h))

    def row_rect(self, k: int) -> pygame.Rect:
        """Where decision ``k`` of the list is drawn now (it may be scrolled away)."""
        r = self.list_rect
        return pygame.Rect(r.x, r.y + self.head_h + k * self.row_h - self.scroll, r.w,
                           self.row_h)

    def row_at(self, pos) -> int | None:
        """The decision under ``pos`` in the list (None: none)."""
        r = self.list_rect
        if not r.collidepoint(pos) or pos[1] < r.y + self.head_h:
            return None
        k = (pos[1] - r.y - self.head_h + self.scroll) // self.row_h
        return k if 0 <= k < len(self.moments) else None

    def select(self, k: int) -> None:
        """Show decision ``k`` (kept in view)."""
        if not self.moments:
            return
        k = max(0, min(len(self.moments) - 1, k))
        self.selected = k
        rect = self.row_rect(k)
        top = self.list_rect.y + self.head_h
        if rect.y < top:
            self.scroll -= top - rect.y
        elif rect.bottom > self.list_rect.bottom:
            self.scroll += rect.bottom - self.list_rect.bottom
        self.scroll = max(0, min(self.scroll, self.max_scroll))

    @property
    def moment(self) -> Moment | None:
        """The selected decision."""
        return self.moments[self.selected] if self.moments else None

    # Events -----------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            hover_buttons(self.buttons, event.pos)
            self._update_tip(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            if press_button(self.buttons, event.pos, self.app.sound):
                return True
            k = self.row_at(event.pos)
            if k is not None:
                self.select(k)
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(self.max_scroll, self.scroll - event.y * self.row_h))
            return True
        if event.type == pygame.KEYDOWN and not self.confirmed:
            if event.key == pygame.K_ESCAPE:
                self.leave()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm()
            return True
        if event.type == pygame.KEYDOWN:
            page = max(1, (self.list_rect.h - self.head_h) // self.row_h - 1)
            moves = {pygame.K_DOWN: 1, pygame.K_UP: -1, pygame.K_PAGEDOWN: page,
                     pygame.K_PAGEUP: -page}
            if event.key in moves:
                self.select(self.selected + moves[event.key])
                return True
            if event.key == pygame.K_HOME:
                self.select(0)
                return True
            if event.key == pygame.K_END:
                self.select(len(self.moments) - 1)
                return True
            if event.key == pygame.K_ESCAPE:
                self.leave()
                return True
            return True
        return event.type in (pygame.MOUSEBUTTONUP, pygame.KEYUP)

    def cancel(self) -> None:
        """Stop the review after the decision under way; what is done stays."""
        if self.job is not None:
            self.job.cancel()
        self._refresh_buttons()

    def leave(self) -> None:
        """Back to the screen the review was opened from."""
        if self.job is not None:
            self.job.close()
        if self in self.app.scenes:
            self.app.pop(self)

    def _update_tip(self, pos) -> None:
        self.tip = []
        k = self.row_at(pos)
        if k is None or not self.confirmed:
            return
        m = self.moments[k]
        col = self._columns(self.row_rect(k))
        if col["you"].collidepoint(pos) and _too_wide(m.words, self.px(15), col["you"].w):
            self.tip = [(m.words, style.INK)]
        elif m.review is not None and col["hard"].collidepoint(pos) and \
                _too_wide(m.review.suggested_words, self.px(15), col["hard"].w):
            self.tip = [(m.review.suggested_words, style.INK)]

    # Drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(style.PAPER_DARK)
        self._draw_header(surface)
        if not self.confirmed:
            self._draw_hand_over(surface)
            for b in self.buttons:
                b.draw(surface)
            return
        self._draw_map(surface)
        self._draw_moment(surface)
        self._draw_status(surface)
        self._draw_list(surface)
        self._draw_detail(surface)
        for b in self.buttons:
            b.draw(surface)
        if self.tip:
            draw_tooltip(surface, self.tip, self.mouse)

    def _draw_hand_over(self, surface: pygame.Surface) -> None:
        """Before a seat's private review: who should be looking."""
        px = self.px
        name = self.names[self.seat]
        box = pygame.Rect(0, 0, px(620), px(200))
        box.center = (self.size[0] // 2, self.size[1] // 2)
        self._panel(surface, box)
        t = style.text(f"Pass the screen to {name}", px(24), style.INK, bold=True)
        surface.blit(t, t.get_rect(midtop=(box.centerx, box.y + px(22))))
        words = (f"This game is still going on. {name}'s review shows {name}'s cards and "
                 "tickets as they were at each decision.")
        for k, line in enumerate(style.wrap(words, px(16), box.w - px(60))[:3]):
            t = style.text(line, px(16), style.INK_SOFT)
            surface.blit(t, t.get_rect(midtop=(box.centerx, box.y + px(66) + k * px(22))))

    def _panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        style.panel(surface, rect, radius=10)

    def _draw_header(self, surface: pygame.Surface) -> None:
        px = self.px
        name = self.names[self.seat]
        title = style.text(f"Review: {name}'s decisions", px(24), style.INK, bold=True)
        surface.blit(title, (px(16), px(8)))
        right = (self.seat_button.rect.x if self.seat_button in self.buttons
                 else self.back_button.rect.x) - px(16)
        sub = (f"{self.title} · " if self.title else "") + \
            f"Hard's move from {name}'s seat at each moment, what {name} knew then " \
            f"({plural(self.rounds, 'rollout')} a decision)"
        sub = _fit(sub, px(14), right - px(16))
        surface.blit(style.text(sub, px(14), style.INK_SOFT), (px(16), px(40)))

    def _draw_map(self, surface: pygame.Surface) -> None:
        self._panel(surface, self.map_rect)
        m, mv = self.moment, self.map_view
        if m is None or mv is None:
            t = style.text("No decisions to review yet.", self.px(18), style.INK_SOFT)
            surface.blit(t, t.get_rect(center=self.map_rect.center))
            return
        v = m.view
        base = mv.render_base(dict(v.route_owners), self.rgb, None, frozenset(),
                              self.app.settings.colorblind_symbols, tokens=v.city_tokens,
                              closed=v.closed_routes)
        mv.draw(surface, base)
        d = m.review
        moves = [(m.taken, YOURS)]
        if d is not None and d.suggested is not None and not d.same:
            moves.append((d.suggested, HARDS))
        for action, rgb in moves:
            target = action.target()
            if target is None:
                continue
            kind, ident = target
            if kind == "route" and ident in mv.polys:
                for poly in mv.polys[ident]:
                    pygame.draw.polygon(surface, (30, 24, 18), poly, 10)
                for poly in mv.polys[ident]:
                    pygame.draw.polygon(surface, rgb, poly, 6)
            elif kind == "city":
                mv.draw_city_ring(surface, ident, 0.0, rgb)
        self._draw_key(surface, moves)

    def _draw_key(self, surface: pygame.Surface, moves) -> None:
        """What the map's colours mean, when a move is on the map."""
        shown = [(rgb, "your move" if rgb == YOURS else "Hard's move")
                 for a, rgb in moves if a.target() is not None]
        if not shown:
            return
        size = self.px(14)
        parts = [(rgb, style.text(words, size, style.INK, bold=True)) for rgb, words in shown]
        w = sum(t.get_width() + 30 for _, t in parts) + 12
        h = parts[0][1].get_height() + 10
        board = self.map_view.board_rect
        pill = pygame.Rect(board.x + 8, min(board.bottom, self.map_rect.bottom) - h - 8, w, h)
        pygame.draw.rect(surface, (252, 248, 238), pill, border_radius=h // 2)
        pygame.draw.rect(surface, style.PANEL_EDGE, pill, 1, border_radius=h // 2)
        x = pill.x + 10
        for rgb, t in parts:
            pygame.draw.rect(surface, rgb, (x, pill.centery - 4, 16, 8), border_radius=3)
            pygame.draw.rect(surface, (30, 24, 18), (x, pill.centery - 4, 16, 8), 1,
                             border_radius=3)
            surface.blit(t, (x + 22, pill.y + 5))
            x += t.get_width() + 30

    def _draw_moment(self, surface: pygame.Surface) -> None:
        """The person's side of the board at that moment: hand, tickets, trains, scores."""
        r = self.moment_rect
        self._panel(surface, r)
        m = self.moment
        if m is None:
            return
        v = m.view
        px = self.px
        x, y = r.x + 14, r.y + 10
        name = self.names[self.seat]
        fx = r.centerx + 6            # the face-up display (public), right of the hand
        head = _fit(f"{name}'s hand and tickets then", px(15), fx - x - 10, bold=True)
        surface.blit(style.text(head, px(15), style.INK, bold=True), (x, y))
        surface.blit(style.text("Face up", px(15), style.INK_SOFT, bold=True), (fx, y))
        y += px(24)
        held = [(c, n) for c, n in v.hand.items() if n]
        cw, ch = px(34), px(48)
        if held:                      # every kind held fits beside the display
            cw = max(px(20), min(cw, (fx - x - 12) // len(held) - 4))
        cx = x
        if not held:
            surface.blit(style.text("No cards", px(14), style.INK_SOFT), (cx, y + ch // 3))
        for c, n in held:
            surface.blit(card_surface(c, (cw, ch), self.app.settings.colorblind_symbols,
                                      count=n), (cx, y))
            cx += cw + 4
        cw = px(34)
        for c in v.face_up:
            surface.blit(card_surface(c, (cw, ch), self.app.settings.colorblind_symbols),
                         (fx, y))
            fx += cw + 4
        y += ch + px(8)
        # Tickets: kept ones (done / open), then any offer being chosen from.
        done = set(v.completed_tickets)
        place = v.map.place_name
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for t in v.tickets:
            ok = t.id in done
            lines.append((f"{place(t.a)}–{place(t.b)} {t.points}" + (" done" if ok else ""),
                          style.GOOD if ok else style.INK))
        for t in v.pending_tickets:
            lines.append((f"offered: {place(t.a)}–{place(t.b)} {t.points}", style.ACCENT))
        col_w = (r.w - 28) // 2
        line_h = px(18)
        rows = max(1, (r.bottom - y - px(22)) // line_h)
        for k, (text, rgb) in enumerate(lines[:rows * 2]):
            cx = x + (k // rows) * col_w
            if k == rows * 2 - 1 and len(lines) > rows * 2:
                text = f"and {len(lines) - k} more"
            surface.blit(style.text(_fit(text, px(14), col_w - 10), px(14), rgb),
                         (cx, y + (k % rows) * line_h))
        if not lines:
            surface.blit(style.text("No tickets yet", px(14), style.INK_SOFT), (x, y))
        scores = " · ".join(f"{n}: {p}" for n, p in zip(self.names, v.points))
        foot = f"Trains left {v.trains_left[self.seat]} · Score: {scores}"
        surface.blit(style.text(_fit(foot, px(13), r.w - 28), px(13), style.INK_SOFT),
                     (x, r.bottom - px(20)))

    def _draw_status(self, surface: pygame.Surface) -> None:
        r = self.status_rect
        self._panel(surface, r)
        px = self.px
        job = self.job
        x = r.x + 14
        if job is None:
            surface.blit(style.text(f"{self.names[self.seat]} made no decisions yet.",
                                    px(16), style.INK_SOFT), (x, r.y + px(18)))
            return
        total = job.total or len(self.moments)
        done = job.done
        if self.running:
            words = "Stopping after this decision…" if job.cancelled else \
                f"Reviewing decision {min(done + 1, total)} of {total}…"
            surface.blit(style.text(words, px(15), style.INK, bold=True), (x, r.y + px(7)))
            bar = pygame.Rect(x, r.y + px(32), self.cancel_button.rect.x - x - 16, px(14))
            pygame.draw.rect(surface, (236, 226, 204), bar, border_radius=7)
            fill = bar.copy()
            fill.w = round(bar.w * (done / total if total else 0))
            if fill.w:
                pygame.draw.rect(surface, style.ACCENT, fill, border_radius=7)
            pygame.draw.rect(surface, style.PANEL_EDGE, bar, 1, border_radius=7)
            return
        if job.error:
            lines = style.wrap(f"The review stopped: {job.error}", px(14), r.w - 28)[:2]
            for k, line in enumerate(lines):
                surface.blit(style.text(line, px(14), style.BAD), (x, r.y + 8 + k * px(18)))
            return
        analysed = [d for d in self.landed if d.analysed]
        same = sum(1 for d in analysed if d.same)
        marked = sum(1 for d in self.landed if d.mark)
        head = f"Reviewed {done} of {total} decisions" if not job.complete else \
            f"{plural(total, 'decision')} reviewed"
        if job.cancelled and not job.complete:
            head += " (cancelled)"
        surface.blit(style.text(head, px(15), style.INK, bold=True), (x, r.y + px(7)))
        lost = sum(d.cost for d in analysed   # clear losses only, not the rollouts' noise
                   if d.cost is not None and d.cost > max(0.5, d.cost_se))
        unit = "dollars" if self.moments[0].view.currency == "dollars" else "points"
        line = (f"{same} of {len(analysed)} as Hard would play · "
                f"{str(marked) + ' costliest marked' if marked else 'no costly mistake'}"
                f" · {lost:.0f} {unit} lost in clear mistakes")
        surface.blit(style.text(_fit(line, px(14), r.w - 28), px(14), style.INK_SOFT),
                     (x, r.y + px(31)))

    def _columns(self, row: pygame.Rect) -> dict[str, pygame.Rect]:
        px = self.px
        mark_w, round_w, cost_w = px(26), px(36), px(76)
        rest = row.w - mark_w - round_w - cost_w - 16
        you_w = rest // 2
        x = row.x + 8
        out = {"mark": pygame.Rect(x, row.y, mark_w, row.h)}
        x += mark_w
        out["round"] = pygame.Rect(x, row.y, round_w, row.h)
        x += round_w
        out["you"] = pygame.Rect(x, row.y, you_w - 6, row.h)
        x += you_w
        out["hard"] = pygame.Rect(x, row.y, rest - you_w - 6, row.h)
        out["cost"] = pygame.Rect(row.right - 8 - cost_w, row.y, cost_w, row.h)
        return out

    def _draw_list(self, surface: pygame.Surface) -> None:
        r = self.list_rect
        self._panel(surface, r)
        px = self.px
        size = px(15)
        head = self._columns(pygame.Rect(r.x, r.y, r.w, self.head_h))
        for key, words in (("round", "Rnd"), ("you", f"{self.names[self.seat]} did"),
                           ("hard", "Hard would")):
            t = style.text(_fit(words, px(13), head[key].w), px(13), style.INK_SOFT, bold=True)
            surface.blit(t, (head[key].x, head[key].centery - t.get_height() // 2))
        unit = "dollars" if self.moments and self.moments[0].view.currency == "dollars" \
            else "points"
        t = style.text(f"{unit} vs Hard", px(13), style.INK_SOFT, bold=True)
        surface.blit(t, t.get_rect(midright=(head["cost"].right, head["cost"].centery)))
        pygame.draw.line(surface, (232, 222, 200), (r.x + 8, r.y + self.head_h - 1),
                         (r.right - 8, r.y + self.head_h - 1))
        clip = surface.get_clip()
        body = pygame.Rect(r.x, r.y + self.head_h, r.w, r.h - self.head_h - 2)
        surface.set_clip(body)
        hover = self.row_at(self.mouse)
        first = max(0, self.scroll // self.row_h)
        last = min(len(self.moments), first + body.h // self.row_h + 2)
        for k in range(first, last):
            m = self.moments[k]
            row = self.row_rect(k)
            inner = row.inflate(-6, -2)
            if k == self.selected:
                pygame.draw.rect(surface, (246, 224, 196), inner, border_radius=6)
                pygame.draw.rect(surface, style.ACCENT, inner, 2, border_radius=6)
            elif k == hover:
                pygame.draw.rect(surface, (247, 239, 222), inner, border_radius=6)
            col = self._columns(row)
            d = m.review
            if d is not None and d.mark:
                c = col["mark"].center
                pygame.draw.circle(surface, MARK_RGB, c, px(10))
                t = style.text(str(d.mark), px(13), (255, 255, 255), bold=True)
                surface.blit(t, t.get_rect(center=c))
            soft = m.choices <= 1
            ink = style.INK_SOFT if soft else style.INK
            t = style.text(str(m.round), size, style.INK_SOFT)
            surface.blit(t, (col["round"].x, row.centery - t.get_height() // 2))
            t = style.text(_fit(m.words, size, col["you"].w), size, ink)
            surface.blit(t, (col["you"].x, row.centery - t.get_height() // 2))
            if d is not None and d.analysed:
                hard = "the same" if d.same else d.suggested_words
                t = style.text(_fit(hard, size, col["hard"].w), size,
                               style.INK_SOFT if d.same else style.INK)
                surface.blit(t, (col["hard"].x, row.centery - t.get_height() // 2))
            words, rgb = cost_text(d, m.choices)
            t = style.text(words, size, rgb, bold=rgb in (style.BAD, style.GOOD))
            surface.blit(t, t.get_rect(midright=(col["cost"].right, row.centery)))
        surface.set_clip(clip)
        if self.max_scroll:
            track = pygame.Rect(r.right - 7, body.y + 4, 4, body.h - 8)
            content = len(self.moments) * self.row_h
            thumb = pygame.Rect(track.x, track.y + int(track.h * self.scroll / content), 4,
                                max(20, int(track.h * body.h / content)))
            pygame.draw.rect(surface, style.PANEL_EDGE, thumb, border_radius=2)

    def _draw_detail(self, surface: pygame.Surface) -> None:
        r = self.detail_rect
        self._panel(surface, r)
        m = self.moment
        if m is None:
            return
        px = self.px
        x, y, width = r.x + 14, r.y + 10, r.w - 28
        name = self.names[self.seat]
        d = m.review
        phase = PHASE_WORDS.get(m.view.phase, m.view.phase.replace("_", " "))
        head = f"Round {m.round}, {phase}"
        if d is not None and d.mark:
            head += f" — costly decision #{d.mark}"
        surface.blit(style.text(head, px(16), MARK_RGB if d is not None and d.mark else
                                style.INK, bold=True), (x, y))
        y += px(24)
        lines: list[tuple[str, tuple[int, int, int], bool]] = [
            (f"{name}: {m.words}", style.INK, False)]
        unit = "dollars" if m.view.currency == "dollars" else "points"
        if m.choices <= 1:
            lines.append(("It was the only legal move: nothing to decide.", style.INK_SOFT,
                          False))
        elif d is None:
            lines.append(("Hard has not reviewed this decision yet.", style.INK_SOFT, False))
        else:
            if d.same:
                lines.append(("Hard would have played the same.", style.GOOD, False))
            else:
                lines.append((f"Hard: {d.suggested_words}", style.INK, False))
            if d.reason:
                lines.append((f"Hard's reason: {d.reason}.", style.INK_SOFT, False))
            if not d.same and d.cost is not None:
                lead = (f"{name}'s final lead over the best other player, by {d.rounds} "
                        f"rollouts from {name}'s view: {_signed(d.taken_lead)} after this "
                        f"move, {_signed(d.suggested_lead)} after Hard's")
                if d.cost > max(0.5, d.cost_se):
                    verdict = f"this move cost {d.cost:.1f} {unit} (± {d.cost_se:.1f})."
                    rgb = style.BAD
                elif d.cost < -max(0.5, d.cost_se):
                    verdict = f"this move did {-d.cost:.1f} {unit} better (± {d.cost_se:.1f})."
                    rgb = style.GOOD
                else:
                    verdict = f"no clear difference (± {d.cost_se:.1f} {unit})."
                    rgb = style.INK_SOFT
                lines.append((f"{lead}: {verdict}", rgb, False))
                if d.taken_wins is not None and d.suggested_wins is not None:
                    lines.append((f"Games won in the rollouts: {d.taken_wins:.0%} after this "
                                  f"move, {d.suggested_wins:.0%} after Hard's.",
                                  style.INK_SOFT, False))
        size = px(14)
        line_h = style.font(size).get_linesize()
        for text, rgb, bold in lines:
            for line in style.wrap(text, size, width, bold):
                if y + line_h > r.bottom - 6:
                    return
                surface.blit(style.text(line, size, rgb, bold), (x, y))
                y += line_h


def _signed(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{'+' if value >= 0 else MINUS}{abs(value):.1f}"


def _too_wide(text: str, size: int, width: int) -> bool:
    return style.font(size).size(text)[0] > width


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with '…' to fit ``width`` pixels."""
    f = style.font(size, bold)
    if f.size(text)[0] <= width:
        return text
    while len(text) > 1 and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


__all__ = ["Moment", "ReviewScene", "cost_text", "moments"]
