"""What a bot infers about the other seats' tickets: only from the public board, and
toward the tickets their routes build."""

from __future__ import annotations

import random

from ttr_desktop.bots.inference import ticket_weights
from ttr_desktop.rules import new_game
from ttr_desktop.rules.determinize import determinize
from tests.helpers import give_route, set_current, set_tickets, skip_setup


def _board_with_a_northwest_network():
    game = new_game("usa", 2, seed=3)
    skip_setup(game)
    set_current(game, 0)
    set_tickets(game, 1, ["los-angeles-new-york", "duluth-houston"])
    for rid in ("portland-seattle-1", "portland-san-francisco-1",
                "los-angeles-san-francisco-1"):
        give_route(game, 1, rid)
    return game


def _ticket(game, tid):
    return next(t for t in game.map.tickets if t.id == tid)


def test_a_ticket_the_seat_has_built_weighs_far_more_than_one_across_the_map():
    game = _board_with_a_northwest_network()
    weight = ticket_weights(game.view(0))
    built = weight(1, _ticket(game, "seattle-los-angeles"))  # Seattle–LA: built
    far = weight(1, _ticket(game, "boston-miami"))           # no route near it
    one_end = weight(1, _ticket(game, "seattle-new-york"))     # one end reached
    assert built > 10 * far
    assert far < one_end < built


def test_the_guess_reads_only_what_the_view_shows():
    game = _board_with_a_northwest_network()
    view = game.view(0)
    other = determinize(view, random.Random(4))   # other hidden tickets and hands
    assert other.state.tickets[1] != game.state.tickets[1]
    a, b = ticket_weights(view), ticket_weights(other.view(0))
    for t in game.map.tickets:
        assert a(1, t) == b(1, t)


def test_with_nothing_built_every_ticket_is_alike():
    game = new_game("usa", 3, seed=8)
    skip_setup(game)
    weight = ticket_weights(game.view(0))
    assert {weight(2, t) for t in game.map.tickets} == {1.0}
