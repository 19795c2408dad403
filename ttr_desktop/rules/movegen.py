"""Move generation: the legal actions of the current seat, per phase.

Claims examine only the routes the hand could pay for (the board indexes
routes by colour and length) and take their payments as slices of per-route
tables of interned actions, so generating moves stays cheap.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ttr_desktop.rules.actions import Action, DrawBlind, DrawTickets, KeepTickets, Pass
from ttr_desktop.rules.board import LOCO
from ttr_desktop.rules.state import Phase

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game

DRAW_BLIND = DrawBlind()
DRAW_TICKETS = DrawTickets()
PASS = Pass()


def generate(game: "Game") -> list[Action]:
    """Every legal action of the current seat, in a deterministic order."""
    s = game.state
    phase = s.phase
    if phase is Phase.TURN:
        return turn_actions(game)
    if phase is Phase.SECOND_CARD:
        return draw_actions(game, True)
    if phase is Phase.KEEP_TICKETS or phase is Phase.CHOOSE_INITIAL_TICKETS:
        return keep_actions(game)
    if phase is Phase.GAME_OVER:
        return []
    module = game._module_by_phase.get(phase.value)
    if module is None:
        return []
    return module.phase_actions(game, phase.value) or []

def turn_actions(game: "Game") -> list[Action]:
    """TURN: draws, claims (rules.md §1.5), tickets, module actions, or pass (A-01)."""
    s, b, rs = game.state, game.board, game.ruleset
    seat = s.current
    acts = draw_actions(game, False)
    # Claims (rules.md §1.5): only routes the hand could pay for are examined.
    hand = s.hands[seat]
    owner = s.owner
    trains = s.trains[seat]
    closed_doubles = game.num_players < rs.doubles_min_players
    r_len, r_color, r_min, sib = b.r_len, b.r_color, b.r_min_locos, b.r_siblings
    n_colors = b.n_colors
    locos = hand[LOCO]
    affordable, top_len = b.affordable, b.max_len
    cands: list[int] = []
    best = 0
    for c in range(n_colors):
        have = hand[c] + locos
        if have:
            if have > best:
                best = have
            cands.extend(affordable[c][have if have < top_len else top_len])
    if locos > best:
        best = locos
    if best:
        cands.extend(affordable[n_colors][best if best < top_len else top_len])
    if cands:
        cands.sort()
        pay_table, all_locos = b.pay_table, b.all_locos
        held = [c for c in range(n_colors) if hand[c]]
        for r in cands:
            if owner[r] >= 0:
                continue
            length = r_len[r]
            if length > trains or r_min[r] > locos:
                continue
            if sib[r]:
                blocked = False
                for o in sib[r]:
                    w = owner[o]
                    if w == seat or (w >= 0 and closed_doubles):
                        blocked = True
                        break
                if blocked:
                    continue
            # Payments: k cards of one colour (1 <= k) plus locomotives (see Board).
            lo = length - locos
            if lo < 1:
                lo = 1
            top = length - r_min[r]
            table = pay_table[r]
            col = r_color[r]
            for c in ((col,) if col >= 0 else held):
                hi = hand[c]
                if hi > top:
                    hi = top
                if hi >= lo:
                    acts.extend(table[c][lo:hi + 1])
            if locos >= length:
                acts.append(all_locos[r])
    # Tickets (rules.md §1.6, A-05).
    if s.ticket_decks["regular"] or not rs.ticket_draw_needs_tickets:
        if s.ticket_decks["regular"]:
            acts.append(DRAW_TICKETS)
    for module in game.modules:
        acts.extend(module.turn_actions(game, seat))
    if not acts and rs.pass_when_stuck:
        acts.append(PASS)
    return acts

def draw_actions(game: "Game", second: bool) -> list[Action]:
    """Card draws: the first or (``second``) the second pick of a draw (§1.4)."""
    s, b = game.state, game.board
    acts: list[Action] = []
    can_blind = bool(s.deck) or bool(s.discard)
    if can_blind:
        acts.append(DRAW_BLIND)
    if can_blind or game.ruleset.face_up_when_deck_empty or second:
        only_first = b.first_pick_only
        table = b.face_up_actions
        for slot, card in enumerate(s.face_up):
            if card < 0 or (second and card in only_first):
                continue
            acts.append(table[slot][card])
    return acts

def keep_actions(game: "Game") -> list[Action]:
    """Which of the pending tickets to keep (§1.6), with the returned order (A-06)."""
    s, b, rs = game.state, game.board, game.ruleset
    pending = s.pending[s.current]
    initial = s.phase is Phase.CHOOSE_INITIAL_TICKETS
    need = rs.initial_keep_min if initial else rs.ticket_keep_min
    need = min(need, len(pending))
    ordered = (rs.returned_ticket_order == "player"
               and not (initial and rs.initial_returns == "box"))
    key = (tuple(pending), need, ordered)
    acts = b.keep_cache.get(key)
    if acts is None:
        if len(b.keep_cache) > 20000:  # bounded: long tournaments see many draws
            b.keep_cache.clear()
        acts = b.keep_cache[key] = _keep_choices([b.ticket_ids[t] for t in pending], need,
                                                 ordered)
    return list(acts)


def _keep_choices(ids: list[str], need: int, ordered: bool) -> list[Action]:
    """Every legal KeepTickets for these drawn tickets (returns in every order if ``ordered``)."""
    acts: list[Action] = []
    for size in range(need, len(ids) + 1):
        for kept in itertools.combinations(range(len(ids)), size):
            keep = tuple(ids[i] for i in kept)
            rest = [ids[i] for i in range(len(ids)) if i not in kept]
            orders = itertools.permutations(rest) if ordered and len(rest) > 1 else [rest]
            for order in orders:
                acts.append(KeepTickets(keep, tuple(order)))
    return acts
