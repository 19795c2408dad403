"""Move generation: the legal actions of the current seat, per phase.

Claims examine only the routes the hand could pay for (the board indexes
routes by colour and length). With the simple payment rule (one wild card
kind, no pay sources, no module terms: USA, Europe) payments are slices of
per-route tables of interned actions compiled from the claim rule; otherwise
each candidate route asks the claim rule (``rules/claimrule.py``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ttr_desktop.rules.actions import Action, DrawBlind, DrawTickets, KeepTickets, Pass
from ttr_desktop.rules.graph import parallel_block
from ttr_desktop.rules.state import Phase

if TYPE_CHECKING:
    from ttr_desktop.rules.game import Game

DRAW_BLIND = DrawBlind()
DRAW_TICKETS = DrawTickets()
PASS = Pass()
_MIXES: dict[tuple, DrawTickets] = {}
#: Keep choices by (tickets drawn, keep at least, returns ordered): index patterns only —
#: never ticket ids, so nothing about any seat's tickets is kept here.
_KEEP_PATTERNS: dict[tuple[int, int, bool], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}


_TURN, _SECOND, _KEEP, _INITIAL, _OVER = (Phase.TURN, Phase.SECOND_CARD, Phase.KEEP_TICKETS,
                                          Phase.CHOOSE_INITIAL_TICKETS, Phase.GAME_OVER)


def generate(game: "Game", canonical: bool = False) -> list[Action]:
    """Every legal action of the current seat, in a deterministic order.

    ``canonical``: claims offer one payment per route (the one a player is offered
    first: fewest wild cards, then the colour held most) — what search branches over;
    every other action is listed as usual."""
    phase = game.state.phase
    if phase == _TURN:
        return turn_actions(game, canonical)
    if phase == _SECOND:
        return draw_actions(game, True)
    if phase == _KEEP or phase == _INITIAL:
        return keep_actions(game)
    if phase == _OVER:
        return []
    module = game._module_by_phase.get(phase)
    if module is None:
        return []
    return list(module.phase_actions(game.ctx, phase) or [])


def check(game: "Game", action) -> bool | None:
    """Whether ``action`` is among the legal actions, for the core's own kinds, in about
    constant time; None for kinds it leaves to the full list (module actions, pass)."""
    s = game.state
    phase = s.phase
    kind = getattr(action, "kind", None)
    if kind == "draw_blind":
        if phase != _TURN and phase != _SECOND:
            return False
        if game._veto_draw and game._draw_vetoed(s.current):
            return False
        return bool(s.deck) or bool(s.discard)
    if kind == "draw_face_up":
        if phase != _TURN and phase != _SECOND:
            return False
        slot = action.slot
        if not isinstance(slot, int) or not 0 <= slot < len(s.face_up):
            return False
        card = s.face_up[slot]
        b = game.board
        if card < 0 or b.card_names[card] != action.card:
            return False
        second = phase == _SECOND
        if second and card in b.first_pick_only:
            return False
        if game._veto_draw and game._draw_vetoed(s.current):
            return False
        return bool(s.deck) or bool(s.discard) or game.ruleset.face_up_when_deck_empty \
            or second
    if kind == "claim_route":
        return phase == _TURN and _claim_ok(game, action)
    if kind == "draw_tickets":
        return phase == _TURN and action in ticket_draws(game) or (
            phase == _INITIAL and action in keep_actions(game))
    if kind == "keep_tickets":
        return (phase == _KEEP or phase == _INITIAL) and action in keep_actions(game)
    return None


def _claim_ok(game: "Game", action) -> bool:
    """Whether a ClaimRoute is one of the listed claims (same rules as the generators)."""
    s, b = game.state, game.board
    r = b.route_index.get(getattr(action, "route_id", None))
    if r is None or s.owner[r] >= 0:
        return False
    seat = s.current
    if b.r_len[r] > s.trains[seat]:
        return False
    sib = b.r_siblings[r]
    if sib and parallel_block(s.owner, sib, seat, game._group_open[r]):
        return False
    vec = b.hand_from_cards(action.cards)
    if vec is None:
        return False
    for m in game._hooks["veto_claim"]:
        if not m.may_claim(game.ctx, seat, r):
            return False
    hand = game._pay_vector(seat)
    for i, n in enumerate(vec):
        if n > hand[i]:
            return False
    return tuple(vec) in set(b.claim_rule.payments(r, hand))


def turn_actions(game: "Game", canonical: bool = False) -> list[Action]:
    """TURN: draws, claims (rules.md §1.5), tickets, module actions, or pass (A-01)."""
    s, b, rs = game.state, game.board, game.ruleset
    seat = s.current
    acts = draw_actions(game, False)
    hooks = game._hooks
    if b.simple and not hooks["pay_sources"]:
        _simple_claims(game, seat, acts, canonical)
    else:
        _claims(game, seat, acts, canonical)
    if rs.ticket_draw_announced or not rs.ticket_draw_needs_tickets:
        acts.extend(ticket_draws(game))
    elif s.ticket_decks[rs.ticket_draw_decks[0]]:
        acts.append(DRAW_TICKETS)
    for module in hooks["turn_actions"]:
        acts.extend(module.turn_actions(game.ctx, seat))
    if not acts and rs.pass_when_stuck:
        acts.append(PASS)
    return acts


def _simple_claims(game: "Game", seat: int, acts: list[Action],
                   canonical: bool = False) -> None:
    """Claims with one wild kind and no sources: table slices (the hot path)."""
    if canonical:
        _canonical_claims(game, seat, acts)
        return
    s, b = game.state, game.board
    hand = s.hands[seat]
    owner = s.owner
    trains = s.trains[seat]
    r_len, r_color, r_min = b.r_len, b.r_color, b.r_min_locos
    colors = b.colors
    locos = hand[b.loco]
    affordable = b.affordable
    # No route longer than the trains left or the longest route is looked at.
    cap = b.max_len if b.max_len < trains else trains
    cands: list[int] = []
    best = 0
    for c in colors:
        have = hand[c] + locos
        if have:
            if have > best:
                best = have
            cands.extend(affordable[c][have if have < cap else cap])
    if locos > best:
        best = locos
    if best:
        cands.extend(affordable[-1][best if best < cap else cap])
    if not cands:
        return
    cands.sort()
    vetoes = game._hooks["veto_claim"]
    pay_table, all_locos = b.pay_table, b.all_locos
    held = [c for c in colors if hand[c]]
    group_open, sib = game._group_open, b.r_siblings
    for r in cands:
        if owner[r] >= 0:
            continue
        length = r_len[r]
        if r_min[r] > locos:   # no candidate is longer than the trains left
            continue
        if sib[r]:
            for o in sib[r]:  # the double-route rule matters only once a sibling is taken
                if owner[o] >= 0:
                    break
            else:
                o = -1
            if o >= 0 and parallel_block(owner, sib[r], seat, group_open[r]):
                continue
        if vetoes and any(not m.may_claim(game.ctx, seat, r) for m in vetoes):
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


def _canonical_claims(game: "Game", seat: int, acts: list[Action]) -> None:
    """One claim per route, the payment a player is offered first: most cards of one
    colour, so fewest locomotives; for a gray route, the colour held most (ties: the
    lower colour; locomotives only when no colour is held). The same routes as
    ``_simple_claims``, read from ``Board.canonical_claims``: one row per colour held
    (its routes the hand can reach, each with its payment worked out), so an open
    route with no parallel track and no locomotive minimum costs one look at its
    owner. Listed colour by colour, gray routes last; each row in route order."""
    s, b = game.state, game.board
    hand = s.hands[seat]
    owner = s.owner
    locos = hand[b.loco]
    trains = s.trains[seat]
    top = b.max_len
    cap = top if top < trains else trains
    start = len(acts)
    append = acts.append
    table = b.canonical_claims
    rows = []
    most, most_c = 0, -1
    for c in b.colors:
        held = hand[c]
        have = held + locos
        if have:
            if held > most:
                most, most_c = held, c
            rows.append(table[c][have if have < cap else cap][held if held < top else top])
    have = most + locos
    if have:
        rows.append(b.gray_claims[most_c][have if have < cap else cap][
            most if most < top else top])
    group_open = game._group_open
    for plain, special in rows:
        for r, claim in plain:
            if owner[r] < 0:
                append(claim)
        # Routes with a parallel track or a locomotive minimum: the double-route rule
        # (``parallel_block``, inlined: a taken track blocks when it is the seat's own or
        # the group is closed at this player count) and the locomotives the route needs.
        for r, claim, min_locos, sib in special:
            if owner[r] >= 0 or min_locos > locos:
                continue
            for o in sib:
                w = owner[o]
                if w >= 0 and (w == seat or not group_open[r]):
                    break
            else:
                append(claim)
    vetoes = game._hooks["veto_claim"]
    if vetoes and len(acts) > start:
        ctx, index = game.ctx, b.route_index
        acts[start:] = [a for a in acts[start:]
                        if all(m.may_claim(ctx, seat, index[a.route_id]) for m in vetoes)]


def canonical_claim(game: "Game", r: int) -> Action | None:
    """The canonical claim of route ``r`` by the current seat in the TURN phase (the
    payment a player is offered first), or None when it cannot be claimed now — what
    ``legal_actions(canonical=True)`` lists for that route, without listing the rest."""
    return _canonical(game, r, True)


def _canonical(game: "Game", r: int, vetoes_too: bool) -> Action | None:
    """``canonical_claim``; without ``vetoes_too``, for a route the modules' vetoes have
    already let through."""
    s, b = game.state, game.board
    if s.phase != _TURN or s.owner[r] >= 0:
        return None
    seat = s.current
    if b.r_len[r] > s.trains[seat]:
        return None
    owner = s.owner
    if b.simple and not game._hooks["pay_sources"]:
        hand = s.hands[seat]
        locos = hand[b.loco]
        length = b.r_len[r]
        if b.r_min_locos[r] > locos:
            return None
        sib = b.r_siblings[r]
        if sib:
            for o in sib:
                if owner[o] >= 0:   # another track taken: the double-route rule decides
                    if parallel_block(owner, sib, seat, game._group_open[r]):
                        return None
                    break
        col = b.r_color[r]
        if col < 0:
            most = 0
            for c in b.colors:
                if hand[c] > most:
                    most, col = hand[c], c
        lo = length - locos
        if lo < 1:
            lo = 1
        hi = hand[col] if col >= 0 else 0
        top = length - b.r_min_locos[r]
        if hi > top:
            hi = top
        if hi >= lo:
            act = b.pay_table[r][col][hi]
        elif locos >= length:
            act = b.all_locos[r]
        else:
            return None
        # Vetoes last: a family's veto (a network rule) costs more than the card check.
        # (A loop, not ``any`` over a generator: a search asks this for route after route
        # that a network rule refuses.)
        vetoes = game._hooks["veto_claim"] if vetoes_too else None
        if vetoes:
            ctx = game.ctx
            for m in vetoes:
                if not m.may_claim(ctx, seat, r):
                    return None
        return act
    return _canonical_paid(game, r, seat, game._pay_vector(seat))


def _canonical_paid(game: "Game", r: int, seat: int, vec) -> Action | None:
    """``canonical_claim`` under any payment rule, for a route the seat has the trains
    for and the pay vector ``vec`` of its hand and sources."""
    b = game.board
    owner = game.state.owner
    rule = b.claim_rule
    if not rule.substitutes and rule.wild_units(r, vec) < b.r_min_locos[r]:
        return None
    if b.r_siblings[r] and parallel_block(owner, b.r_siblings[r], seat, game._group_open[r]):
        return None
    vetoes = game._hooks["veto_claim"]
    if vetoes:
        ctx = game.ctx
        for m in vetoes:
            if not m.may_claim(ctx, seat, r):
                return None
    pay = rule.first(r, vec)     # (asks ``can_pay`` first: no listing for most routes)
    return None if pay is None else b.claim_action(r, pay)


def first_claim(game: "Game", routes) -> Action | None:
    """The canonical claim of the first route in ``routes`` the current seat can claim
    now (``canonical_claim``'s answer for each in turn), or None. A route whose
    colour's cards plus the wild units fall short of its length is passed over before
    any other check: most routes a search asks about in order of preference cannot be
    paid for, and this answers for them at the cost of a comparison. (Under another
    payment rule than the simple one, every wild unit of the hand and its sources is
    counted, the +4 locomotives too: a bound no route exceeds; with substitute payments
    there is no such bound and every route is asked.)"""
    s, b = game.state, game.board
    if s.phase != _TURN:
        return None
    seat = s.current
    simple = b.simple and not game._hooks["pay_sources"]
    if simple:
        have = s.hands[seat]
        units = have[b.loco]
        colours = b.colors
    else:   # every wild unit of the hand and its sources, for every route
        have = game._pay_vector(seat)
        units = sum(have[w.index] // w.per_unit for w in b.pay.wilds)
        colours = b.pay.colours
        if b.claim_rule.substitutes:
            units = b.max_len
    trains = s.trains[seat]
    owner, r_len, r_color = s.owner, b.r_len, b.r_color
    most = -1          # the most cards of one colour (a gray route's colour), when needed
    # With the usual payment, a module's veto is asked before the payment is worked out:
    # in a search's list of preferences most routes that pass the card count are ones a
    # network rule refuses (Old West: 5 in 6), and every check answers the same in any
    # order.
    vetoes = game._hooks["veto_claim"] if simple else None
    ctx = game.ctx if vetoes else None
    for r in routes:
        length = r_len[r]
        if owner[r] >= 0 or length > trains:
            continue
        col = r_color[r]
        if col >= 0:
            if have[col] + units < length:
                continue
        else:
            if most < 0:
                most = max(map(have.__getitem__, colours))
            if most + units < length:
                continue
        if vetoes:
            refused = False
            for m in vetoes:
                if not m.may_claim(ctx, seat, r):
                    refused = True
                    break
            if refused:
                continue
        a = _canonical(game, r, False) if simple else _canonical_paid(game, r, seat, have)
        if a is not None:
            return a
    return None


def _claims(game: "Game", seat: int, acts: list[Action], canonical: bool = False) -> None:
    """Claims under any payment rule: the claim rule per affordable route."""
    s, b = game.state, game.board
    vec = game._pay_vector(seat)
    owner = s.owner
    trains = s.trains[seat]
    rule = b.claim_rule
    pay = b.pay
    units = pay.wild_units(vec, b.max_len)       # an upper bound for every route
    top_len = b.max_len
    if rule.substitutes:     # substitutes pay without the usual cards: every route
        units = top_len
    cands: list[int] = []
    best = units
    for c in b.colors:
        have = vec[c] + units
        if have:
            best = max(best, have)
            cands.extend(b.affordable[c][min(have, top_len)])
    if best:
        cands.extend(b.affordable[-1][min(best, top_len)])
    cands.sort()
    vetoes = game._hooks["veto_claim"]
    group_open = game._group_open
    bounded = not rule.substitutes
    for r in cands:
        if owner[r] >= 0 or b.r_len[r] > trains:
            continue
        if bounded and rule.wild_units(r, vec) < b.r_min_locos[r]:
            continue
        if b.r_siblings[r] and parallel_block(owner, b.r_siblings[r], seat, group_open[r]):
            continue
        if vetoes and any(not m.may_claim(game.ctx, seat, r) for m in vetoes):
            continue
        pays = rule.payments(r, vec)
        if canonical and len(pays) > 1:
            pays = [pays[rule.order(pays, vec, r)[0]]]
        acts.extend([b.claim_action(r, p) for p in pays])


def ticket_draws(game: "Game") -> list[Action]:
    """Ticket draws (§1.6, A-05): one action, or one per feasible announced mix (A-12)."""
    s, rs = game.state, game.ruleset
    if rs.ticket_draw_announced:
        mixes = feasible_mixes(s.ticket_decks, rs.ticket_draw_decks, rs.ticket_draw)
        if mixes:
            return [_mix_action(m) for m in mixes]
        return [DRAW_TICKETS] if not rs.ticket_draw_needs_tickets else []
    if s.ticket_decks[rs.ticket_draw_decks[0]] or not rs.ticket_draw_needs_tickets:
        return [DRAW_TICKETS]
    return []


def feasible_mixes(decks: dict[str, list[int]], names: tuple[str, ...],
                   size: int) -> list[tuple[tuple[str, int], ...]]:
    """Every way to announce ``min(size, tickets left)`` tickets over the named decks,
    each count within its deck (A-12); most from the first deck first."""
    sizes = [len(decks[n]) for n in names]
    total = min(size, sum(sizes))
    if total <= 0:
        return []
    out = []

    def rec(i: int, left: int, chosen: list[int]) -> None:
        if i == len(names) - 1:
            if left <= sizes[i]:
                out.append(tuple((names[k], n) for k, n in enumerate(chosen + [left]) if n))
            return
        for n in range(min(left, sizes[i]), -1, -1):
            rec(i + 1, left - n, chosen + [n])

    rec(0, total, [])
    return out


def _mix_action(mix: tuple[tuple[str, int], ...]) -> DrawTickets:
    act = _MIXES.get(mix)
    if act is None:
        act = _MIXES[mix] = DrawTickets(mix)
    return act


def draw_actions(game: "Game", second: bool) -> list[Action]:
    """Card draws: the first or (``second``) the second pick of a draw (§1.4)."""
    s, b = game.state, game.board
    if game._veto_draw and game._draw_vetoed(s.current):
        return []
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


def first_draw(game: "Game", cards) -> Action | None:
    """The first face-up draw (in slot order) of a card in ``cards`` (card indices)
    legal now, else the blind draw when it is legal, else None — what a policy that
    takes a card it wants from the display, else draws blind, picks from
    ``draw_actions``, without listing them."""
    s = game.state
    phase = s.phase
    if phase == _TURN:
        second = False
    elif phase == _SECOND:
        second = True
    else:
        return None
    if game._veto_draw and game._draw_vetoed(s.current):
        return None
    can_blind = bool(s.deck) or bool(s.discard)
    if cards and (can_blind or game.ruleset.face_up_when_deck_empty or second):
        b = game.board
        for slot, card in enumerate(s.face_up):
            if card in cards and not (second and card in b.first_pick_only):
                return b.face_up_actions[slot][card]
    return DRAW_BLIND if can_blind else None


def keep_actions(game: "Game") -> list[Action]:
    """Which of the pending tickets to keep (§1.6), with the returned order (A-06); or,
    at the start of a game where seats announce their mix (Märklin), the mixes."""
    s, b, rs = game.state, game.board, game.ruleset
    pending = s.pending[s.current]
    initial = s.phase == Phase.CHOOSE_INITIAL_TICKETS
    if initial and rs.initial_announced and not pending:
        mixes = feasible_mixes(s.ticket_decks, rs.ticket_draw_decks, rs.initial_announced)
        return [_mix_action(m) for m in mixes]
    need = rs.initial_keep_min if initial else rs.ticket_keep_min
    need = min(need, len(pending))
    ordered = (rs.returned_ticket_order == "player"
               and not (initial and rs.initial_returns != "bottom"))
    ids = [b.ticket_ids[t] for t in pending]
    return [KeepTickets(tuple([ids[i] for i in keep]), tuple([ids[i] for i in back]))
            for keep, back in _keep_patterns(len(ids), need, ordered)]


def _keep_patterns(n: int, need: int, ordered: bool):
    """Every (kept indices, returned indices in order) for ``n`` drawn tickets."""
    key = (n, need, ordered)
    pats = _KEEP_PATTERNS.get(key)
    if pats is None:
        pats = []
        for size in range(need, n + 1):
            for kept in itertools.combinations(range(n), size):
                rest = [i for i in range(n) if i not in kept]
                orders = itertools.permutations(rest) if ordered and len(rest) > 1 else [rest]
                for order in orders:
                    pats.append((kept, tuple(order)))
        _KEEP_PATTERNS[key] = pats
    return pats
