"""The hint's reason is true of the position and names what the move serves.

Each test is a position where the reason given before was false: a card "the plan
needs" that no planned route takes, points "scored" that go to another seat's marker,
tickets said to be built while one is open, a station "using a blocking route" where
it finishes a ticket.
"""

import random

import pytest

from tests.helpers import (
    give_route, set_current, set_face_up, set_hand, set_tickets, skip_setup, started,
)
from ttr_desktop.bots import make_bot
from ttr_desktop.bots.hard import PLAYOUT_REASON, hint_reason
from ttr_desktop.rules import BuildStation, DrawFaceUp, DrawTickets, new_game


def denver_pittsburgh():
    """Seat 0 holds Denver–Pittsburgh with Omaha–Chicago–Pittsburgh built: only the pink
    Denver–Omaha is left to claim."""
    game = new_game("usa", 2, seed=3)
    skip_setup(game)
    set_current(game, 0)
    set_tickets(game, 0, ["denver-pittsburgh"])
    give_route(game, 0, "chicago-omaha")
    give_route(game, 0, "chicago-pittsburgh-1")
    return game


def test_a_face_up_card_no_planned_route_takes_is_not_called_needed():
    game = denver_pittsburgh()
    set_face_up(game, ["orange", "pink", "red", "blue", "black"])
    view = game.view(0)
    assert hint_reason(view, DrawFaceUp(0, "orange")) == PLAYOUT_REASON
    assert hint_reason(view, DrawFaceUp(1, "pink")) == "your plan needs pink: Denver–Omaha"


def test_drawing_tickets_with_one_still_open_does_not_say_they_are_done():
    game = denver_pittsburgh()
    view = game.view(0)
    reason = hint_reason(view, DrawTickets())
    assert "done" not in reason
    assert reason == ("your open tickets need about 4 trains of your "
                      f"{view.trains_left[0]} trains: the rest can build more")


def test_drawing_tickets_once_all_are_done_says_so():
    game = denver_pittsburgh()
    give_route(game, 0, "denver-omaha")
    view = game.view(0)
    assert hint_reason(view, DrawTickets()) == (
        f"1 ticket done and {view.trains_left[0]} trains left to build more")


def test_a_station_that_finishes_a_ticket_says_which_and_through_what():
    game = started("usa", 2, seed=5, stations=True)
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 1, "el-paso-santa-fe")
    set_hand(game, 0, red=1)
    reason = hint_reason(game.view(0), BuildStation("santa-fe", (("red", 1),)))
    assert reason == "it finishes Denver–El Paso by borrowing El Paso–Santa Fe"


def _old_west_claim_into_a_marker():
    """A position from bots' play where the current seat can claim a route into another
    seat's marked city (neither end its own)."""
    game = new_game("old-west", 3, seed=4)
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    for _ in range(400):
        view = game.view(game.current_seat)
        marks = view.extra.get("city_markers", {})
        if game.phase == "turn":
            for a in game.legal_actions():
                if a.kind != "claim_route":
                    continue
                r = game.map.routes[a.route_id]
                ends = [marks.get(r.a), marks.get(r.b)]
                if view.seat not in ends and any(o is not None for o in ends):
                    return game, view, a, next(o for o in ends if o is not None)
        game.apply(bots[game.current_seat].choose(view, game.legal_actions()))
    pytest.fail("no claim into a marked city came up")


def test_old_west_a_claim_into_another_marker_does_not_say_it_scores_for_you():
    game, view, claim, marker = _old_west_claim_into_a_marker()
    reason = hint_reason(view, claim)
    assert "it scores" not in reason
    assert f"{game.players[marker]}'s marker at" in reason
    # The engine agrees: the claimant's score does not move.
    before = game.view(view.seat).points[view.seat]
    game.apply(claim)
    assert game.view(view.seat).points[view.seat] == before


@pytest.mark.parametrize("variant,options", [
    ("usa", None), ("europe", None), ("usa", {"stations": True}), ("old-west", None),
    ("county-durham", None), ("marklin", None)])
def test_a_claim_said_to_finish_a_ticket_finishes_it_and_one_built_toward_stays_open(
        variant, options):
    game = new_game(variant, 2, seed=8, options=options)
    bots = [make_bot("greedy", seed=s) for s in range(2)]
    rng = random.Random(3)
    checked = 0
    for step in range(260):
        if game.is_over:
            break
        view = game.view(game.current_seat)
        legal = game.legal_actions()
        if game.phase == "turn" and step % 5 == 0:
            claims = [a for a in legal if a.kind == "claim_route"]
            for a in rng.sample(claims, min(6, len(claims))):
                reason = hint_reason(view, a)
                open_now = {t.id for t in view.tickets} - set(view.completed_tickets)
                names = {f"{game.map.place_name(t.a)}–{game.map.place_name(t.b)}": t.id
                         for t in view.tickets}
                for name, tid in names.items():
                    if f"it finishes {name}" in reason:
                        after = game.clone(random.Random(1))
                        after.apply(a)
                        while after.current_seat == view.seat and after.phase != "turn" \
                                and not after.is_over:
                            after.apply(after.legal_actions()[0])
                        assert tid in open_now
                        assert tid in after.completed_tickets(view.seat)
                        checked += 1
                    if f"it builds toward {name}" in reason:
                        assert tid in open_now
                        checked += 1
                assert reason
        game.apply(bots[game.current_seat].choose(view, legal))
    assert checked


def _until(game, kind, limit=600):
    """Bots play until an action of ``kind`` is legal; that view and its actions."""
    bots = [make_bot("greedy", seed=s) for s in range(game.num_players)]
    for _ in range(limit):
        legal = game.legal_actions()
        acts = [a for a in legal if a.kind == kind]
        if acts:
            return game.view(game.current_seat), acts
        game.apply(bots[game.current_seat].choose(game.view(game.current_seat), legal))
    pytest.fail(f"no {kind} came up")


def test_old_west_a_marker_hint_says_what_the_marker_takes():
    game = new_game("old-west", 2, seed=3)
    view, acts = _until(game, "place_city_marker")
    g = view.graph
    for a in acts:
        c = g.city_index[a.city_id]
        free = sum(1 for r, _ in g.adj[c] if view.owner_list[r] < 0)
        reason = hint_reason(view, a)
        assert reason.startswith(f"a marker on {game.map.cities[a.city_id].name} takes")
        assert f"{free} open route" in reason


def test_county_durham_a_coal_hint_counts_the_coal_against_the_others():
    game = new_game("county-durham", 2, seed=3)
    view, acts = _until(game, "take_coal")
    held = view.extra["coal"]["held"]
    mine, other = held[view.seat] + 1, held[1 - view.seat]
    where = ("the most" if mine > other else "level with the most" if mine == other
             else f"{other - mine} fewer than the most")
    assert hint_reason(view, acts[0]) == (
        f"you will hold {mine} coal, {where} (+10 at the end); 2 coal pay as 1 locomotive")
