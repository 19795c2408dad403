"""A game's review: each of a person's decisions next to what Hard would have done, judged
from that person's view only, with the costliest mistakes marked."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ttr_desktop.bots import make_bot
from ttr_desktop.bots.hard import HardBot
from ttr_desktop.bots.review import (
    costliest,
    count_decisions,
    decision_points,
    decision_seed,
    game_record,
    replay,
    review_decision,
    review_game,
    same_move,
)
from ttr_desktop.rules import new_game
from ttr_desktop.rules.actions import DrawBlind
from ttr_desktop.rules.determinize import determinize
from ttr_desktop.rules.family import families
from ttr_desktop.rules.scenario import Scenario
from ttr_desktop.rules.view import PlayerView


def _played(variant: str, moves: int, seed: int = 3, players: int = 2):
    """A game of Normal bots, ``moves`` actions in (or to its end)."""
    game = new_game(variant, players, seed=seed)
    bots = [make_bot("greedy", seed=seed + s) for s in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.current_seat
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game


def _last_turn_with_a_ticket_one_claim_away():
    """USA, two players: Bob has just ended his turn with 2 trains, so this is Ann's last
    turn. Ann holds Denver–El Paso (4 points), owns Denver–Santa Fe and holds the two
    cards Santa Fe–El Paso needs: claiming it finishes the ticket."""
    sc = Scenario.start("usa", players=["Ann", "Bob"], seed=5)
    sc.tickets(0, ["denver-el-paso"]).route(0, "denver-santa-fe")
    sc.hand(0, red=2).trains(0, 20).trains(1, 2).turn(1)
    game = sc.game
    bob = game.legal_actions()
    draw = next(a for a in bob if a.kind == "draw_blind")
    game.apply(draw)
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_blind"))
    assert game.current_seat == 0 and game.final_round
    return game


# What a decision costs ---------------------------------------------------------------------
def test_drawing_a_card_on_the_last_turn_instead_of_finishing_a_ticket_costs_points():
    game = _last_turn_with_a_ticket_one_claim_away()
    view, legal = game.view(0), game.legal_actions()
    d = review_decision(view, legal, DrawBlind(), rounds=4, seed=1)
    assert d.analysed and d.choices == len(legal) > 1
    assert d.suggested.kind == "claim_route" and d.suggested.route_id == "el-paso-santa-fe"
    assert "Santa Fe" in d.suggested_words and "El Paso" in d.suggested_words
    assert d.taken_words == "Draw a card from the deck"
    # The ticket's 4 points won instead of lost, and the route's 2: about 10 points of lead.
    assert d.cost is not None and d.cost >= 8
    assert d.suggested_lead > d.taken_lead


def test_playing_what_hard_plays_costs_nothing():
    game = _last_turn_with_a_ticket_one_claim_away()
    view, legal = game.view(0), game.legal_actions()
    best = review_decision(view, legal, DrawBlind(), rounds=4, seed=1).suggested
    d = review_decision(view, legal, best, rounds=4, seed=1)
    assert d.same and d.cost == 0.0


def test_a_decision_with_one_legal_action_is_listed_but_not_analysed():
    game = _last_turn_with_a_ticket_one_claim_away()
    view, legal = game.view(0), game.legal_actions()
    d = review_decision(view, legal[:1], legal[0], rounds=4)
    assert not d.analysed and d.cost is None and d.suggested is None
    assert d.choices == 1


def test_the_three_costliest_decisions_are_marked_and_noise_is_not_a_mistake():
    game = _last_turn_with_a_ticket_one_claim_away()
    view, legal = game.view(0), game.legal_actions()
    base = review_decision(view, legal, DrawBlind(), rounds=4, seed=1)
    decisions = []
    for k, (cost, se) in enumerate([(5.0, 1.0), (12.0, 2.0), (0.3, 0.1), (-4.0, 1.0),
                                    (7.0, 9.0), (3.0, 0.5), (2.0, 0.5)]):
        d = review_decision(view, legal, DrawBlind(), rounds=1, seed=1, index=k)
        d.suggested_lead, d.taken_lead, d.cost_se = cost, 0.0, se
        decisions.append(d)
    marked = costliest(decisions)
    assert [d.cost for d in marked] == [12.0, 5.0, 3.0]
    assert [d.mark for d in decisions] == [2, 1, None, None, None, 3, None]
    assert base.cost is not None


# Only what the person knew -----------------------------------------------------------------
def test_a_decision_is_judged_the_same_whatever_the_hidden_cards_and_tickets_are():
    # Two games that agree on everything Ann may know at her decision, and differ in what
    # she may not: Bob's hand and tickets, the deck order.
    real = _played("usa", 24, seed=11)
    while real.current_seat != 0 or real.phase != "turn":
        real.apply(make_bot("greedy", seed=3).choose(real.view(real.current_seat),
                                                     real.legal_actions()))
    other = determinize(real.view(0), random.Random(99))
    assert other.state.hands[1] != real.state.hands[1] or \
        other.state.tickets[1] != real.state.tickets[1] or other.state.deck != real.state.deck
    taken = real.legal_actions()[0]
    a = review_decision(real.view(0), real.legal_actions(), taken, rounds=4, seed=7)
    b = review_decision(other.view(0), other.legal_actions(), taken, rounds=4, seed=7)
    assert a == b and a.analysed


def test_every_decision_of_a_game_is_judged_the_same_whatever_was_hidden_then():
    # At each of Ann's decisions, a game that agrees with all she could know (and differs
    # in what she could not) gets the very review the real game got.
    game = _played("usa", 50, seed=13)
    record = game_record(game)
    review = review_game(record, 0, rounds=2)
    points = list(decision_points(record, 0))
    assert len(points) == len(review.decisions) > 10
    differed = 0
    for d, (index, view, legal, taken) in zip(review.decisions, points):
        twin = determinize(view, random.Random(index))
        differed += twin.state.hands[1] != _real_hand(record, index, 1)
        again = review_decision(twin.view(0), twin.legal_actions(), taken, rounds=2,
                                seed=decision_seed(index), index=index)
        assert again == replace(d, mark=None)     # marks rank a whole review
    assert differed > len(points) // 2      # Bob's hand was another in most of them


def _real_hand(record, index, seat):
    for i, game, _ in replay(record):
        if i == index:
            return list(game.state.hands[seat])
    return None


def test_the_review_hands_the_analyser_only_the_persons_view(monkeypatch):
    game = _played("europe", 30, seed=2, players=3)
    record = game_record(game)
    seen = []
    choose, evaluate = HardBot.choose, HardBot.evaluate

    def spy_choose(self, view, legal):
        seen.append(("choose", type(view), view.seat))
        return choose(self, view, legal)

    def spy_evaluate(self, view, actions, rounds):
        seen.append(("evaluate", type(view), view.seat))
        return evaluate(self, view, actions, rounds)

    monkeypatch.setattr(HardBot, "choose", spy_choose)
    monkeypatch.setattr(HardBot, "evaluate", spy_evaluate)
    review = review_game(record, 1, rounds=1)
    assert review.complete and review.decisions
    assert seen and {kind for kind, _, _ in seen} == {"choose", "evaluate"}
    assert all(t is PlayerView and seat == 1 for _, t, seat in seen)


def test_a_review_is_reproducible_and_lists_the_seats_moves_in_order():
    # Rounds, not seconds, and random numbers from each decision's place in the game (not
    # from the game's seed, which decides the hidden cards): the same figures every time.
    game = _played("usa", 12, seed=4)
    record = game_record(game)
    d = review_game(record, 0, rounds=2).decisions
    again = review_game(record, 0, rounds=2).decisions
    assert d == again
    assert [x.index for x in d] == [i for i, _ in enumerate(game.log)
                                   if _seat_of(record, i) == 0]


def _seat_of(record, index):
    for i, game, _ in replay(record):
        if i == index:
            return game.current_seat
    return None


# The evaluation is the search's own measure ------------------------------------------------
def test_evaluate_gives_the_search_its_own_values_for_the_same_seed():
    game = _played("usa", 20, seed=8)
    seat = game.current_seat
    view, legal = game.view(seat), game.legal_actions()
    searcher = HardBot(seed=5, rounds=5)       # too few rounds to drop any candidate
    searcher.choose(view, legal)
    values = searcher.last["values"]
    assert len(values) > 1
    judged = HardBot(seed=5, rounds=5).evaluate(view, list(values), 5)
    assert [e.value for e in judged] == pytest.approx(list(values.values()))
    assert all(e.rounds == 5 and len(e.margins) == 5 for e in judged)


def test_evaluating_moves_leaves_how_hard_plays_unchanged():
    game = _played("usa", 20, seed=8)
    seat = game.current_seat
    view, legal = game.view(seat), game.legal_actions()
    fresh = HardBot(seed=3, rounds=4).choose(view, legal)
    bot = HardBot(seed=3, rounds=4)
    assert bot.choose(view, legal) == fresh
    bot.evaluate(view, legal[:3], 2)
    assert HardBot(seed=3, rounds=4).choose(view, legal) == fresh


# Progress and cancel -----------------------------------------------------------------------
def test_progress_counts_every_decision_and_cancel_stops_between_decisions():
    game = _played("usa", 40, seed=6)
    record = game_record(game)
    total = count_decisions(record, 0)
    seen = []
    asked = []

    def cancelled():
        asked.append(len(seen))
        return len(seen) >= 4        # stop once 3 decisions are done

    review = review_game(record, 0, rounds=1, progress=lambda d, t: seen.append((d, t)),
                         cancelled=cancelled)
    assert seen[0] == (0, total)
    assert [d for d, _ in seen] == [0, 1, 2, 3]
    assert len(review.decisions) == 3 and not review.complete
    full = review_game(record, 0, rounds=1)
    assert full.complete and len(full.decisions) == total
    assert full.decisions[:3] == review.decisions


# Every family --------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", [f.ruleset.name for f in families()])
def test_a_short_game_of_every_family_can_be_reviewed(variant):
    game = _played(variant, 36, seed=2)
    record = game_record(game)
    review = review_game(record, 0, rounds=1)
    assert review.complete
    assert len(review.decisions) == count_decisions(record, 0) > 0
    for d in review.decisions:
        assert d.taken_words and d.round >= 1
        if d.choices > 1:
            assert d.analysed and d.suggested_words and d.cost is not None
        else:
            assert not d.analysed
    assert any(d.analysed for d in review.decisions)


# Steps inside a turn -------------------------------------------------------------------------
def test_a_tunnels_payment_is_a_decision_of_its_own_when_there_is_a_choice():
    # Ann claims Angora–Smyrna (a 3-space orange tunnel) with 3 orange; the tunnel turns
    # up 2 orange and a locomotive: pay 2 orange and the locomotive, or give the tunnel up.
    sc = Scenario.start("europe", players=["Ann", "Bob"], seed=5)
    sc.hand(0, orange=5, locomotive=1).deck_top(["orange", "orange", "locomotive"]).turn(0)
    game = sc.game
    game.apply(next(a for a in game.legal_actions() if a.kind == "claim_route"
                    and a.route_id == "angora-smyrna" and dict(a.cards) == {"orange": 3}))
    assert game.phase == "pay_tunnel"
    view, legal = game.view(0), game.legal_actions()
    give_up = next(a for a in legal if a.kind == "decline_tunnel")
    d = review_decision(view, legal, give_up, rounds=2, seed=3)
    assert d.analysed and d.phase == "pay_tunnel" and d.choices == 2
    assert d.taken_words == "Give up the tunnel"
    assert d.suggested in legal and d.cost is not None


def test_a_whole_game_lists_every_step_with_a_choice_and_analyses_it():
    game = _played("europe", 1000, seed=2)
    assert game.is_over
    review = review_game(game_record(game), 0, rounds=1)
    phases = {d.phase for d in review.decisions}
    assert {"choose_initial_tickets", "turn", "second_card", "pay_tunnel"} <= phases
    for d in review.decisions:
        assert d.analysed == (d.choices > 1)


def test_the_reviews_worker_process_starts_without_the_window_library():
    import subprocess
    import sys
    code = ("import sys, ttr_desktop.ui.scenes.review_worker, ttr_desktop.bots.review; "
            "print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_taking_the_same_colour_from_another_face_up_slot_is_the_same_move():
    # Ann's plan wants green (Hard takes one); two greens are showing.
    sc = Scenario.start("usa", players=["Ann", "Bob"], seed=5)
    sc.face_up(["green", "blue", "green", "red", "yellow"]).turn(0)
    game = sc.game
    view, legal = game.view(0), game.legal_actions()
    greens = [a for a in legal if a.kind == "draw_face_up" and a.card == "green"]
    assert len(greens) == 2 and greens[0] != greens[1]
    assert same_move(greens[0], greens[1])
    assert not same_move(greens[0], next(a for a in legal if a.kind == "draw_blind"))
    for taken in greens:         # either green: the same as Hard, nothing lost
        d = review_decision(view, legal, taken, rounds=4, seed=2)
        assert d.suggested.kind == "draw_face_up" and d.suggested.card == "green"
        assert d.same and d.cost == 0.0
