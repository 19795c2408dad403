"""Overlays of the board: ticket choice, payment choice, tunnel payment, hand-over.

Each is a non-opaque scene over the board; the board stays visible (and
keeps animating) beneath it. Buttons are drawn here with the board's look.
"""

from __future__ import annotations

import pygame

from ttr_desktop.rules import KeepTickets, Phase
from ttr_desktop.ui import style
from ttr_desktop.ui.cards import card_surface
from ttr_desktop.ui.route_plan import best_path
from ttr_desktop.ui.scene import Scene


def draw_check(surface: pygame.Surface, box: pygame.Rect, color) -> None:
    """A tick mark inside ``box``."""
    pts = [(box.x + box.width * 0.2, box.y + box.height * 0.55),
           (box.x + box.width * 0.42, box.y + box.height * 0.78),
           (box.x + box.width * 0.82, box.y + box.height * 0.25)]
    pygame.draw.lines(surface, color, False, pts, 3)


class Button:
    """A drawn button with hover and disabled states."""

    def __init__(self, rect: pygame.Rect, label: str, primary: bool = False) -> None:
        self.rect = pygame.Rect(rect)
        self.label = label
        self.primary = primary
        self.enabled = True
        self.hover = False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.enabled:
            fill, edge, ink = (228, 221, 207), (200, 190, 170), (160, 150, 135)
        elif self.primary:
            fill = (201, 83, 63) if self.hover else style.ACCENT
            edge, ink = (126, 42, 33), (255, 255, 255)
        else:
            fill = (235, 217, 176) if self.hover else (246, 238, 220)
            edge, ink = style.PANEL_EDGE, style.INK
        pygame.draw.rect(surface, fill, self.rect, border_radius=9)
        pygame.draw.rect(surface, edge, self.rect, 2, border_radius=9)
        t = style.text(self.label, 18, ink, bold=self.primary)
        surface.blit(t, t.get_rect(center=self.rect.center))

    def hit(self, pos) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


class BoardOverlay(Scene):
    """Shared parts: a dim veil over the board and a panel."""

    opaque = False
    veil_alpha = 90

    def __init__(self, app, board) -> None:
        super().__init__(app)
        self.board = board
        self.buttons: list[Button] = []
        self.mouse = (0, 0)

    def draw_veil(self, surface: pygame.Surface, keep_map: bool = True) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((30, 20, 10, self.veil_alpha))
        if keep_map:
            pygame.draw.rect(veil, (0, 0, 0, 0), self.board.lay.map)
        surface.blit(veil, (0, 0))

    def handle_event(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            for b in self.buttons:
                b.hover = b.rect.collidepoint(event.pos)
            self.on_motion(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            for b in self.buttons:
                if b.hit(event.pos):
                    self.app.sound.play("click")
                    self.on_button(b)
                    return True
            self.on_click(event.pos)
            return True
        if event.type == pygame.KEYDOWN:
            return self.on_key(event)
        return True  # nothing reaches the board under an overlay

    def on_motion(self, pos) -> None:
        """Mouse moved."""

    def on_click(self, pos) -> None:
        """A click that hit no button."""

    def on_button(self, button: Button) -> None:
        """A button was clicked."""

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.board.open_pause()
        return True


class TicketChoiceOverlay(BoardOverlay):
    """Choose which drawn tickets to keep; each ticket's cities light up on the map."""

    def __init__(self, app, board) -> None:
        super().__init__(app, board)
        game = board.game
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
        right = self.board.lay.right
        n = len(self.pending)
        gap = 10
        card_h = min(96, (right.height - 200) // max(n, 1) - gap)
        self.panel = pygame.Rect(right.x + 6, 0, right.width - 12, 0)
        self.panel.height = 90 + n * (card_h + gap) + 66
        self.panel.centery = right.centery
        self.cards = [pygame.Rect(self.panel.x + 16, self.panel.y + 78 + i * (card_h + gap),
                                  self.panel.width - 32, card_h) for i in range(n)]
        self.ok = Button(pygame.Rect(0, 0, self.panel.width - 60, 44), "", primary=True)
        self.ok.rect.midbottom = (self.panel.centerx, self.panel.bottom - 14)
        self.buttons = [self.ok]
        self._refresh()

    def _refresh(self) -> None:
        kept = sum(self.keep)
        self.ok.label = f"Keep {kept} ticket{'s' if kept != 1 else ''}"
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
        for action in self.board.game.legal_actions():
            if action.kind == "keep_tickets" and action.tickets == kept and \
                    action.returned == returned:
                return action
        return None

    def on_button(self, button: Button) -> None:
        action = self.chosen_action()
        if action is None:
            self.app.toast(f"Keep at least {self.need} ticket(s).", 3, "error")
            return
        self.app.pop(self)
        self.board.perform(action)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_veil(surface)
        game = self.board.game
        mv = self.board.map_view
        view = game.view(self.seat)
        names = {cid: c.name for cid, c in game.map.cities.items()}
        focus = [self.hover] if self.hover is not None else [
            i for i, k in enumerate(self.keep) if k]
        for i in focus:
            t = self.pending[i]
            for rid in best_path(view, t.a, t.b):
                mv.draw_route_glow(surface, rid, style.HIGHLIGHT, 3)
            mv.draw_city_ring(surface, t.a, self.board.clock)
            mv.draw_city_ring(surface, t.b, self.board.clock + 0.5)
        style.panel(surface, self.panel, radius=14)
        title = ("Choose your starting tickets" if self.initial else "Choose tickets to keep")
        surface.blit(style.text(title, 22, style.INK, bold=True),
                     (self.panel.x + 20, self.panel.y + 14))
        sub = (f"{game.players[self.seat]}: keep at least {self.need}. Click a ticket to "
               "return it; hover to see it on the map.")
        for k, line in enumerate(style.wrap(sub, 14, self.panel.width - 40)):
            surface.blit(style.text(line, 14, style.INK_SOFT),
                         (self.panel.x + 20, self.panel.y + 40 + 17 * k))
        for i, (ticket, rect) in enumerate(zip(self.pending, self.cards)):
            kept = self.keep[i]
            fill = (255, 250, 236) if kept else (226, 220, 208)
            pygame.draw.rect(surface, fill, rect, border_radius=10)
            edge = style.ACCENT if kept else (170, 160, 145)
            pygame.draw.rect(surface, edge, rect, 3 if self.hover == i else 2, border_radius=10)
            if ticket.long:
                badge = style.text("LONG", 12, (255, 255, 255), bold=True)
                b = badge.get_rect(topright=(rect.right - 10, rect.y + 8)).inflate(10, 4)
                pygame.draw.rect(surface, (44, 72, 110), b, border_radius=6)
                surface.blit(badge, badge.get_rect(center=b.center))
            ink = style.INK if kept else style.INK_SOFT
            surface.blit(style.text(names[ticket.a], 17, ink, bold=True), (rect.x + 44,
                                                                          rect.y + 10))
            surface.blit(style.text(names[ticket.b], 17, ink, bold=True), (rect.x + 44,
                                                                          rect.y + 34))
            pts = style.text(str(ticket.points), 30, style.ACCENT if kept else ink, bold=True)
            surface.blit(pts, pts.get_rect(midright=(rect.right - 14, rect.centery)))
            box = pygame.Rect(rect.x + 12, rect.centery - 11, 22, 22)
            pygame.draw.rect(surface, (255, 255, 255), box, border_radius=5)
            pygame.draw.rect(surface, style.GOOD if kept else (150, 140, 125), box, 2,
                             border_radius=5)
            if kept:
                draw_check(surface, box, style.GOOD)
            state = "keep" if kept else "return"
            surface.blit(style.text(state, 12, style.GOOD if kept else style.INK_SOFT, True),
                         (rect.x + 44, rect.bottom - 22))
        for b in self.buttons:
            b.draw(surface)


class PaymentOverlay(BoardOverlay):
    """Choose how to pay (claim a route or build a station)."""

    def __init__(self, app, board, title: str, actions: list, highlight_route: str | None = None,
                 highlight_city: str | None = None) -> None:
        super().__init__(app, board)
        self.title = title
        self.actions = actions
        self.route = highlight_route
        self.city = highlight_city
        self.layout()

    def resize(self, size) -> None:
        if hasattr(self, "actions"):
            self.layout()

    def layout(self) -> None:
        n = len(self.actions)
        cols = 1 if n <= 5 else 2
        rows = (n + cols - 1) // cols
        self.panel = pygame.Rect(0, 0, 380 * cols + 40, 70 + rows * 58 + 64)
        self.panel.center = self.board.lay.map.center
        self.rows = []
        for i in range(n):
            c, r = i % cols, i // cols
            self.rows.append(pygame.Rect(self.panel.x + 20 + c * 390, self.panel.y + 70 + r * 58,
                                         370, 50))
        cancel = Button(pygame.Rect(0, 0, 160, 42), "Cancel")
        cancel.rect.midbottom = (self.panel.centerx, self.panel.bottom - 14)
        self.buttons = [cancel]
        self.hover: int | None = None

    def on_motion(self, pos) -> None:
        self.hover = next((i for i, r in enumerate(self.rows) if r.collidepoint(pos)), None)

    def on_click(self, pos) -> None:
        for i, rect in enumerate(self.rows):
            if rect.collidepoint(pos):
                self.app.pop(self)
                self.board.perform(self.actions[i])
                return
        if not self.panel.collidepoint(pos):
            self.app.pop(self)

    def on_button(self, button: Button) -> None:
        self.app.pop(self)

    def on_key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.app.pop(self)
        elif pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < len(self.actions):
            self.app.pop(self)
            self.board.perform(self.actions[event.key - pygame.K_1])
        return True

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_veil(surface)
        if self.route:
            self.board.map_view.draw_route_glow(surface, self.route)
        if self.city:
            self.board.map_view.draw_city_ring(surface, self.city, self.board.clock)
        style.panel(surface, self.panel, radius=14)
        surface.blit(style.text(self.title, 22, style.INK, bold=True),
                     (self.panel.x + 20, self.panel.y + 14))
        surface.blit(style.text("How do you want to pay?", 15, style.INK_SOFT),
                     (self.panel.x + 20, self.panel.y + 42))
        symbols = self.app.settings.colorblind_symbols
        for i, (action, rect) in enumerate(zip(self.actions, self.rows)):
            fill = (255, 236, 170) if self.hover == i else (252, 248, 238)
            pygame.draw.rect(surface, fill, rect, border_radius=8)
            pygame.draw.rect(surface, style.PANEL_EDGE, rect, 1, border_radius=8)
            x = rect.x + 10
            surface.blit(style.text(f"{i + 1}", 14, style.INK_SOFT), (x, rect.y + 15))
            x += 22
            for card, count in action.cards:
                for k in range(count):
                    surface.blit(card_surface(card, (26, 38), symbols), (x, rect.y + 6))
                    x += 14
                x += 20
            words = " + ".join(f"{n} {c}" for c, n in action.cards)
            surface.blit(style.text(words, 15, style.INK), (x + 6, rect.y + 15))
        for b in self.buttons:
            b.draw(surface)


class TunnelOverlay(BoardOverlay):
    """A tunnel revealed its cards: pay the extra or give the route up."""

    def __init__(self, app, board) -> None:
        super().__init__(app, board)
        self.layout()

    def resize(self, size) -> None:
        self.layout()

    def layout(self) -> None:
        self.actions = self.board.game.legal_actions()
        self.panel = pygame.Rect(0, 0, 560, 186 + 50 * len(self.actions))
        self.panel.center = self.board.lay.map.center
        self.buttons = []
        for i, action in enumerate(self.actions):
            label = ("Give up and take my cards back" if action.kind == "decline_tunnel" else
                     "Pay " + " + ".join(f"{n} {c}" for c, n in action.cards))
            b = Button(pygame.Rect(self.panel.x + 40, self.panel.y + 170 + i * 50,
                                   self.panel.width - 80, 42),
                       label, primary=action.kind == "pay_tunnel" and i == 0)
            b.action = action
            self.buttons.append(b)

    def on_button(self, button: Button) -> None:
        self.app.pop(self)
        self.board.perform(button.action)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_veil(surface)
        info = self.board.game.view(self.board.game.current_seat).extra.get("tunnel") or {}
        if info:
            self.board.map_view.draw_route_glow(surface, info["route"])
        style.panel(surface, self.panel, radius=14)
        surface.blit(style.text("Tunnel!", 24, style.INK, bold=True),
                     (self.panel.x + 20, self.panel.y + 14))
        if info:
            msg = (f"You played {info.get('paid', '')}. Every revealed card of that colour, and "
                   f"every locomotive, costs one more: add {info['extra']} card(s) or give up.")
            for k, line in enumerate(style.wrap(msg, 15, self.panel.width - 40)):
                surface.blit(style.text(line, 15, style.INK_SOFT),
                             (self.panel.x + 20, self.panel.y + 48 + 20 * k))
            x = self.panel.x + 40
            for card in info["revealed"]:
                surface.blit(card_surface(card, (48, 70), self.app.settings.colorblind_symbols),
                             (x, self.panel.y + 92))
                x += 58
        for b in self.buttons:
            b.draw(surface)


class HandOverOverlay(BoardOverlay):
    """Between two people: everything private is hidden until the next one clicks."""

    veil_alpha = 200

    def __init__(self, app, board, seat: int) -> None:
        super().__init__(app, board)
        self.seat = seat
        self.layout()

    def resize(self, size) -> None:
        self.layout()

    def layout(self) -> None:
        name = self.board.game.players[self.seat]
        self.panel = pygame.Rect(0, 0, 520, 230)
        self.panel.center = (self.app.size[0] // 2, self.app.size[1] // 2)
        ok = Button(pygame.Rect(0, 0, 300, 52), f"I am {name}", primary=True)
        ok.rect.midbottom = (self.panel.centerx, self.panel.bottom - 24)
        self.buttons = [ok]

    def on_button(self, button: Button) -> None:
        self.app.pop(self)
        self.board.hand_over_to(self.seat)

    def on_key(self, event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.on_button(self.buttons[0])
            return True
        return super().on_key(event)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_veil(surface, keep_map=False)
        style.panel(surface, self.panel, radius=16)
        name = self.board.game.players[self.seat]
        rgb = self.board.rgb[self.seat]
        pygame.draw.circle(surface, rgb, (self.panel.x + 40, self.panel.y + 44), 14)
        surface.blit(style.text(f"Pass the screen to {name}", 26, style.INK, bold=True),
                     (self.panel.x + 64, self.panel.y + 28))
        surface.blit(style.text("Cards and tickets stay hidden until you click.", 16,
                                style.INK_SOFT), (self.panel.x + 64, self.panel.y + 72))
        for b in self.buttons:
            b.draw(surface)
