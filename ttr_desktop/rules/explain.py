"""Why an action is not legal now, in a player's words (IllegalAction messages)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import Action
from ttr_desktop.rules.board import LOCO
from ttr_desktop.rules.state import Phase

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game


def explain_action(game: "Game", action: Action) -> str:
    """Why ``action`` is not legal now, in a player's words."""
    s, b = game.state, game.board
    phase = s.phase
    kind = getattr(action, "kind", None)
    if not isinstance(action, Action):
        return f"{action!r} is not an action."
    if phase is Phase.CHOOSE_INITIAL_TICKETS and kind != "keep_tickets":
        return (f"{game.players[s.current]} must first choose which starting tickets to keep.")
    if phase is Phase.KEEP_TICKETS and kind != "keep_tickets":
        return "Choose which of the drawn tickets to keep first."
    if phase is Phase.SECOND_CARD and kind not in ("draw_blind", "draw_face_up"):
        return "Take your second card first: from the deck or a face-up card."
    if phase is Phase.PAY_TUNNEL and kind not in ("pay_tunnel", "decline_tunnel"):
        return "Pay the tunnel's extra cards or give it up first."
    if kind in game._module_by_kind:
        text = game._module_by_kind[kind].explain(game, action)
        if text:
            return text
    if kind == "draw_blind":
        return "The deck and the discard pile are both empty: no card can be drawn."
    if kind == "draw_face_up":
        slot = getattr(action, "slot", -1)
        if not isinstance(slot, int) or not 0 <= slot < len(s.face_up) or s.face_up[slot] < 0:
            return "There is no face-up card in that place."
        card = b.card_names[s.face_up[slot]]
        if action.card != card:
            return f"The face-up card there is {card}, not {action.card}."
        if phase is Phase.SECOND_CARD and s.face_up[slot] in b.first_pick_only:
            return "A face-up locomotive can only be taken as your first and only card."
        return "Face-up cards cannot be taken now: the deck and discard pile are empty."
    if kind == "draw_tickets":
        return "The ticket deck is empty."
    if kind == "keep_tickets":
        if phase not in (Phase.KEEP_TICKETS, Phase.CHOOSE_INITIAL_TICKETS):
            return "There are no drawn tickets to keep."
        pending = {b.ticket_ids[t] for t in s.pending[s.current]}
        chosen = list(action.tickets) + list(action.returned)
        if sorted(chosen) != sorted(pending):
            return "Keep or return exactly the tickets you drew, each once."
        initial = phase is Phase.CHOOSE_INITIAL_TICKETS
        need = game.ruleset.initial_keep_min if initial else game.ruleset.ticket_keep_min
        return f"You must keep at least {min(need, len(pending))} of these tickets."
    if kind == "claim_route":
        return claim_problem(game, action.route_id, action.cards) or (
            "That payment does not fit this route.")
    if kind == "pass":
        return "You can only pass when no other action is possible."
    return f"You cannot {action.describe()} now."


def claim_problem(game: "Game", route_id: str, cards: Any) -> str | None:
    """Why the current seat cannot claim ``route_id`` (with ``cards``, if given), or None."""
    s, b, rs = game.state, game.board, game.ruleset
    if s.phase is not Phase.TURN:
        return "You can claim a route only at the start of your turn."
    r = b.route_index.get(route_id)
    if r is None:
        return f"There is no route {route_id!r} on this map."
    route = b.routes[r]
    where = f"{game.map.cities[route.a].name}–{game.map.cities[route.b].name}"
    seat = s.current
    if s.owner[r] >= 0:
        return f"{where} already belongs to {game.players[s.owner[r]]}."
    for o in b.r_siblings[r]:
        if s.owner[o] == seat:
            return f"You already own the other track of {where}; nobody may own both."
        if s.owner[o] >= 0 and game.num_players < rs.doubles_min_players:
            return (f"With {game.num_players} players only one track of a double route is "
                    f"used, and {game.players[s.owner[o]]} has taken {where}.")
    if b.r_len[r] > s.trains[seat]:
        return f"{where} needs {b.r_len[r]} trains; you have {s.trains[seat]} left."
    hand = s.hands[seat]
    need = b.r_len[r]
    color = route.color
    locos = hand[LOCO]
    min_locos = b.r_min_locos[r]
    if locos < min_locos:
        return (f"{where} is a ferry: it needs {min_locos} locomotive(s); you have {locos}.")
    if cards is not None:
        paid = b.hand_from_cards(tuple(cards))
        if paid is None:
            return "That payment names a card that does not exist."
        if sum(paid) != need:
            return f"{where} takes exactly {need} cards; that payment has {sum(paid)}."
        for card, n in enumerate(paid):
            if n > hand[card]:
                return (f"To claim {where} with {n} {b.card_names[card]} you need "
                        f"{n - hand[card]} more {b.card_names[card]} card(s): you hold "
                        f"{hand[card]}.")
        colours = [c for c in range(b.n_colors) if paid[c]]
        if len(colours) > 1:
            return "A route is paid in one colour (plus locomotives); colours cannot be mixed."
        if colours and color != "gray" and b.card_names[colours[0]] != color:
            return f"{where} is {color}: pay {color} cards or locomotives."
        if paid[LOCO] < min_locos:
            return f"{where} needs at least {min_locos} locomotive(s)."
        return None
    if color == "gray":
        best = max(hand[c] for c in range(b.n_colors))
        return (f"{where} needs {need} cards of one colour (locomotives are wild); your best "
                f"colour gives {best} and you have {locos} locomotive(s).")
    return (f"{where} needs {need} {color} cards (locomotives are wild); you have "
            f"{hand[b.card_index[color]]} {color} and {locos} locomotive(s).")
