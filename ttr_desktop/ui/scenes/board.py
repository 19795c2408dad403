"""The board scene: the map, the market, the players, the hand — and the turn flow.

Clicks become engine actions (``session.apply``); the returned events queue
animations and sounds. The scene handles actions generically: a click on a
route or a city offers the legal actions aimed at it (``Action.target()``) —
one is performed (or confirmed), several open a chooser — and a decision the
scene has no special overlay for gets the generic step panel, so a person is
never stuck. Bots think in a worker (BotRunner) and their moves are applied
on this thread, paced by the animation speed. Between two different human
seats a hand-over overlay hides every private panel, once the player who
acted has seen the result land.
"""

from __future__ import annotations

import dataclasses
import logging

import pygame

from ttr_desktop.bots import make_bot
from ttr_desktop.rules import DrawBlind, DrawFaceUp, DrawTickets, Event, IllegalAction, Phase
from ttr_desktop.ui import style
from ttr_desktop.ui.animations import (SPEED, Animation, Banner, CardFlight, Pause, RouteFill,
                                        TunnelReveal)
from ttr_desktop.ui.bot_runner import BotRunner
from ttr_desktop.ui import map_zoom
from ttr_desktop.ui.log_text import event_line, plural, route_name, turn_summary
from ttr_desktop.ui.map_view import MapView
from ttr_desktop.ui.scene import Scene
from ttr_desktop.ui.scenes import board_panels as panels
from ttr_desktop.ui.scenes.board_draw import BoardDrawing
from ttr_desktop.ui.scenes.board_port import BoardPort
from ttr_desktop.ui.scenes.scoring_words import current_round
from ttr_desktop.ui.session import GameSession

log = logging.getLogger("ttr_desktop.board")
#: Seconds the acting person sees the result of a move before the screen is handed over.
RESULT_BEAT = 0.6
def game_label(game) -> str:
    """The game being played in a player's words, from its family ('USA 1910: Mega Game',
    'Nordic Countries'); the map's name for a variant no family plays. A game whose own
    label the family's already says ('1910' of 'USA 1910') is the family's label."""
    from ttr_desktop.rules.family import get_family
    try:
        family = get_family(game.variant)
    except ValueError:
        return game.map.name
    one = next((g for g in family.games if g.id == game.variant), None)
    if one is None or one.label in family.label:
        return family.label
    return f"{family.label}: {one.label}"


#: How often (seconds) the window looks whether a bot's move or the hint is ready.
BOT_POLL = 0.05


class BoardScene(BoardDrawing, Scene):
    """Plays one game session."""

    def __init__(self, app, session: GameSession) -> None:
        super().__init__(app)
        self.session = session
        #: A table played elsewhere (``ui.net``): its events come by polling, its bots and
        #: its engine run on the host; ``net`` shows the table around the game.
        self.remote = bool(getattr(session, "remote", False))
        self.net = None
        if self.remote:
            from ttr_desktop.ui.net.panel import NetPanel
            self.net = NetPanel(self)
        budget = app.settings.hard_budget
        self.bots = {} if self.remote else {
            i: make_bot(s.level, seed=session.game.seed * 7 + i, budget=budget)
            for i, s in enumerate(session.seats) if s.is_bot}
        self.runner: BotRunner | None = None
        if any(getattr(b, "searches", False) for b in self.bots.values()):
            from ttr_desktop.ui.bot_runner import warm_up
            warm_up()
        #: The H key's hint: the Hard bot thinking in the person's position (their view).
        self.hint_runner: BotRunner | None = None
        self.hint_view = None
        #: The hint on screen (about one position: it goes when that position does).
        self.hint_toast = None
        self.anims: list[Animation] = []
        self.filling: set[str] = set()
        self.log_lines: list[tuple[str, tuple]] = []
        self.hover_route: str | None = None
        self.hover_city: str | None = None
        self.hover_stub: str | None = None
        self.hover_market: str | None = None
        self.hover_ticket: int | None = None
        #: The zoom button under the mouse ("in", "out", "fit") or None.
        self.hover_zoom: str | None = None
        #: The player row under the mouse (its tooltip breaks the score down).
        self.hover_seat: int | None = None
        self.ticket_scroll = 0
        self.mouse = (0, 0)
        self.clock = 0.0
        self.bot_ready_at = 0.0
        # After a person's move the bots wait a moment: time to see it, and to take it back.
        self.grace_until = 0.0
        # The acting person sees the result of a move before the screen is handed over.
        self.handover_at = 0.0
        #: The seat a take-back hands the screen back to (its hand-over says so).
        self.handed_back: int | None = None
        #: The game version whose decision ``_human_prompts`` last asked for (so the loop
        #: does not sleep between a bot's instant move and the person's panel).
        self.asked_version = -1
        self.humans = session.humans
        # The seat whose private panels are shown (None: hidden, e.g. between players).
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        rs = session.game.ruleset
        self.hand_kinds = panels.hand_order(rs.card_names,
                                            [k.name for k in rs.cards if k.setup_redeal])
        self.hand_index = {card: i for i, card in enumerate(self.hand_kinds)}
        self.lay = panels.compute_layout(app.size, session.game.num_players,
                                         len(self.hand_kinds), self.map_size,
                                         panels.ASIDE_HEIGHT.get(session.game.variant, 0))
        if self.net is not None:
            self.net.layout(self.lay)
        self.map_view = MapView(session.game.map, self.lay.map,
                                symbols=app.settings.colorblind_symbols)
        self.rgb = [style.PLAYER_COLORS.get(s.color, (90, 90, 90)) for s in session.seats]
        #: What the panels over the board may use of it (``board_port``).
        self.port = BoardPort(self)
        self._ended = False
        self._path_cache: tuple | None = None
        #: What the other seats did since this person last acted: route ids claimed (lit on
        #: the map), and one line per seat under the header.
        self.recent_routes: dict[str, int] = {}
        self.recent_lines: dict[int, str] = {}
        self._turn_events: list[Event] = []
        self._add_log(f"A game of {game_label(session.game)} for "
                      f"{', '.join(s.name for s in session.seats)}.", style.INK_SOFT)
        if session.past_events:
            for ev in session.past_events:
                self._log_event(ev)
        if session.past_events and not (self.remote and session.game.state.turn == 0):
            rnd = current_round(session.game.state.turn, session.game.num_players,
                                session.game.is_over)
            self._add_log(f"— Resumed in round {rnd} —", style.INK_SOFT)

    # Scene hooks ---------------------------------------------------------
    def exit(self) -> None:
        self.session.wait_for_autosave()
        if self.remote:              # the window leaves the table (the seat stays its own)
            self.session.close()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.net is not None:
            self.net.draw(surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.lay = panels.compute_layout(size, self.session.game.num_players,
                                         len(getattr(self, "hand_kinds", ())) or 9,
                                         self.map_size,
                                         panels.ASIDE_HEIGHT.get(self.session.game.variant, 0))
        if getattr(self, "net", None) is not None:
            self.net.layout(self.lay)
        if hasattr(self, "map_view"):
            self.map_view.layout(self.lay.map)

    @property
    def map_size(self) -> tuple[float, float]:
        """The map's own size (its shape decides where the hand goes)."""
        m = self.session.game.map
        return (m.width, m.height)

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
        if self.net is not None and self.net.handle_event(event):
            return True
        if event.type == pygame.MOUSEWHEEL and self.lay.tickets.collidepoint(self.mouse):
            self.scroll_tickets(-event.y * panels.ticket_columns(self.lay))
            return True
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.map_view.handle_view_event(event, self.mouse):
            self._update_hover(self.mouse)
            return True
        if event.type == pygame.MOUSEMOTION:
            self._update_hover(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            self._update_hover(event.pos)
            if self.hover_zoom is not None:
                map_zoom.press(self.map_view, self.hover_zoom)
                self._update_hover(event.pos)
                return True
            # On an empty spot of the zoomed map a press may become a drag that pans;
            # if it does not move, it is a click when the button goes up.
            if self.hover_route is None and self.hover_city is None and \
                    self.map_view.begin_left_drag(event.pos):
                return True
            self._click(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and \
                self.map_view.left_pressed:
            press = self.map_view.end_left_drag()
            if press is not None:
                self._update_hover(press)
                self._click(press)
            self._update_hover(self.mouse)
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
        mv = self.map_view
        if event.key == pygame.K_ESCAPE:
            self.open_pause()
        elif event.key == pygame.K_s and ctrl:
            self.quick_save()
        elif event.key == pygame.K_z and ctrl:
            self.undo()
        elif event.key == pygame.K_d and not ctrl:
            self.try_action(DrawBlind(), "draw from the deck")
        elif event.key == pygame.K_t and not ctrl:
            self.draw_tickets()
        elif event.key == pygame.K_h and not ctrl:
            self.ask_hint()
        elif event.key in (pygame.K_0, pygame.K_KP0, pygame.K_HOME):
            mv.reset_view()
        elif event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            mv.zoom_at(mv.board_rect.center, 1.25)
        elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            mv.zoom_at(mv.board_rect.center, 0.8)
        else:
            return False
        self._update_hover(self.mouse)
        return True

    def _update_hover(self, pos) -> None:
        lay = self.lay
        self.hover_route = self.hover_city = self.hover_market = self.hover_stub = None
        self.hover_ticket = self.hover_seat = None
        self.hover_zoom = map_zoom.button_at(self.map_view, pos)
        if self.map_view.left_dragging:        # the board slides under the hand
            self.hover_zoom = None
            return
        for i, row in enumerate(lay.player_rows):
            if row.collidepoint(pos):
                self.hover_seat = i
        if lay.map.collidepoint(pos):
            if self.hover_zoom is not None:    # the zoom control covers what is under it
                return
            self.hover_city = self.map_view.city_at(pos)
            if self.hover_city is None:
                self.hover_route = self.map_view.route_at(pos)
            if self.hover_city is None and self.hover_route is None:
                self.hover_stub = self.map_view.stub_at(pos)
        elif lay.deck.collidepoint(pos):
            self.hover_market = "deck"
        elif lay.tickets_deck.collidepoint(pos):
            self.hover_market = "tickets"
        else:
            for i, rect in enumerate(lay.face_up):
                if rect.collidepoint(pos):
                    self.hover_market = f"face_up:{i}"
            if self.viewer is not None:
                count = len(self.game.view(self.viewer).tickets)
                for i, rect in panels.ticket_rows(lay, count, self.ticket_scroll):
                    if rect.collidepoint(pos):
                        self.hover_ticket = i

    def _click(self, pos) -> None:
        if self.hover_market == "deck":
            self.try_action(DrawBlind(), "draw from the deck")
        elif self.hover_market == "tickets":
            self.draw_tickets()
        elif self.hover_market and self.hover_market.startswith("face_up:"):
            slot = int(self.hover_market.split(":")[1])
            card = self.game.view(self.game.current_seat).face_up[slot]
            if card is not None:
                self.try_action(DrawFaceUp(slot, card), f"take the face-up {card}")
        elif self.hover_route:
            self.click_route(self.hover_route)
        elif self.hover_city:
            self.click_city(self.hover_city)
        elif self.hover_stub:
            stub = next(s for s in self.game.map.stubs if s.id == self.hover_stub)
            self.app.toast(f"This track leads off the board toward {stub.to}: it cannot be "
                           "claimed in this game.", 4)

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

    def _refuse(self, problem: str, seconds: float = 4) -> None:
        # Said while others play, it is stale once the person's own turn comes round.
        until = None if self.is_human_turn() else self.is_human_turn
        self.app.toast(problem, seconds, "error", until)
        self.app.sound.play("error")

    def try_action(self, action, what: str) -> bool:
        """Apply a player's action, or explain why it cannot be done."""
        problem = self._not_your_turn()
        if problem is None:
            problem = self.game.explain(action)
        if problem:
            self._refuse(problem)
            return False
        self.perform(action)
        return True

    def draw_tickets(self) -> None:
        """The ticket deck was clicked (or T): draw, asking for the mix where the rules
        want one announced, and warning first on a seat's very last turn."""
        g = self.game
        problem = self._not_your_turn()
        draws = [a for a in g.legal_actions() if a.kind == "draw_tickets"]
        if problem is None and not draws:
            problem = g.explain(DrawTickets())
        if problem:
            self._refuse(problem)
            return

        def go() -> None:
            if len(draws) == 1:
                self.perform(draws[0])
            else:
                from ttr_desktop.ui.scenes.board_overlays import ActionChooser
                self.app.push(ActionChooser(self.app, self, "Draw destination tickets",
                                            draws, "How many from each deck?"))

        if self.last_turn_of(g.current_seat):
            from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay
            self.app.push(ConfirmOverlay(
                self.app, "Your last turn",
                "This is your last turn: every ticket you keep now counts against you unless "
                "your routes already join its cities. Draw tickets anyway?", go,
                yes_label="Draw anyway", no_label="Keep my turn"))
            return
        go()

    def last_turn_of(self, seat: int) -> bool:
        """True when ``seat`` is playing its final turn of the game."""
        g = self.game
        return g.final_round and g.state.final_turns_left == 1 or (
            g.final_round and g.state.final_turns_left >= 1
            and seat == (g.current_seat + g.state.final_turns_left - 1) % g.num_players
            and seat == g.current_seat)

    def click_route(self, route_id: str) -> None:
        """A route was clicked: offer what can be done with it."""
        self.click_target("route", route_id)

    def click_city(self, city_id: str) -> None:
        """A city was clicked: offer what can be done there (a station, a home city...)."""
        self.click_target("city", city_id)

    def targets(self) -> dict[tuple[str, str], list]:
        """The current seat's legal actions grouped by what they are aimed at."""
        out: dict[tuple[str, str], list] = {}
        for a in self.game.legal_actions():
            t = a.target()
            if t is not None:
                out.setdefault(t, []).append(a)
        return out

    def click_target(self, kind: str, ident: str) -> None:
        """Filter the legal actions by their target: one is performed (or confirmed, when it
        spends cards and the setting asks), several open a chooser."""
        g = self.game
        problem = self._not_your_turn()
        acts = self.targets().get((kind, ident), []) if problem is None else []
        if problem is None and not acts:
            problem = self._why_not(kind, ident)
        if problem:
            if problem != "-":
                self._refuse(problem, 5)
            return
        if kind == "route" and all(a.kind == "claim_route" for a in acts):
            acts = g.payments_for(ident)   # the order a player wants them offered
        confirm = self.app.settings.confirm_claims and any(getattr(a, "cards", ()) for a in acts)
        if len(acts) == 1 and not confirm:
            self.perform(acts[0])
            return
        from ttr_desktop.ui.scenes.board_overlays import ActionChooser
        if kind == "route":
            title = f"Claim {route_name(g, ident)}"
            if acts[0].kind != "claim_route":
                title = route_name(g, ident)
            self.app.push(ActionChooser(self.app, self, title, acts, highlight_route=ident))
        else:
            name = g.map.cities[ident].name
            title = (f"Build a station in {name}" if acts[0].kind == "build_station"
                     else f"{name}")
            self.app.push(ActionChooser(self.app, self, title, acts, highlight_city=ident))

    def _why_not(self, kind: str, ident: str) -> str:
        """Why nothing can be done with a clicked route or city ("-": say nothing)."""
        g = self.game
        if g.phase != Phase.TURN:
            reason = self.explain_aim(kind, ident)
            if reason:
                return reason
        if kind == "route":
            if g.phase != Phase.TURN:
                return self.phase_hint()
            return g.claim_problem(ident) or "That route cannot be claimed now."
        name = g.map.cities[ident].name
        if g.phase != Phase.TURN:
            return self.phase_hint() if g.phase not in Phase.CORE else (
                f"{g.prompt()} ({name} is not one of the choices.)")
        if not g.has_module("stations"):
            return "-"
        view = g.view(g.current_seat)
        if ident in view.extra.get("stations", {}):
            return f"{name} already has a station."
        left = view.extra["stations_left"]
        return ("You have no stations left." if not left[g.current_seat]
                else "You do not have the cards for your next station.")

    def explain_aim(self, kind: str, ident: str) -> str | None:
        """The engine's reason why the pending decision cannot be aimed at this route or
        city: the first legal choice aimed at a thing of that kind, aimed here instead, as
        ``Game.explain`` words it ("Nobody may start in Roswell: ..."); None without one."""
        g = self.game
        for action in g.legal_actions():
            aim = action.target()
            if aim is None or aim[0] != kind or not dataclasses.is_dataclass(action):
                continue
            field = next((f.name for f in dataclasses.fields(action)
                          if getattr(action, f.name) == aim[1]), None)
            if field is None:
                return None
            try:
                moved = dataclasses.replace(action, **{field: ident})
            except (TypeError, ValueError):
                return None
            return g.explain(moved)
        return None

    def perform(self, action) -> list[Event]:
        """Apply an action of the current seat and queue what it shows."""
        seat = self.game.current_seat
        try:
            events = self.session.apply(action, note=self._shown_before())
        except IllegalAction as exc:
            self._refuse(str(exc))
            return []
        if self.session.is_human(seat):
            # A move that can be taken back holds the next bot for the pause the settings
            # ask for (the header counts it down); any other move for a glance at it.
            self.grace_until = self.clock + (self.app.settings.bot_pause
                                             if self.session.can_undo() else 1.0 * self.speed)
            self.handover_at = self.clock + RESULT_BEAT * max(self.speed, 0.5)
            if seat == self.viewer:
                self.recent_routes.clear()
                self.recent_lines.clear()
        if events or not self.remote:
            self.land(events, seat)
        return events

    def land(self, events: list[Event], seat: int) -> None:
        """What a move did, shown the same way wherever the game runs: the events of this
        window's engine (``perform``) and those a remote table sends (``NetPanel.poll``)
        go to the log, the animations and the sounds from here."""
        if self.hint_toast is not None:
            # The hint was about the position before this move.
            self.app.toasts = [t for t in self.app.toasts if t is not self.hint_toast]
            self.hint_toast = None
        self._show_events(events, seat)

    def _shown_before(self) -> dict:
        """What the window shows of the game now (kept with an action that can be taken
        back, so taking it back leaves no trace of it)."""
        return {"log": list(self.log_lines), "toasts": list(self.app.toasts),
                "recent_routes": dict(self.recent_routes),
                "recent_lines": dict(self.recent_lines),
                "turn_events": list(self._turn_events),
                "turn_seat": getattr(self, "_turn_seat", None)}

    def undo(self) -> None:
        """Ctrl+Z: take back the last move if it revealed nothing and nobody has acted
        since (a move of several steps goes back whole). Its log lines, messages and
        notices go with it; one log line says it was taken back. Taken back while the
        screen is being passed on, nothing private shows until the player whose move it
        was has the screen again (their "I am ..." click)."""
        who = self.session.undo_seat()
        if who is None or (who != self.viewer and self.viewer is not None):
            self._refuse("Nothing to take back: only a move that revealed no hidden card, "
                         "before the next player acts.")
            return
        self.runner = None
        self.anims.clear()
        self.filling.clear()
        seat = self.session.undo()
        shown = self.session.undone_note
        if isinstance(shown, dict):
            self.log_lines = list(shown["log"])
            self.app.toasts = [t for t in self.app.toasts if t in shown["toasts"]]
            self.recent_routes = dict(shown["recent_routes"])
            self.recent_lines = dict(shown["recent_lines"])
            self._turn_events = list(shown["turn_events"])
            self._turn_seat = shown["turn_seat"]
        else:
            self._turn_events = []
        self.hint_runner = self.hint_toast = None
        self.grace_until = self.handover_at = self.clock
        if self.viewer is None:
            self.handed_back = seat    # the hand-over to them says why the screen goes back
        self._add_log(f"{self.game.players[seat]} took back the last move.", style.INK_SOFT)
        self.session.autosave()     # Continue must not bring the move back
        self.app.toast(f"Took back {self.game.players[seat]}'s last move.", 2.5)

    def take_back(self) -> None:
        """Take back from a panel over the board (a step, a chooser, the pause menu): the
        panels go, then the board takes the move back and asks again what the restored
        position needs."""
        if not self.can_take_back():
            self.undo()          # says why not
            return
        while self.app.top is not self and self in self.app.scenes:
            self.app.pop()
        self.undo()

    def can_take_back(self) -> bool:
        """Whether Ctrl+Z would take back the shown player's move now."""
        who = self.session.undo_seat()
        return who is not None and (self.viewer is None or who == self.viewer)

    def bot_wait(self) -> float:
        """Seconds before the bot to move starts its turn while the person's last move can
        still be taken back (0: no such wait)."""
        g = self.game
        if g.is_over or self.session.is_human(g.current_seat) or not self.can_take_back():
            return 0.0
        return max(0.0, self.grace_until - self.clock)

    def quick_save(self) -> None:
        """Ctrl+S: save to the current file, or ask for a name."""
        from ttr_desktop.persistence import SaveError
        if self.net is not None:
            self.net.save_table()
            return
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
        if self.net is not None:
            self.net.open_menu()
            return
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

    def _log_viewer(self) -> int | None:
        # With several people at the screen the log shows public events only; a single
        # player also sees their own draws.
        return self.viewer if len(self.humans) == 1 else (
            self.humans[0] if len(self.humans) == 1 else None)

    def _log_event(self, ev: Event) -> None:
        line = event_line(ev, self.game, self._log_viewer())
        if line:
            rgb = self.rgb[ev.seat] if ev.seat is not None and ev.seat < len(self.rgb) \
                else style.INK_SOFT
            self._add_log(line, tuple(max(0, c - 40) for c in rgb)
                          if ev.seat is not None else rgb)

    def _show_events(self, events: list[Event], seat: int) -> None:
        speed = self.speed
        g = self.game
        if seat != getattr(self, "_turn_seat", None):
            self._turn_events = []
            self._turn_seat = seat
        self._turn_events.extend(events)
        for ev in events:
            self._log_event(ev)
            kind = ev.kind
            if kind == "card_drawn":
                self.app.sound.play("draw")
                if ev.data["source"] == "face_up":
                    start = self.lay.face_up[ev.data["slot"]].center
                    card = ev.data["card"]
                else:
                    start = self.lay.deck.center
                    card = ev.data["card"] if ev.seat == self.viewer else None
                if ev.seat == self.viewer and card in self.hand_index:
                    end = self.lay.hand[self.hand_index[card]].center
                else:
                    end = self._seat_anchor(ev.seat)
                if speed:
                    flight = CardFlight(card, start, end, self.lay.card_size, 0.5 * speed,
                                        0.0, self.app.settings.colorblind_symbols,
                                        owner=ev.seat)
                    flight.private = ev.data["source"] != "face_up"   # a card from the deck
                    self.anims.append(flight)
            elif kind == "route_claimed":
                self.app.sound.play("claim")
                if ev.seat != self.viewer:
                    self.recent_routes[ev.data["route"]] = ev.seat
                if speed:
                    self.filling.add(ev.data["route"])
                    self.anims.append(RouteFill(self.map_view, ev.data["route"],
                                                self.rgb[ev.seat], 0.1 * speed))
            elif kind == "station_built":
                self.app.sound.play("claim")
            elif kind == "tunnel_revealed" and (not ev.data.get("extra")
                                                or not self.session.is_human(ev.seat)):
                self._show_tunnel_reveal(ev)   # else the payment panel shows the cards
            elif kind == "tickets_drawn" and speed:
                for k in range(ev.data["count"]):
                    self.anims.append(CardFlight(None, self.lay.tickets_deck.center,
                                                 self._seat_anchor(ev.seat), (40, 56),
                                                 0.45 * speed, k * 0.1 * speed))
            elif kind == "ticket_completed" and ev.seat == self.viewer and "ticket" in ev.data:
                self.app.sound.play("ticket")
                t = next(t for t in g.map.tickets if t.id == ev.data["ticket"])
                self.app.toast(f"Ticket completed: {g.map.place_name(t.a)} – "
                               f"{g.map.place_name(t.b)} (+{t.points})", 3.5, "private")
            elif kind == "final_round":
                self.anims.append(Banner(self.lay.map, "Final round!",
                                         f"{g.players[ev.seat]} has {ev.data['trains_left']} "
                                         "trains left — everyone plays one more turn.",
                                         3.5 if speed else 2.0))
            elif kind == "game_over":  # the scoring scene plays the end sound
                self.anims.append(Banner(self.lay.map, "Game over", "Counting the score…",
                                         2.2 if speed else 0.5))
                self.anims.append(Pause(2.2 if speed else 0.5))
            elif kind == "turn_started" or (kind == "tickets_kept" and g.state.turn == 0):
                done = [e for e in self._turn_events if e.kind != "turn_started"]
                if seat != self.viewer and done:
                    line = turn_summary(done, g, seat)
                    if line:
                        self.recent_lines[seat] = line
                self._turn_events = []
                self.session.autosave()
        if not self.session.is_human(seat) and speed:
            self.anims.append(Pause(0.25 * speed))

    def _show_tunnel_reveal(self, ev: Event) -> None:
        """The cards a tunnel turned up, by the route, when no payment panel shows them."""
        from ttr_desktop.ui.scenes.board_overlays import place_beside, place_panel
        d = ev.data
        extra = d.get("extra", 0)
        verdict = ("Nothing more to pay: the route is claimed." if not extra else
                   f"{plural(extra, 'more card')} needed.")
        title = f"Tunnel {route_name(self.game, d['route'])}"
        w, h = TunnelReveal.size(len(d["cards"]), verdict)
        w = max(w, style.font(17, True).size(title)[0] + 32)
        rect = pygame.Rect(0, 0, w, h)
        area = self.lay.map.inflate(-16, -16)       # beside the tunnel, leaving it in view
        if not place_beside(rect, area, self.map_view.polys.get(d["route"], [])):
            place_panel(rect, area, self.map_view.route_center(d["route"]))
        speed = self.speed
        self.anims.append(TunnelReveal(rect, title, d["cards"], verdict,
                                       3.5 * speed if speed else 3.0,
                                       self.app.settings.colorblind_symbols))

    def _add_log(self, text: str, rgb) -> None:
        self.log_lines.append((text, rgb))
        del self.log_lines[:-300]

    # Update --------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.clock += dt
        if self.net is not None:
            self.net.poll()     # also under a panel: it closes when the table moves on
        for anim in self.anims:
            anim.update(dt)
        finished = [a for a in self.anims if a.done]
        if finished:
            for a in finished:
                if isinstance(a, RouteFill):
                    self.filling.discard(a.route_id)
            self.anims = [a for a in self.anims if not a.done]
        if self.hint_runner is not None:
            self._poll_hint()    # also under an overlay: a hint on the decision it asks for
        if self.app.top is not self:
            return
        busy = any(a.blocking for a in self.anims)
        g = self.game
        if g.is_over:
            if not busy and not self._ended and (self.net is None or self.net.over_ready()):
                self._end_game()
            return
        seat = g.current_seat
        if self.session.is_human(seat):
            self.runner = None
            self._poll_hint()
            if not getattr(g, "awaiting", False):   # a remote table has not answered yet
                self._human_prompts(seat, busy)
            return
        if not self.remote:      # a remote table's other seats play elsewhere
            self._drive_bot(seat, busy)

    def next_wake(self) -> float | None:
        """Every frame while something moves; a look every BOT_POLL while a bot plays or a
        hint is thought out; the hand-over's beat; nothing until input while a person
        decides (Scene.next_wake). At a remote table, also a look at the connection now
        and then while it is open (``NetPanel.next_wake``)."""
        wake = self._own_wake()
        if self.net is not None:
            net = self.net.next_wake()
            if net is not None:
                wake = net if wake is None else min(wake, net)
        return wake

    def _own_wake(self) -> float | None:
        g = self.game
        if self.anims or self.map_view.pulsing:
            return 0.0
        if self.hint_runner is not None:
            return BOT_POLL
        if self.app.top is not self:
            return None                  # the overlay on top says
        if g.is_over:
            return None if self._ended or (self.net and not self.net.over_ready()) else 0.0
        if not self.session.is_human(g.current_seat):
            if self.remote:
                return None                  # the table's news comes by NetPanel's look
            starting = self.runner is None or self.runner.version != g.version
            return 0.0 if starting else BOT_POLL
        if self.viewer != g.current_seat:
            return max(0.0, self.handover_at - self.clock) if len(self.humans) > 1 else 0.0
        if self.asked_version != g.version:
            return 0.0                   # the decision's panel is still to be put up
        return None

    def _human_prompts(self, seat: int, busy: bool) -> None:
        """Hand-over between people (once the last move has landed), then the overlay the
        pending decision needs."""
        from ttr_desktop.ui.scenes import board_overlays as ov
        if self.viewer != seat:
            if len(self.humans) > 1:
                if self.viewer is not None and (busy or self.clock < self.handover_at):
                    return  # the player who acted sees the result first
                self.hide_private()
                back, self.handed_back = self.handed_back == seat, None
                self.app.push(ov.HandOverOverlay(self.app, self, seat, handed_back=back))
                return
            self.viewer = seat
        self.asked_version = self.game.version
        overlay = ov.overlay_for(self, self.game.phase)
        if overlay is not None:
            self.app.push(overlay)

    def ask_hint(self) -> None:
        """H: what the Hard bot would do in this person's position, computed from that
        person's view only (never the game), on a worker so the window keeps drawing."""
        g = self.game
        if not self.is_human_turn():
            self.app.toast("A hint is for your own turn.", until=self.is_human_turn)
            return
        if self.hint_runner is not None and self.hint_runner.version == g.version:
            return  # already thinking
        seat = g.current_seat
        view = g.view(seat)
        advisor = make_bot("hard", seed=g.seed * 31 + g.version,
                           budget=min(1.0, self.app.settings.hard_budget))
        self.hint_view = view
        self.hint_runner = BotRunner(advisor, view, g.legal_actions(), g.version)
        self.app.toast("Thinking about your move…", 1.5)

    def _poll_hint(self) -> None:
        """Show the hint once it is ready (and still about this position)."""
        runner = self.hint_runner
        if runner is None or not runner.done:
            return
        self.hint_runner = None
        if runner.version != self.game.version or runner.error is not None:
            return
        from ttr_desktop.bots.hard import hint_reason
        action = runner.result
        rid = getattr(action, "route_id", None)
        if action.kind == "claim_route" and rid:
            from ttr_desktop.ui.log_text import pay_words, route_name
            what = f"claim {route_name(self.game, rid)} with {pay_words(action.cards)}"
        elif action.kind == "keep_tickets":
            from ttr_desktop.ui.log_text import keep_words
            what = keep_words(self.game, self.hint_view.pending_tickets, action.tickets)
        elif hasattr(self.app.top, "hint_words"):
            what = self.app.top.hint_words(action)   # a step overlay names it with the map
        else:
            what = action.describe()
        text = f"Hint: {what}: {hint_reason(self.hint_view, action)}"
        self.app.toast(text, 6.0, "private")
        self.hint_toast = self.app.toasts[-1]
        if rid:
            self.recent_routes[rid] = self.game.current_seat

    def _drive_bot(self, seat: int, busy: bool) -> None:
        g = self.game
        if self.runner is None or self.runner.version != g.version:
            if busy:
                return
            self.runner = BotRunner(self.bots[seat], g.view(seat), g.legal_actions(),
                                    g.version)
            self.bot_ready_at = self.clock + 0.35 * self.speed
            return
        if (busy or not self.runner.done or self.clock < self.bot_ready_at
                or self.clock < self.grace_until):
            return
        action = self.runner.result
        self.runner = None
        self.perform(action)

    def hide_private(self) -> None:
        """Nobody's cards, tickets or private messages on screen (between two people)."""
        self.anims = [a for a in self.anims if not isinstance(a, CardFlight)]
        self.viewer = None
        self.app.toasts = [t for t in self.app.toasts if t.kind != "private"]
        self.hint_toast = None

    def hand_over_to(self, seat: int) -> None:
        """Called by the hand-over overlay when the next player clicked."""
        self.viewer = seat
        self.ticket_scroll = 0
        if self.remote:          # several people at the host's computer: theirs now
            self.session.show(seat)

    def _end_game(self) -> None:
        self._ended = True
        if self.net is not None:
            self.net.end_game()
            return
        self.session.finished()
        try:
            from ttr_desktop.ui.scenes.scoring import ScoringScene
        except ImportError:
            return
        self.app.replace(ScoringScene(self.app, self.session))
