"""Drawing the board scene: status line, map highlights, panels and the hover tooltip.

A mixin of BoardScene: everything here reads the scene and the game, and
changes neither (drawing never changes state).
"""

from __future__ import annotations

import math

import pygame

from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.rules import Phase
from ttr_desktop.ui import families, map_zoom, style
from ttr_desktop.ui.log_text import pay_words, plural, route_name
from ttr_desktop.ui.route_plan import best_path
from ttr_desktop.ui.scenes import board_panels as panels
from ttr_desktop.ui.scenes.scoring_words import current_round
from ttr_desktop.ui.session import BOT_LEVELS

#: The pale note behind the news at the top of the log.
NEWS_FILL = (255, 240, 200)
#: Turn actions every family has (the header names them without listing).
_CORE_TURN_KINDS = frozenset({"draw_blind", "draw_face_up", "claim_route", "draw_tickets",
                              "build_station", "pass"})


class BoardDrawing:
    """What the board scene shows (mixed into BoardScene)."""

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
            "ticket_decks": tuple((d, v.ticket_deck_sizes.get(d, 0))
                                  for d in g.ruleset.ticket_draw_decks),
            "symbols": self.app.settings.colorblind_symbols,
            "human_turn": self.is_human_turn(), "viewer": self.viewer,
            "city_names": {**{cid: c.name for cid, c in g.map.cities.items()},
                           **{k: c.name for k, c in g.map.countries.items()}},
            "can_undo": self.can_take_back(),
            "hand_order": self.hand_kinds,
            "seat_stats": v.extra.get("seat_stats"),
            "currency": g.ruleset.currency,
            "thinking": (g.players[g.current_seat] if not self.session.is_human(g.current_seat)
                         and not g.is_over else None),
            "waiting": g.players[g.current_seat] if self.bot_wait() > 0 else None,
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
        if phase == Phase.SECOND_CARD:
            return "Take your second card first."
        if phase in (Phase.KEEP_TICKETS, Phase.CHOOSE_INITIAL_TICKETS):
            return "Choose your tickets first."
        if phase == PAY_TUNNEL:
            return "Pay for the tunnel or give it up first."
        return f"Finish the current step first: {self.game.prompt()}"

    def status_text(self) -> str:
        """What the current seat should do now, in words."""
        g = self.game
        if g.is_over:
            return "The game is over."
        name = g.players[g.current_seat]
        if not self.session.is_human(g.current_seat):
            wait = self.bot_wait()
            if wait > 0:
                return f"{name} moves in {math.ceil(wait)} s — Ctrl+Z to take back your move."
            return f"{name} is thinking…"
        if self.viewer is not None and self.viewer != g.current_seat:
            # The player who acted still sees the result; the hand-over comes next.
            return f"{g.players[self.viewer]}: your move is done — {name} plays next."
        if self.viewer != g.current_seat:
            return f"Pass the screen to {name}."
        phase = g.phase
        if phase == Phase.CHOOSE_INITIAL_TICKETS:
            return f"{name}: choose your starting tickets."
        if phase == Phase.SECOND_CARD:
            return f"{name}: take a second card — the deck or a face-up card (not a locomotive)."
        if phase == Phase.KEEP_TICKETS:
            return f"{name}: choose which tickets to keep."
        if phase == PAY_TUNNEL:
            return f"{name}: pay for the tunnel or give it up."
        if phase != Phase.TURN:
            ask = g.prompt()   # a module's sentence ("Choose your home city: ...")
            return f"{name}: {ask[:1].lower()}{ask[1:]}"
        extra = ", build a station" if g.has_module("stations") else ""
        # A rule module's own turn actions (move a passenger...) are named too.
        own = [a for a in g.legal_actions() if a.kind not in _CORE_TURN_KINDS]
        if own:
            more = f" (or {len(own) - 1} more)" if len(own) > 1 else ""
            return (f"{name}: draw cards, claim a route{extra}, draw tickets or "
                    f"{own[0].describe()}{more}.")
        return f"{name}: draw cards, claim a route{extra} or draw tickets."

    def round_text(self) -> str:
        """The header's count: rounds (every seat once), as the end screen counts them."""
        g = self.game
        return (f"Round {current_round(g.state.turn, g.num_players, g.is_over)}"
                + (" · FINAL ROUND" if g.final_round else ""))

    def _public_view(self):
        g = self.game
        return g.view(self.viewer if self.viewer is not None else g.current_seat)

    def draw(self, surface: pygame.Surface) -> None:
        g = self.game
        surface.fill(style.PAPER_DARK)
        lay = self.lay
        pv = self._public_view()
        base = self.map_view.render_base(pv.route_owners, self.rgb, None,
                                         frozenset(self.filling),
                                         self.app.settings.colorblind_symbols,
                                         tokens=pv.city_tokens, closed=pv.closed_routes)
        self.map_view.draw(surface, base)
        self._draw_highlights(surface)
        map_zoom.draw(surface, self.map_view, getattr(self, "hover_zoom", None))
        # Top bar.
        pygame.draw.rect(surface, style.PANEL, lay.top)
        pygame.draw.line(surface, style.PANEL_EDGE, lay.top.bottomleft, lay.top.bottomright)
        pygame.draw.circle(surface, self.rgb[g.current_seat], (lay.top.x + 20, lay.top.centery),
                           9)
        info = self.round_text()
        if self.map_view.is_zoomed:
            info = "0 resets the zoom · " + info
        t = style.text(info, 15, style.ACCENT if g.final_round else style.INK_SOFT,
                       bold=g.final_round)
        surface.blit(t, t.get_rect(midright=(lay.top.right - 12, lay.top.centery)))
        status = self.status_text()
        room = t.get_rect(midright=(lay.top.right - 12, lay.top.centery)).left - lay.top.x - 50
        size = 18
        while size > 13 and style.font(size, True).size(status)[0] > room:
            size -= 1
        surface.blit(style.text(status, size, style.INK, bold=True),
                     (lay.top.x + 38, lay.top.centery - style.font(size, True).get_height() // 2))
        # Panels.
        data = self._view_data()
        pygame.draw.rect(surface, style.PAPER, lay.right)
        panels.draw_players(surface, lay, data)
        panels.draw_market(surface, lay, data, self.hover_market)
        news = self.news_layout()
        panels.draw_log(surface, lay, self.log_lines,
                        skip=news[-1][1].bottom + 6 - (lay.log.y + 30) if news else 0)
        self._draw_news(surface, news)
        pygame.draw.rect(surface, style.PAPER, lay.bottom)
        panels.draw_hand(surface, lay, data)
        used = panels.ASIDE_USED.get(g.variant)
        if used is not None:
            panels.fit_tickets_to_aside(lay, used(self.port))  # type: ignore[operator]
        panels.draw_tickets(surface, lay, data, self.hover_ticket, self.ticket_scroll)
        panels.draw_info(surface, lay, data)
        painter = panels.BOARD_PAINTERS.get(g.variant)
        if painter is not None:
            painter(self.port, surface)  # type: ignore[operator]
        # Claims filling on the map first: a card flying past or a banner stays above them.
        for anim in sorted(self.anims, key=lambda a: not getattr(a, "on_map", False)):
            if getattr(anim, "owner", None) is not None and anim.card is not None and \
                    getattr(anim, "private", False):
                if anim.owner != self.viewer:
                    continue
                panels.drew_private(anim.owner, "card drawn")
            anim.draw(surface)
        if self.app.top is self:
            self._draw_tooltip(surface)

    def _draw_news(self, surface: pygame.Surface, news=None) -> None:
        """At the top of the log: what the other seats did since this person last acted."""
        for text, rect in self.news_layout() if news is None else news:
            pygame.draw.rect(surface, NEWS_FILL, rect, border_radius=7)
            pygame.draw.rect(surface, style.PANEL_EDGE, rect, 1, border_radius=7)
            surface.blit(text, (rect.x + 7, rect.y + 4))

    def news_layout(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The news lines and where they stand: pinned at the top of the game log, in the
        side panel, so they never cover a city on the map nor sit under a message."""
        lines = list(self.recent_lines.values())[-2:]
        out = []
        log = self.lay.log
        width = log.width - 34
        y = log.y + 30
        for line in lines:
            parts = style.wrap(line, 13, width)
            text = pygame.Surface((max(style.font(13).size(p)[0] for p in parts),
                                   18 * len(parts)), pygame.SRCALPHA)
            for k, part in enumerate(parts):
                text.blit(style.text(part, 13, style.INK), (0, 18 * k))
            rect = pygame.Rect(log.x + 8, y, log.width - 16, text.get_height() + 8)
            if rect.bottom > log.bottom - 8:
                break
            out.append((text, rect))
            y = rect.bottom + 4
        return out

    def _draw_highlights(self, surface: pygame.Surface) -> None:
        # City names stay readable over a highlighted route: the map view draws the names
        # a glow or a ring runs through again on top of it.
        self._draw_glows(surface)

    def _draw_glows(self, surface: pygame.Surface) -> tuple[list[str], list[str]]:
        """Route glows and city rings; returns the routes and cities highlighted."""
        mv = self.map_view
        glowing, ringed = list(self.recent_routes), []
        for rid, seat in self.recent_routes.items():
            if rid not in self.filling:
                mv.draw_route_glow(surface, rid, self.rgb[seat], 3)
                mv.draw_route_glow(surface, rid, (255, 255, 255), 1)
        if self.hover_route:
            mv.draw_route_glow(surface, self.hover_route)
            glowing.append(self.hover_route)
        if self.hover_city and self.is_human_turn() and \
                ("city", self.hover_city) in self.targets():
            mv.draw_city_ring(surface, self.hover_city, self.clock)
            ringed.append(self.hover_city)
        if self.hover_ticket is not None and self.viewer is not None:
            view = self.game.view(self.viewer)
            tickets = panels.ordered_tickets(view.tickets, set(view.completed_tickets))
            if self.hover_ticket < len(tickets):
                ticket = tickets[self.hover_ticket]
                key = (self.game.version, self.viewer, ticket.id)
                if self._path_cache is None or self._path_cache[0] != key:
                    path = best_path(view, ticket.a, ticket.b, ticket)
                    self._path_cache = (key, path)
                borrowed = set(view.borrowed_routes)
                glowing += self._path_cache[1]
                for rid in self._path_cache[1]:
                    # Own trains and the routes its stations borrow count as built.
                    mine = view.route_owners.get(rid) == self.viewer or rid in borrowed
                    # A colour no route or player has: own trains thin, missing track bold.
                    mv.draw_route_glow(surface, rid, (20, 20, 20), 6 if not mine else 4)
                    mv.draw_route_glow(surface, rid, style.PATH_GLOW, 4 if not mine else 2)
                for place in (ticket.a, ticket.b):
                    for cid in view.graph.city_ids if place not in mv.city_pos else (place,):
                        if cid == place or self.game.map.cities[cid].country == place:
                            mv.draw_city_ring(surface, cid, self.clock, style.PATH_GLOW)
                            ringed.append(cid)
        return glowing, ringed

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
        """The hover tooltip: a route (ends, length, points, whether and how it can be paid),
        a city (its pieces, what can be done there) or a track leading off the board."""
        if getattr(self, "hover_zoom", None) is not None:
            return list(map_zoom.TIPS[self.hover_zoom])
        if self.hover_seat is not None:
            return self.seat_tooltip(self.hover_seat)
        if self.hover_city is not None:
            return self.city_tooltip(self.hover_city)
        if self.hover_stub is not None:
            return self.map_view.stub_lines(self.hover_stub)
        rid = self.hover_route
        if rid is None:
            return []
        g = self.game
        route = g.map.routes[rid]
        owners = self._public_view().route_owners
        lines = [(route_name(g, rid), style.INK, True)]
        colour = "grey" if route.color == "gray" else route.color
        kind = f"{plural(route.length, 'space')} · {colour}"
        if route.tunnel:
            kind += " · tunnel"
        if route.ferry_locomotives:
            kind += f" · ferry ({plural(route.ferry_locomotives, 'locomotive')})"
        pts = g.ruleset.route_points.get(route.length, 0)
        if g.ruleset.currency == "points":
            kind += f" · {plural(pts, 'point')}"
        lines.append((kind, style.INK_SOFT, False))
        if rid in owners:
            lines.append((f"Claimed by {g.players[owners[rid]]}", self.rgb[owners[rid]], True))
            return lines
        family = families.ROUTE_TIP_LINES.get(g.variant)
        if family is not None:
            lines.extend(family(self.port, rid))  # type: ignore[operator]
        lines.extend(self.claim_effect_lines(rid))
        if not self.is_human_turn():
            return lines
        pays = g.payments_for(rid) if g.phase == Phase.TURN else []
        if pays:
            if len(pays) == 1:
                lines.append((f"Click to claim: pay {pay_words(pays[0].cards)}", style.GOOD,
                              True))
            else:
                lines.append((f"Click to claim: {len(pays)} ways to pay", style.GOOD, True))
        else:
            problem = g.claim_problem(rid) if g.phase == Phase.TURN else self.phase_hint()
            for part in style.wrap(problem or "", 15, 380):
                lines.append((part, style.BAD, False))
        return lines

    def claim_effect_lines(self, route_id: str) -> list[tuple[str, tuple, bool]]:
        """What claiming the route would do under the rule modules (the engine's
        ``claim_effects``: Alvin, coal, passengers, Legacy's bonus...), one bullet each,
        for the person looking (the seat to play when hands are hidden)."""
        g = self.game
        seat = self.viewer if self.viewer is not None else g.current_seat
        out = []
        for effect in g.claim_effects(route_id, seat):
            for k, part in enumerate(style.wrap(effect, 15, 380)):
                out.append((("\u2022 " if k == 0 else "   ") + part, style.INK, False))
        return out

    def seat_tooltip(self, seat: int) -> list[tuple[str, tuple, bool]]:
        """A player's score so far, line by line: what its claims earned it, what others'
        claims paid its markers, what its claims paid others' markers, and the rest of
        the score track (public)."""
        g = self.game
        view = self._public_view()
        unit = "dollar" if g.ruleset.currency == "dollars" else "point"
        lines = [(f"{g.players[seat]}: {plural(view.points[seat], unit)} so far", style.INK,
                  True)]
        tally = view.route_tally(seat)
        lines.append((f"Claims: {plural(tally.own_routes, 'route')} scoring "
                      f"{plural(tally.own, unit)}", style.INK_SOFT, False))
        if tally.income_routes:
            lines.append((f"Markers: {plural(tally.income, unit)} from "
                          f"{plural(tally.income_routes, 'route')} others claimed",
                          style.GOOD, False))
        if tally.given_routes:
            lines.append((f"Gave away: {plural(tally.given, unit)} from "
                          f"{plural(tally.given_routes, 'claim')} into others' markers",
                          style.BAD, False))
        rest = view.points[seat] - tally.points
        if rest:
            lines.append((f"Other: {plural(rest, unit)}", style.INK_SOFT, False))
        return lines

    def city_tooltip(self, city_id: str) -> list[tuple[str, tuple, bool]]:
        """A city's name, the pieces on it, and what the current player can do there."""
        g = self.game
        view = self._public_view()
        lines = list(self.map_view.city_lines(city_id, view.city_tokens.get(city_id, ()),
                                              g.players, self.rgb))
        if not self.is_human_turn():
            return lines
        acts = self.targets().get(("city", city_id), [])
        if acts and acts[0].kind == "build_station":
            cheapest = min(acts, key=lambda a: sum(n for _, n in a.cards))
            lines.append((f"Click to build a station: {pay_words(cheapest.cards)}"
                          + (f" ({len(acts)} ways)" if len(acts) > 1 else ""), style.GOOD, True))
        elif acts:
            lines.append((f"Click: {acts[0].describe()}" if len(acts) == 1 else
                          f"Click: {len(acts)} choices", style.GOOD, True))
        elif g.phase not in Phase.CORE:     # a module's decision: why not this city
            reason = self.explain_aim("city", city_id)  # type: ignore[attr-defined]
            for part in style.wrap(reason or "", 15, 380):
                lines.append((part, style.BAD, False))
        elif g.has_module("stations") and g.phase == Phase.TURN:
            left = view.extra.get("stations_left", (0,))[g.current_seat]
            if city_id not in view.extra.get("stations", {}) and left:
                built = g.ruleset.stations_per_player - left
                lines.append((f"A station here costs {plural(built + 1, 'card')}"
                              + (" of one colour" if built else "")
                              + ": you cannot pay it now.", style.BAD, False))
        return lines
