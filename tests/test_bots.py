"""Bots: legal choices in every phase, determinism, views only, and greedy's strength."""

from __future__ import annotations

import ast
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers import give_route, set_current, set_hand, set_tickets, set_trains, stack_deck, started

import ttr_desktop.bots as bots_pkg
from ttr_desktop.bots import BOTS, make_bot
from ttr_desktop.rules import new_game

BOTS_DIR = Path(bots_pkg.__file__).parent
CONFIGS = [("usa", 2, None), ("usa", 3, {"stations": True}), ("europe", 3, None),
           ("europe", 5, None)]


def play_game(variant, names, seed, options=None, check=None):
    """Play one game with the named bots (bot seeds follow the game seed); return the game."""
    game = new_game(variant, len(names), seed=seed, options=options)
    players = [make_bot(name, seed=seed * 10 + i) for i, name in enumerate(names)]
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        view = game.view(seat)
        action = players[seat].choose(view, legal)
        if check is not None:
            check(view, legal, action)
        game.apply(action)
    return game


def is_one_of(action, legal) -> bool:
    return any(action is a for a in legal)


# ----------------------------------------------------------------------
# The factory
def test_make_bot_knows_random_easy_greedy_and_hard_with_names_and_levels():
    for name in ("random", "easy", "greedy", "hard"):
        bot = make_bot(name, seed=3)
        assert bot.name == name
        assert isinstance(bot.level, int)
    assert make_bot("random").level < make_bot("easy").level < make_bot("greedy").level \
        < make_bot("hard").level
    assert list(BOTS) == ["random", "easy", "greedy", "hard"]


def test_only_a_searching_bot_takes_a_time_budget():
    assert make_bot("hard", seed=1, budget=0.25).budget == 0.25
    assert make_bot("greedy", seed=1, budget=0.25).name == "greedy"   # ignored
    with pytest.raises(ValueError, match="budget"):
        make_bot("hard", budget=0)


def test_easy_plays_real_games_between_random_and_greedy():
    """Easy keeps the fewest tickets and sometimes idles, but still plays the game."""
    from ttr_desktop.sim import run_tournament
    vs_random = run_tournament("usa", ["easy", "random"], games=20, seed=5)
    vs_greedy = run_tournament("usa", ["easy", "greedy"], games=20, seed=5)
    easy_r = next(b for b in vs_random["bots"] if b["name"] == "easy")
    easy_g = next(b for b in vs_greedy["bots"] if b["name"] == "easy")
    greedy = next(b for b in vs_greedy["bots"] if b["name"] == "greedy")
    assert easy_r["win_rate"] >= 0.9 and easy_r["mean_score"] > 60
    assert easy_g["mean_score"] < greedy["mean_score"]


def test_easy_draws_tickets_only_when_nothing_else_is_left_and_keeps_the_fewest():
    for seed in (9, 10, 11):
        game = new_game("usa", 2, seed=seed)
        bot = make_bot("easy", seed=seed)
        while not game.is_over:
            seat = game.current_seat
            legal = game.legal_actions()
            action = bot.choose(game.view(seat), legal)
            if action.kind == "draw_tickets":
                assert {a.kind for a in legal} <= {"draw_tickets", "build_station"}
            if action.kind == "keep_tickets":
                need = 2 if game.phase == "choose_initial_tickets" else 1
                assert len(action.tickets) == min(need, len(game.view(seat).pending_tickets))
            game.apply(action)


def test_unknown_bot_names_the_known_ones():
    with pytest.raises(ValueError, match="known: random, easy, greedy"):
        make_bot("grandmaster")


# ----------------------------------------------------------------------
# Legal choices
@pytest.mark.parametrize("variant,players,options", CONFIGS)
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bot_plays_whole_games_choosing_only_given_actions(name, variant, players, options):
    for seed in range(3):
        def check(view, legal, action):
            assert is_one_of(action, legal), f"{name} chose {action} in {view.phase}"
        game = play_game(variant, [name] * players, seed, options, check)
        assert game.is_over
        assert game.total_cards() == 110


@pytest.mark.parametrize("variant,players,options", CONFIGS)
def test_bots_answer_legally_in_every_phase_random_play_reaches(variant, players, options):
    """Random play drives the game; at every decision both bots must pick a given action."""
    bots = [make_bot("random", seed=1), make_bot("greedy", seed=1)]
    phases, kinds = set(), set()
    for seed in range(8):
        game = new_game(variant, players, seed=seed, options=options)
        driver = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            view = game.view(game.current_seat)
            for bot in bots:
                assert is_one_of(bot.choose(view, legal), legal), (bot.name, view.phase)
            phases.add(view.phase)
            kinds.update(a.kind for a in legal)
            game.apply(driver.choice(legal))
    expected = {"choose_initial_tickets", "turn", "second_card", "keep_tickets"}
    if variant == "europe":
        expected.add("pay_tunnel")
    assert expected <= phases
    if options or variant == "europe":
        assert "build_station" in kinds


def test_greedy_pays_a_tunnel_it_can_afford_keeping_locomotives():
    game = started("europe", 2, seed=4)
    set_current(game, 0)
    set_hand(game, 0, orange=5, locomotive=2)
    claim = next(a for a in game.legal_actions()
                 if a.kind == "claim_route" and a.route_id == "angora-smyrna"
                 and a.cards == (("orange", 3),))
    stack_deck(game, ["orange", "orange", "red"])
    game.apply(claim)
    assert game.phase == "pay_tunnel"
    legal = game.legal_actions()
    choice = make_bot("greedy", seed=1).choose(game.view(0), legal)
    assert choice.kind == "pay_tunnel"
    assert choice.cards == (("orange", 2),)
    assert is_one_of(choice, legal)


def test_greedy_gives_up_a_tunnel_it_cannot_pay():
    game = started("europe", 2, seed=4)
    set_current(game, 0)
    set_hand(game, 0, orange=3)
    claim = next(a for a in game.legal_actions()
                 if a.kind == "claim_route" and a.route_id == "angora-smyrna")
    stack_deck(game, ["orange", "locomotive", "red"])
    game.apply(claim)
    legal = game.legal_actions()
    assert [a.kind for a in legal] == ["decline_tunnel"]
    assert make_bot("greedy").choose(game.view(0), legal) is legal[0]


def test_greedy_builds_a_station_when_an_opponent_blocks_its_ticket():
    game = started("usa", 2, seed=2, stations=True)
    set_current(game, 0)
    set_tickets(game, 0, ["toronto-miami"])
    for route_id in ("atlanta-miami", "charleston-miami", "miami-new-orleans"):
        give_route(game, 1, route_id)
    set_hand(game, 0, pink=1)
    legal = game.legal_actions()
    choice = make_bot("greedy", seed=1).choose(game.view(0), legal)
    assert choice.kind == "build_station"
    assert choice.city_id in {"miami", "atlanta", "charleston", "new-orleans"}
    assert is_one_of(choice, legal)


def test_greedy_keeps_its_stations_when_no_ticket_is_blocked():
    game = started("usa", 2, seed=2, stations=True)
    set_current(game, 0)
    set_tickets(game, 0, ["toronto-miami"])
    set_hand(game, 0, pink=1)
    legal = game.legal_actions()
    assert any(a.kind == "build_station" for a in legal)
    assert make_bot("greedy", seed=1).choose(game.view(0), legal).kind != "build_station"


def test_greedy_claims_a_route_its_ticket_needs():
    game = started("usa", 2, seed=5)
    set_current(game, 0)
    set_tickets(game, 0, ["boston-miami"])
    set_hand(game, 0, yellow=2, red=2, locomotive=1)
    legal = game.legal_actions()
    choice = make_bot("greedy").choose(game.view(0), legal)
    # Boston-New York (2, yellow or red) is on every short path; keep the locomotive.
    assert choice.kind == "claim_route"
    assert choice.route_id.startswith("boston-new-york")
    assert ("locomotive", 1) not in choice.cards


def test_greedy_plans_fewer_longer_routes_when_they_cost_a_train_more():
    # Chicago-Santa Fe: by Saint Louis, Kansas City and Oklahoma City it is 9 trains in
    # 4 claims (10 route points); by Omaha and Denver, 10 trains in 3 claims (16 points).
    # A claim takes a turn: Normal plans the 3 claims.
    from ttr_desktop.bots.graph import Situation

    game = started("usa", 2, seed=5)
    set_tickets(game, 0, ["chicago-santa-fe"])
    view = game.view(0)
    plan = Situation(view).plan(view.tickets)
    ids = sorted(view.graph.route_ids[r] for r in plan.routes)
    assert ids == ["chicago-omaha", "denver-omaha", "denver-santa-fe"]
    assert plan.trains == 10


def _plan_ids(view, lean):
    from ttr_desktop.bots.graph import Situation

    plan = Situation(view, lean=lean).plan(view.tickets)
    return sorted(view.graph.route_ids[r] for r in plan.routes), plan.trains


def test_a_leaning_plan_runs_over_long_routes_that_cost_a_train_more():
    # Los Angeles-New York: by Phoenix, Denver and Kansas City the west half is 12 trains
    # for 21 route points; by El Paso (6 trains, 15 points) and Oklahoma City, 13 trains
    # for 27 points. Normal plans the first; leaning 0.8 toward points, the second.
    game = started("usa", 2, seed=5)
    set_tickets(game, 0, ["los-angeles-new-york"])
    view = game.view(0)
    plain, plain_trains = _plan_ids(view, 0.0)
    leaning, leaning_trains = _plan_ids(view, 0.8)
    assert {"los-angeles-phoenix", "denver-phoenix"} <= set(plain)
    assert {"el-paso-los-angeles", "el-paso-oklahoma-city"} <= set(leaning)
    assert leaning_trains == plain_trains + 1


def test_leaning_makes_only_routes_worth_more_than_a_point_a_train_cheaper():
    from ttr_desktop.bots.graph import LEAN_FLOOR, Situation

    game = started("usa", 2, seed=5)
    give_route(game, 1, "el-paso-houston")
    view = game.view(0)
    g = view.graph
    plain, leaning = Situation(view).cost, Situation(view, lean=5.0).cost
    for r, length in enumerate(g.r_len):
        if plain[r] is None:
            assert leaning[r] is None        # a taken route stays out of every plan
        elif length <= 2:
            assert leaning[r] == plain[r]    # 1 and 2 trains score a point a train
        else:
            # Cheaper, but never free: a cost of 0 is the seat's own route.
            assert LEAN_FLOOR <= leaning[r] < plain[r]
    assert leaning[g.route_index["el-paso-houston"]] is None


def test_normal_plans_by_trains_and_turns_and_hard_leans_toward_points():
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.hard import HardBot

    from ttr_desktop.bots.greedy import _Turn

    assert make_bot("greedy").route_lean == 0.0
    game = started("usa", 2, seed=5)
    set_current(game, 0)
    set_tickets(game, 0, ["los-angeles-new-york"])
    hard = HardBot(1, rounds=2)
    view, legal = game.view(0), game.legal_actions()
    hard.choose(view, legal)
    assert hard.greedy.route_lean == policy_for("usa").search_route_lean > 0.0

    def planned(bot):
        return {view.graph.route_ids[r] for r in _Turn(bot, view, legal).plan.routes}

    assert "el-paso-los-angeles" in planned(hard.greedy)
    assert "el-paso-los-angeles" not in planned(make_bot("greedy"))


def _two_ticket_plan(orders, lean=0.0):
    from ttr_desktop.bots.graph import Situation

    game = started("usa", 2, seed=5)
    set_tickets(game, 0, ["chicago-santa-fe", "denver-pittsburgh"])
    view = game.view(0)
    biggest_first = sorted(view.tickets, key=lambda t: (-t.points, t.id))
    plan = Situation(view, lean=lean, orders=orders).plan(biggest_first)
    return sorted(view.graph.route_ids[r] for r in plan.routes), plan


def test_planning_every_order_lets_the_second_ticket_share_the_first_ones_path():
    # Denver-Pittsburgh (11) planned first runs by Kansas City and Saint Louis, and
    # Chicago-Santa Fe (9) then needs Chicago-Saint Louis too: 15 trains. Planned after
    # Chicago-Santa Fe (by Omaha and Denver), Denver-Pittsburgh shares Denver-Omaha-Chicago
    # and adds Chicago-Pittsburgh: 13 trains for the same two tickets.
    biggest_first, plan = _two_ticket_plan(orders=False)
    assert "kansas-city-saint-louis-1" in biggest_first and plan.trains == 15
    shared, plan = _two_ticket_plan(orders=True)
    assert shared == ["chicago-omaha", "chicago-pittsburgh-1", "denver-omaha",
                      "denver-santa-fe"]
    assert plan.trains == 13 and not plan.dropped
    # Leaning toward points, biggest first wanders north by Helena, Duluth and Toronto.
    _, leaning = _two_ticket_plan(orders=False, lean=0.8)
    assert leaning.trains == 24
    assert _two_ticket_plan(orders=True, lean=0.8)[1].trains == 13


def test_planning_every_order_keeps_the_given_order_when_no_order_is_better():
    from ttr_desktop.bots.graph import ORDERED_TICKETS, Situation

    game = started("usa", 2, seed=5)
    # Two tickets on opposite coasts share nothing: the plan is the same in either order.
    set_tickets(game, 0, ["boston-miami", "portland-phoenix"])
    view = game.view(0)
    tickets = sorted(view.tickets, key=lambda t: (-t.points, t.id))
    plain = Situation(view).plan(tickets)
    ordered = Situation(view, orders=True).plan(tickets)
    assert ordered.routes == plain.routes and ordered.planned == plain.planned
    # More tickets than ORDERED_TICKETS are planned in the given order alone.
    many = sorted(view.map.tickets, key=lambda t: t.id)[:ORDERED_TICKETS + 1]
    assert Situation(view, orders=True).plan(many).routes == Situation(view).plan(many).routes


def test_normal_plans_the_biggest_ticket_first_and_hard_tries_every_order():
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.greedy import _Turn
    from ttr_desktop.bots.hard import HardBot

    assert make_bot("greedy").plan_orders is False
    game = started("usa", 2, seed=5)
    set_current(game, 0)
    set_tickets(game, 0, ["chicago-santa-fe", "denver-pittsburgh"])
    hard = HardBot(1, rounds=2)
    view, legal = game.view(0), game.legal_actions()
    hard.choose(view, legal)
    assert hard.greedy.plan_orders is policy_for("usa").search_plan_orders is True
    assert _Turn(hard.greedy, view, legal).plan.trains == 13
    assert policy_for("old-west").search_plan_orders is False
    # Legacy's, County Durham's and Märklin's Hard plan as the base families do (measured
    # at 3 and 4 players).
    for variant in ("legacy", "county-durham", "marklin"):
        assert policy_for(variant).search_plan_orders is True


def _tickets_built(trains, players=2):
    """Seat 0 of a USA game with its one ticket built and ``trains`` left."""
    game = started("usa", players, seed=5)
    set_current(game, 0)
    set_tickets(game, 0, ["denver-el-paso"])
    for route_id in ("denver-santa-fe", "el-paso-santa-fe"):
        give_route(game, 0, route_id)
    set_trains(game, 0, trains)
    set_hand(game, 0, red=1, blue=1)
    return game


def _normal_draws_tickets(game, bot=None) -> bool:
    legal = game.legal_actions()
    assert any(a.kind == "draw_tickets" for a in legal)
    bot = bot or make_bot("greedy", seed=1)
    return bot.choose(game.view(0), legal).kind == "draw_tickets"


def test_normal_draws_more_tickets_only_in_the_first_half_of_its_trains():
    # A ticket drawn late is mostly a loss: with its tickets built, Normal draws more
    # only with more than 25 of its 45 trains left (FamilyPolicy.ticket_draw_trains).
    assert _normal_draws_tickets(_tickets_built(26))
    assert not _normal_draws_tickets(_tickets_built(25))
    assert not _normal_draws_tickets(_tickets_built(25, players=3))


def test_normal_gambles_on_late_tickets_against_three_or_more_opponents():
    # With four seats the late draw wins more games than it loses: it draws down to 12.
    assert _normal_draws_tickets(_tickets_built(13, players=4))
    assert not _normal_draws_tickets(_tickets_built(12, players=4))


def test_a_familys_ticket_tempo_is_its_own(monkeypatch):
    from ttr_desktop.bots.families import FamilyPolicy

    monkeypatch.setattr(FamilyPolicy, "ticket_draw_trains_few", 12)
    assert _normal_draws_tickets(_tickets_built(25))


def test_hards_default_move_still_draws_late_tickets_for_its_search_to_weigh():
    from ttr_desktop.bots.hard import HardBot

    assert _normal_draws_tickets(_tickets_built(20), HardBot(1, rounds=1).greedy)


def test_normal_draws_its_extra_tickets_before_the_game_is_half_over():
    # Whole 2-player USA games: every extra ticket draw comes with more than 25 trains.
    draws = 0
    for seed in range(6):
        def check(view, legal, action):
            nonlocal draws
            if action.kind == "draw_tickets":
                draws += 1
                assert view.trains_left[view.seat] > 25, (seed, view.turn)
        play_game("usa", ["greedy", "greedy"], seed, check=check)
    assert draws > 0


def test_greedy_keeps_at_least_the_minimum_and_prefers_reachable_tickets():
    game = new_game("usa", 2, seed=11)
    bot = make_bot("greedy")
    legal = game.legal_actions()
    choice = bot.choose(game.view(game.current_seat), legal)
    assert choice.kind == "keep_tickets" and len(choice.tickets) >= 2
    assert is_one_of(choice, legal)


# ----------------------------------------------------------------------
# Determinism and isolation
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_same_seed_same_inputs_same_choices(name):
    def log_of(seed):
        game = play_game("europe", [name, name, name], seed)
        return [a.to_dict() for a in game.log]
    assert log_of(4) == log_of(4)


def test_random_bot_choices_follow_its_seed():
    game = new_game("usa", 2, seed=1)
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    legal = game.legal_actions()
    view = game.view(game.current_seat)
    first, again = make_bot("random", seed=7), make_bot("random", seed=7)
    assert [first.choose(view, legal) for _ in range(30)] == [
        again.choose(view, legal) for _ in range(30)]
    by_seed = {make_bot("random", seed=seed).choose(view, legal) for seed in range(20)}
    assert len(by_seed) > 1


def test_bots_leave_the_global_random_alone():
    random.seed(1234)
    before = random.getstate()
    play_game("usa", ["greedy", "random"], 3, {"stations": True})
    play_game("europe", ["greedy", "random", "greedy"], 3)
    assert random.getstate() == before


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_choose_needs_only_the_view(name):
    """The game's state can vanish after the view is taken: the bot never reads it."""
    for variant, players, options in CONFIGS:
        game = new_game(variant, players, seed=9, options=options)
        driver = random.Random(9)
        for _ in range(60):
            game.apply(driver.choice(game.legal_actions()))
        view, legal = game.view(game.current_seat), game.legal_actions()
        expected = make_bot(name, seed=2).choose(view, legal)
        game.state = None          # hand-edit-ok: the game is gone, only the view is left
        game.board = None
        assert make_bot(name, seed=2).choose(view, legal) is expected


def test_bots_code_never_imports_the_game_or_reads_view_internals():
    for path in BOTS_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "ttr_desktop.rules.game", path.name
                assert "Game" not in [a.name for a in node.names], path.name
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and "view" in node.value.id):
                assert not node.attr.startswith("_"), f"{path.name}: view.{node.attr}"


def test_bots_do_not_import_pygame():
    code = "import sys, ttr_desktop.bots; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# ----------------------------------------------------------------------
# Strength
def test_greedy_beats_random_in_two_player_usa_games():
    games = 60
    wins, scores = 0.0, []
    for i in range(games):
        names = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        seat = names.index("greedy")
        game = play_game("usa", names, 500 + i)
        winners = game.result().winners
        if seat in winners:
            wins += 1 / len(winners)
        scores.append(game.scores()[seat].total)
    assert wins / games >= 0.90
    assert statistics.fmean(scores) >= 80
