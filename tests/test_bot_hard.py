"""The Hard bot: it sees only views, plays every family legally, is ahead of Normal,
and its hint reveals nothing hidden."""

from __future__ import annotations

import copy
import random

import pytest

from ttr_desktop.bots import make_bot
from ttr_desktop.bots.hard import HardBot, hint_reason
from ttr_desktop.bots.rollout import RolloutPolicy
from ttr_desktop.rules import new_game
from ttr_desktop.rules.determinize import determinize
from ttr_desktop.rules.game import Game
from ttr_desktop.rules.scenario import Scenario


def _advance(game: Game, moves: int, seed: int = 1) -> Game:
    bots = [make_bot("greedy", seed=seed + s) for s in range(game.num_players)]
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.current_seat
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game


class _Spy(Game):
    """Marks any attempt of a bot to read a real game."""


def test_hard_receives_only_a_view_and_never_a_game(monkeypatch):
    game = _advance(new_game("usa", 3, seed=4), 20)
    seat = game.current_seat
    view = game.view(seat)
    touched = []
    original = Game.legal_actions

    def watch(self, canonical=False):
        if self is game:
            touched.append("legal_actions")
        return original(self, canonical)

    monkeypatch.setattr(Game, "legal_actions", watch)
    legal = original(game)
    bot = HardBot(seed=1, rounds=3)
    choice = bot.choose(view, legal)
    assert choice in legal
    assert touched == []   # its rollouts ran on its own determinized games


def test_hard_decides_the_same_whatever_the_hidden_cards_and_tickets_are():
    # Two games that agree on everything seat 0 may know, and differ in what it may not.
    real = _advance(new_game("usa", 2, seed=11), 24)
    while real.current_seat != 0 or real.phase != "turn":
        real.apply(make_bot("greedy", seed=3).choose(real.view(real.current_seat),
                                                     real.legal_actions()))
    view = real.view(0)
    other = determinize(view, random.Random(99))
    assert other.state.hands[1] != real.state.hands[1] or \
        other.state.tickets[1] != real.state.tickets[1] or other.state.deck != real.state.deck
    a = HardBot(seed=5, rounds=4).choose(real.view(0), real.legal_actions())
    b = HardBot(seed=5, rounds=4).choose(other.view(0), other.legal_actions())
    assert a == b


def test_the_hint_reveals_nothing_hidden():
    real = _advance(new_game("europe", 3, seed=2), 30)
    seat = real.current_seat
    view = real.view(seat)
    other = determinize(view, random.Random(7))
    hints = []
    for game in (real, other):
        v = game.view(seat)
        action = HardBot(seed=2, rounds=3).choose(v, game.legal_actions())
        hints.append((action, hint_reason(v, action)))
    assert hints[0] == hints[1]
    assert hints[0][1]  # a reason in words


def test_a_hint_for_a_claim_says_which_ticket_it_finishes():
    from tests.helpers import give_route, set_hand, skip_setup, set_current, set_tickets

    game = new_game("usa", 2, seed=3)
    skip_setup(game)
    set_current(game, 0)
    set_tickets(game, 0, ["denver-pittsburgh"])
    give_route(game, 0, "chicago-omaha")
    give_route(game, 0, "chicago-pittsburgh-1")
    set_hand(game, 0, pink=4)
    view = game.view(0)
    claim = next(a for a in game.legal_actions()
                 if a.kind == "claim_route" and a.route_id == "denver-omaha")
    assert hint_reason(view, claim).startswith("it finishes Denver–Pittsburgh (11 points)")


CASES = [("usa", 2, {}), ("usa", 4, {}), ("usa", 3, {"stations": True}), ("europe", 3, {}),
         ("old-west", 2, {}), ("old-west", 5, {"alvin": True}), ("county-durham", 2, {}),
         ("marklin", 3, {}), ("legacy", 2, {}), ("legacy", 4, {})]


@pytest.mark.parametrize("variant,players,options", CASES,
                         ids=[f"{v}-{n}p{'-' + ','.join(o) if o else ''}" for v, n, o in CASES])
def test_hard_plays_legal_moves_to_the_end(variant, players, options):
    game = new_game(variant, players, seed=7, options=options or None)
    bots = [HardBot(seed=s, rounds=1) if s == 0 else make_bot("greedy", seed=s)
            for s in range(players)]
    steps = 0
    while not game.is_over and steps < 3000:
        seat = game.current_seat
        legal = game.legal_actions()
        action = bots[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(action)
        steps += 1
    assert game.is_over


def test_rollouts_play_every_family_to_the_end():
    for variant, players, options in CASES:
        game = _advance(new_game(variant, players, seed=3, options=options or None), 10)
        sample = determinize(game.view(game.current_seat), random.Random(1)).quiet()
        RolloutPolicy(sample, random.Random(2)).play_out(sample)
        assert sample.is_over, variant


def test_hard_is_ahead_of_normal_in_a_small_seat_rotated_match():
    # A statistical check with a margin, reproducible (a fixed number of rollout rounds
    # instead of the clock): over seat-rotated 2-player USA games, Hard wins at least
    # half and is ahead on points on average. (At 16 rounds a decision Hard wins about
    # three games in four against Normal; with fewer rounds it seldom overrides Normal.)
    wins = margin = 0
    games = 10
    for i in range(games):
        hard_seat = i % 2
        game = new_game("usa", 2, seed=200 + i)
        bots = [None, None]
        bots[hard_seat] = HardBot(seed=i, rounds=16)
        bots[1 - hard_seat] = make_bot("greedy", seed=i)
        while not game.is_over:
            seat = game.current_seat
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        totals = [s.total for s in game.scores()]
        wins += totals[hard_seat] > totals[1 - hard_seat]
        margin += totals[hard_seat] - totals[1 - hard_seat]
    assert wins >= games // 2
    assert margin > 0


def _drawing_tickets(variant: str, seed: int) -> Game:
    """A game whose current seat has just drawn tickets (before keeping any)."""
    game = _advance(new_game(variant, 2, seed=seed), 12)
    bot = make_bot("greedy", seed=seed)
    while not (game.phase == "turn" and any(a.kind == "draw_tickets"
                                              for a in game.legal_actions())):
        game.apply(bot.choose(game.view(game.current_seat), game.legal_actions()))
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_tickets"))
    return game


def _keep_in_rollout(game: Game, pending: list[str], trains: int) -> set[str]:
    seat = game.current_seat
    # nothing planned: every train is spare
    Scenario(game).offer(seat, pending).tickets(seat, []).trains(seat, trains)
    keeps = [a for a in game.legal_actions(canonical=True) if a.kind == "keep_tickets"]
    choice = RolloutPolicy(game, random.Random(1)).choose(game)
    assert choice in keeps
    return set(choice.tickets)


def test_a_rollout_keeps_only_the_drawn_tickets_its_trains_can_build():
    # Rollouts judge a ticket draw: with 6 trains, Denver–El Paso (4 trains) fits and the
    # two coast-to-coast tickets do not, so only it is kept.
    game = _drawing_tickets("usa", seed=21)
    kept = _keep_in_rollout(game, ["denver-el-paso", "seattle-new-york", "los-angeles-miami"],
                            trains=6)
    assert kept == {"denver-el-paso"}


def test_a_rollout_keeps_every_drawn_ticket_that_fits():
    game = _drawing_tickets("usa", seed=21)
    kept = _keep_in_rollout(game, ["denver-el-paso", "kansas-city-houston",
                                   "seattle-new-york"], trains=14)
    assert kept == {"denver-el-paso", "kansas-city-houston"}


def test_hard_weighs_drawing_tickets_a_few_claims_before_its_plan_is_built(monkeypatch):
    from ttr_desktop.bots.families import FamilyPolicy
    from ttr_desktop.bots.greedy import GreedyBot, _Turn

    # Its plan still needs 5 trains of its 30: Normal builds on, Hard also weighs a draw.
    game = _advance(new_game("usa", 2, seed=6), 49, seed=6)
    view, legal = game.view(game.current_seat), game.legal_actions()
    turn = _Turn(GreedyBot(1), view, legal)
    assert 0 < turn.plan.trains <= 6 and view.trains_left[view.seat] >= 20
    bot = HardBot(3, rounds=1)
    normal = bot.greedy.choose(view, legal)
    assert normal.kind != "draw_tickets"
    assert any(a.kind == "draw_tickets" for a in bot.candidates(view, legal, normal))
    # A family that waits until every ticket is built does not.
    monkeypatch.setattr(FamilyPolicy, "search_ticket_plan_left", 0)
    assert not any(a.kind == "draw_tickets" for a in bot.candidates(view, legal, normal))


def test_hard_weighs_a_late_ticket_draw_once_its_tickets_are_built():
    # Old West: every ticket built with 8 trains left. Normal's tempo draws no more
    # tickets so late; Hard weighs a draw (its rollouts keep only what 8 trains can still
    # join to its network), but not in the final round, when a new ticket can only fail.
    game = _advance(new_game("old-west", 3, seed=5), 60, seed=5)
    while not (game.phase == "turn" and any(a.kind == "draw_tickets"
                                              for a in game.legal_actions())):
        game = _advance(game, 1, seed=5)
    seat = game.current_seat
    Scenario(game).tickets(seat, []).trains(seat, 8)
    view, legal = game.view(seat), game.legal_actions()
    assert not view.final_round and any(a.kind == "draw_tickets" for a in legal)
    bot = HardBot(3, rounds=1)
    normal = bot.greedy.choose(view, legal)
    assert normal.kind != "draw_tickets"
    assert any(a.kind == "draw_tickets" for a in bot.candidates(view, legal, normal))
    last = copy.copy(view)
    last.final_round = True
    assert not any(a.kind == "draw_tickets" for a in bot.candidates(last, legal, normal))


def test_a_rollout_is_valued_by_the_margin_the_win_and_the_familys_share_of_own_points():
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.hard import WIN_BONUS, _value

    game = _advance(new_game("usa", 3, seed=4), 10_000, seed=4)
    assert game.is_over
    totals = [s.total for s in game.scores()]
    for me in range(3):
        margin = totals[me] - max(t for s, t in enumerate(totals) if s != me)
        bonus = WIN_BONUS if margin > 0 else WIN_BONUS / 2 if margin == 0 else 0.0
        assert _value(game, me) == margin + bonus
        assert _value(game, me, 0.5) == margin + bonus + 0.5 * totals[me]
    # Builders' maps share in their own points; families with their own scoring do not.
    assert policy_for("usa").search_points_weight > 0
    assert policy_for("old-west").search_points_weight == 0


def test_old_west_rollouts_buy_markers_from_their_own_plan():
    # The family's quick rollout choice: a marker decision without planning again, legal,
    # and weighed on the facts the seat's view shows (read from the game, not a view).
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.families.old_west import game_marker_facts, marker_facts

    policy = policy_for("old-west")
    bought = 0
    for seed in range(4):
        game = new_game("old-west", 2 + seed % 2, seed=seed)
        rollout = RolloutPolicy(game, random.Random(seed))
        seen = 0
        while not game.is_over:
            legal = game.legal_actions()
            if game.phase == "place_city_marker":
                choice = policy.rollout_choice(rollout, game, legal)
                assert choice in legal
                seat = game.current_seat
                assert game_marker_facts(game, seat) == marker_facts(game.view(seat))
                seen += 1
                bought += choice.kind == "place_city_marker"
            game.apply(rollout.choose(game))
        assert seen, seed
    assert bought        # markers were bought, not only declined


def _old_west_at_home_choice(seed: int) -> Game:
    game = new_game("old-west", 2, seed=seed)
    while game.phase != "choose_home_city":
        game = _advance(game, 1, seed)
    return game


def test_hard_searches_the_old_west_home_city_among_the_best_few():
    # Rules §4.2: every route grows from the home city, so the choice shapes the whole game.
    # Hard weighs Normal's choice against the next best homes by rollouts.
    from ttr_desktop.bots.families.old_west import HOME_CANDIDATES

    game = _old_west_at_home_choice(2)
    seat = game.current_seat
    view, legal = game.view(seat), game.legal_actions()
    bot = HardBot(seed=1, rounds=3)
    greedy = bot.greedy.choose(view, legal)
    cands = bot.candidates(view, legal, greedy)
    assert cands[0] == greedy
    assert 2 <= len(cands) <= HOME_CANDIDATES + 1
    assert all(a in legal and a.kind == "choose_home_city" for a in cands)
    assert bot.choose(view, legal) in cands
    assert bot.last["rounds"] == 3


def test_hard_searches_each_old_west_marker_choice():
    # Rules §4.3: after a claim a marker may go on either free end for a pair, or none; a
    # marked end takes the route points of every later claim there.
    game = _old_west_at_home_choice(3)
    while game.phase != "place_city_marker":
        game = _advance(game, 1, 3)
    view, legal = game.view(game.current_seat), game.legal_actions()
    bot = HardBot(seed=1, rounds=3)
    cands = bot.candidates(view, legal, bot.greedy.choose(view, legal))
    assert set(cands) == set(legal) and len(legal) >= 2
    assert bot.choose(view, legal) in legal and bot.last["rounds"] == 3


def test_an_old_west_rollout_starts_from_a_city_of_its_own_tickets():
    # A rollout seat's home is one of its tickets' cities (a home elsewhere only adds a
    # path to every ticket); Normal's survey of every city is too slow for a rollout.
    from ttr_desktop.bots.families import policy_for

    policy = policy_for("old-west")
    for seed in range(3):
        game = _old_west_at_home_choice(seed)
        seat = game.current_seat
        legal = game.legal_actions()
        choice = policy.rollout_choice(RolloutPolicy(game, random.Random(seed)), game, legal)
        assert choice in legal
        ends = {c for i in game.state.tickets[seat]
                for c in (game.map.tickets[i].a, game.map.tickets[i].b)}
        assert choice.city_id in ends


def test_a_legacy_rollout_runs_its_trains_down_to_the_table():
    # Legacy pays no route points; the trains-left table pays $16 for none left and $9 for
    # two (rules.md §3.5). With 3 trains and cards for anything, a rollout's last claim
    # uses all three trains, not whichever route comes first.
    game = _advance(new_game("legacy", 2, seed=5), 12)
    while game.phase != "turn":
        game = _advance(game, 1)
    seat = game.current_seat
    # every card left in the deck and the discard pile: cards for any route
    Scenario(game).tickets(seat, []).trains(seat, 3).empty_deck(into_seat=seat)
    choice = RolloutPolicy(game, random.Random(1)).choose(game)
    assert choice.kind == "claim_route"
    assert game.board.r_len[game.board.route_index[choice.route_id]] == 3


def test_old_west_rollouts_value_claims_as_the_markers_redirect_their_points():
    # Rules §4.3: a marked end pays the route's points to the marker's owner; with no
    # marker the claimant scores. A rollout must not claim for points an opponent gets.
    from ttr_desktop.bots.families import policy_for

    game = new_game("old-west", 2, seed=3)
    b = game.board
    Scenario(game).module("old_west", marker=[-1] * len(game.state.ext["old_west"].marker))
    r = max(range(len(b.r_len)), key=lambda i: (b.r_points[i], -i))
    a, z = b.r_a[r], b.r_b[r]
    values = policy_for("old-west").rollout_claim_values
    rollout = RolloutPolicy(game, random.Random(1))
    pts = b.r_points[r]
    assert values(rollout, game, 0)[r] == pts            # nobody's marker: the claimant
    Scenario(game).module("old_west", marker={a: 1})
    assert values(rollout, game, 0)[r] == -pts           # the opponent's end: their points
    Scenario(game).module("old_west", marker={z: 0})
    assert values(rollout, game, 0)[r] == 0              # one end each: both score
    Scenario(game).module("old_west", marker={a: 0})
    assert values(rollout, game, 0)[r] == 2 * pts        # both ends the claimant's: twice


def test_an_old_west_rollout_claims_the_route_worth_most_as_the_markers_now_stand():
    # The claim values are kept while the markers stand, and the rollout's order of the
    # routes with them: after every marker the best claim is still the most valuable
    # route the seat can pay for.
    from ttr_desktop.bots.families import policy_for

    policy = policy_for("old-west")
    values = policy.rollout_claim_values
    checked = 0
    for seed in range(3):
        game = new_game("old-west", 2, seed=seed)
        rollout = RolloutPolicy(game, random.Random(seed))
        while not game.is_over:
            if game.phase == "turn":
                seat = game.current_seat
                v = values(rollout, game, seat)
                order = sorted(range(len(v)), key=lambda r: (-v[r], r))
                assert rollout._best_claim(game, v) == game.first_claim(order)
                # (as a policy that has kept nothing computes them)
                assert v == type(policy)().rollout_claim_values(rollout, game, seat)
                checked += 1
            game.apply(rollout.choose(game))
    assert checked


def _marklin_rhine() -> Game:
    """Märklin, 4 seats (every track of a double open): seat 0 owns Dortmund–Düsseldorf and
    Düsseldorf–Köln, seat 1 owns Köln–Koblenz; seat 0's passenger stands in Dortmund and
    it holds one passenger card; Düsseldorf and Köln have a 4 on top, Koblenz a 2."""
    from tests.helpers import give_route, set_current, set_hand
    from tests.test_rules_marklin import city, put_passenger, started, state

    game = started(4, seed=3)
    set_current(game, 0)
    give_route(game, 0, "dortmund-dusseldorf-1")
    give_route(game, 0, "dusseldorf-koln-1")
    give_route(game, 1, "koblenz-koln-1")
    put_passenger(game, 0, "dortmund")
    set_hand(game, 0, passenger=1)
    for cid, stack in (("dusseldorf", [4, 3]), ("koln", [4, 3]), ("koblenz", [2])):
        Scenario(game).module("marklin", stacks={city(game, cid): stack})
    return game


def _rollout_trail(game: Game, rollout: RolloutPolicy) -> list[str]:
    """The routes a rollout's moving passenger takes until its move ends ("stop" for a
    stop of its own)."""
    from ttr_desktop.rules.modules.marklin import MOVE

    taken = []
    while game.phase == MOVE:
        step = rollout.choose(game)
        taken.append(getattr(step, "route_id", "stop"))
        game.apply(step)
    return taken


def test_a_marklin_rollout_moves_its_passenger_only_late_and_along_the_richest_trail():
    game = _marklin_rhine()
    rollout = RolloutPolicy(game, random.Random(1))
    assert rollout.choose(game).kind != "move_passenger"      # early: it builds
    Scenario(game).trains(2, 12)                              # someone is near the end
    assert rollout.choose(game).kind == "move_passenger"      # 4 + 4 (+2 for a card)
    game.apply(rollout.choose(game))
    # Köln–Koblenz costs the passenger card and brings a 2: worth it.
    assert _rollout_trail(game, rollout) == [
        "dortmund-dusseldorf-1", "dusseldorf-koln-1", "koblenz-koln-1"]
    assert game.state.ext["marklin"].taken[0] == [4, 4, 2]


def test_hard_judges_a_passenger_move_by_the_trail_it_will_take():
    # Rules §2.3: a moving passenger takes the top token of each new city on its way. From
    # Dortmund, Münster's 3 is the richest next token, but it leads nowhere; the trail
    # through Düsseldorf (1), Köln (4) and Koblenz (2, for a passenger card) brings 7. The
    # search plays the move as Normal will walk it, not as a rollout's greedy walk would.
    from tests.helpers import give_route
    from tests.test_rules_marklin import city, state
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.rules.modules.marklin import MovePassenger

    game = _marklin_rhine()
    give_route(game, 0, "dortmund-munster-1")
    for cid, stack in (("munster", [3]), ("dusseldorf", [1]), ("koln", [4])):
        Scenario(game).module("marklin", stacks={city(game, cid): stack})
    steps = policy_for("marklin").search_followups(game.view(0), MovePassenger("dortmund"))
    assert [a.route_id for a in steps] == [
        "dortmund-dusseldorf-1", "dusseldorf-koln-1", "koblenz-koln-1"]
    game.apply(MovePassenger("dortmund"))
    greedy_walk = _rollout_trail(game.clone(random.Random(1)), RolloutPolicy(game, random.Random(1)))
    assert greedy_walk[0] == "dortmund-munster-1"


def test_hard_weighs_a_passenger_move_only_for_a_haul_worth_a_turn():
    # Rules §2.3: each merchandise stack pays its biggest token to the first passenger to
    # arrive, and a passenger moves once. Dortmund's trail brings 4 + 4 + 2: before the end
    # is near, too little to spend the passenger on, so Hard does not search the move (its
    # rollouts move passengers late and greedily, which undervalues keeping one). Near the
    # end it is worth a turn, and in the last turns any haul is.
    from ttr_desktop.bots.families.marklin import BIG_HAUL, LATE_HAUL, LATE_TRAINS
    from ttr_desktop.rules.modules.marklin import MovePassenger

    assert LATE_HAUL <= 10 < BIG_HAUL
    game = _marklin_rhine()
    bot = HardBot(seed=1, rounds=2)

    def searched() -> bool:
        view, legal = game.view(0), game.legal_actions()
        assert MovePassenger("dortmund") in legal
        return MovePassenger("dortmund") in bot.candidates(view, legal,
                                                             bot.greedy.choose(view, legal))

    assert not searched()
    Scenario(game).trains(2, LATE_TRAINS)
    assert searched()
    Scenario(game).trains(2, 3)
    from tests.test_rules_marklin import city, state
    for cid in ("dusseldorf", "koln", "koblenz"):
        Scenario(game).module("marklin", stacks={city(game, cid): [1]})
    assert searched()                                          # 3 points, the last turns


def test_a_moving_passenger_in_a_rollout_stops_where_nothing_is_worth_a_card():
    from ttr_desktop.rules.modules.marklin import MovePassenger
    from tests.test_rules_marklin import city, state

    game = _marklin_rhine()
    Scenario(game).module("marklin", stacks={city(game, "koblenz"): []})
    game.apply(MovePassenger("dortmund"))
    rollout = RolloutPolicy(game, random.Random(1))
    assert _rollout_trail(game, rollout) == ["dortmund-dusseldorf-1", "dusseldorf-koln-1",
                                             "stop"]


@pytest.mark.parametrize("variant", ["europe", "county-durham", "legacy"])
def test_hard_weighs_a_keep_of_every_size_when_the_choice_is_wide(variant):
    # Rules §1.4/§4.1: a player keeps at least the minimum of the tickets offered. With
    # more keeps than it can search, Hard takes Normal's ranking (the family's own plan,
    # such as Legacy's dollars) and the best keep of each size: keeping
    # fewer tickets than the plan likes is a real choice, not noise. (Old West searches
    # only its fewest first keep: test_hard_keeps_the_fewest_first_old_west_tickets...)
    from ttr_desktop.bots.hard import MAX_CANDIDATES

    game = new_game(variant, 2, seed=5)
    while game.phase != "choose_initial_tickets":
        game = _advance(game, 1, 5)
    view, legal = game.view(game.current_seat), game.legal_actions()
    keeps = [a for a in legal if a.kind == "keep_tickets"]
    assert len(keeps) > MAX_CANDIDATES
    bot = HardBot(seed=1, rounds=2)
    greedy = bot.greedy.choose(view, legal)
    ranked = bot.greedy.keeps_ranked(view, legal)
    # One keep per set of kept tickets (a family may also ask the order of the returned).
    assert greedy == ranked[0] and set(ranked) <= set(keeps)
    assert sorted(tuple(sorted(a.tickets)) for a in ranked) \
        == sorted({tuple(sorted(a.tickets)) for a in keeps})
    cands = bot.candidates(view, legal, greedy)
    assert len(cands) <= MAX_CANDIDATES and set(cands) <= set(keeps)
    sizes = {len(a.tickets) for a in keeps}
    assert {len(a.tickets) for a in cands} == sizes
    for size in sizes:
        best = next(a for a in ranked if len(a.tickets) == size)
        assert best in cands


def test_the_departure_audit_plays_both_moves_out_where_hard_leaves_normal(monkeypatch):
    # tools/audit_hard.py: at every turn where Hard's move differs from Normal's, both
    # moves are played out by Normal bots on the same sampled games.
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "tools" / "audit_hard.py"
    spec = importlib.util.spec_from_file_location("audit_hard", path)
    audit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(audit)
    # A stand-in for Hard that departs from Normal often (random moves): a record for each
    # turn where its move differs from Normal's, none where they agree.
    departures = []

    class Departing:
        def __init__(self, seed, budget, rounds):
            self.bot = make_bot("random", seed=seed)

        def choose(self, view, legal):
            move = self.bot.choose(view, legal)
            if view.phase == "turn":
                departures.append(move != make_bot("greedy", seed=7002).choose(view, legal))
            return move

    monkeypatch.setattr(audit, "HardBot", Departing)
    records = audit.audit_game(("usa", 2, 7002, 0.0, 1, None))
    assert len(records) == sum(departures) > 0
    for r in records:
        assert len(r["kind"]) == 2 and {"value", "margin"} <= set(r)
    game = new_game("usa", 2, seed=3)
    game = _advance(game, 12, 3)
    view = game.view(game.current_seat)
    legal = game.legal_actions()
    a, b = legal[0], legal[-1]
    same = audit.play_outs(view, [a, a], 2, seed=5)
    assert same[0] == same[1]          # the same samples and seeds serve every move
    both = audit.play_outs(view, [a, b], 2, seed=5)
    assert len(both[0]) == len(both[1]) == 2


def test_the_search_keeps_racing_only_the_moves_that_can_still_be_chosen():
    from ttr_desktop.bots.hard import PRUNE_SIGMAS, _race

    rng = random.Random(3)
    rounds = 30
    normal = [rng.gauss(0, 12) for _ in range(rounds)]   # the greedy choice's values
    # Same samples, same random numbers: each candidate's value moves with Normal's.
    leader = [v + 9 + rng.gauss(0, 2) for v in normal]
    close = [v + 8.8 + rng.gauss(0, 2) for v in normal]   # level with the leader
    behind = [v + 1 + rng.gauss(0, 2) for v in normal]    # ahead of Normal, far behind
    history = [normal, leader, close, behind]
    kept = _race([0, 1, 2, 3], 0, history)
    # The greedy choice always stays; so do the leader and whoever is level with it.
    assert kept == [0, 1, 2]
    # What "clearly behind" means: the paired difference's upper bound is below zero.
    d = [b - a for a, b in zip(leader, behind)]
    mean = sum(d) / rounds
    se = (sum((x - mean) ** 2 for x in d) / rounds / (rounds - 1)) ** 0.5
    assert mean + PRUNE_SIGMAS * se < 0
    # Only candidates still alive are ever compared; the order of the rest is kept.
    assert _race([0, 2, 3], 0, history) == [0, 2]


def test_the_searching_seat_plans_its_rollouts_as_it_plans_its_moves():
    # Hard leans its plans toward long routes (FamilyPolicy.search_route_lean); in its
    # rollouts its own seat plans the same way, so a candidate is judged by the game Hard
    # would go on to play. The other seats plan as Normal does.
    from tests.helpers import set_tickets, started

    from ttr_desktop.bots.families import policy_for

    game = started("usa", 2, seed=5)
    set_tickets(game, 0, ["los-angeles-new-york"])
    lean = policy_for("usa").search_route_lean

    def planned(leans):
        rollout = RolloutPolicy(game, random.Random(1), leans)
        return {game.board.route_ids[r] for r in rollout.plan(game, 0)}

    assert "el-paso-los-angeles" in planned({0: lean})
    assert "los-angeles-phoenix" in planned({1: lean})    # another seat's lean
    assert "los-angeles-phoenix" in planned(None)


def test_a_rollout_plans_a_position_once_and_again_when_a_route_changes_hands(monkeypatch):
    # A plan depends on the seat, its tickets, its trains and who owns what. Every sample
    # of a decision shares them for the searching seat, so its plan is made once; once
    # another seat takes a planned route, the plan is made again without it.
    from tests.helpers import give_route, set_tickets, started

    game = started("usa", 2, seed=5)
    set_tickets(game, 0, ["los-angeles-new-york"])
    made = []
    make = RolloutPolicy._make_plan

    def counting(self, g, seat, homes):
        made.append(seat)
        return make(self, g, seat, homes)

    monkeypatch.setattr(RolloutPolicy, "_make_plan", counting)
    blank = RolloutPolicy(game, random.Random(1))
    first = blank.fork(random.Random(2)).plan(game, 0)
    sample = game.clone(random.Random(3))
    assert blank.fork(random.Random(4)).plan(sample, 0) == first
    assert made == [0]

    policy = blank.fork(random.Random(5))
    assert policy.plan(sample, 0) == first and made == [0]
    taken = game.board.route_ids[first[0]]
    give_route(sample, 1, taken)
    again = policy.plan(sample, 0)
    assert made == [0, 0]
    assert first[0] not in again and again == RolloutPolicy(sample, random.Random(6)).plan(
        sample, 0)


def test_hard_leans_only_its_own_seat_in_its_rollouts(monkeypatch):
    import ttr_desktop.bots.hard as hard
    from ttr_desktop.bots.families import policy_for

    seen = []

    class Recording(RolloutPolicy):
        def __init__(self, game, rng, leans=None, ordered=()):
            seen.append((leans, tuple(ordered)))
            super().__init__(game, rng, leans, ordered)

    monkeypatch.setattr(hard, "RolloutPolicy", Recording)
    game = _advance(new_game("usa", 2, seed=3), 9)
    seat = game.current_seat
    bot = HardBot(1, rounds=2)
    bot.choose(game.view(seat), game.legal_actions())
    assert bot.last["rounds"] == 2
    assert seen == [({seat: policy_for("usa").search_route_lean}, (seat,))]


def test_the_searching_seat_orders_its_tickets_in_its_rollouts_as_in_its_moves():
    # Hard plans its tickets in the order whose paths share most
    # (FamilyPolicy.search_plan_orders): Chicago-Santa Fe first, so that Denver-Pittsburgh
    # shares Denver-Omaha-Chicago (13 trains, where biggest first takes 15). Its seat in
    # the rollouts plans the same way; the others plan the biggest ticket first.
    from tests.helpers import set_tickets, started

    game = started("usa", 2, seed=5)
    set_tickets(game, 0, ["chicago-santa-fe", "denver-pittsburgh"])

    def planned(ordered):
        routes = RolloutPolicy(game, random.Random(1), ordered=ordered).plan(game, 0)
        return ({game.board.route_ids[r] for r in routes},
                sum(game.board.r_len[r] for r in routes))

    ordered, trains = planned((0,))
    assert {"chicago-omaha", "denver-omaha", "chicago-pittsburgh-1"} <= ordered
    assert trains == 13
    biggest_first, trains = planned((1,))     # another seat orders its tickets
    assert "kansas-city-saint-louis-1" in biggest_first and trains == 15


def test_a_move_replaces_normals_only_when_clearly_better_but_a_keep_goes_to_the_best_mean():
    from ttr_desktop.bots.hard import GREEDY_PRIOR, MIN_ROUNDS, _pick

    rng = random.Random(5)
    rounds = 40
    # Paired differences from the greedy choice (candidate 0): candidate 1 is ahead by a
    # point a round, less than the prior; candidate 2 is level; candidate 3 behind.
    gains = {1: [1.0 + rng.gauss(0, 0.5) for _ in range(rounds)],
             2: [rng.gauss(0, 0.5) for _ in range(rounds)],
             3: [-2.0 + rng.gauss(0, 0.5) for _ in range(rounds)]}
    diff = [0.0] + [sum(gains[i]) for i in (1, 2, 3)]
    diff_sq = [0.0] + [sum(d * d for d in gains[i]) for i in (1, 2, 3)]
    assert 0 < diff[1] / rounds < GREEDY_PRIOR
    # A turn: a point a round is within the prior, so Normal's move stands.
    assert _pick([0, 1, 2, 3], 0, diff, diff_sq, rounds) == (0, 0.0)
    # A keep: the best mean wins, by its mean gain.
    best, gain = _pick([0, 1, 2, 3], 0, diff, diff_sq, rounds, prior=False)
    assert best == 1 and gain == pytest.approx(diff[1] / rounds)
    # Clearly ahead by more than the prior, it replaces Normal's move in a turn too.
    big = [d + GREEDY_PRIOR for d in gains[1]]
    diff[1], diff_sq[1] = sum(big), sum(d * d for d in big)
    assert _pick([0, 1, 2, 3], 0, diff, diff_sq, rounds)[0] == 1
    # Only candidates still in the race count; a tie goes to the greedy choice; too few
    # rounds prove nothing.
    assert _pick([0, 3], 0, diff, diff_sq, rounds, prior=False) == (0, 0.0)
    assert _pick([0, 2], 0, [0.0] * 3, [0.0] * 3, rounds, prior=False)[0] == 0
    assert _pick([0, 1], 0, diff, diff_sq, MIN_ROUNDS - 1, prior=False) == (0, 0.0)


@pytest.mark.parametrize("variant,by_mean", [("usa", True), ("europe", True),
                                             ("old-west", False),
                                             ("county-durham", True),
                                             ("legacy", True)])
def test_hard_keeps_tickets_by_the_best_mean_where_its_family_says_so(monkeypatch, variant,
                                                                     by_mean):
    from ttr_desktop.bots.families import policy_for

    assert policy_for(variant).search_keeps_by_mean is by_mean
    seen = []
    original = HardBot._search

    def spy(self, view, cands, greedy_choice, budget, prior=True, began=None):
        seen.append((view.phase, prior))
        return original(self, view, cands, greedy_choice, budget, prior, began)

    monkeypatch.setattr(HardBot, "_search", spy)
    game = new_game(variant, 2, seed=5)
    while game.phase != "choose_initial_tickets":
        game = _advance(game, 1, 5)
    bot = HardBot(seed=1, rounds=4)
    game.apply(bot.choose(game.view(game.current_seat), game.legal_actions()))
    while game.phase != "turn":
        game = _advance(game, 1, 5)
    legal = game.legal_actions()
    bot.choose(game.view(game.current_seat), legal)
    keeps = [prior for phase, prior in seen if phase == "choose_initial_tickets"]
    turns = [prior for phase, prior in seen if phase == "turn"]
    assert keeps == [not by_mean]
    assert turns in ([], [True])      # a turn always keeps the prior


def _against_normal(gains):
    """_pick's sums for Normal's move (candidate 0) and one candidate whose paired gain
    over it was ``gains`` round by round."""
    return [0.0, sum(gains)], [0.0, sum(d * d for d in gains)]


@pytest.mark.parametrize("variant,replaced", [("usa", False), ("europe", False),
                                              ("old-west", True), ("county-durham", False),
                                              ("marklin", False), ("legacy", True)])
def test_a_move_must_beat_normals_by_its_familys_margin(variant, replaced):
    # With the base settings the search must be surer of a move before it leaves Normal's
    # (FamilyPolicy.search_greedy_prior and search_confidence): a steady gain of 2.5
    # points a round replaces Normal's move in Old West and Legacy, not in USA, Europe,
    # County Durham or Märklin.
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.hard import _pick

    family = policy_for(variant)
    rng = random.Random(3)
    rounds = 60
    gains = [2.5 + rng.gauss(0, 0.3) for _ in range(rounds)]
    diff, diff_sq = _against_normal(gains)
    best, _ = _pick([0, 1], 0, diff, diff_sq, rounds, margin=family.search_greedy_prior,
                    sigmas=family.search_confidence)
    assert (best == 1) is replaced
    # A gain of 5 points a round whose noise leaves it 2.5 standard errors above zero:
    # clear enough for the families, not for the base maps.
    noisy = [5.0 + 15.4 * (1 if i % 2 else -1) for i in range(rounds)]
    diff, diff_sq = _against_normal(noisy)
    best, _ = _pick([0, 1], 0, diff, diff_sq, rounds, margin=family.search_greedy_prior,
                    sigmas=family.search_confidence)
    assert (best == 1) is replaced


def test_more_rounds_sharpen_a_gain_but_do_not_lower_the_bar_where_the_family_says_so():
    # A move 4 points a round ahead of Normal's, with a round's noise of 20 points: after
    # 400 rounds it is 3 standard errors clear. On the base maps the bar is the standard
    # error of at most FamilyPolicy.search_evidence_rounds rounds, so Normal's move still
    # stands; the families measured before that setting count every round.
    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.hard import _pick

    rounds = 400
    noisy = [4.0 + 20.0 * (1 if i % 2 else -1) for i in range(rounds)]
    diff, diff_sq = _against_normal(noisy)
    for variant, stands in (("usa", True), ("europe", True), ("old-west", False),
                            ("legacy", False)):
        family = policy_for(variant)
        assert family.search_greedy_prior < 4.0
        best, _ = _pick([0, 1], 0, diff, diff_sq, rounds,
                        margin=family.search_greedy_prior, sigmas=family.search_confidence,
                        evidence=family.search_evidence_rounds)
        assert (best == 0) is stands, variant
        # Counting every round, the same bar would let it through.
        assert _pick([0, 1], 0, diff, diff_sq, rounds, margin=family.search_greedy_prior,
                     sigmas=family.search_confidence)[0] == 1
    # Within that many rounds the bar is the usual one.
    few = policy_for("usa").search_evidence_rounds
    steady = [4.0 + (1 if i % 2 else -1) for i in range(few)]
    diff, diff_sq = _against_normal(steady)
    assert _pick([0, 1], 0, diff, diff_sq, few, margin=3.0, sigmas=3.0, evidence=few)[0] == 1
    assert _pick([0, 1], 0, diff, diff_sq, few, margin=3.0, sigmas=3.0)[0] == 1


def test_hard_asks_its_familys_margin_of_a_move(monkeypatch):
    import ttr_desktop.bots.hard as hard
    from ttr_desktop.bots.families import policy_for

    asked = []
    original = hard._pick

    def spy(*args, **kwargs):
        asked.append((kwargs.get("margin"), kwargs.get("sigmas"), kwargs.get("evidence")))
        return original(*args, **kwargs)

    monkeypatch.setattr(hard, "_pick", spy)
    for variant in ("usa", "old-west"):
        game = new_game(variant, 2, seed=3)
        while game.phase != "turn":
            game = _advance(game, 1, 3)
        game = _advance(game, 6, 3)
        while game.phase != "turn":
            game = _advance(game, 1, 3)
        asked.clear()
        HardBot(1, rounds=4).choose(game.view(game.current_seat), game.legal_actions())
        family = policy_for(variant)
        assert asked == [(family.search_greedy_prior, family.search_confidence,
                          family.search_evidence_rounds)]


@pytest.mark.parametrize("colour", ["white", "green"])
def test_hards_plan_takes_the_track_of_a_double_its_hand_can_pay(colour):
    # New York–Pittsburgh is a double, one track white and one green. Holding two of one
    # colour, Hard plans that track (FamilyPolicy.search_doubles_by_colour), so it draws
    # and pays for the track it can claim now; Normal plans whichever its path search met.
    from tests.helpers import set_hand, set_tickets, started

    from ttr_desktop.bots.greedy import GreedyBot, _Turn

    game = started("usa", 2, seed=5)
    seat = game.current_seat
    set_tickets(game, seat, ["new-york-atlanta"])
    set_hand(game, seat, **{colour: 2, "red": 1})
    view, legal = game.view(seat), game.legal_actions()
    bot = GreedyBot(1)
    bot.doubles_by_colour = True
    plan = {game.map.routes[game.board.route_ids[r]].color: game.board.route_ids[r]
            for r in _Turn(bot, view, legal).plan.routes
            if game.board.route_ids[r].startswith("new-york-pittsburgh")}
    assert list(plan) == [colour]
    # It claims that track this turn.
    choice = HardBot(1, rounds=4).choose(view, legal)
    assert choice.kind == "claim_route" and choice.route_id == plan[colour]


@pytest.mark.parametrize("variant, factor", [("usa", 4.0), ("europe", 4.0), ("old-west", 2.0),
                                             ("legacy", 2.0)])
def test_a_ticket_keep_gets_its_familys_multiple_of_the_turn_budget(monkeypatch, variant,
                                                                     factor):
    # Keeps shape the whole game: Hard gives them the family's multiple of a turn's
    # budget (FamilyPolicy.search_keep_budget_factor), a turn only the budget itself.
    import ttr_desktop.bots.hard as hard

    budgets = []

    def spy(self, view, cands, greedy_choice, budget, prior=True, began=None):
        budgets.append((view.phase, budget))
        return greedy_choice

    monkeypatch.setattr(hard.HardBot, "_search", spy)
    game = new_game(variant, 2, seed=3)
    bot = HardBot(1, budget=0.5)
    while game.phase != "choose_initial_tickets":
        game = _advance(game, 1, 3)
    bot.choose(game.view(game.current_seat), game.legal_actions())
    assert budgets == [("choose_initial_tickets", 0.5 * factor)]
    while game.phase != "turn":
        game = _advance(game, 1, 3)
    budgets.clear()
    bot.choose(game.view(game.current_seat), game.legal_actions())
    assert budgets == [("turn", 0.5)]


def test_a_move_keeps_its_budget_and_starts_no_round_it_cannot_finish(monkeypatch):
    # The clock counts from the start of the decision (the default move and the
    # candidates are thinking too), and a round that would end past the budget is not
    # begun: at 0.3 s a round and 1 s a move, three rounds fit and a fourth would end at
    # 1.2 s. Without the foresight the move would take 1.2 s.
    import ttr_desktop.bots.hard as hard

    clock = [100.0]

    class Clock:
        @staticmethod
        def perf_counter() -> float:
            return clock[0]

    def a_round_takes_0_3_s(view, rng, weight=None):
        clock[0] += 0.3
        return determinize(view, rng, weight)

    monkeypatch.setattr(hard, "time", Clock)
    monkeypatch.setattr(hard, "determinize", a_round_takes_0_3_s)
    game = _advance(new_game("usa", 2, seed=5), 12)
    while game.phase != "turn":
        game = _advance(game, 1, 5)
    bot = HardBot(1, budget=1.0)
    bot.choose(game.view(game.current_seat), game.legal_actions())
    assert bot.last["rounds"] == 3
    assert clock[0] - 100.0 <= 1.0


def test_hard_keeps_the_fewest_first_old_west_tickets_and_searches_which():
    # Rules §4.2: each player keeps at least 3 of the 5 tickets dealt, before choosing a
    # home city from which every route must grow. Hard keeps 3 and draws more once they
    # are built; which 3, its rollouts judge from Normal's ranking of the 3-ticket keeps.
    game = new_game("old-west", 3, seed=4)
    seat = game.current_seat
    view, legal = game.view(seat), game.legal_actions()
    assert {len(a.tickets) for a in legal if a.kind == "keep_tickets"} == {3, 4, 5}
    bot = HardBot(seed=1, rounds=2)
    cands = bot.candidates(view, legal, bot.greedy.choose(view, legal))
    assert len(cands) >= 2
    assert all(a in legal and len(a.tickets) == 3 for a in cands)
    assert cands[0] == bot.greedy.keeps_ranked(
        view, [a for a in legal if a.kind == "keep_tickets" and len(a.tickets) == 3])[0]
    choice = bot.choose(view, legal)
    assert choice in cands and len(choice.tickets) == 3


def test_hard_keeps_as_many_first_tickets_as_its_search_finds_best_on_the_usa_map():
    game = new_game("usa", 2, seed=4)
    view, legal = game.view(game.current_seat), game.legal_actions()
    bot = HardBot(seed=1, rounds=2)
    cands = bot.candidates(view, legal, bot.greedy.choose(view, legal))
    assert {len(a.tickets) for a in cands} == {2, 3}
