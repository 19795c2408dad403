"""rules.md §5 (County Durham, Coal Country) as tests: setup, coal taken after a claim,
coal spent two for a wild (ferries too), the coal and ticket bonuses with their ties,
and whole random games that keep every coal token accounted for."""

from __future__ import annotations

import random

import pytest

from tests.helpers import (
    add_points, claims, event_kinds, give_route, set_hand, set_tickets, set_trains, started,
)
from ttr_desktop.rules.scenario import Scenario
from ttr_desktop.persistence import load_game, save_game
from ttr_desktop.rules import Decline, determinize, new_game
from ttr_desktop.rules.actions import cards_text
from ttr_desktop.rules.modules.county_durham import TAKE_COAL, TakeCoal

VARIANT = "county-durham"
COAL_AT_SETUP = 48 - 9
FERRY = "seaham-harbour-sunderland-sea"   # 2 gray spaces, 1 locomotive icon
RED_THREE = "consett-stanley"             # 3 red spaces


# Scenario helpers (coal is kept conserved: the setup total follows what is placed) -----
def coal(game):
    return game.state.ext["county_durham"]


def set_coal(game, on=(), held=None) -> None:
    """Coal exactly on the cities ``on`` and held as ``held`` (one count per seat)."""
    data = coal(game)
    b = game.board
    city = [0] * b.n_cities
    for cid in on:
        city[b.city_index[cid]] = 1
    held = list(data.held if held is None else held)
    Scenario(game).module("county_durham", city=city, held=held,
                          total=sum(city) + sum(held) + sum(data.spent))


def coal_on(game, cid: str) -> int:
    return coal(game).city[game.board.city_index[cid]]


def fresh(players=2, seed=1, **options):
    game = started(VARIANT, players, seed=seed, **options)
    for seat in range(players):
        set_tickets(game, seat, [])
    return game


def claim(game, route_id, **cards):
    pay = tuple(sorted(cards.items()))
    act = next((a for a in claims(game, route_id) if a.cards == pay), None)
    assert act is not None, f"no claim of {route_id} with {pay}: {claims(game, route_id)}"
    return game.apply(act)


def coal_total(game) -> int:
    data = coal(game)
    return sum(data.city) + sum(data.held) + sum(data.spent)


# Setup (§5.2) --------------------------------------------------------------------
def test_setup_puts_coal_on_every_station_then_removes_nine_at_random():
    game = new_game(VARIANT, 2, seed=4)
    data = coal(game)
    assert len(data.city) == 48
    assert sum(data.city) == COAL_AT_SETUP == data.total
    assert data.city.count(0) == 9 and set(data.city) == {0, 1}
    assert data.held == [0, 0] and data.spent == [0, 0]
    other = coal(new_game(VARIANT, 2, seed=5)).city
    assert other != data.city                       # the removed nine are random
    assert coal(new_game(VARIANT, 2, seed=4)).city == data.city   # ... and seeded


def test_setup_deals_four_cards_and_four_tickets_keeping_at_least_two():
    game = new_game(VARIANT, 3, seed=2)
    assert game.total_cards() == 110
    assert all(sum(h) == 4 for h in game.state.hands)
    assert all(t == 45 for t in game.state.trains)
    assert len(game.state.pending[game.current_seat]) == 4
    keeps = game.legal_actions()
    assert min(len(a.tickets) for a in keeps) == 2


def test_a_ticket_draw_shows_four_and_keeps_at_least_one():
    game = fresh()
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_tickets"))
    assert len(game.state.pending[0]) == 4
    assert min(len(a.tickets) for a in game.legal_actions()) == 1


@pytest.mark.parametrize("players,both", [(2, False), (3, False), (4, True), (5, True)])
def test_doubles_are_used_only_with_four_or_five_players(players, both):
    game = fresh(players)
    give_route(game, 1, "chester-le-street-durham-1")
    set_hand(game, 0, red=2)
    assert bool(claims(game, "chester-le-street-durham-2")) == both


def test_a_ferry_needs_a_locomotive():
    game = fresh()
    set_hand(game, 0, red=2)
    assert claims(game, FERRY) == []
    set_hand(game, 0, red=1, locomotive=1)
    assert [a.cards for a in claims(game, FERRY)] == [(("locomotive", 1), ("red", 1))]


# Taking coal (§5.3) ------------------------------------------------------------------
def test_claiming_a_route_with_coal_at_one_end_takes_that_token():
    game = fresh()
    set_coal(game, on=["consett"])
    set_hand(game, 0, red=3)
    events = claim(game, RED_THREE, red=3)
    assert coal(game).held == [1, 0] and coal_on(game, "consett") == 0
    assert "coal_taken" in event_kinds(events)
    assert game.current_seat == 1 and game.phase == "turn"


def test_a_route_without_coal_at_either_end_gives_none():
    game = fresh()
    set_coal(game, on=["durham"])
    set_hand(game, 0, red=3)
    events = claim(game, RED_THREE, red=3)
    assert coal(game).held == [0, 0] and "coal_taken" not in event_kinds(events)
    assert game.current_seat == 1


def test_with_coal_at_both_ends_the_player_takes_only_one_of_their_choice():
    game = fresh()
    set_coal(game, on=["consett", "stanley"])
    set_hand(game, 0, red=3)
    claim(game, RED_THREE, red=3)
    assert game.phase == TAKE_COAL and game.current_seat == 0
    acts = game.legal_actions()
    assert sorted(a.city_id for a in acts) == ["consett", "stanley"]
    assert "Consett" in game.prompt() and "Stanley" in game.prompt()
    game.apply(TakeCoal("stanley"))
    assert coal(game).held == [1, 0]
    assert coal_on(game, "stanley") == 0 and coal_on(game, "consett") == 1
    assert game.current_seat == 1 and game.phase == "turn"


def test_taking_coal_can_be_made_a_question_that_may_be_declined():
    game = fresh(coal_auto_take=False)
    set_coal(game, on=["consett"])
    set_hand(game, 0, red=3)
    claim(game, RED_THREE, red=3)
    assert game.phase == TAKE_COAL
    assert set(game.legal_actions()) == {TakeCoal("consett"), Decline("coal")}
    game.apply(Decline("coal"))
    assert coal(game).held == [0, 0] and coal_on(game, "consett") == 1
    assert game.current_seat == 1


def test_the_route_is_paid_before_the_coal_is_taken():
    game = fresh()
    set_coal(game, on=["consett"], held=[1, 0])
    set_hand(game, 0, red=2)
    assert claims(game, RED_THREE) == []        # 2 red + 1 coal cannot pay 3 spaces
    set_hand(game, 0, red=3)
    claim(game, RED_THREE, red=3)
    assert coal(game).held == [2, 0]
    paid = game.view(1).route_payments[RED_THREE]
    assert paid == (("red", 3),)


# Spending coal (§5.3, A-29) ---------------------------------------------------------------
def test_one_card_and_four_coal_pay_for_a_three_route_as_in_the_rules():
    game = fresh()
    set_coal(game, on=[], held=[4, 0])
    set_hand(game, 0, red=1)
    claim(game, RED_THREE, coal=4, red=1)
    data = coal(game)
    assert data.held == [0, 0] and data.spent == [4, 0]
    assert coal_total(game) == data.total
    assert game.view(1).route_payments[RED_THREE] == (("coal", 4), ("red", 1))


def test_coal_payments_are_listed_once_each_in_pairs():
    game = fresh()
    set_coal(game, on=[], held=[5, 0])
    set_hand(game, 0, red=3)
    pays = [a.cards for a in claims(game, RED_THREE)]
    assert sorted(pays) == sorted([(("red", 3),), (("coal", 2), ("red", 2)),
                                   (("coal", 4), ("red", 1))])
    assert len(pays) == len(set(pays))
    assert cards_text((("coal", 2), ("red", 2))) == "2 red + 2 coal"


def test_coal_alone_pays_a_whole_route():
    game = fresh()
    set_coal(game, on=[], held=[6, 0])
    set_hand(game, 0)
    assert [a.cards for a in claims(game, RED_THREE)] == [(("coal", 6),)]


def test_two_coal_stand_for_a_ferrys_locomotive():
    game = fresh()
    set_coal(game, on=[], held=[2, 0])
    set_hand(game, 0, red=1)
    claim(game, FERRY, coal=2, red=1)
    assert coal(game).spent == [2, 0]


def test_a_single_coal_is_never_spent():
    game = fresh()
    set_coal(game, on=[], held=[1, 0])
    set_hand(game, 0, red=1)
    assert claims(game, FERRY) == []               # one coal is no locomotive
    set_coal(game, on=[], held=[3, 0])
    pays = [a.cards for a in game.legal_actions() if a.kind == "claim_route"]
    assert pays and all(dict(p).get("coal", 0) in (0, 2) for p in pays)
    claim(game, FERRY, coal=2, red=1)
    assert coal(game).held == [1, 0]               # the odd one stays


def test_why_a_route_cannot_be_paid_mentions_pairs_of_coal():
    game = fresh()
    set_coal(game, on=[], held=[1, 0])
    set_hand(game, 0, red=1)
    problem = game.claim_problem(RED_THREE)
    assert problem and "pairs of coal" in problem


# Scoring (§5.4) -------------------------------------------------------------------------
def test_the_score_parts_are_routes_tickets_and_the_four_bonuses():
    game = fresh()
    assert list(game.scores()[0].parts) == ["routes", "tickets", "most_tickets",
                                            "longest_path", "most_coal", "least_coal"]


def test_most_coal_scores_ten_and_least_coal_loses_five():
    game = fresh(3)
    set_coal(game, held=[3, 1, 0])
    parts = [s.parts for s in game.scores()]
    assert [p["most_coal"] for p in parts] == [10, 0, 0]
    assert [p["least_coal"] for p in parts] == [0, 0, -5]
    assert all(s.total == sum(s.parts.values()) for s in game.scores())


def test_every_seat_tied_for_most_or_least_coal_gets_the_full_bonus_or_penalty():
    game = fresh(4)
    set_coal(game, held=[2, 2, 0, 0])
    parts = [s.parts for s in game.scores()]
    assert [p["most_coal"] for p in parts] == [10, 10, 0, 0]
    assert [p["least_coal"] for p in parts] == [0, 0, -5, -5]


@pytest.mark.parametrize("held", [[0, 0, 0], [2, 2, 2]])
def test_when_all_tie_on_coal_each_gets_both_plus_ten_and_minus_five(held):
    game = fresh(3)
    set_coal(game, held=held)
    for s in game.scores():
        assert (s.parts["most_coal"], s.parts["least_coal"]) == (10, -5)


def test_most_completed_tickets_scores_ten_every_tie_included():
    game = fresh(3)
    set_tickets(game, 0, ["stanley-tow-law"])
    set_tickets(game, 1, ["gateshead-sunderland"])
    set_tickets(game, 2, [])
    assert [s.parts["most_tickets"] for s in game.scores()] == [0, 0, 0]  # none done
    path = _path(game, "stanley", "tow-law")
    for rid in path:
        give_route(game, 0, rid)
    assert [s.parts["most_tickets"] for s in game.scores()] == [10, 0, 0]
    for rid in _path(game, "gateshead", "sunderland", avoid=path):
        give_route(game, 1, rid)
    assert [s.parts["most_tickets"] for s in game.scores()] == [10, 10, 0]


def test_the_most_bonus_can_count_claimed_routes_instead():
    game = fresh(2, durham_most_bonus="routes")
    give_route(game, 1, "chester-le-street-washington")
    assert [s.parts["most_tickets"] for s in game.scores()] == [0, 10]


def test_the_longest_continuous_line_scores_ten():
    game = fresh()
    give_route(game, 0, "chester-le-street-durham-1")
    give_route(game, 0, "chester-le-street-stanley")
    give_route(game, 1, "chester-le-street-washington")
    assert [s.parts["longest_path"] for s in game.scores()] == [10, 0]


def _even_out(game) -> None:
    """Give the seats behind points on the score track until every total is equal."""
    totals = [s.total for s in game.scores()]
    for seat, total in enumerate(totals):
        if total < max(totals):
            add_points(game, seat, max(totals) - total, "route", "even")


def test_a_tie_on_points_goes_to_more_completed_tickets():
    game = fresh()
    assert game.ruleset.tie_breaks == ("tickets", "longest_path")
    set_tickets(game, 0, ["stanley-tow-law"])
    for rid in _path(game, "stanley", "tow-law"):
        give_route(game, 0, rid)
    _even_out(game)
    result = game.result()
    assert result.winners == [0] and result.tie_break == "tickets"


def test_then_to_the_longest_continuous_line():
    game = fresh()
    give_route(game, 0, "chester-le-street-durham-1")
    give_route(game, 0, "chester-le-street-stanley")
    give_route(game, 1, "chester-le-street-washington")
    _even_out(game)
    result = game.result()
    assert result.winners == [0] and result.tie_break == "longest_path"


# The view ---------------------------------------------------------------------------------
def test_the_view_shows_coal_on_each_station_and_each_seats_coal():
    game = fresh()
    set_coal(game, on=["durham", "consett"], held=[3, 1])
    view = game.view(1)
    assert view.extra["coal"]["cities"] == {"durham": 1, "consett": 1}
    assert view.extra["coal"]["held"] == (3, 1)
    assert view.extra["seat_stats"] == ("3 coal", "1 coal")
    assert {cid: [t.kind for t in ts] for cid, ts in view.city_tokens.items()} == {
        "durham": ["coal"], "consett": ["coal"]}


def test_the_pay_rule_in_the_view_counts_two_coal_as_a_wild():
    view = fresh().view(0)
    wild = next(w for w in view.pay.wilds if view.pay.names[w.index] == "coal")
    assert wild.per_unit == 2


def test_statistics_report_coal_kept_spent_and_picked_up():
    game = fresh()
    set_coal(game, on=["consett"], held=[4, 0])
    set_hand(game, 0, red=1)
    claim(game, RED_THREE, coal=4, red=1)
    assert game.statistics(0) == {"coal_kept": 1, "coal_spent": 4, "coal_picked": 1}


# Whole games ---------------------------------------------------------------------------
def _check(game) -> None:
    assert game.total_cards() == 110
    data = coal(game)
    assert data.total == COAL_AT_SETUP
    assert coal_total(game) == COAL_AT_SETUP
    assert all(n >= 0 for n in data.held + data.city)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_every_coal_token_accounted_for(players):
    rng = random.Random(players)
    for seed in range(3):
        game = new_game(VARIANT, players, seed=seed)
        steps = 0
        while not game.is_over and steps < 4000:
            acts = game.legal_actions()
            assert acts, game.phase
            game.apply(rng.choice(acts))
            steps += 1
            _check(game)
            if steps % 40 == 0:
                seat = game.current_seat
                view = game.view(seat)
                clone = determinize(view, random.Random(steps))
                assert clone.view(seat).extra == view.extra
                assert clone.legal_actions() == game.legal_actions()
        assert game.is_over
        for sc in game.scores():
            assert sc.total == sum(sc.parts.values())
        coal_scores = [(s.parts["most_coal"], s.parts["least_coal"]) for s in game.scores()]
        held = coal(game).held
        assert [m for m, _ in coal_scores] == [10 if h == max(held) else 0 for h in held]
        assert [x for _, x in coal_scores] == [-5 if h == min(held) else 0 for h in held]


@pytest.mark.parametrize("moves", [0, 60, 150])
def test_save_load_continue_is_the_same_game(tmp_path, moves):
    game = new_game(VARIANT, 3, seed=8)
    rng = random.Random(8)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    loaded = load_game(save_game(game, tmp_path / "durham.toml"))
    assert loaded.state.to_dict() == game.state.to_dict()
    r1, r2 = random.Random(3), random.Random(3)
    while not game.is_over:
        a, b = r1.choice(game.legal_actions()), r2.choice(loaded.legal_actions())
        assert a == b
        assert game.apply(a) == loaded.apply(b)
    assert [s.total for s in loaded.scores()] == [s.total for s in game.scores()]


def test_a_save_in_the_middle_of_a_coal_choice_loads_with_the_choice_pending(tmp_path):
    game = new_game(VARIANT, 2, seed=3)
    rng = random.Random(3)
    while game.phase != TAKE_COAL:
        game.apply(rng.choice(game.legal_actions()))
    choice = set(game.legal_actions())
    loaded = load_game(save_game(game, tmp_path / "choice.toml"))
    assert loaded.phase == TAKE_COAL and set(loaded.legal_actions()) == choice
    assert loaded.state.to_dict() == game.state.to_dict()
    clone = determinize(game.view(game.current_seat), random.Random(1))
    assert clone.phase == TAKE_COAL and set(clone.legal_actions()) == choice


def _path(game, a, b, avoid=()):
    """Route ids of a shortest path between two cities (fewest spaces), not using ``avoid``."""
    import heapq
    g = game.board
    avoid = set(avoid)
    start, goal = g.city_index[a], g.city_index[b]
    dist = {start: 0}
    prev = {}
    heap = [(0, start)]
    while heap:
        d, c = heapq.heappop(heap)
        if c == goal:
            break
        if d > dist[c]:
            continue
        for r in g.city_routes[c]:
            if g.route_ids[r] in avoid:
                continue
            o = g.r_b[r] if g.r_a[r] == c else g.r_a[r]
            nd = d + g.r_len[r]
            if nd < dist.get(o, 1 << 30):
                dist[o] = nd
                prev[o] = r
                heapq.heappush(heap, (nd, o))
    out = []
    c = goal
    while c != start:
        r = prev[c]
        out.append(g.route_ids[r])
        c = g.r_b[r] if g.r_a[r] == c else g.r_a[r]
    return out


# Bots (every level uses coal) ------------------------------------------------------
def test_the_bot_takes_the_coal_an_opponent_would_reach_first():
    from ttr_desktop.bots import make_bot
    game = fresh()
    set_coal(game, on=["consett", "stanley"])
    set_hand(game, 0, red=3)
    claim(game, RED_THREE, red=3)
    assert game.phase == TAKE_COAL
    b = game.board
    open_tracks = {c: sum(1 for r in b.city_routes[b.city_index[c]] if game.state.owner[r] < 0)
                   for c in ("consett", "stanley")}
    busier = max(open_tracks, key=lambda c: (open_tracks[c], c))
    for level in ("greedy", "easy"):
        assert make_bot(level, seed=1).choose(game.view(0), game.legal_actions()) == \
            TakeCoal(busier)


def test_the_bot_weighs_the_coal_bonuses_only_near_the_end():
    from ttr_desktop.bots.families.county_durham import bonus_loss, coal_cost
    game = fresh()
    set_coal(game, on=[], held=[4, 2])
    view = game.view(0)
    # Spending 4 of 4 against 2: the +10 for most coal is lost and the -5 for least is taken;
    # spending 2 ties at 2 each: both keep +10 and both take -5.
    assert bonus_loss(view, 4) == 15 and bonus_loss(view, 2) == 5
    early = coal_cost(view, 2)
    for seat in (0, 1):
        set_trains(game, seat, 5)
    late = coal_cost(game.view(0), 2)
    assert early < 2 and late >= 5


def test_every_bot_level_picks_up_coal_and_the_normal_bot_spends_it():
    from ttr_desktop.sim import run_tournament
    report = run_tournament(VARIANT, ["greedy", "easy", "random"], games=2, seed=1, jobs=1)
    stats = {row["label"]: row for row in report["bots"]}
    for level in ("greedy", "easy", "random"):
        assert stats[level]["family"]["coal_picked"] > 0
    assert stats["greedy"]["family"]["coal_spent"] > 0
