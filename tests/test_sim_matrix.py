"""The strength matrix of the simulator (``sim --matrix``) and search by a fixed number
of rounds (``--rounds``): Hard against Normals in every family at every table size."""

from __future__ import annotations

import json

import pytest

import ttr_desktop.sim as sim
from ttr_desktop.rules.family import games
from ttr_desktop.sim import (
    MATRIX_TARGETS, Cell, _matrix_entries, format_matrix, format_report, hard_seat, main,
    matrix_cells, run_matrix, run_tournament, wilson_interval,
)


def without_timing(report):
    """A matrix report without the figures the clock decides."""
    out = json.loads(json.dumps(report))
    out.pop("seconds")
    for cell in out["cells"]:
        for key in ("move_median_s", "move_p95_s"):
            cell["hard"].pop(key)
        cell["checks"].pop("move_time")
    return out


# --- Which cells -------------------------------------------------------------------------
def test_the_matrix_plays_every_family_at_every_table_size_up_to_five():
    cells = matrix_cells()
    seen = {(c.setup, c.players) for c in cells}
    assert all(c.opponent == "greedy" for c in cells)
    for family in games():
        for n in family.player_counts:
            assert ((family.id, n) in seen) == (n <= 5), (family.id, n)
    # The option sets the issue names: USA with and without stations, Old West with and
    # without Alvin; every other family with its defaults.
    for n in (2, 3, 4, 5):
        assert ("usa+stations", n) in seen and ("old-west+alvin", n) in seen
    assert {c.setup for c in cells} == {f.id for f in games()} | {"usa+stations",
                                                                       "old-west+alvin"}
    # Nordic Countries seats 2 or 3; Old West seats 6, which the matrix leaves out.
    assert sorted(c.players for c in cells if c.setup == "nordic") == [2, 3]
    assert sorted(c.players for c in cells if c.setup == "old-west") == [2, 3, 4, 5]
    # The families added since the first ones are there too.
    assert {"usa-1910", "usa-1910-mega", "usa-1910-big-cities", "nordic", "marklin",
            "legacy", "county-durham", "europe"} <= {c.setup for c in cells}
    assert len(cells) == len(seen)


def test_each_cell_seats_hard_against_normals_with_the_issues_targets():
    cell = Cell("marklin", 4)
    assert cell.bots == ["hard", "greedy", "greedy", "greedy"]
    assert cell.name == "marklin 4p"
    assert {n: Cell("usa", n).target for n in (2, 3, 4, 5)} == \
        {2: 0.65, 3: 0.53, 4: 0.40, 5: 0.32}
    # 1.6 times a fair share from three players up.
    for n in (3, 4, 5):
        assert MATRIX_TARGETS[n] == pytest.approx(1.6 / n, abs=0.005)
    assert Cell("usa", 2, (("stations", True),)).name == "usa+stations 2p"
    assert Cell("usa", 2, opponent="easy").target == 0.85
    assert Cell("usa", 2, opponent="hard").target == 0.5


def test_the_sanity_cells_follow_each_two_player_cell():
    names = [c.name for c in matrix_cells(only="old-west", sanity=True)]
    assert names == ["old-west 2p", "old-west 2p vs easy", "old-west 2p vs hard",
                     "old-west 3p", "old-west 4p", "old-west 5p",
                     "old-west+alvin 2p", "old-west+alvin 2p vs easy",
                     "old-west+alvin 2p vs hard", "old-west+alvin 3p", "old-west+alvin 4p",
                     "old-west+alvin 5p"]


def test_only_and_players_choose_cells():
    assert [c.name for c in matrix_cells(only="usa", players=[2, 5])] == \
        ["usa 2p", "usa 5p", "usa+stations 2p", "usa+stations 5p"]
    assert [c.name for c in matrix_cells(only="usa+stations,nordic", players=[3])] == \
        ["usa+stations 3p", "nordic 3p"]
    with pytest.raises(ValueError, match="no family or setup called 'atlantis'"):
        matrix_cells(only="atlantis")
    with pytest.raises(ValueError, match="no cell seats 4 players"):
        matrix_cells(only="nordic", players=[4])


def test_all_options_plays_every_combination_of_a_familys_optional_rules():
    setups = {c.setup for c in matrix_cells(only="usa-1910", players=[2], all_options=True)}
    assert setups == {"usa-1910", "usa-1910+stations"}


# --- Seats and figures -------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_game_i_puts_hard_in_seat_i_mod_n_and_every_bot_in_a_seat(players):
    for game in range(2 * players + 1):
        entries = _matrix_entries(game, players)
        assert sorted(entries) == list(range(players))
        assert entries.index(0) == hard_seat(game, players) == game % players


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    low, high = wilson_interval(65, 100)
    assert (low, high) == (pytest.approx(0.5525, abs=1e-4), pytest.approx(0.7364, abs=1e-4))
    # A share of shared wins is allowed; no games says nothing.
    assert wilson_interval(1.5, 3)[0] < 0.5 < wilson_interval(1.5, 3)[1]
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_a_small_matrix_rotates_hard_through_every_seat_and_reports_its_figures():
    report = run_matrix([Cell("usa", 3)], games=3, seed=2, rounds=1)
    (cell,) = report["cells"]
    hard, others = cell["hard"], cell["others"]
    assert cell["games"] == 3 and cell["players"] == 3 and cell["errors"] == []
    assert hard["games_per_seat"] == [1, 1, 1]
    assert 0 <= hard["win_rate"] <= 1 and hard["interval"][0] <= hard["win_rate"] \
        <= hard["interval"][1]
    assert hard["mean_score"] > 0 and others["mean_score"] > 0 and others["bot"] == "greedy"
    assert hard["rounds_median"] == 1      # one round a searched move
    assert cell["checks"]["wins"] == (hard["win_rate"] >= 0.53)
    assert cell["checks"]["hard_cards"] == (hard["cards_left"] <= 6)
    assert cell["checks"]["other_cards"] == (others["cards_left"] <= 8)
    assert cell["checks"]["hard_failed"] == (hard["tickets_failed"] <= 0.5)
    assert cell["checks"]["move_time"] is None   # by rounds, the clock is not the measure
    text = format_matrix(report)
    assert "usa 3p" in text and "≥53%" in text and "1 search round a move" in text
    assert "cells meet every target" in text


def test_by_the_clock_a_hard_move_is_held_to_its_budget():
    # The issue: median at most the budget, 95th percentile at most 2.5 budgets.
    report = run_matrix([Cell("usa", 2)], games=1, seed=1, budget=0.01)
    (cell,) = report["cells"]
    hard = cell["hard"]
    assert report["rounds"] is None and hard["rounds_median"] >= 1
    assert cell["checks"]["move_time"] == (hard["move_median_s"] <= 0.01
                                           and hard["move_p95_s"] <= 0.025)
    assert "0.01 s a move (clock)" in format_matrix(report)


def test_rounds_make_the_matrix_repeat_exactly_from_the_seed_in_one_or_two_processes():
    # Four rounds: enough for the search to leave Normal's move when it finds better.
    cells = [Cell("usa", 2)]
    one = run_matrix(cells, games=2, seed=5, rounds=4, jobs=1)
    two = run_matrix(cells, games=2, seed=5, rounds=4, jobs=2)
    assert without_timing(one)["cells"] == without_timing(two)["cells"]


def test_a_failing_game_is_named_in_its_cell_and_the_others_still_count(monkeypatch):
    real = sim._play_one

    def flaky(variant, names, labels, entries, game_seed, *rest):
        if game_seed == 3:
            raise RuntimeError("a rule broke")
        return real(variant, names, labels, entries, game_seed, *rest)

    monkeypatch.setattr(sim, "_play_one", flaky)
    report = run_matrix([Cell("usa", 2, opponent="easy")], games=3, seed=1, rounds=1)
    (cell,) = report["cells"]
    assert cell["games"] == 2 and not cell["ok"]
    assert len(cell["errors"]) == 1 and "seed 3" in cell["errors"][0] \
        and "a rule broke" in cell["errors"][0]
    text = format_matrix(report)
    assert "error: game 3 (seed 3" in text and "1 game failed" in text
    assert "0/1 cells meet every target" in text


# --- Rounds in plain tournaments ---------------------------------------------------------
def test_a_tournament_by_rounds_reports_them_and_repeats_from_the_seed():
    a = run_tournament("usa", ["hard", "greedy"], games=1, seed=4, rounds=4)
    b = run_tournament("usa", ["hard", "greedy"], games=1, seed=4, rounds=4)
    hard, greedy = a["bots"]
    assert a["rounds"] == 4 and hard["rounds_median"] == 4 and greedy["rounds_median"] is None
    for x, y in zip(a["bots"], b["bots"]):
        assert (x["wins"], x["mean_score"], x["cards_left"], x["tickets_failed"]) == \
            (y["wins"], y["mean_score"], y["cards_left"], y["tickets_failed"])
    text = format_report(a)
    assert "thinking per move (4 search rounds a move)" in text
    assert "cards" in text.splitlines()[2]


def test_rounds_must_be_a_positive_whole_number():
    with pytest.raises(ValueError, match="search rounds"):
        run_tournament("usa", ["hard", "greedy"], games=1, seed=1, rounds=0)


# --- Command line ------------------------------------------------------------------------
def test_cli_matrix_json_is_one_object_with_every_cell(capsys):
    assert main(["--matrix", "--only", "usa", "--players", "2", "--games", "1",
                 "--rounds", "1", "--jobs", "1", "--json", "--sanity"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["matrix"] is True and report["rounds"] == 1 and report["games"] == 1
    assert set(report["targets"]) >= {"win_share", "cards_left", "hard_tickets_failed"}
    assert [c["cell"] for c in report["cells"]] == [
        "usa 2p", "usa 2p vs easy", "usa 2p vs hard",
        "usa+stations 2p", "usa+stations 2p vs easy", "usa+stations 2p vs hard"]
    for c in report["cells"]:
        assert set(c) >= {"cell", "variant", "options", "players", "opponent", "games",
                          "target", "hard", "others", "checks", "ok", "errors"}
        assert set(c["hard"]) >= {"win_rate", "interval", "mean_score", "cards_left",
                                  "tickets_failed", "tickets_completed", "move_median_s",
                                  "move_p95_s", "rounds_median"}
        assert set(c["others"]) >= {"mean_score", "cards_left", "tickets_failed"}
    assert report["cells"][3]["options"] == {"stations": True}


def test_cli_matrix_by_the_clock_uses_a_quarter_second_a_move(monkeypatch, capsys):
    seen = {}

    def fake_run(cells, games, seed, jobs, budget, rounds, progress, cpu_clock=False,
                 on_cell=None):
        seen.update(budget=budget, rounds=rounds, cells=[c.name for c in cells])
        return {"cells": []}

    monkeypatch.setattr(sim, "run_matrix", fake_run)
    monkeypatch.setattr(sim, "format_matrix", lambda report: "table")
    assert main(["--matrix", "--only", "nordic"]) == 0
    assert seen == {"budget": 0.25, "rounds": None, "cells": ["nordic 2p", "nordic 3p"]}


@pytest.mark.parametrize("args,message", [
    (["--matrix", "--only", "moon"], "no family or setup called 'moon'"),
    (["--matrix", "--players", "2-x"], "'2-x' is not a number of players"),
    (["--sanity"], "--sanity goes with --matrix"),
    (["--players", "2,3"], "give one number of seats"),
    (["--rounds", "0"], "--rounds must be at least 1"),
    (["--rounds", "4", "--budget", "0.5"], "not both"),
])
def test_cli_bad_matrix_arguments_exit_with_a_message(args, message, capsys):
    with pytest.raises(SystemExit):
        main(args)
    assert message in capsys.readouterr().err


def test_the_bench_counts_the_rounds_hard_gets_in_one_second():
    from ttr_desktop.bench import ROWS, run_bench

    names = [r.name for r in ROWS if r.name.startswith("Hard rounds in 1 s")]
    assert names == ["Hard rounds in 1 s, USA 2p mid-game",
                     "Hard rounds in 1 s, Märklin 5p mid-game",
                     "Hard rounds in 1 s, USA 4p mid-game",
                     "Hard rounds in 1 s, Märklin 3p mid-game",
                     "Hard rounds in 1 s, Legacy 3p mid-game",
                     "Hard rounds in 1 s, Old West 3p mid-game",
                     "Hard rounds in 1 s, County Durham 3p mid-game",
                     "Hard rounds in 1 s, Nordic 3p mid-game"]
    (row,) = run_bench(only="Hard rounds in 1 s, USA 2p", seconds=0.1)
    assert row["unit"] == "rounds" and row["value"] > 4   # a real search, not the greedy move
    # Nordic's position searches too (a hand's substitute payments asked of the claim rule).
    (row,) = run_bench(only="Hard rounds in 1 s, Nordic 3p", seconds=0.1)
    assert row["unit"] == "rounds" and row["value"] > 4


def test_a_figure_over_its_limit_never_reads_as_the_limit():
    # 6.05 cards against Hard's limit of 6 fails, and says so in its digits.
    assert sim._judged(6.05, 6.0, False) == "6.05 ✗"
    assert sim._judged(6.6, 6.0, False) == "6.6 ✗"
    assert sim._judged(5.96, 6.0, True) == "6.0 ✓"
    assert sim._judged(0.502, 0.5, False, 2) == "0.502 ✗"
    assert sim._judged(7.3, None, None) == "7.3"
