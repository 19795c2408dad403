"""Drawing the board scene: status line, map highlights, panels and the hover tooltip.

A mixin of BoardScene: everything here reads the scene and the game, and
changes neither (drawing never changes state).
"""

from __future__ import annotations

import pygame

from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.rules import Phase
from ttr_desktop.ui import style
from ttr_desktop.ui.log_text import route_name
from ttr_desktop.ui.route_plan import best_path
from ttr_desktop.ui.scenes import board_panels as panels
from ttr_desktop.ui.session import BOT_LEVELS


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
        if phase == Phase.SECOND_CARD:
            return "Take your second card first."
        if phase in (Phase.KEEP_TICKETS, Phase.CHOOSE_INITIAL_TICKETS):
            return "Choose your tickets first."
        if phase == PAY_TUNNEL:
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
        if phase == Phase.CHOOSE_INITIAL_TICKETS:
            return f"{name}: choose your starting tickets."
        if phase == Phase.SECOND_CARD:
            return f"{name}: take a second card — the deck or a face-up card (not a locomotive)."
        if phase == Phase.KEEP_TICKETS:
            return f"{name}: choose which tickets to keep."
        if phase == PAY_TUNNEL:
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
                    path = best_path(view, ticket.a, ticket.b)
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
        pays = g.payments_for(rid) if g.phase == Phase.TURN else []
        if pays:
            if len(pays) == 1:
                paid = " + ".join(f"{n} {c}" for c, n in pays[0].cards)
                lines.append((f"Click to claim: pay {paid}", style.GOOD, True))
            else:
                lines.append((f"Click to claim: {len(pays)} ways to pay", style.GOOD, True))
        else:
            problem = g.claim_problem(rid) if g.phase == Phase.TURN else self.phase_hint()
            for part in style.wrap(problem or "", 15, 380):
                lines.append((part, style.BAD, False))
        return lines

