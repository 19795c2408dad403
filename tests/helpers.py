"""Scenario helpers: set up positions by writing into ``game.state`` directly.

Every helper keeps the physical components conserved: cards moved into a hand,
the display or the top of the deck are taken from the deck or the discard
pile (never created), and tickets are moved between decks, hands and the box.
So ``game.total_cards()`` stays 110 and the ticket count stays the map's total.
Each helper ends with ``refresh(game)`` so the legal-action cache is rebuilt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ttr_desktop.rules import KeepTickets, new_game
from ttr_desktop.rules.state import Phase

LOCO = "locomotive"


def refresh(game) -> None:
    """Tell the engine its state was edited (the legal-action cache is per version)."""
    game._version += 1


def card_index(game, name: str) -> int:
    """The index of card ``name`` in hands, the deck and the display."""
    return game.board.card_index[name]


def card_name(game, index: int) -> str | None:
    """The name of card ``index`` (None for an empty display slot)."""
    return None if index < 0 else game.board.card_names[index]


def hand(game, seat: int) -> dict[str, int]:
    """``seat``'s hand as {card name: count}, without zero counts."""
    names = game.board.card_names
    return {names[i]: n for i, n in enumerate(game.state.hands[seat]) if n}


def face_up(game) -> list[str | None]:
    """The display as card names (None for an empty slot)."""
    return [card_name(game, c) for c in game.state.face_up]


def top_of_deck(game, n: int) -> list[str]:
    """The next ``n`` cards a blind draw would take, top first."""
    return [card_name(game, c) for c in reversed(game.state.deck[-n:])] if n else []


def _take(game, index: int, count: int = 1) -> None:
    """Remove ``count`` copies of card ``index`` from the deck (bottom first) or the discard."""
    s = game.state
    for _ in range(count):
        if index in s.deck:
            s.deck.remove(index)           # the lowest copy: far from the top
        elif index in s.discard:
            s.discard.remove(index)
        else:
            raise AssertionError(
                f"no {game.board.card_names[index]} card left in the deck or the discard")


def _to_deck_bottom(game, cards: Iterable[int]) -> None:
    game.state.deck[0:0] = list(cards)


def set_hand(game, seat: int, **counts: int) -> None:
    """Give ``seat`` exactly these cards, e.g. ``set_hand(g, 0, red=3, locomotive=1)``.

    The old hand goes under the deck; the new cards come out of the deck or discard.
    """
    s = game.state
    old = s.hands[seat]
    _to_deck_bottom(game, [c for c, n in enumerate(old) for _ in range(n)])
    s.hands[seat] = [0] * len(old)
    for name, n in counts.items():
        i = card_index(game, name)
        _take(game, i, n)
        s.hands[seat][i] += n
    refresh(game)


def stack_deck(game, cards: list[str]) -> None:
    """Put ``cards`` on top of the deck, the first listed on top (drawn first)."""
    s = game.state
    idx = [card_index(game, name) for name in cards]
    for i in idx:
        _take(game, i)
    s.deck.extend(reversed(idx))
    refresh(game)


def set_face_up(game, cards: list[str | None]) -> None:
    """Lay out exactly this display (None = empty slot); the old display goes under the deck."""
    s = game.state
    _to_deck_bottom(game, [c for c in s.face_up if c >= 0])
    s.face_up = [-1] * len(cards)
    for slot, name in enumerate(cards):
        if name is not None:
            i = card_index(game, name)
            _take(game, i)
            s.face_up[slot] = i
    refresh(game)


def set_discard(game, cards: list[str]) -> None:
    """Make the discard pile exactly ``cards`` (the old discard goes under the deck)."""
    s = game.state
    _to_deck_bottom(game, s.discard)
    s.discard = []
    idx = [card_index(game, name) for name in cards]
    for i in idx:
        _take(game, i)
    s.discard = idx
    refresh(game)


def empty_deck_and_discard(game, keep_in_deck: list[str] = (), keep_in_discard: list[str] = (),
                           into_seat: int | None = None) -> None:
    """Empty the deck and the discard pile (except the listed cards, deck top first).

    The removed cards go into the hand of ``into_seat`` (the last seat by default),
    so every card is still accounted for.
    """
    s = game.state
    seat = game.num_players - 1 if into_seat is None else into_seat
    deck_keep = [card_index(game, n) for n in keep_in_deck]
    discard_keep = [card_index(game, n) for n in keep_in_discard]
    pool = s.deck + s.discard
    s.deck, s.discard = [], []
    for i in deck_keep + discard_keep:
        pool.remove(i)
    for i in pool:
        s.hands[seat][i] += 1
    s.deck = list(reversed(deck_keep))
    s.discard = discard_keep
    refresh(game)


def route(game, route_id: str):
    """The map route ``route_id``."""
    return game.map.routes[route_id]


def give_route(game, seat: int, route_id: str) -> None:
    """Let ``seat`` own ``route_id`` as if claimed: trains placed and points scored (no cards)."""
    s, b = game.state, game.board
    r = b.route_index[route_id]
    assert s.owner[r] == -1, f"{route_id} is already owned"
    s.owner[r] = seat
    s.trains[seat] -= b.r_len[r]
    s.points[seat] += b.r_points[r]
    s.ledger += ((seat, b.r_points[r], "route", route_id),)
    s.route_paid = s.route_paid[:r] + ((),) + s.route_paid[r + 1:]   # replaced, as by a claim
    refresh(game)


def set_trains(game, seat: int, trains: int) -> None:
    """Set the trains ``seat`` has left."""
    game.state.trains[seat] = trains
    refresh(game)


def _pull_ticket(game, index: int) -> None:
    s = game.state
    for deck in s.ticket_decks.values():
        if index in deck:
            deck.remove(index)
            return
    for lists in (s.tickets, s.pending):
        for held in lists:
            if index in held:
                held.remove(index)
                return
    if index in s.boxed_tickets:
        s.boxed_tickets.remove(index)
        return
    raise AssertionError(f"ticket {game.board.ticket_ids[index]} is nowhere")


def set_tickets(game, seat: int, ticket_ids: list[str]) -> None:
    """Make ``seat``'s kept tickets exactly ``ticket_ids`` (old ones go under their deck)."""
    s, b = game.state, game.board
    old = s.tickets[seat]
    s.tickets[seat] = []
    for t in old:
        s.ticket_decks[b.t_deck[t]].insert(0, t)
    for tid in ticket_ids:
        t = b.ticket_index[tid]
        _pull_ticket(game, t)
        s.tickets[seat].append(t)
    refresh(game)


def stack_tickets(game, ticket_ids: list[str], deck: str = "regular") -> None:
    """Put these tickets on top of the ticket deck ``deck``, the first listed on top."""
    s, b = game.state, game.board
    idx = [b.ticket_index[t] for t in ticket_ids]
    for t in idx:
        _pull_ticket(game, t)
    s.ticket_decks[deck].extend(reversed(idx))
    refresh(game)


def leave_tickets_in_deck(game, n: int, deck: str = "regular") -> None:
    """Box every ticket of ``deck`` except the top ``n``."""
    s = game.state
    d = s.ticket_decks[deck]
    keep = d[len(d) - n:] if n else []
    s.boxed_tickets.extend(d[:len(d) - n])
    s.ticket_decks[deck] = keep
    refresh(game)


def ticket_ids(game, indices: Iterable[int]) -> list[str]:
    """Ticket ids for ticket indices."""
    return [game.board.ticket_ids[t] for t in indices]


def skip_setup(game) -> None:
    """Every seat keeps all of its initial ticket offers (through the engine)."""
    while game.phase == Phase.CHOOSE_INITIAL_TICKETS:
        pending = ticket_ids(game, game.state.pending[game.current_seat])
        game.apply(KeepTickets(tuple(pending), ()))


def set_current(game, seat: int) -> None:
    """Make it ``seat``'s turn (start of a turn)."""
    game.state.current = seat
    game.state.phase = Phase.TURN
    refresh(game)


def started(variant: str = "usa", players: int = 2, seed: int = 1, **options):
    """A new game past the initial ticket choice, seat 0 to play."""
    game = new_game(variant, players, seed=seed, options=options or None)
    skip_setup(game)
    return game


def kinds(actions) -> Counter:
    """How many legal actions of each kind."""
    return Counter(a.kind for a in actions)


def claims(game, route_id: str) -> list:
    """The legal claim actions for ``route_id``."""
    return [a for a in game.legal_actions() if a.kind == "claim_route" and a.route_id == route_id]


def face_up_picks(game) -> list:
    """The legal face-up draw actions."""
    return [a for a in game.legal_actions() if a.kind == "draw_face_up"]


def event_kinds(events) -> list[str]:
    """The kinds of ``events`` in order."""
    return [e.kind for e in events]


def owned_routes(game, seat: int) -> list[str]:
    """Route ids ``seat`` owns."""
    b = game.board
    return [b.route_ids[r] for r, o in enumerate(game.state.owner) if o == seat]


def play_random(game, rng, max_steps: int = 5000) -> list:
    """Play random legal actions until the game ends; returns (seat, action, events) triples."""
    out = []
    for _ in range(max_steps):
        if game.is_over:
            break
        seat = game.current_seat
        action = rng.choice(game.legal_actions())
        out.append((seat, action, game.apply(action)))
    return out


def give_station(game, seat: int, city_id: str) -> None:
    """Let ``seat`` have built a station on ``city_id`` (no cards paid)."""
    data = game.state.ext["stations"]
    c = game.board.city_index[city_id]
    assert data.city[c] == -1, f"{city_id} already has a station"
    assert data.left[seat] > 0, "no station left"
    data.city[c] = seat
    data.left[seat] -= 1
    refresh(game)


def stations(game, kind: str = "build_station") -> list:
    """The legal build-station actions."""
    return [a for a in game.legal_actions() if a.kind == kind]


def disjoint_routes(game, lengths, avoid=()):
    """Unowned routes of these lengths sharing no city with each other or ``avoid``."""
    used = set()
    for rid in avoid:
        r = game.map.routes[rid]
        used |= {r.a, r.b}
    out = []
    for length in lengths:
        for r in game.map.routes.values():
            if (r.length == length and r.a not in used and r.b not in used
                    and game.state.owner[game.board.route_index[r.id]] < 0):
                out.append(r.id)
                used |= {r.a, r.b}
                break
        else:
            raise AssertionError(f"no free route of length {length}")
    return out
