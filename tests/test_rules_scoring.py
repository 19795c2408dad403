"""rules.md §1.8 (and §8.4): final scoring, the longest path and the winner."""

import random

import pytest

from tests.helpers import disjoint_routes, give_route, set_tickets, started

FIGURE_EIGHT = [  # two triangles that share Nashville
    "atlanta-nashville", "nashville-raleigh", "atlanta-raleigh-1",          # 1 + 3 + 2
    "nashville-saint-louis", "little-rock-saint-louis", "little-rock-nashville",  # 2 + 2 + 3
]
STAR = ["denver-helena", "denver-kansas-city-1", "denver-phoenix"]  # 4, 4, 5 from Denver


@pytest.fixture
def game():
    g = started("usa", 2, seed=2)
    for seat in range(2):
        set_tickets(g, seat, [])
    return g


def test_claimed_routes_count_toward_the_final_score(game):
    give_route(game, 0, "chicago-duluth")
    give_route(game, 0, "seattle-vancouver-1")
    score = game.scores()[0]
    assert score.parts["routes"] == 4 + 1
    assert score.total == sum(score.parts.values())


def test_a_completed_ticket_adds_its_value_and_an_incomplete_one_subtracts_it(game):
    set_tickets(game, 0, ["denver-el-paso", "boston-miami"])
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 0, "el-paso-santa-fe")
    score = game.scores()[0]
    assert score.parts["tickets"] == 4 - 12
    assert score.tickets_completed == 1
    assert {t.id: t.done for t in score.tickets} == {"denver-el-paso": True,
                                                     "boston-miami": False}


def test_a_ticket_is_completed_only_through_your_own_routes(game):
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 1, "el-paso-santa-fe")
    assert game.scores()[0].parts["tickets"] == -4


def test_the_longest_path_may_loop_through_a_city_more_than_once(game):
    # A figure eight: every route once, Nashville visited twice.
    for rid in FIGURE_EIGHT:
        give_route(game, 0, rid)
    length, routes = game.longest_path(0)
    assert length == 13
    assert sorted(routes) == sorted(FIGURE_EIGHT)
    assert _is_a_trail(game, routes)


def test_branches_of_the_longest_path_do_not_add_up(game):
    for rid in STAR:
        give_route(game, 0, rid)
    length, routes = game.longest_path(0)
    assert length == 5 + 4
    assert len(routes) == 2 and "denver-phoenix" in routes


def test_the_longest_path_never_uses_a_route_twice(game):
    give_route(game, 0, "duluth-helena")            # a lone 6: not 12 there and back
    assert game.longest_path(0)[0] == 6


def test_a_loop_with_a_tail_is_one_continuous_path(game):
    for rid in ["atlanta-nashville", "nashville-raleigh", "atlanta-raleigh-1",
                "atlanta-miami"]:
        give_route(game, 0, rid)
    assert game.longest_path(0)[0] == 1 + 3 + 2 + 5


def test_separate_networks_are_not_added_together(game):
    give_route(game, 0, "duluth-helena")            # 6
    give_route(game, 0, "atlanta-miami")            # 5, elsewhere
    assert game.longest_path(0)[0] == 6


def test_only_your_own_trains_count_for_the_longest_path(game):
    give_route(game, 0, "denver-santa-fe")
    give_route(game, 1, "el-paso-santa-fe")
    assert game.longest_path(0)[0] == 2


def test_the_longest_path_scores_10(game):
    give_route(game, 0, "duluth-helena")
    give_route(game, 1, "atlanta-miami")
    scores = game.scores()
    assert scores[0].parts["longest_path"] == 10 and scores[0].longest_path_bonus
    assert scores[1].parts["longest_path"] == 0 and not scores[1].longest_path_bonus


def test_every_seat_tied_for_the_longest_path_scores_10():
    game = started("usa", 3, seed=2)
    give_route(game, 0, "duluth-helena")              # 6
    give_route(game, 1, "calgary-winnipeg")           # 6
    give_route(game, 2, "atlanta-miami")              # 5
    assert [s.parts["longest_path"] for s in game.scores()] == [10, 10, 0]


def test_no_longest_path_bonus_when_nobody_has_a_route(game):
    #
    assert [s.parts["longest_path"] for s in game.scores()] == [0, 0]


def test_the_most_points_wins(game):
    give_route(game, 0, "duluth-helena")
    result = game.result()
    assert result.winners == [0] and result.tie_break is None


def test_a_tie_on_points_goes_to_the_most_completed_tickets(game):
    set_tickets(game, 0, ["denver-el-paso"])
    give_route(game, 0, "denver-santa-fe")            # 2 points
    give_route(game, 0, "el-paso-santa-fe")           # 2 points; path 4; ticket +4
    for rid in disjoint_routes(game, [4, 1], avoid=["denver-santa-fe", "el-paso-santa-fe"]):
        give_route(game, 1, rid)                      # 7 + 1 points; path 4
    scores = game.scores()
    assert scores[0].total == scores[1].total == 18
    result = game.result()
    assert result.winners == [0] and result.tie_break == "tickets"


def test_then_a_tie_goes_to_the_longest_path_holder(game):
    give_route(game, 0, "calgary-helena")             # 7 points, path 4, +10
    for rid in disjoint_routes(game, [3, 3, 3, 3, 1], avoid=["calgary-helena"]):
        give_route(game, 1, rid)                      # 4*4 + 1 = 17 points, path 3
    scores = game.scores()
    assert scores[0].total == scores[1].total == 17
    result = game.result()
    assert result.winners == [0] and result.tie_break == "longest_path"


def test_a_tie_after_every_tie_break_is_a_shared_victory(game):
    give_route(game, 0, "calgary-helena")
    give_route(game, 1, "chicago-omaha")              # both 4 long: both hold the path
    result = game.result()
    assert result.winners == [0, 1] and result.tie_break == "shared"


def _longest_trail_by_brute_force(game, route_ids):
    """Try every trail from every city: the plain definition of rules.md §1.8."""
    routes = [game.map.routes[r] for r in route_ids]
    best = 0

    def walk(city, used, total):
        nonlocal best
        best = max(best, total)
        for i, r in enumerate(routes):
            if i not in used and city in (r.a, r.b):
                walk(r.b if r.a == city else r.a, used | {i}, total + r.length)

    for city in {c for r in routes for c in (r.a, r.b)}:
        walk(city, frozenset(), 0)
    return best


EAST = [r for r in ("atlanta-charleston", "atlanta-miami", "atlanta-nashville",
                    "atlanta-raleigh-1", "charleston-miami", "charleston-raleigh",
                    "nashville-raleigh", "nashville-saint-louis", "nashville-pittsburgh",
                    "pittsburgh-raleigh", "pittsburgh-washington", "raleigh-washington-1",
                    "new-york-washington-1", "new-york-pittsburgh-1", "chicago-pittsburgh-1",
                    "chicago-saint-louis-1", "pittsburgh-saint-louis", "little-rock-nashville")]


@pytest.mark.parametrize("seed", range(25))
def test_on_a_network_without_a_loop_the_longest_path_is_its_longest_branch(seed):
    # One or more trees grown from random cities: no route closes a loop.
    rng = random.Random(seed)
    game = started("usa", 2, seed=2)
    routes = list(game.map.routes.values())
    joined: set[str] = set()
    mine: list[str] = []
    for _ in range(rng.randint(1, 3)):
        joined.add(rng.choice(routes).a)
        for _ in range(rng.randint(1, 9)):
            grow = [r for r in routes if (r.a in joined) != (r.b in joined)]
            if not grow:
                break
            r = rng.choice(grow)
            joined |= {r.a, r.b}
            mine.append(r.id)
    for rid in mine:
        give_route(game, 0, rid)
    length, path = game.longest_path(0)
    assert length == _longest_trail_by_brute_force(game, mine)
    assert sum(game.map.routes[r].length for r in path) == length
    assert _is_a_trail(game, path)


@pytest.mark.parametrize("seed", range(25))
def test_the_longest_path_is_the_longest_trail_on_any_network(seed):
    rng = random.Random(seed)
    _assert_longest_path_is_longest_trail(rng.sample(EAST, rng.randint(3, 11)))


WEST = ["seattle-vancouver-1", "portland-seattle-1", "portland-san-francisco-1",
        "los-angeles-san-francisco-1", "las-vegas-los-angeles", "las-vegas-salt-lake-city",
        "salt-lake-city-san-francisco-1", "denver-salt-lake-city-1", "helena-salt-lake-city",
        "helena-seattle", "calgary-seattle", "calgary-vancouver"]


@pytest.mark.parametrize("seed", range(25))
def test_with_separate_networks_the_longest_path_is_the_longest_in_any_of_them(seed):
    # Two networks, west and east, each with or without a loop: the longest trail may
    # lie in either, and a shorter network beside it changes nothing.
    rng = random.Random(seed)
    _assert_longest_path_is_longest_trail(
        rng.sample(WEST, rng.randint(1, 8)) + rng.sample(EAST, rng.randint(1, 8)))


def _assert_longest_path_is_longest_trail(mine: list[str]) -> None:
    game = started("usa", 2, seed=2)
    for rid in mine:
        give_route(game, 0, rid)
    length, routes = game.longest_path(0)
    assert length == _longest_trail_by_brute_force(game, mine)
    assert sum(game.map.routes[r].length for r in routes) == length
    assert len(set(routes)) == len(routes)
    assert _is_a_trail(game, routes)


def _is_a_trail(game, route_ids):
    """The routes, in order, can be driven one after the other."""
    if not route_ids:
        return True
    first = game.map.routes[route_ids[0]]
    for city in (first.a, first.b):
        ok = True
        for rid in route_ids:
            r = game.map.routes[rid]
            if city not in (r.a, r.b):
                ok = False
                break
            city = r.b if r.a == city else r.a
        if ok:
            return True
    return False


@pytest.mark.parametrize("variant", ["usa", "europe", "old-west", "county-durham", "marklin",
                                     "legacy"])
def test_a_ticket_is_done_exactly_when_its_cities_are_joined_by_the_seats_own_routes(variant):
    # networkx as the plain definition: the seat's routes as a graph, and a path from a
    # city of one end of the ticket to a city of the other (no path through a country).
    import networkx as nx

    from ttr_desktop.rules import new_game
    from ttr_desktop.rules.graph import components

    game = new_game(variant, 2, seed=3)
    b, g = game.board, game.board.graph
    rng = random.Random(8)
    for _ in range(40):
        mine = rng.sample(range(b.n_routes), rng.randint(1, b.n_routes // 2))
        net = nx.MultiGraph()
        for r in mine:
            if not (g.sink[g.r_a[r]] or g.sink[g.r_b[r]]):
                net.add_edge(g.r_a[r], g.r_b[r])
        comp = components(g, mine)
        for t in range(len(b.tickets)):
            ends = []
            for place in (b.t_a_place[t], b.t_b_place[t]):
                nodes = set()
                for n in g.places[place]:
                    if g.sink[n]:   # a country: the cities its owned routes reach it from
                        nodes |= {g.other_end(r, n) for r in mine if n in (g.r_a[r], g.r_b[r])}
                    else:
                        nodes.add(n)
                ends.append(nodes)
            joined = any(a == c or (a in net and c in net and nx.has_path(net, a, c))
                         for a in ends[0] for c in ends[1])
            assert comp.joined(g, b.t_a_place[t], b.t_b_place[t]) == joined


# The totals alone (what a search asks at the end of each rollout) ----------------------

def test_the_totals_alone_give_every_seat_tied_for_the_longest_path_its_bonus():
    game = started("usa", 3, seed=2)
    give_route(game, 0, "duluth-helena")              # 6
    give_route(game, 1, "calgary-winnipeg")           # 6
    give_route(game, 2, "atlanta-miami")              # 5
    assert game.score_totals() == [s.total for s in game.scores()]
    give_route(game, 2, "atlanta-charleston")         # 5 + 2: the longest alone
    assert game.score_totals() == [s.total for s in game.scores()]
    assert [s.parts["longest_path"] for s in game.scores()] == [0, 0, 10]


@pytest.mark.parametrize("variant", ["usa", "europe", "nordic", "old-west", "county-durham",
                                     "marklin", "legacy", "usa-1910-mega"])
def test_the_totals_alone_are_the_totals_of_the_full_scoring(variant):
    # Random games of 2 to 4 seats, scored every few moves and at the end.
    from ttr_desktop.rules import new_game
    from ttr_desktop.rules.ruleset import VARIANTS

    checked = 0
    for seed in range(3):
        rs = VARIANTS[variant]
        players = min(rs.max_players, max(rs.min_players, 2 + seed % 3))
        game = new_game(variant, players, seed=seed).quiet()
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and steps < 1500:
            acts = game.legal_actions(True)
            game.apply(acts[rng.randrange(len(acts))], False)
            steps += 1
            if steps % 25 == 0 or game.is_over:
                assert game.score_totals() == [s.total for s in game.scores()], (seed, steps)
                checked += 1
    assert checked


@pytest.mark.parametrize("seed", range(25))
def test_a_longest_trail_with_a_floor_is_exact_above_it_and_the_floor_below(seed):
    from ttr_desktop.rules.graph import longest_trail

    rng = random.Random(seed)
    game = started("usa", 2, seed=2)
    g = game.board.graph
    mine = [g.route_index[r] for r in rng.sample(WEST, rng.randint(0, 8))
            + rng.sample(EAST, rng.randint(0, 8))]
    exact = longest_trail(g, mine)
    for floor in range(0, exact[0] + 3):
        found = longest_trail(g, mine, floor)
        if exact[0] > floor:
            assert found[0] == exact[0]
        else:
            assert found == (floor, [])
