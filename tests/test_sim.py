"""The tournament simulator: run_tournament and the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ttr_desktop.sim import format_report, main, parse_options, run_tournament

STAT_KEYS = {"label", "name", "wins", "win_rate", "mean_score", "stdev_score", "min_score",
             "max_score", "tickets_completed", "tickets_failed", "turns", "moves",
             "ms_per_move", "move_median_s", "move_p95_s", "games_per_seat", "family",
             "score_parts", "cards_left", "trains_left", "ticket_draws", "ticket_draw_at",
             "rounds_median"}


def without_timing(report):
    out = dict(report)
    out.pop("seconds")
    out["bots"] = [{k: v for k, v in b.items() if k != "ms_per_move"} for b in report["bots"]]
    return out


def test_small_two_player_tournament_reports_every_figure():
    report = run_tournament("usa", ["greedy", "random"], games=4, seed=5)
    assert report["games"] == 4 and report["players"] == 2 and report["variant"] == "usa"
    assert [b["label"] for b in report["bots"]] == ["greedy", "random"]
    for b in report["bots"]:
        assert set(b) == STAT_KEYS
        assert b["moves"] > b["turns"] > 0
    assert sum(b["wins"] for b in report["bots"]) == pytest.approx(4)
    assert report["bots"][0]["win_rate"] > report["bots"][1]["win_rate"]
    assert report["turns_per_game"] > 20


def test_the_score_parts_add_up_to_the_score_and_the_end_of_game_holdings_are_reported():
    # Enough games for Normal's early ticket draws (one in about twenty 2-player games).
    report = run_tournament("usa", ["greedy", "easy"], games=20, seed=3)
    for b in report["bots"]:
        assert set(b["score_parts"]) >= {"routes", "tickets"}
        assert sum(b["score_parts"].values()) == pytest.approx(b["mean_score"])
        assert 0 <= b["trains_left"] <= 45 and b["cards_left"] >= 0
    greedy, easy = report["bots"]
    # Easy never draws extra tickets; Normal does when its tickets are built early.
    assert easy["ticket_draws"] == 0 and easy["ticket_draw_at"] is None
    assert greedy["ticket_draws"] > 0 and 0 < greedy["ticket_draw_at"] < 0.6
    text = format_report(report)
    assert "score per game: greedy: " in text and "routes" in text
    assert "at the end: greedy: " in text and "cards," in text and "ticket draws (at" in text


def test_seats_rotate_so_every_bot_sits_in_every_seat():
    report = run_tournament("usa", "greedy,greedy,random,random", games=8, seed=1)
    assert [b["label"] for b in report["bots"]] == ["greedy#1", "greedy#2", "random#1",
                                                    "random#2"]
    for b in report["bots"]:
        assert b["games_per_seat"] == [2, 2, 2, 2]


def test_tournaments_are_reproducible_from_the_seed():
    a = run_tournament("europe", ["greedy", "random", "random"], games=3, seed=7)
    b = run_tournament("europe", ["greedy", "random", "random"], games=3, seed=7)
    assert without_timing(a) == without_timing(b)


def test_options_reach_the_games():
    report = run_tournament("usa", ["greedy", "random", "greedy"], games=3, seed=2,
                            options={"stations": True})
    assert report["options"] == {"stations": True}
    # With stations, a seat that builds none scores 12 more points; scores stay plausible.
    assert report["bots"][0]["mean_score"] > report["bots"][1]["mean_score"]


def test_progress_is_reported_after_every_game():
    seen = []
    run_tournament("usa", ["random", "random"], games=3, seed=1,
                   progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 3}, "3 players but 2 bots"),
    ({"bots": ["greedy", "wizard"]}, "unknown bot 'wizard'"),
    ({"variant": "atlantis"}, "unknown variant 'atlantis'"),
    ({"bots": ["random"] * 6}, "2-5 players, not 6"),
    ({"options": {"teleport": True}}, "unknown option 'teleport'"),
    ({"bots": []}, "no bots"),
])
def test_bad_setups_raise_value_error_with_a_clear_message(kwargs, message):
    args = {"variant": "usa", "bots": ["greedy", "random"], "games": 1, "seed": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        run_tournament(**args)


def test_parse_options_reads_booleans_numbers_and_lists():
    assert parse_options(["stations=true", "max_consecutive_refreshes=2,first_player=random"]
                         ) == {"stations": True, "max_consecutive_refreshes": 2,
                               "first_player": "random"}
    assert parse_options(["stations"]) == {"stations": True}
    assert parse_options(["stations=off"]) == {"stations": False}


def test_text_report_names_every_bot(capsys):
    assert main(["--bots", "greedy,random", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "random" in out and "win rate" in out
    report = run_tournament("usa", ["greedy", "random"], games=1, seed=1)
    assert "turns per game" in format_report(report)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "ttr_desktop.sim", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_cli_json_is_one_parsable_object():
    out = run_cli("--variant", "usa", "--players", "3", "--bots", "greedy,random,random",
                  "--games", "3", "--seed", "4", "--options", "stations=true", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["players"] == 3 and report["games"] == 3
    assert report["options"] == {"stations": True}
    assert [b["label"] for b in report["bots"]] == ["greedy", "random#1", "random#2"]
    assert out.stderr == ""  # no progress bar when stderr is not a terminal


def test_cli_progress_flag_draws_a_bar_on_stderr():
    out = run_cli("--bots", "random,random", "--games", "2", "--progress", "--json")
    assert out.returncode == 0
    assert "2/2 games" in out.stderr
    json.loads(out.stdout)


@pytest.mark.parametrize("args,message", [
    (["--players", "4", "--bots", "greedy,random"], "4 players but 2 bots"),
    (["--bots", "greedy,nobody"], "unknown bot 'nobody'"),
    (["--variant", "moon"], "unknown variant 'moon'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--options", "=3"], "bad option"),
    (["--games", "many"], "invalid int value"),
])
def test_cli_bad_arguments_exit_non_zero_with_a_message(args, message):
    out = run_cli(*args)
    assert out.returncode != 0
    assert message in out.stderr
    assert out.stdout == ""


def test_games_played_in_worker_processes_give_the_same_figures():
    one = run_tournament("usa", ["greedy", "easy"], games=4, seed=11)
    two = run_tournament("usa", ["greedy", "easy"], games=4, seed=11, jobs=2)
    for a, b in zip(one["bots"], two["bots"]):
        assert (a["wins"], a["mean_score"], a["tickets_completed"]) == \
            (b["wins"], b["mean_score"], b["tickets_completed"])


def test_a_searching_bot_reports_its_thinking_time_per_move():
    report = run_tournament("usa", ["hard", "random"], games=1, seed=3, budget=0.02)
    hard, rand = report["bots"]
    assert 0 < hard["move_median_s"] <= hard["move_p95_s"]
    assert rand["move_median_s"] == 0.0   # it does not search
    assert "thinking per move (budget 0.02 s)" in format_report(report)


def test_sim_refuses_a_budget_that_is_not_positive(capsys):
    with pytest.raises(SystemExit):
        main(["--bots", "hard,random", "--games", "1", "--budget", "0"])
    assert "--budget" in capsys.readouterr().err


def test_on_the_processor_clock_time_spent_waiting_for_a_core_is_not_thinking(monkeypatch):
    # On a busy machine a process waits for a core between slices of work. Counted on
    # the wall clock, that wait eats Hard's budget; counted in processor time (sim
    # --cpu-clock) it does not, and Hard searches what a quiet core gives it. Here each
    # search round also waits 20 ms (a sleep uses no processor time).
    import time as real_time

    import ttr_desktop.bots.hard as hard
    from ttr_desktop.bots import make_bot
    from ttr_desktop.rules import new_game
    from ttr_desktop.sim import searcher_clock

    sample = hard.determinize

    def a_busy_machine(view, rng, weight=None):
        real_time.sleep(0.02)
        return sample(view, rng, weight)

    monkeypatch.setattr(hard, "determinize", a_busy_machine)
    game = new_game("usa", 2, seed=4)
    bot = make_bot("greedy", seed=1)
    while game.phase != "turn" or game.state.turn < 6:
        game.apply(bot.choose(game.view(game.current_seat), game.legal_actions()))
    view, legal = game.view(game.current_seat), game.legal_actions()
    rounds = {}
    for cpu in (False, True):
        hard_bot = hard.HardBot(1, budget=0.06)
        hard_bot.clock = searcher_clock(cpu)
        hard_bot.choose(view, legal)
        rounds[cpu] = hard_bot.last["rounds"]
    assert rounds[False] <= 3             # 60 ms of waiting: three rounds at most
    assert rounds[True] > 2 * rounds[False]


def test_the_cli_plays_hard_on_the_processor_clock(capsys):
    assert main(["--variant", "usa", "--bots", "hard,random", "--games", "1",
                 "--budget", "0.02", "--cpu-clock", "--jobs", "1"]) == 0
    assert "budget 0.02 s of processor time" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--bots", "hard,random", "--games", "1", "--rounds", "3", "--cpu-clock"])
    assert "--cpu-clock goes with the clock" in capsys.readouterr().err
