"""Scenario helpers: build positions through the engine's ``Scenario``.

Every helper is a step of ``ttr_desktop.rules.scenario.Scenario`` (see there): the
physical components stay conserved — cards moved into a hand, the display or on
top of the deck are taken from the deck or the discard pile (never created), and
tickets move between decks, hands and the box — so ``game.total_cards()`` stays
110 and the ticket count stays the map's total; points move on the score track
with a reason; the game gets a new version, so no cached legal action is stale.
No test writes into ``game.state`` itself (``test_tests_build_positions_through_
the_scenario`` checks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ttr_desktop.rules import new_game
from ttr_desktop.rules.scenario import Scenario
from ttr_desktop.rules.state import Phase

LOCO = "locomotive"


def refresh(game) -> None:
    """Tell the engine a module's state was changed by hand (``Scenario.done``)."""
    Scenario(game).done()


def scenario(game) -> Scenario:
    """The position builder for ``game``."""
    return Scenario(game)


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


def set_hand(game, seat: int, **counts: int) -> None:
    """Give ``seat`` exactly these cards, e.g. ``set_hand(g, 0, red=3, locomotive=1)``.

    The old hand goes under the deck; the new cards come out of the deck or discard.
    """
    Scenario(game).hand(seat, **counts)


def stack_deck(game, cards: list[str]) -> None:
    """Put ``cards`` on top of the deck, the first listed on top (drawn first)."""
    Scenario(game).deck_top(cards)


def set_face_up(game, cards: list[str | None]) -> None:
    """Lay out exactly this display (None = empty slot); the old display goes under the deck."""
    Scenario(game).face_up(cards)


def set_discard(game, cards: list[str]) -> None:
    """Make the discard pile exactly ``cards`` (the old discard goes under the deck)."""
    Scenario(game).discard(cards)


def empty_deck_and_discard(game, keep_in_deck: list[str] = (), keep_in_discard: list[str] = (),
                           into_seat: int | None = None) -> None:
    """Empty the deck and the discard pile (except the listed cards, deck top first).

    The removed cards go into the hand of ``into_seat`` (the last seat by default),
    so every card is still accounted for.
    """
    Scenario(game).empty_deck(keep_in_deck, keep_in_discard, into_seat)


def route(game, route_id: str):
    """The map route ``route_id``."""
    return game.map.routes[route_id]


def give_route(game, seat: int, route_id: str) -> None:
    """Let ``seat`` own ``route_id`` as if claimed: trains placed and points scored (no cards)."""
    Scenario(game).route(seat, route_id)


def set_trains(game, seat: int, trains: int) -> None:
    """Set the trains ``seat`` has left."""
    Scenario(game).trains(seat, trains)


def set_tickets(game, seat: int, ticket_ids: list[str]) -> None:
    """Make ``seat``'s kept tickets exactly ``ticket_ids`` (old ones go under their deck)."""
    Scenario(game).tickets(seat, ticket_ids)


def stack_tickets(game, ticket_ids: list[str], deck: str = "regular") -> None:
    """Put these tickets on top of the ticket deck ``deck``, the first listed on top."""
    Scenario(game).ticket_deck_top(ticket_ids, deck)


def leave_tickets_in_deck(game, n: int, deck: str = "regular") -> None:
    """Box every ticket of ``deck`` except the top ``n``."""
    Scenario(game).ticket_deck_size(n, deck)


def add_points(game, seat: int, amount: int, reason: str = "event", ref: str = "test") -> None:
    """Move ``seat`` on the score track (``reason``: the part of the score it counts in)."""
    Scenario(game).score(seat, amount, reason, ref)


def set_module(game, name: str, **values) -> None:
    """Set fields of rule module ``name``'s state (``Scenario.module``)."""
    Scenario(game).module(name, **values)


def ticket_ids(game, indices: Iterable[int]) -> list[str]:
    """Ticket ids for ticket indices."""
    return [game.board.ticket_ids[t] for t in indices]


def skip_setup(game) -> None:
    """Every seat keeps all of its initial ticket offers (through the engine)."""
    Scenario(game).keep_initial_tickets()


def set_current(game, seat: int, phase: str = Phase.TURN) -> None:
    """Make it ``seat``'s turn (start of a turn, or the decision ``phase``)."""
    Scenario(game).turn(seat, phase)


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
    Scenario(game).module("stations", city={c: seat}, left={seat: data.left[seat] - 1})


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
