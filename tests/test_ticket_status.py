"""A ticket finished through a station (rules.md §1.9, Europe §1.10) is finished everywhere.

During play a seat's stations count as borrowing what the final scoring would have them
borrow if the game ended now (the choice that scores its tickets best), so the ticket
panel, the hover path, the hint and the bots say what ``scores()`` says.
"""

import random

import pytest

from tests.helpers import set_hand, set_tickets, started
from ttr_desktop.bots.graph import Situation
from ttr_desktop.bots.greedy import GreedyBot, _Turn
from ttr_desktop.bots.hard import hint_reason
from ttr_desktop.rules import BuildStation, Phase
from ttr_desktop.ui.route_plan import best_path

#: (variant, options, ticket, my route, their route, the city of my station)
CASES = [
    ("usa", {"stations": True}, "denver-el-paso", "denver-santa-fe", "el-paso-santa-fe",
     "santa-fe"),
    ("europe", {}, "athina-angora", "athina-smyrna", "angora-smyrna", "smyrna"),
]


def claim_now(game, route_id):
    """The current seat claims ``route_id`` with plenty of cards (a tunnel is paid)."""
    seat = game.current_seat
    colour = game.map.routes[route_id].color
    set_hand(game, seat, **{"red" if colour == "gray" else colour: 6, "locomotive": 4})
    game.apply(game.payments_for(route_id)[0])
    while game.current_seat == seat and game.phase != Phase.TURN:
        pays = [a for a in game.legal_actions() if a.kind == "pay_tunnel"]
        game.apply(pays[0])
    assert game.view(0).route_owners[route_id] == seat


def through_a_station(variant, options, ticket, mine, theirs, city):
    """Seat 0 holds ``ticket``, claims ``mine``; seat 1 claims ``theirs``; seat 0 builds a
    station on ``city``: the ticket is done only by borrowing ``theirs``."""
    game = started(variant, 2, seed=5, **options)
    set_tickets(game, 0, [ticket])
    set_tickets(game, 1, [])
    claim_now(game, mine)
    claim_now(game, theirs)
    set_hand(game, 0, red=1)
    events = game.apply(BuildStation(city, (("red", 1),)))
    return game, events


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_ticket_done_through_a_station_is_done_for_the_score_view_panel_and_bots(case):
    variant, options, ticket, mine, theirs, city = case
    game, events = through_a_station(*case)
    score = game.scores()[0]
    assert [(t.id, t.done) for t in score.tickets] == [(ticket, True)]
    assert score.borrowed_routes == [theirs]
    # The engine tells the seat when the station finished it.
    assert any(e.kind == "ticket_completed" and e.seat == 0 and e.data["ticket"] == ticket
               for e in events)
    assert game.completed_tickets(0) == [ticket]
    view = game.view(0)
    assert view.completed_tickets == (ticket,)          # the ticket panel ticks it
    assert view.borrowed_routes == (theirs,)
    # The hover path runs over the borrowed route: nothing is left to build.
    t = view.tickets[0]
    path = best_path(view, t.a, t.b, t)
    assert theirs in path and set(path) <= {mine, theirs}
    # The bots: nothing left to plan for it, and no claim "finishes" it.
    sit = Situation(view)
    assert sit.connected(t.a, t.b)
    turn = _Turn(GreedyBot(seed=1), view, game.legal_actions())
    assert turn.open_tickets == []
    name = f"{game.map.place_name(t.a)}–{game.map.place_name(t.b)}"
    for action in game.legal_actions():
        if action.kind == "claim_route":
            assert name not in hint_reason(view, action)


def test_two_tickets_wanting_one_station_count_only_the_one_the_score_counts():
    """One station borrows one route for every ticket: the status takes the borrowing
    that scores best, so only one of the two tickets is shown done."""
    game = started("usa", 2, seed=5, stations=True)
    set_tickets(game, 0, ["denver-el-paso", "sault-st-marie-oklahoma-city"])
    set_tickets(game, 1, [])
    for mine, theirs in [("duluth-sault-st-marie", "el-paso-santa-fe"),
                         ("duluth-helena", "oklahoma-city-santa-fe"),
                         ("denver-helena", "el-paso-houston"),
                         ("denver-santa-fe", "el-paso-phoenix")]:
        claim_now(game, mine)
        claim_now(game, theirs)
    set_hand(game, 0, red=1)
    game.apply(BuildStation("santa-fe", (("red", 1),)))
    score = game.scores()[0]
    # Borrowing Oklahoma City–Santa Fe: +9 -4 beats El Paso–Santa Fe's +4 -9.
    assert {t.id: t.done for t in score.tickets} == {
        "denver-el-paso": False, "sault-st-marie-oklahoma-city": True}
    view = game.view(0)
    assert view.completed_tickets == ("sault-st-marie-oklahoma-city",)
    assert view.borrowed_routes == ("oklahoma-city-santa-fe",)
    turn = _Turn(GreedyBot(seed=1), view, game.legal_actions())
    assert [t.id for t in turn.open_tickets] == ["denver-el-paso"]


@pytest.mark.parametrize("variant,options", [("usa", {"stations": True}), ("europe", {})])
def test_in_random_games_every_ticket_status_agrees_with_the_score(variant, options):
    rng = random.Random(11)
    for seed in (1, 2):
        game = started(variant, 3, seed=seed, **options)
        steps = 0
        while not game.is_over and steps < 400:
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
            if steps % 20:
                continue
            scores = game.scores()
            for seat in range(3):
                view = game.view(seat)
                done = [t.id for t in scores[seat].tickets if t.done]
                assert list(view.completed_tickets) == done
                assert game.completed_tickets(seat) == done
                assert list(view.borrowed_routes) == scores[seat].borrowed_routes
