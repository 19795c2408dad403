"""Hard near the end of the game with a hand its plan cannot use: cards left in hand at
the end score nothing, so it turns the cards its plan does not take into route points
rather than drawing on; its rollouts (the games it plays out to weigh its moves) do the
same for every seat; and at a bigger table the end comes sooner in each seat's turns.
"""

from __future__ import annotations

import random

from ttr_desktop.bots import make_bot
from ttr_desktop.bots import greedy
from ttr_desktop.bots.hard import HardBot
from ttr_desktop.bots.rollout import RolloutPolicy
from ttr_desktop.rules.scenario import Scenario

#: Seattle-New York: with these routes its own, only Helena-Seattle (yellow 6) is left
#: to build. Duluth-Toronto is pink and 6 long (15 points), off the ticket's path.
TICKET = "seattle-new-york"
BUILT = ("helena-omaha", "chicago-omaha", "chicago-pittsburgh-1", "new-york-pittsburgh-1")


def position(players: int, own_trains: int, opponent_trains, built=BUILT, **hand: int):
    """Seat 0 of a USA game to play, holding ``hand``, its ticket, the ``built`` routes
    and ``own_trains`` trains; the other seats at ``opponent_trains`` (one number each,
    or one for all)."""
    sc = Scenario.start("usa", players=players, seed=3)
    sc.tickets(0, [TICKET]).hand(0, **hand)
    for route_id in built:
        sc.route(0, route_id)
    sc.trains(0, own_trains)
    if isinstance(opponent_trains, int):
        opponent_trains = [opponent_trains] * (players - 1)
    for seat, n in enumerate(opponent_trains, start=1):
        sc.trains(seat, n)
    sc.turn(0)
    return sc.game


#: Two yellow cards for the 6-train route its ticket still needs, and twenty others.
HOARD = {"yellow": 2, "pink": 6, "black": 4, "red": 3, "blue": 3, "green": 2, "white": 2}


#: The ways left to Seattle from Helena: Helena-Seattle, or by Calgary (4 and 4, gray).
WAYS_TO_SEATTLE = {"helena-seattle", "calgary-helena", "calgary-seattle"}


def test_hard_still_works_on_its_ticket_while_the_end_is_far():
    # Not Duluth-Toronto for its points: it draws toward its ticket, or (with 30 trains
    # and four yellow cards to wait for) builds the way by Calgary that its hand pays for.
    game = position(3, 30, 30, **HOARD)
    choice = HardBot(seed=1, rounds=12).choose(game.view(0), game.legal_actions())
    assert choice.kind in ("draw_face_up", "draw_blind", "claim_route")
    if choice.kind == "claim_route":
        assert choice.route_id in WAYS_TO_SEATTLE


def test_rollouts_spend_spare_cards_when_the_end_comes_before_the_ticket_is_built():
    # The game Hard plays out from its own sample: seat 0 holds the pink cards its plan
    # never uses and is four yellow cards short; the others are 5 trains from the end.
    game = position(3, 30, 5, **HOARD)
    policy = RolloutPolicy(game, random.Random(1))
    choice = policy.choose(game)
    assert choice.kind == "claim_route"
    assert choice.route_id == "duluth-toronto"


def test_rollouts_keep_collecting_while_the_end_is_far():
    game = position(3, 30, 30, **HOARD)
    choice = RolloutPolicy(game, random.Random(1)).choose(game)
    assert choice.kind in ("draw_face_up", "draw_blind")


def test_the_end_comes_sooner_in_each_seats_turns_at_a_bigger_table():
    # One opponent 8 trains from the end: this turn, about two of its turns, the final one.
    assert greedy.turns_left((30, 8), 0) == 3
    # Three opponents each 8 trains from it: any of them may end the game first.
    assert greedy.turns_left((30, 8, 8, 8), 0) < 3
    # Opponents far behind the closest change little.
    assert greedy.turns_left((30, 8, 40, 40), 0) == 3
    # The last round: this turn is the last.
    assert greedy.turns_left((30, 2, 20), 0) == 1


#: Helena-Seattle (yellow 6) and Chicago-Pittsburgh (3) left: one yellow and one black card
#: short, so two claims and a turn of drawing. Six pink cards the plan never uses.
TWO_LEFT = ("helena-omaha", "chicago-omaha", "new-york-pittsburgh-1")


def test_normal_at_a_bigger_table_spends_spare_cards_where_against_one_opponent_it_collects():
    hand = {"yellow": 5, "black": 2, "orange": 0, "pink": 6}
    # Against one opponent 8 trains from the end, three turns remain: enough.
    game = position(2, 30, 8, built=TWO_LEFT, **hand)
    choice = make_bot("greedy", seed=1).choose(game.view(0), game.legal_actions())
    assert choice.kind in ("draw_face_up", "draw_blind")
    # Against three, any of whom may end it, they do not: the pink cards score instead.
    game = position(4, 30, 8, built=TWO_LEFT, **hand)
    choice = make_bot("greedy", seed=1).choose(game.view(0), game.legal_actions())
    assert choice.kind == "claim_route"
    assert choice.route_id == "duluth-toronto"


def test_hard_at_three_players_spends_spare_cards_once_both_others_near_the_end():
    # Two routes and a turn of drawing left for its ticket; both others 8 trains from the
    # end, either of whom may end the game: too late for the ticket, so the pink cards it
    # never needs score 15 points now rather than rot in its hand.
    hand = {"yellow": 5, "black": 2, "orange": 0, "pink": 6}
    game = position(3, 30, 8, built=TWO_LEFT, **hand)
    choice = HardBot(seed=1, rounds=12).choose(game.view(0), game.legal_actions())
    assert choice.kind == "claim_route"
    assert choice.route_id == "duluth-toronto"


def test_the_end_is_in_sight_sooner_in_trains_when_two_others_race_to_it():
    # Its ticket still needs all six yellow cards of Helena-Seattle: a claim and three turns
    # of drawing. One opponent 12 trains from the end leaves time enough to try.
    hand = {"pink": 6, "black": 2}
    game = position(2, 30, 12, **hand)
    choice = make_bot("greedy", seed=1).choose(game.view(0), game.legal_actions())
    assert choice.kind in ("draw_face_up", "draw_blind")
    # Two of them at 12, either of whom may end it first: the pink cards score now.
    game = position(3, 30, 12, **hand)
    choice = make_bot("greedy", seed=1).choose(game.view(0), game.legal_actions())
    assert choice.kind == "claim_route"
    assert choice.route_id == "duluth-toronto"
