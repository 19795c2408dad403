"""The board scene: the map, the market, the players, the hand — and the turn flow.

Clicks become engine actions (``session.apply``); the returned events queue
animations and sounds. Bots think in a worker (BotRunner) and their moves
are applied on this thread, paced by the animation speed. Between two
different human seats a hand-over overlay hides every private panel.
"""

from __future__ import annotations

import logging

import pygame

from ttr_desktop.bots import make_bot
from ttr_desktop.rules import (
    DrawBlind, DrawFaceUp, DrawTickets, Event, IllegalAction, Phase,
)
from ttr_desktop.ui import style
from ttr_desktop.ui.animations import SPEED, Animation, Banner, CardFlight, Pause, RouteFill
from ttr_desktop.ui.bot_runner import BotRunner
from ttr_desktop.ui.log_text import event_line, route_name
from ttr_desktop.ui.map_view import MapView
from ttr_desktop.ui.route_plan import best_path
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.scenes import board_panels as panels
from ttr_desktop.ui.session import BOT_LEVELS, GameSession

log = logging.getLogger("ttr_desktop.board")
HAND_INDEX = {card: i for i, card in enumerate(panels.CARD_ORDER)}


class BoardScene(Scene):
    """Plays one game session."""

    def __init__(self, app, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        self.bots = {i: make_bot(s.level, seed=session.game.seed * 7 + i)
                     for i, s in enumerate(session.seats) if s.is_bot}
        self.runner: BotRunner | None = None
        self.anims: list[Animation] = []
        self.filling: set[str] = set()
        self.log_lines: list[tuple[str, tuple]] = []
        self.hover_route: str | None = None
        self.hover_city: str | None = None
        self.hover_market: str | None = None
        self.hover_ticket: int | None = None
        self.ticket_scroll = 0
        self.mouse = (0, 0)
        self.clock = 0.0
        self.bot_ready_at = 0.0
        # After a person's move the bots wait a moment: time to see it, and to take it back.
        self.grace_until = 0.0
        self.humans = session.humans
        # The seat whose private panels are shown (None: hidden, e.g. between players).
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.lay = panels.compute_layout(app.size, session.game.num_players)
        self.map_view = MapView(session.game.map, self.lay.map,
                                symbols=app.settings.colorblind_symbols)
        self.rgb = [style.PLAYER_COLORS.get(s.color, (90, 90, 90)) for s in session.seats]
        self._ended = False
        self._path_cache: tuple | None = None
        self._add_log(f"A game of {session.game.map.name} for "
                      f"{', '.join(s.name for s in session.seats)}.", style.INK_SOFT)
        if session.game.log:
            self._add_log(f"Resumed at turn {session.game.state.turn + 1}.", style.INK_SOFT)

    # Scene hooks ---------------------------------------------------------
    def exit(self) -> None:
        self.session.wait_for_autosave()

    def resize(self, size: tuple[int, int]) -> None:
        self.lay = panels.compute_layout(size, self.session.game.num_players)
        if hasattr(self, "map_view"):
            self.map_view.layout(self.lay.map)

    @property
    def game(self):
        """The engine game (it changes object on undo)."""
        return self.session.game

    @property
    def speed(self) -> float:
        """Animation duration multiplier from the settings."""
        return SPEED.get(self.app.settings.animation_speed, 1.0)

    def is_human_turn(self) -> bool:
        """True when a person must decide now and may see their panels."""
        g = self.game
        return (not g.is_over and self.session.is_human(g.current_seat)
                and self.viewer == g.current_seat)

    # Events --------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._update_hover(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._update_hover(event.pos)
            self._click(event.pos)
            return True
        if event.type == pygame.MOUSEWHEEL and self.lay.tickets.collidepoint(self.mouse):
            self.scroll_tickets(-event.y * panels.ticket_columns(self.lay))
            return True
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        return False

    def scroll_tickets(self, delta: int) -> None:
        """Move the ticket list by ``delta`` tickets (mouse wheel)."""
        if self.viewer is None:
            return
        count = len(self.game.view(self.viewer).tickets)
        top = max(0, count - panels.tickets_visible(self.lay))
        self.ticket_scroll = max(0, min(top, self.ticket_scroll + delta))

    def _key(self, event) -> bool:
        ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if event.key == pygame.K_ESCAPE:
            self.open_pause()
        elif event.key == pygame.K_s and ctrl:
            self.quick_save()
        elif event.key == pygame.K_z and ctrl:
            self.undo()
        elif event.key == pygame.K_d and not ctrl:
            self.try_action(DrawBlind(), "draw from the deck")
        elif event.key == pygame.K_t and not ctrl:
            self.try_action(DrawTickets(), "draw tickets")
        else:
            return False
        return True

    def _update_hover(self, pos) -> None:
        lay = self.lay
        self.hover_route = self.hover_city = self.hover_market = None
        self.hover_ticket = None
        if lay.map.collidepoint(pos):
            self.hover_city = self.map_view.city_at(pos)
            if self.hover_city is None:
                self.hover_route = self.map_view.route_at(pos)
        elif lay.deck.collidepoint(pos):
            self.hover_market = "deck"
        elif lay.tickets_deck.collidepoint(pos):
            self.hover_market = "tickets"
        else:
            for i, rect in enumerate(lay.face_up):
                if rect.collidepoint(pos):
                    self.hover_market = f"face_up:{i}"
            if self.viewer is not None:
                view = self.game.view(self.viewer)
                rows = panels.ticket_rows(lay, len(view.tickets), self.ticket_scroll)
                for i, rect in rows:
                    if rect.collidepoint(pos):
                        self.hover_ticket = i

    def _click(self, pos) -> None:
        if self.hover_market == "deck":
            self.try_action(DrawBlind(), "draw from the deck")
        elif self.hover_market == "tickets":
            self.try_action(DrawTickets(), "draw tickets")
        elif self.hover_market and self.hover_market.startswith("face_up:"):
            slot = int(self.hover_market.split(":")[1])
            card = self.game.view(self.game.current_seat).face_up[slot]
            if card is not None:
                self.try_action(DrawFaceUp(slot, card), f"take the face-up {card}")
        elif self.hover_route:
            self.click_route(self.hover_route)
        elif self.hover_city:
            self.click_city(self.hover_city)

    # Player actions ------------------------------------------------------
    def _not_your_turn(self) -> str | None:
        g = self.game
        if g.is_over:
            return "The game is over."
        if not self.session.is_human(g.current_seat):
            return f"Wait: it is {g.players[g.current_seat]}'s turn."
        if self.viewer != g.current_seat:
            return f"It is {g.players[g.current_seat]}'s turn."
        return None

    def try_action(self, action, what: str) -> bool:
        """Apply a player's action, or explain why it cannot be done."""
        problem = self._not_your_turn()
        if problem is None:
            problem = self.game.explain(action)
        if problem:
            self.app.toast(problem, 4, "error")
            self.app.sound.play("error")
            return False
        self.perform(action)
        return True

    def click_route(self, route_id: str) -> None:
        """Claim a route: one payment claims (or asks to confirm), several ask which."""
        problem = self._not_your_turn()
        if problem is None and self.game.phase is not Phase.TURN:
            problem = self.phase_hint()
        if problem is None:
            problem = self.game.claim_problem(route_id)
        if problem:
            self.app.toast(problem, 5, "error")
            self.app.sound.play("error")
            return
        payments = self.game.payments_for(route_id)
        from ttr_desktop.ui.scenes.board_overlays import PaymentOverlay
        if len(payments) == 1 and not self.app.settings.confirm_claims:
            self.perform(payments[0])
        else:
            self.app.push(PaymentOverlay(self.app, self, f"Claim {route_name(self.game, route_id)}",
                                         payments, highlight_route=route_id))

    def click_city(self, city_id: str) -> None:
        """Build a station (when the Stations rule is in play)."""
        if not self.game.has_module("stations"):
            return
        problem = self._not_your_turn()
        acts = [a for a in self.game.legal_actions()
                if a.kind == "build_station" and a.city_id == city_id]
        if problem is None and not acts:
            name = self.game.map.cities[city_id].name
            stations = self.game.view(self.game.current_seat).extra.get("stations", {})
            if city_id in stations:
                problem = f"{name} already has a station."
            elif self.game.phase is not Phase.TURN:
                problem = self.phase_hint()
            else:
                left = self.game.view(self.game.current_seat).extra["stations_left"]
                problem = ("You have no stations left." if not left[self.game.current_seat]
                           else "You do not have the cards for your next station.")
        if problem:
            self.app.toast(problem, 4, "error")
            self.app.sound.play("error")
            return
        from ttr_desktop.ui.scenes.board_overlays import PaymentOverlay
        self.app.push(PaymentOverlay(self.app, self,
                                     f"Build a station in {self.game.map.cities[city_id].name}",
                                     acts, highlight_city=city_id))

    def perform(self, action) -> list[Event]:
        """Apply an action of the current seat and queue what it shows."""
        seat = self.game.current_seat
        try:
            events = self.session.apply(action)
        except IllegalAction as exc:
            self.app.toast(str(exc), 4, "error")
            self.app.sound.play("error")
            return []
        if self.session.is_human(seat):
            self.grace_until = self.clock + 1.0 * self.speed
        self._show_events(events, seat)
        return events

    def undo(self) -> None:
        """Ctrl+Z: take back the last action if it revealed nothing hidden."""
        if not self.session.can_undo():
            self.app.toast("Nothing to take back: only your last action, and only if it "
                           "revealed no hidden card.", 4, "error")
            return
        self.runner = None
        self.anims.clear()
        self.filling.clear()
        seat = self.session.undo()
        self.viewer = seat if seat is not None else self.viewer
        self._add_log(f"{self.game.players[seat]} took back the last action.", style.INK_SOFT)
        self.app.toast("Took back your last action.", 2.5)

    def quick_save(self) -> None:
        """Ctrl+S: save to the current file, or ask for a name."""
        from ttr_desktop.persistence import SaveError
        if self.session.save_path is None:
            self.open_pause(save_as=True)
            return
        try:
            self.session.save(self.session.save_path)
            self.app.toast(f"Saved to {self.session.save_path.name}.", 2.5)
        except SaveError as exc:
            self.app.toast(str(exc), 6, "error")

    def open_pause(self, save_as: bool = False) -> None:
        """Esc: the pause overlay (save, load, settings, quit)."""
        try:
            from ttr_desktop.ui.scenes.overlays import PauseOverlay
        except ImportError:
            return
        overlay = self.app.push(PauseOverlay(self.app, self.session, self))
        if save_as and hasattr(overlay, "open_save_as"):
            overlay.open_save_as()

    # Events -> animations ------------------------------------------------
    def _seat_anchor(self, seat: int) -> tuple[int, int]:
        return self.lay.player_rows[seat].center

    def _show_events(self, events: list[Event], seat: int) -> None:
        speed = self.speed
        g = self.game
        # The log stays on screen for everyone: with several people at the screen it shows
        # public events only; a single player also sees their own draws.
        log_viewer = self.viewer if len(self.humans) == 1 else None
        delay = 0.0
        for ev in events:
            line = event_line(ev, g, log_viewer)
            if line:
                rgb = self.rgb[ev.seat] if ev.seat is not None else style.INK_SOFT
                self._add_log(line, tuple(max(0, c - 40) for c in rgb)
                              if ev.seat is not None else rgb)
            kind = ev.kind
            if kind == "card_drawn":
                self.app.sound.play("draw")
                if ev.data["source"] == "face_up":
                    start = self.lay.face_up[ev.data["slot"]].center
                    card = ev.data["card"]
                else:
                    start = self.lay.deck.center
                    card = ev.data["card"] if ev.seat == self.viewer else None
                if ev.seat == self.viewer and card in HAND_INDEX:
                    end = self.lay.hand[HAND_INDEX[card]].center
                else:
                    end = self._seat_anchor(ev.seat)
                if speed:
                    self.anims.append(CardFlight(card, start, end, self.lay.card_size,
                                                 0.5 * speed, delay,
                                                 self.app.settings.colorblind_symbols))
                    delay += 0.12 * speed
            elif kind == "route_claimed":
                self.app.sound.play("claim")
                if speed:
                    self.filling.add(ev.data["route"])
                    self.anims.append(RouteFill(self.map_view, ev.data["route"],
                                                self.rgb[ev.seat], 0.1 * speed))
            elif kind == "station_built":
                self.app.sound.play("claim")
            elif kind == "tickets_drawn" and speed:
                for k in range(ev.data["count"]):
                    self.anims.append(CardFlight(None, self.lay.tickets_deck.center,
                                                 self._seat_anchor(ev.seat), (40, 56),
                                                 0.45 * speed, k * 0.1 * speed))
            elif kind == "ticket_completed" and ev.seat == self.viewer and "ticket" in ev.data:
                self.app.sound.play("ticket")
                t = next(t for t in g.map.tickets if t.id == ev.data["ticket"])
                self.app.toast(f"Ticket completed: {g.map.cities[t.a].name} – "
                               f"{g.map.cities[t.b].name} (+{t.points})", 3.5, "private")
            elif kind == "final_round":
                self.anims.append(Banner(self.lay.map, "Final round!",
                                         f"{g.players[ev.seat]} has {ev.data['trains_left']} "
                                         "trains left — everyone plays one more turn.",
                                         3.5 if speed else 2.0))
            elif kind == "game_over":  # the scoring scene plays the end sound
                self.anims.append(Banner(self.lay.map, "Game over", "Counting the score…",
                                         2.2 if speed else 0.5))
                self.anims.append(Pause(2.2 if speed else 0.5))
            elif kind == "turn_started":
                self.session.autosave(self.app.paths.autosave_file)
        if not self.session.is_human(seat) and speed:
            self.anims.append(Pause(0.25 * speed))

    def _add_log(self, text: str, rgb) -> None:
        self.log_lines.append((text, rgb))
        del self.log_lines[:-200]

    # Update --------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.clock += dt
        for anim in self.anims:
            anim.update(dt)
        finished = [a for a in self.anims if a.done]
        if finished:
            for a in finished:
                if isinstance(a, RouteFill):
                    self.filling.discard(a.route_id)
            self.anims = [a for a in self.anims if not a.done]
        if self.app.top is not self:
            return
        busy = any(a.blocking for a in self.anims)
        g = self.game
        if g.is_over:
            if not busy and not self._ended:
                self._end_game()
            return
        seat = g.current_seat
        if self.session.is_human(seat):
            self.runner = None
            self._human_prompts(seat)
            return
        self._drive_bot(seat, busy)

    def _human_prompts(self, seat: int) -> None:
        """Hand-over between people, then the ticket or tunnel overlay when needed."""
        from ttr_desktop.ui.scenes import board_overlays as ov
        if self.viewer != seat:
            if len(self.humans) > 1:
                self.viewer = None
                self.app.toasts = [t for t in self.app.toasts if t.kind != "private"]
                self.app.push(ov.HandOverOverlay(self.app, self, seat))
                return
            self.viewer = seat
        phase = self.game.phase
        if phase in (Phase.CHOOSE_INITIAL_TICKETS, Phase.KEEP_TICKETS):
            self.app.push(ov.TicketChoiceOverlay(self.app, self))
        elif phase is Phase.PAY_TUNNEL:
            self.app.push(ov.TunnelOverlay(self.app, self))

    def _drive_bot(self, seat: int, busy: bool) -> None:
        g = self.game
        if self.runner is None or self.runner.version != g._version:
            if busy:
                return
            self.runner = BotRunner(self.bots[seat], g.view(seat), g.legal_actions(),
                                    g._version)
            self.bot_ready_at = self.clock + 0.35 * self.speed
            return
        if (busy or not self.runner.done or self.clock < self.bot_ready_at
                or self.clock < self.grace_until):
            return
        action = self.runner.result
        self.runner = None
        self.perform(action)

    def hand_over_to(self, seat: int) -> None:
        """Called by the hand-over overlay when the next player clicked."""
        self.viewer = seat
        self.ticket_scroll = 0

    def _end_game(self) -> None:
        self._ended = True
        try:
            self.app.paths.autosave_file.unlink(missing_ok=True)
        except OSError:
            pass
        try:
            from ttr_desktop.ui.scenes.scoring import ScoringScene
        except ImportError:
            return
        self.app.replace(ScoringScene(self.app, self.session))

    # Drawing -------------------------------------------------------------
    def _view_data(self) -> dict:
        g = self.game
        v = g.view(self.viewer if self.viewer is not None else g.current_seat)
        data = {
            "seats": self.session.seats, "rgb": self.rgb, "current": g.current_seat,
            "levels": [BOT_LEVELS.get(s.level, s.level) for s in self.session.seats],
            "points": v.points, "trains": v.trains_left, "hand_sizes": v.hand_sizes,
            "ticket_counts": v.ticket_counts, "stations_left": v.extra.get("stations_left"),
            "phase": v.phase, "face_up": v.face_up, "deck_size": v.deck_size,
            "discard_size": v.discard_size, "ticket_deck_size": v.ticket_deck_size,
            "symbols": self.app.settings.colorblind_symbols,
            "human_turn": self.is_human_turn(), "viewer": self.viewer,
            "city_names": {cid: c.name for cid, c in g.map.cities.items()},
        }
        if self.viewer is not None:
            data["hand"] = v.hand
            data["tickets"] = v.tickets
            data["done"] = set(v.completed_tickets)
        else:
            nxt = g.players[g.current_seat]
            data["hidden_message"] = f"Hands are hidden — {nxt} is next"
        return data

    def phase_hint(self) -> str:
        """Why a new action cannot start now (a draw or choice is half done)."""
        phase = self.game.phase
        if phase is Phase.SECOND_CARD:
            return "Take your second card first."
        if phase in (Phase.KEEP_TICKETS, Phase.CHOOSE_INITIAL_TICKETS):
            return "Choose your tickets first."
        if phase is Phase.PAY_TUNNEL:
            return "Pay for the tunnel or give it up first."
        return "Finish the current step first."

    def status_text(self) -> str:
        """What the current seat should do now, in words."""
        g = self.game
        if g.is_over:
            return "The game is over."
        name = g.players[g.current_seat]
        if not self.session.is_human(g.current_seat):
            return f"{name} is thinking…"
        if self.viewer != g.current_seat:
            return f"Pass the screen to {name}."
        phase = g.phase
        if phase is Phase.CHOOSE_INITIAL_TICKETS:
            return f"{name}: choose your starting tickets."
        if phase is Phase.SECOND_CARD:
            return f"{name}: take a second card — the deck or a face-up card (not a locomotive)."
        if phase is Phase.KEEP_TICKETS:
            return f"{name}: choose which tickets to keep."
        if phase is Phase.PAY_TUNNEL:
            return f"{name}: pay for the tunnel or give it up."
        extra = ", build a station" if g.has_module("stations") else ""
        return f"{name}: draw cards, claim a route{extra} or draw tickets."

    def draw(self, surface: pygame.Surface) -> None:
        g = self.game
        surface.fill(style.PAPER_DARK)
        lay = self.lay
        owners = {rid: o for rid, o in g.view(0).route_owners.items()}
        stations = g.view(0).extra.get("stations")
        base = self.map_view.render_base(owners, self.rgb, stations, frozenset(self.filling),
                                         self.app.settings.colorblind_symbols)
        self.map_view.draw(surface, base)
        self._draw_highlights(surface)
        # Top bar.
        pygame.draw.rect(surface, style.PANEL, lay.top)
        pygame.draw.line(surface, style.PANEL_EDGE, lay.top.bottomleft, lay.top.bottomright)
        pygame.draw.circle(surface, self.rgb[g.current_seat], (lay.top.x + 20, lay.top.centery),
                           9)
        surface.blit(style.text(self.status_text(), 18, style.INK, bold=True),
                     (lay.top.x + 38, lay.top.y + 8))
        info = f"Turn {g.state.turn + 1}" + (" · FINAL ROUND" if g.final_round else "")
        t = style.text(info, 15, style.ACCENT if g.final_round else style.INK_SOFT,
                       bold=g.final_round)
        surface.blit(t, t.get_rect(midright=(lay.top.right - 12, lay.top.centery)))
        # Panels.
        data = self._view_data()
        pygame.draw.rect(surface, style.PAPER, lay.right)
        panels.draw_players(surface, lay, data)
        panels.draw_market(surface, lay, data, self.hover_market)
        panels.draw_log(surface, lay, self.log_lines)
        pygame.draw.rect(surface, style.PAPER, lay.bottom)
        panels.draw_hand(surface, lay, data)
        panels.draw_tickets(surface, lay, data, self.hover_ticket, self.ticket_scroll)
        panels.draw_info(surface, lay, data)
        for anim in self.anims:
            anim.draw(surface)
        if self.app.top is self:
            self._draw_tooltip(surface)

    def _draw_highlights(self, surface: pygame.Surface) -> None:
        mv = self.map_view
        if self.hover_route:
            mv.draw_route_glow(surface, self.hover_route)
        if self.hover_city and self.game.has_module("stations"):
            mv.draw_city_ring(surface, self.hover_city, self.clock)
        if self.hover_ticket is not None and self.viewer is not None:
            view = self.game.view(self.viewer)
            if self.hover_ticket < len(view.tickets):
                ticket = view.tickets[self.hover_ticket]
                key = (self.game._version, self.viewer, ticket.id)
                if self._path_cache is None or self._path_cache[0] != key:
                    path = best_path(self.game.map, self.viewer, view.route_owners, ticket.a,
                                     ticket.b, view.doubles_open)
                    self._path_cache = (key, path)
                for rid in self._path_cache[1]:
                    mine = view.route_owners.get(rid) == self.viewer
                    mv.draw_route_glow(surface, rid, (60, 200, 90) if mine else style.HIGHLIGHT,
                                       3)
                mv.draw_city_ring(surface, ticket.a, self.clock)
                mv.draw_city_ring(surface, ticket.b, self.clock + 0.5)

    def _draw_tooltip(self, surface: pygame.Surface) -> None:
        lines = self.tooltip_lines()
        if not lines:
            return
        width = max(style.font(15, bold).size(t)[0] for t, _, bold in lines) + 24
        height = 12 + 22 * len(lines)
        x, y = self.mouse[0] + 18, self.mouse[1] + 18
        w, h = surface.get_size()
        if x + width > w - 8:
            x = self.mouse[0] - width - 12
        if y + height > h - 8:
            y = self.mouse[1] - height - 12
        rect = pygame.Rect(x, y, width, height)
        style.panel(surface, rect, fill=(255, 252, 244), radius=8)
        for i, (text, rgb, bold) in enumerate(lines):
            surface.blit(style.text(text, 15, rgb, bold), (x + 12, y + 7 + 22 * i))

    def tooltip_lines(self) -> list[tuple[str, tuple, bool]]:
        """The hover tooltip: a route's ends, length, points and whether it can be paid."""
        rid = self.hover_route
        if rid is None:
            return []
        g = self.game
        route = g.map.routes[rid]
        owners = g.view(0).route_owners
        lines = [(route_name(g, rid), style.INK, True)]
        kind = f"{route.length} spaces · {route.color}"
        if route.tunnel:
            kind += " · tunnel"
        if route.ferry_locomotives:
            kind += f" · ferry ({route.ferry_locomotives} locomotive)"
        kind += f" · {g.ruleset.route_points.get(route.length, 0)} points"
        lines.append((kind, style.INK_SOFT, False))
        if rid in owners:
            lines.append((f"Claimed by {g.players[owners[rid]]}", self.rgb[owners[rid]], True))
            return lines
        if not self.is_human_turn():
            return lines
        pays = g.payments_for(rid) if g.phase is Phase.TURN else []
        if pays:
            if len(pays) == 1:
                paid = " + ".join(f"{n} {c}" for c, n in pays[0].cards)
                lines.append((f"Click to claim: pay {paid}", style.GOOD, True))
            else:
                lines.append((f"Click to claim: {len(pays)} ways to pay", style.GOOD, True))
        else:
            problem = g.claim_problem(rid) if g.phase is Phase.TURN else self.phase_hint()
            for part in style.wrap(problem or "", 15, 380):
                lines.append((part, style.BAD, False))
        return lines

