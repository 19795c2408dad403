"""Tunnels (rules.md §1.10, §8.15): reveal 3 cards, pay one more per match, or give up."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import Action, DeclineTunnel, PayTunnel, cards_text
from ttr_desktop.rules.context import DONE
from ttr_desktop.rules.modules.base import RuleModule
from ttr_desktop.rules.payment import colour_of
from ttr_desktop.rules.state import ModuleState
from ttr_desktop.rules.words import plural_word

if TYPE_CHECKING:
    from ttr_desktop.rules.context import RuleContext
    from ttr_desktop.rules.view import PlayerView

DECLINE = DeclineTunnel()
REVEAL = 3
PAY_TUNNEL = "pay_tunnel"


@dataclass
class TunnelState(ModuleState):
    """The tunnel claim waiting for its extra cards (``route`` -1 when none): the cards
    played, their colour (-1 when only wilds were played), the revealed cards (set aside
    until the end of the turn) and how many more cards they ask for."""

    route: int = -1
    paid: list[int] = field(default_factory=list)
    color: int = -1
    revealed: list[int] = field(default_factory=list)
    extra: int = 0

    def copy(self) -> "TunnelState":
        return TunnelState(self.route, self.paid[:], self.color, self.revealed[:], self.extra)


class Tunnels(RuleModule):
    """Takes a tunnel claim over before anything is paid; the core completes it."""

    name = "tunnels"
    action_kinds = ("pay_tunnel", "decline_tunnel")
    phases = {PAY_TUNNEL: "Pay the tunnel's extra cards or give it up."}
    state_type = TunnelState

    def setup(self, ctx: "RuleContext") -> None:
        ctx.set_state(self.name, TunnelState())

    def held_cards(self, ctx: "RuleContext") -> list[int]:
        return ctx.state(self.name).revealed

    def before_claim(self, ctx: "RuleContext", seat: int, route: int,
                     paid: tuple[int, ...]) -> str | None:
        b = ctx.board
        if not b.r_tunnel[route]:
            return None
        revealed = []
        for _ in range(REVEAL):  # fewer when deck and discard run short (§1.10 step 7)
            card = ctx.draw_card("tunnel")
            if card < 0:
                break
            revealed.append(card)
        color = colour_of(b.pay, paid)
        wilds = {w.index for w in b.pay.wilds}
        extra = sum(1 for c in revealed if c in wilds or (color >= 0 and c == color))
        ctx.emit("tunnel_revealed", seat, {
            "route": b.route_ids[route], "cards": [b.card_names[c] for c in revealed],
            "extra": extra}, reveals=True)
        if extra == 0:
            ctx.discard(revealed)
            return None
        ctx.set_state(self.name, TunnelState(route, list(paid), color, revealed, extra))
        return ctx.open(PAY_TUNNEL)

    def claim_effects(self, ctx: "RuleContext", seat: int, route: int) -> list[str]:
        """What a tunnel's reveal may cost."""
        if not ctx.board.r_tunnel[route]:
            return []
        return [f"Tunnel: {REVEAL} cards are turned up; each of the colour you pay with, and "
                "each locomotive, costs one more card (or give it up)."]

    def _options(self, ctx: "RuleContext") -> list[tuple[int, ...]]:
        """Ways to pay the extra cards, most of the played colour first."""
        data = ctx.state(self.name)
        b = ctx.board
        hand = ctx.hand(ctx.seat)
        rest = [hand[i] - data.paid[i] if i < b.n_cards else 0 for i in range(b.n_pay)]
        pays = b.claim_rule.extra_payments(data.route, data.extra, data.color, rest)
        return sorted(pays, key=lambda v: -(v[data.color] if data.color >= 0 else 0))

    def phase_actions(self, ctx: "RuleContext", phase: str) -> list[Action]:
        b = ctx.board
        acts: list[Action] = [PayTunnel(b.cards_tuple(vec)) for vec in self._options(ctx)]
        acts.append(DECLINE)
        return acts

    def apply(self, ctx: "RuleContext", action: Action) -> str:
        b = ctx.board
        seat = ctx.seat
        data = ctx.state(self.name)
        ctx.set_state(self.name, TunnelState())
        ctx.discard(data.revealed)
        if action.kind == "decline_tunnel":
            ctx.emit("tunnel_abandoned", seat, {"route": b.route_ids[data.route]})
            return ctx.abort()
        ctx.emit("tunnel_paid", seat, {"route": b.route_ids[data.route],
                                       "cards": cards_text(action.cards)})
        ctx.add_to_claim(b.hand_from_cards(action.cards))
        return DONE

    def explain(self, ctx: "RuleContext", action: Action) -> str | None:
        data = ctx.state(self.name)
        if data.route < 0:
            return "No tunnel is waiting for payment."
        n = data.extra
        what = plural_word(n, "locomotive") if data.color < 0 else (
            f"{plural_word(n, ctx.board.card_names[data.color] + ' card')} or locomotives")
        return f"The tunnel needs {n} more {what}; pay exactly that or give it up."

    def view_fields(self, ctx: "RuleContext", seat: int) -> dict[str, Any]:
        data = ctx.state(self.name)
        if data.route < 0:
            return {"tunnel": None}
        b = ctx.board
        paid = b.cards_tuple_from(data.paid)
        return {"tunnel": {"route": b.route_ids[data.route],
                           "revealed": [b.card_names[c] for c in data.revealed],
                           "extra": data.extra, "paid": cards_text(paid),
                           "paid_cards": paid}}

    def determinize(self, ctx: "RuleContext", view: "PlayerView", rng: random.Random) -> None:
        info = view.extra.get("tunnel")
        if not info:
            ctx.set_state(self.name, TunnelState())
            return
        b = ctx.board
        paid = b.hand_from_cards(info["paid_cards"])
        ctx.set_state(self.name, TunnelState(
            b.route_index[info["route"]], paid, colour_of(b.pay, paid),
            [b.card_index[c] for c in info["revealed"]], info["extra"]))
