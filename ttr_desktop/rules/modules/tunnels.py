"""Tunnels (rules.md §1.10, §8.15): reveal 3 cards, pay one more per match, or give up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import Action, DeclineTunnel, PayTunnel, cards_text
from ttr_desktop.rules.board import LOCO
from ttr_desktop.rules.events import Event
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.state import Phase

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game

DECLINE = DeclineTunnel()
REVEAL = 3


class Tunnels(RuleModule):
    """State: ``ext["tunnels"]`` is {} or the pending claim:
    {"route", "paid" (counts), "color" (-1 when only locomotives were played),
    "revealed" (cards set aside until the end of the turn), "extra"}."""

    name = "tunnels"
    action_kinds = ("pay_tunnel", "decline_tunnel")
    phases = (Phase.PAY_TUNNEL.value,)

    def setup(self, game: "Game") -> list[Event]:
        game.state.ext[self.name] = {}
        return []

    def copy_state(self, data: Any) -> Any:
        return {k: (v[:] if isinstance(v, list) else v) for k, v in data.items()}

    def held_cards(self, game: "Game") -> list[int]:
        return game.state.ext[self.name].get("revealed", [])

    def before_claim(self, game: "Game", seat: int, route: int,
                     paid: list[int]) -> list[Event] | None:
        b = game.board
        if not b.r_tunnel[route]:
            return None
        ev: list[Event] = []
        revealed = []
        for _ in range(REVEAL):  # fewer when deck and discard run short (§1.10 step 7)
            card = game.draw_card(ev)
            if card < 0:
                break
            revealed.append(card)
        colours = [c for c in range(b.n_colors) if paid[c]]
        color = colours[0] if colours else -1
        extra = sum(1 for c in revealed if c == LOCO or (color >= 0 and c == color))
        ev.append(Event("tunnel_revealed", seat, {
            "route": b.route_ids[route], "cards": [b.card_names[c] for c in revealed],
            "extra": extra}))
        if extra == 0:
            game.state.discard.extend(revealed)
            ev.extend(game.complete_claim(seat, route, paid))
            game.end_turn(ev)
            return ev
        game.state.ext[self.name] = {"route": route, "paid": paid[:], "color": color,
                                     "revealed": revealed, "extra": extra}
        game.state.phase = Phase.PAY_TUNNEL
        return ev

    def _options(self, game: "Game") -> list[tuple[int, int, int]]:
        """(colour, colour cards, locomotives) ways to pay the extra cards."""
        data = game.state.ext[self.name]
        hand = game.state.hands[game.state.current]
        paid, extra, color = data["paid"], data["extra"], data["color"]
        locos = hand[LOCO] - paid[LOCO]
        out = []
        if color >= 0:
            have = hand[color] - paid[color]
            for k in range(min(have, extra), max(0, extra - locos) - 1, -1):
                out.append((color, k, extra - k))
        elif locos >= extra:
            out.append((-1, 0, extra))
        return out

    def phase_actions(self, game: "Game", phase: str) -> list[Action] | None:
        if phase != Phase.PAY_TUNNEL.value:
            return None
        b = game.board
        acts: list[Action] = [PayTunnel(b.cards_tuple(c, k, loco))
                              for c, k, loco in self._options(game)]
        acts.append(DECLINE)
        return acts

    def apply(self, game: "Game", action: Action) -> list[Event]:
        s, b = game.state, game.board
        seat = s.current
        data = s.ext[self.name]
        s.ext[self.name] = {}
        s.discard.extend(data["revealed"])
        if action.kind == "decline_tunnel":
            ev = [Event("tunnel_abandoned", seat, {"route": b.route_ids[data["route"]]})]
            game.end_turn(ev)
            return ev
        extra = b.hand_from_cards(action.cards)
        paid = [p + e for p, e in zip(data["paid"], extra)]
        ev = [Event("tunnel_paid", seat, {"route": b.route_ids[data["route"]],
                                          "cards": cards_text(action.cards)})]
        ev.extend(game.complete_claim(seat, data["route"], paid))
        game.end_turn(ev)
        return ev

    def explain(self, game: "Game", action: Action) -> str | None:
        data = game.state.ext[self.name]
        if not data:
            return "No tunnel is waiting for payment."
        what = "locomotives" if data["color"] < 0 else (
            f"{game.board.card_names[data['color']]} cards or locomotives")
        return f"The tunnel needs {data['extra']} more {what}; pay exactly that or give it up."

    def view_fields(self, game: "Game", seat: int) -> dict[str, Any]:
        data = game.state.ext[self.name]
        if not data:
            return {"tunnel": None}
        b = game.board
        return {"tunnel": {"route": b.route_ids[data["route"]],
                           "revealed": [b.card_names[c] for c in data["revealed"]],
                           "extra": data["extra"],
                           "paid": cards_text(b.cards_tuple_from(data["paid"]))}}
