"""The board scene: the map, the market, the players, the hand — and the turn flow.

Clicks become engine actions (``session.apply``); the returned events queue
animations and sounds. Bots think in a worker (BotRunner) and their moves
are applied on this thread, paced by the animation speed. Between two
different human seats a hand-over overlay hides every private panel.
"""

from __future__ import annotations

import logging

import pygame

from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.bots import make_bot
from ttr_desktop.rules import (
    DrawBlind, DrawFaceUp, DrawTickets, Event, IllegalAction, Phase,
)
from ttr_desktop.ui import style
from ttr_desktop.ui.animations import SPEED, Animation, Banner, CardFlight, Pause, RouteFill
from ttr_desktop.ui.bot_runner import BotRunner
from ttr_desktop.ui.log_text import event_line, route_name
from ttr_desktop.ui.map_view import MapView
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.scenes.board_draw import BoardDrawing
from ttr_desktop.ui.scenes import board_panels as panels
from ttr_desktop.ui.session import GameSession

log = logging.getLogger("ttr_desktop.board")
HAND_INDEX = {card: i for i, card in enumerate(panels.CARD_ORDER)}


class BoardScene(BoardDrawing, Scene):
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
        if problem is None and self.game.phase != Phase.TURN:
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
            elif self.game.phase != Phase.TURN:
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
        elif phase == PAY_TUNNEL:
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
