"""USA 1910 (rules.md §11): three games on the USA board with their own tickets.

1910: 35 tickets, dealt 3 keep 2, draw 3 keep 1, Globetrotter +15, no longest path.
Mega Game: the 1910 tickets and the 34 revised ones (69), dealt 5 keep 3, draw 4 keep 1,
Globetrotter +15 and longest path +10. Big Cities: 35 tickets, dealt 4 keep 2, draw 4
keep 1, no bonus. Returned tickets go to the bottom of the deck; the rest is the USA game.
"""

from __future__ import annotations

import random

import pytest

from tests.helpers import give_route, play_random, set_current, set_tickets, started
from ttr_desktop.maps import get_map
from ttr_desktop.persistence import load_game, save_game
from ttr_desktop.persistence.saves import SaveError
from ttr_desktop.rules import new_game

GAMES = {
    # variant: (ticket sets, tickets, dealt, keep at least, drawn)
    "usa-1910": (("usa-1910",), 35, 3, 2, 3),
    "usa-1910-mega": (("usa-1910", "usa-1910-mega"), 69, 5, 3, 4),
    "usa-1910-big-cities": (("usa-bigcities",), 35, 4, 2, 4),
}


@pytest.mark.parametrize("variant", GAMES)
def test_each_game_plays_the_usa_board_with_its_own_tickets(variant):
    sets, count, *_ = GAMES[variant]
    game = new_game(variant, 3, seed=1)
    assert game.map is get_map("usa", sets)
    assert len(game.map.tickets) == count
    assert game.map.routes is get_map("usa").routes   # the USA board, its 45 trains each
    assert game.ruleset.trains_per_player == 45
    for n in (1, 6):
        with pytest.raises(ValueError):
            new_game(variant, n)


@pytest.mark.parametrize("variant", GAMES)
def test_tickets_are_dealt_and_kept_as_the_table_says(variant):
    _, count, dealt, keep, _ = GAMES[variant]
    game = new_game(variant, 4, seed=2)
    assert [len(p) for p in game.state.pending] == [dealt] * 4
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert min(len(a.tickets) for a in keeps) == keep
    assert max(len(a.tickets) for a in keeps) == dealt
    ids = {t.id for t in game.map.tickets}
    assert all(t.id in ids for t in game.view(0).pending_tickets)


@pytest.mark.parametrize("variant", GAMES)
def test_unkept_starting_tickets_go_to_the_bottom_of_the_deck(variant):
    _, count, dealt, keep, _ = GAMES[variant]
    game = new_game(variant, 2, seed=3)
    act = next(a for a in game.legal_actions()
               if a.kind == "keep_tickets" and len(a.tickets) == keep)
    game.apply(act)
    deck = game.state.ticket_decks["regular"]
    bottom = [game.board.ticket_ids[t] for t in deck[:len(act.returned)]]
    assert sorted(bottom) == sorted(act.returned)   # the top of the deck is its end


@pytest.mark.parametrize("variant", GAMES)
def test_a_ticket_draw_shows_the_tables_number_and_keeps_at_least_one(variant):
    *_, drawn = GAMES[variant]
    game = started(variant, 2, seed=4)
    game.apply(next(a for a in game.legal_actions() if a.kind == "draw_tickets"))
    assert len(game.state.pending[0]) == drawn
    keeps = [a for a in game.legal_actions() if a.kind == "keep_tickets"]
    assert min(len(a.tickets) for a in keeps) == 1


def test_1910_the_globetrotter_goes_to_the_most_completed_tickets_and_no_longest_path():
    game = started("usa-1910", 3, seed=5)
    give_route(game, 0, "chicago-pittsburgh-1")
    give_route(game, 0, "new-york-pittsburgh-1")
    give_route(game, 1, "denver-kansas-city-1")
    give_route(game, 1, "kansas-city-saint-louis-1")
    give_route(game, 1, "el-paso-los-angeles")        # seat 1 has the longest path
    set_tickets(game, 0, ["chicago-new-york", "nashville-new-york"])
    set_tickets(game, 1, ["denver-saint-louis", "calgary-nashville"])
    set_tickets(game, 2, [])
    scores = game.scores()
    assert [sc.parts["globetrotter"] for sc in scores] == [15, 15, 0]   # 1 each: a tie
    assert all("longest_path" not in sc.parts for sc in scores)
    assert scores[0].bonuses == {"globetrotter": 15}


def test_1910_nobody_takes_the_globetrotter_with_no_completed_ticket():
    game = started("usa-1910", 2, seed=6)
    set_tickets(game, 0, ["chicago-new-york"])
    set_tickets(game, 1, ["denver-saint-louis"])
    assert [sc.parts["globetrotter"] for sc in game.scores()] == [0, 0]


def test_the_mega_game_gives_both_bonuses():
    game = started("usa-1910-mega", 2, seed=7)
    give_route(game, 0, "boston-new-york-1")
    give_route(game, 0, "new-york-washington-1")
    give_route(game, 1, "el-paso-los-angeles")
    give_route(game, 1, "el-paso-oklahoma-city")
    give_route(game, 1, "denver-oklahoma-city")
    set_tickets(game, 0, ["boston-washington", "vancouver-portland"])
    set_tickets(game, 1, ["denver-el-paso", "los-angeles-oklahoma-city"])
    scores = game.scores()
    assert [sc.parts["globetrotter"] for sc in scores] == [0, 15]      # 2 completed beat 1
    assert [sc.parts["longest_path"] for sc in scores] == [0, 10]
    assert scores[1].bonuses == {"globetrotter": 15, "longest_path": 10}
    # The revised card: Boston-Washington is worth 4.
    assert scores[0].parts["tickets"] == 4 - 2


def test_big_cities_has_no_bonus():
    game = started("usa-1910-big-cities", 2, seed=8)
    give_route(game, 0, "montreal-toronto")
    give_route(game, 0, "chicago-toronto")
    set_tickets(game, 0, ["montreal-chicago"])
    set_tickets(game, 1, [])
    scores = game.scores()
    assert set(scores[0].parts) <= {"routes", "tickets"}
    assert scores[0].parts["tickets"] == 7 and not scores[0].bonuses


@pytest.mark.parametrize("variant", GAMES)
def test_a_saved_game_loads_and_goes_on_the_same(tmp_path, variant):
    game = started(variant, 3, seed=9)
    rng = random.Random(1)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    path = save_game(game, tmp_path / f"{variant}.toml", meta={"seats": ["human"] * 3})
    loaded = load_game(path)
    assert loaded.map is game.map
    assert loaded.state.to_dict() == game.state.to_dict()
    r1, r2 = random.Random(2), random.Random(2)
    for _ in range(30):
        if game.is_over:
            break
        assert game.apply(r1.choice(game.legal_actions())) == \
            loaded.apply(r2.choice(loaded.legal_actions()))


@pytest.mark.parametrize("variant", GAMES)
def test_random_games_finish_with_every_ticket_accounted_for(variant):
    game = new_game(variant, 4, seed=10)
    play_random(game, random.Random(10))
    assert game.is_over
    s = game.state
    held = sum(len(t) for t in s.tickets)
    in_decks = sum(len(d) for d in s.ticket_decks.values())
    assert held + in_decks + len(s.boxed_tickets) == len(game.map.tickets)


def test_a_usa_save_is_not_taken_for_a_1910_game(tmp_path):
    game = started("usa", 2, seed=11)
    set_current(game, 0)
    text = save_game(game, tmp_path / "usa.toml").read_text(encoding="utf-8")
    forged = text.replace('variant = "usa"', 'variant = "usa-1910"', 1)
    (tmp_path / "forged.toml").write_text(forged, encoding="utf-8")
    with pytest.raises(SaveError) as info:
        load_game(tmp_path / "forged.toml")
    assert "different version of the United States map" in str(info.value)


# Stations, optional as on USA ---------------------------------------------------------
@pytest.mark.parametrize("variant", GAMES)
def test_with_stations_each_player_has_three_worth_four_points_unbuilt(variant):
    plain = started(variant, 3, seed=12)
    assert "stations" not in plain.view(0).extra
    assert not any(a.kind == "build_station" for a in plain.legal_actions())
    assert "stations" not in plain.scores()[0].parts

    game = started(variant, 3, seed=12, stations=True)
    assert game.view(0).extra["stations_left"] == (3, 3, 3)
    assert [sc.parts["stations"] for sc in game.scores()] == [12, 12, 12]
    build = next(a for a in game.legal_actions() if a.kind == "build_station")
    seat = game.current_seat
    game.apply(build)
    assert game.view(seat).extra["stations_left"][seat] == 2
    assert game.scores()[seat].parts["stations"] == 8
    # The game's own tickets and bonuses stay with stations on.
    sets, count, *_ = GAMES[variant]
    assert game.map is get_map("usa", sets) and len(game.map.tickets) == count


@pytest.mark.parametrize("variant", GAMES)
def test_a_saved_game_with_stations_loads_with_its_stations(tmp_path, variant):
    game = started(variant, 2, seed=13, stations=True)
    game.apply(next(a for a in game.legal_actions() if a.kind == "build_station"))
    rng = random.Random(3)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    loaded = load_game(save_game(game, tmp_path / f"{variant}.toml"))
    assert (loaded.variant, loaded.options.get("stations")) == (variant, True)
    assert loaded.view(0).extra["stations"] == game.view(0).extra["stations"]
    assert loaded.state.to_dict() == game.state.to_dict()


@pytest.mark.parametrize("variant", GAMES)
def test_easy_normal_and_hard_bots_play_each_game_with_stations_to_the_end(variant):
    from ttr_desktop.bots import make_bot

    game = new_game(variant, 3, seed=14, options={"stations": True})
    bots = [make_bot("easy", seed=1), make_bot("greedy", seed=2),
            make_bot("hard", seed=3, budget=0.01)]
    for _ in range(3000):
        if game.is_over:
            break
        seat = game.current_seat
        legal = game.legal_actions()
        action = bots[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(action)
    assert game.is_over
    held = sum(len(t) for t in game.state.tickets)
    assert held >= 3 * GAMES[variant][3]                  # each kept at least the minimum
    assert all("stations" in sc.parts for sc in game.scores())
