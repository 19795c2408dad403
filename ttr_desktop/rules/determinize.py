"""Determinization: a whole game consistent with what one seat knows.

``determinize(view, rng)`` builds a ``Game`` that agrees with everything in
the view — the seat's own hand and tickets, the public cards and record,
every count — and fills the hidden parts (other hands beyond the cards seen
taken face up, other seats' tickets, the deck order, the ticket decks, and
each module's hidden parts) by sampling. This is what a search bot plays
out, and it never reads the real game (OpenSpiel's resample-from-infostate).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ttr_desktop.rules.ruleset import get_ruleset

if TYPE_CHECKING:
    from ttr_desktop.maps.model import Ticket
    from ttr_desktop.rules.game import Game
    from ttr_desktop.rules.view import PlayerView

#: weight(seat, ticket) -> how likely ``seat`` holds ``ticket`` (a bot's guess); the same
#: answer for the same question (a sample asks it once per seat and ticket).
TicketWeight = Callable[[int, "Ticket"], float]


def determinize(view: "PlayerView", rng: random.Random,
                ticket_weight: TicketWeight | None = None) -> "Game":
    """A Game consistent with ``view``; hidden parts resampled with ``rng``.

    ``ticket_weight`` biases which unseen tickets each other seat is given
    (default: uniform)."""
    from ttr_desktop.rules.game import Game, compiled

    options = dict(view.options)
    ruleset = get_ruleset(view.variant, options)
    shared = compiled(view.map, ruleset)
    b = shared.board
    game = Game(view.variant, ruleset, shared, list(view.players), rng.getrandbits(63),
                options)
    s = game.state
    n = len(view.players)
    me = view.seat
    idx = b.card_index

    # Public state.
    s.owner = list(view.owner_list)
    s.trains = list(view.trains_left)
    s.points = list(view.points)
    s.ledger = tuple(view.score_log)
    s.phase = view.phase
    s.current = view.current_seat
    s.first_seat = view.first_seat
    s.turn = view.turn
    s.final_turns_left = view.final_turns_left if view.final_turns_left is not None else -1
    s.passes = view.passes
    s.pipeline = [(o, name, dict(d)) for o, name, d in view.pipeline]
    paid = [()] * b.n_routes
    for rid, cards in view.route_payments.items():
        paid[b.route_index[rid]] = tuple(cards)
    s.route_paid = tuple(paid)
    s.ticket_log = tuple(view.ticket_draws)
    s.known = [[0] * b.n_cards for _ in range(n)]
    for seat, known in enumerate(view.known_cards):
        for name, k in known.items():
            s.known[seat][idx[name]] = k
    s.face_up = [idx[c] if c is not None else -1 for c in view.face_up]
    s.discard = []
    for name, k in view.discard_pile.items():
        s.discard.extend([idx[name]] * k)

    # Module state first: modules may hold cards aside (tunnel reveals).
    for module in shared.modules:
        if module.state_type is not None or module.overrides("determinize"):
            module.determinize(game.ctx, view, rng)
    held = [c for m in shared.hooks["held_cards"] for c in m.held_cards(game.ctx)]

    # Train cards: everything not seen is shuffled into other hands and the deck.
    pool: dict[int, int] = {idx[k]: v for k, v in ruleset.deck_composition(n).items()}

    def take(card: int, k: int = 1) -> None:
        pool[card] -= k
        if pool[card] < 0:
            raise ValueError("the view shows more cards than the game has")

    s.hands = [[0] * b.n_cards for _ in range(n)]
    for name, k in view.hand.items():
        if k:
            take(idx[name], k)
            s.hands[me][idx[name]] = k
    for c in s.face_up + s.discard + held:
        if c >= 0:
            take(c)
    for seat in range(n):
        if seat == me:
            continue
        for c, k in enumerate(s.known[seat]):
            if k:
                take(c, k)
                s.hands[seat][c] += k
    # Kinds redealt at setup (Legacy's newspapers) never stay in a hand: they go to the deck.
    never_held = b.setup_redeal
    unseen = [c for c, k in pool.items() for _ in range(k) if c not in never_held]
    rng.shuffle(unseen)
    for seat in range(n):
        if seat == me:
            continue
        missing = view.hand_sizes[seat] - sum(s.hands[seat])
        for _ in range(missing):
            s.hands[seat][unseen.pop()] += 1
    if never_held:
        unseen.extend(c for c, k in pool.items() for _ in range(k) if c in never_held)
        rng.shuffle(unseen)
    if len(unseen) != view.deck_size:
        raise ValueError("the view's card counts do not add up")
    s.deck = unseen

    # Tickets: own ones exact; decks, other seats and the box sampled.
    s.tickets = [[] for _ in range(n)]
    s.pending = [[] for _ in range(n)]
    s.tickets[me] = [b.ticket_index[t.id] for t in view.tickets]
    s.pending[me] = [b.ticket_index[t.id] for t in view.pending_tickets]
    known_t = set(s.tickets[me]) | set(s.pending[me])
    free = [t for t in range(len(b.tickets)) if t not in known_t]
    rng.shuffle(free)
    sizes = {deck: view.ticket_deck_sizes.get(deck, 0) for deck in ruleset.ticket_decks}
    # How many unseen tickets of each deck may be away from it (held or boxed).
    spare = {deck: -size for deck, size in sizes.items()}
    for t in free:
        spare[b.t_deck[t]] += 1
    for deck, k in spare.items():
        if k < 0:
            raise ValueError(f"not enough unseen {deck} tickets for the deck")
    # The other seats' tickets first, where the weight says they are likely, and the
    # decks from the rest: drawn the other way round, the decks would take nearly every
    # unseen ticket at random and leave the weight almost nothing to choose from.
    for seat in range(n):
        if seat == me:
            continue
        known_w: dict[int, float] = {}
        for target, count in ((s.tickets[seat], view.ticket_counts[seat]),
                              (s.pending[seat], view.pending_counts[seat])):
            for _ in range(count):
                pick = _pick(free, seat, b.tickets, ticket_weight, rng, spare, b.t_deck,
                             known_w)
                spare[b.t_deck[pick]] -= 1
                target.append(pick)
    s.ticket_decks = {}
    for deck, size in sizes.items():
        pile = [t for t in free if b.t_deck[t] == deck][:size]
        chosen = set(pile)
        free = [t for t in free if t not in chosen]
        s.ticket_decks[deck] = pile
    s.boxed_tickets = free
    s.held_returns = []
    game._ev = []
    return game


def _pick(free: list[int], seat: int, tickets, weight: TicketWeight | None,
          rng: random.Random, spare: dict[str, int], t_deck: list[str],
          known: dict[int, float] | None = None) -> int:
    """Take one ticket from ``free`` for ``seat`` (weighted when a weight function is
    given), never one its deck still needs (``spare``). ``known`` keeps the seat's
    weights by ticket index between its picks (a weight is asked once per seat and
    ticket in a sample)."""
    ok = [i for i, t in enumerate(free) if spare[t_deck[t]] > 0]
    if not ok:
        raise ValueError("not enough unseen tickets for the other seats")
    if weight is None:
        return free.pop(ok[-1])
    if known is None:
        known = {}
    weights = []
    for i in ok:
        t = free[i]
        w = known.get(t)
        if w is None:
            w = known[t] = max(0.0, weight(seat, tickets[t]))
        weights.append(w)
    total = sum(weights)
    if total <= 0:
        return free.pop(ok[-1])
    x = rng.random() * total
    for i, w in zip(ok, weights):
        x -= w
        if x <= 0:
            return free.pop(i)
    return free.pop(ok[-1])
