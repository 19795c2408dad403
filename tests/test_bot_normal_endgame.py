"""Normal near the end of the game: cards still in hand when the game ends score nothing.

When an opponent is a claim or two from ending the game and Normal's ticket plan cannot
be finished in the turns left, Normal turns the cards its plan does not need into route
points instead of drawing more; with a plan it can still finish, or a hand its plan can
still use every card of, it keeps building it.
"""

from __future__ import annotations

from ttr_desktop.bots import make_bot
from ttr_desktop.rules.scenario import Scenario

#: Seattle-New York: Normal plans Helena-Seattle (yellow 6), Helena-Omaha (red 5),
#: Chicago-Omaha (blue 4), Chicago-Pittsburgh (black or orange 3) and Pittsburgh-New York
#: (green or white 2). Pink pays for none of them, and Duluth-Toronto is pink and 6 long.
TICKET = "seattle-new-york"
BIG_HAND = {"pink": 6, "red": 4, "yellow": 5, "blue": 3, "black": 2, "green": 1}
BUILT = ("helena-omaha", "chicago-omaha", "chicago-pittsburgh-1", "new-york-pittsburgh-1")


def normal_choice(opponent_trains: int, built=(), tickets=(TICKET,), **hand: int):
    """Normal's move as seat 0 of a 2-player USA game with ``hand``, its ``tickets``, the
    ``built`` routes its own and the opponent down to ``opponent_trains`` trains."""
    sc = Scenario.start("usa", players=2, seed=3)
    sc.tickets(0, list(tickets)).hand(0, **hand).trains(1, opponent_trains)
    for route_id in built:
        sc.route(0, route_id)
    sc.turn(0)
    game = sc.game
    legal = game.legal_actions()
    choice = make_bot("greedy", seed=1).choose(game.view(0), legal)
    assert any(choice is a for a in legal)
    return choice


def test_normal_spends_its_spare_cards_when_the_game_ends_before_its_ticket_can_be_built():
    # Five routes still to claim (20 cards), none payable yet, 21 cards in hand and the
    # opponent at 5 trains: at most two more turns.
    choice = normal_choice(5, **BIG_HAND)
    assert choice.kind == "claim_route"
    assert choice.route_id == "duluth-toronto"       # 15 points for cards the plan never uses
    assert choice.cards == (("pink", 6),)


def test_normal_keeps_collecting_for_its_ticket_while_the_opponent_has_trains_to_spare():
    choice = normal_choice(30, **BIG_HAND)
    assert choice.kind in ("draw_face_up", "draw_blind")


def test_normal_still_draws_for_a_ticket_it_can_finish_before_the_end():
    # One route left, one yellow card short: a draw and a claim fit in the turns left.
    choice = normal_choice(5, built=BUILT, yellow=5, pink=6)
    assert choice.kind in ("draw_face_up", "draw_blind")
    # Four cards short it cannot: the pink cards become points instead.
    choice = normal_choice(5, built=BUILT, yellow=2, pink=6)
    assert choice.kind == "claim_route"
    assert choice.route_id == "duluth-toronto"


def test_normal_with_its_tickets_done_claims_what_its_hand_pays_as_the_game_ends():
    # Its ticket is built and only a 3-train route is payable: with the game about to
    # end, 4 points now beat waiting for a longer route that will never come.
    choice = normal_choice(5, built=BUILT + ("helena-seattle",), pink=3, white=1)
    assert choice.kind == "claim_route"
    assert choice.cards == (("pink", 3),)


def test_normal_keeps_a_hand_its_plan_can_still_use_every_card_of():
    # Seven cards against the twenty its five routes take: none is spare yet.
    choice = normal_choice(5, pink=6, red=1)
    assert choice.kind in ("draw_face_up", "draw_blind")
