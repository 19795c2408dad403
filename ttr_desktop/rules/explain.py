"""Why an action is not legal now, in a player's words (IllegalAction messages)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_desktop.rules.actions import Action
from ttr_desktop.rules.graph import parallel_block
from ttr_desktop.rules.words import plural
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
    module = game._module_by_phase.get(phase)
    if module is not None and kind not in module.action_kinds and kind != "decline":
        return module.prompt(game.ctx, phase) or "Finish the current step first."
    if phase == Phase.CHOOSE_INITIAL_TICKETS and kind not in ("keep_tickets", "draw_tickets"):
        return f"{game.players[s.current]} must first choose which starting tickets to keep."
    if phase == Phase.KEEP_TICKETS and kind != "keep_tickets":
        return "Choose which of the drawn tickets to keep first."
    if phase == Phase.SECOND_CARD and kind not in ("draw_blind", "draw_face_up"):
        return "Take your second card first: from the deck or a face-up card."
    if kind in game._module_by_kind:
        text = game._module_by_kind[kind].explain(game.ctx, action)
        if text:
            return text
    if kind in ("draw_blind", "draw_face_up") and game._hooks["veto_draw"]:
        reason = game._draw_vetoed(s.current)
        if reason:
            return reason
    if kind == "draw_blind":
        return "The deck and the discard pile are both empty: no card can be drawn."
    if kind == "draw_face_up":
        slot = getattr(action, "slot", -1)
        if not isinstance(slot, int) or not 0 <= slot < len(s.face_up) or s.face_up[slot] < 0:
            return "There is no face-up card in that place."
        card = b.card_names[s.face_up[slot]]
        if action.card != card:
            return f"The face-up card there is {card}, not {action.card}."
        if phase == Phase.SECOND_CARD and s.face_up[slot] in b.first_pick_only:
            return "A face-up locomotive can only be taken as your first and only card."
        return "Face-up cards cannot be taken now: the deck and discard pile are empty."
    if kind == "draw_tickets":
        if game.ruleset.ticket_draw_announced and getattr(action, "mix", ()):
            return ("That mix cannot be drawn: announce how many of each deck, no more than "
                    "each deck holds.")
        return "The ticket deck is empty."
    if kind == "keep_tickets":
        if phase not in (Phase.KEEP_TICKETS, Phase.CHOOSE_INITIAL_TICKETS):
            return "There are no drawn tickets to keep."
        pending = {b.ticket_ids[t] for t in s.pending[s.current]}
        if not pending:
            return "Announce which tickets you draw first."
        chosen = list(action.tickets) + list(action.returned)
        if sorted(chosen) != sorted(pending):
            return "Keep or return exactly the tickets you drew, each once."
        initial = phase == Phase.CHOOSE_INITIAL_TICKETS
        need = game.ruleset.initial_keep_min if initial else game.ruleset.ticket_keep_min
        return f"You must keep at least {min(need, len(pending))} of these tickets."
    if kind == "claim_route":
        return claim_problem(game, action.route_id, action.cards) or (
            "That payment does not fit this route.")
    if kind == "pass":
        return "You can only pass when no other action is possible."
    return f"You cannot {action.describe()} now."


def route_words(game: "Game", r: int) -> str:
    """'Denver–Omaha'."""
    route = game.board.routes[r]
    return f"{game.map.cities[route.a].name}–{game.map.cities[route.b].name}"


def claim_problem(game: "Game", route_id: str, cards: Any) -> str | None:
    """Why the current seat cannot claim ``route_id`` (with ``cards``, if given), or None."""
    s, b = game.state, game.board
    if s.phase != Phase.TURN:
        return "You can claim a route only at the start of your turn."
    r = b.route_index.get(route_id)
    if r is None:
        return f"There is no route {route_id!r} on this map."
    where = route_words(game, r)
    seat = s.current
    if s.owner[r] >= 0:
        return f"{where} already belongs to {game.players[s.owner[r]]}."
    block = parallel_block(s.owner, b.r_siblings[r], seat, game._group_open[r])
    if block == "own":
        return f"You already own the other track of {where}; nobody may own both."
    if block == "closed":
        taker = next(s.owner[o] for o in b.r_siblings[r] if s.owner[o] >= 0)
        kind = "double" if len(b.r_siblings[r]) == 1 else "triple"
        return (f"With {game.num_players} players only one track of a {kind} route is "
                f"used, and {game.players[taker]} has taken {where}.")
    if b.r_len[r] > s.trains[seat]:
        return f"{where} needs {plural(b.r_len[r], 'train')}; you have {s.trains[seat]} left."
    for module in game._hooks["veto_claim"]:
        reason = module.veto_claim(game.ctx, seat, r)
        if reason:
            return reason
    hand = game._pay_vector(seat)
    paid = None
    if cards is not None:
        paid = b.hand_from_cards(tuple(cards))
        if paid is None:
            return "That payment names a card that does not exist."
    return b.claim_rule.problem(r, hand, paid, where)
