"""The strength matrix over several sittings: ``sim --matrix --record FILE`` writes each
cell as it completes, ``--resume`` plays only what is missing, ``--report FILE`` prints
the table from the records alone. Played with one search round a move and one or two
games a cell, so each test takes a second or two."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

import ttr_desktop.sim as sim
from ttr_desktop import matrix_record as rec
from ttr_desktop.sim import Cell, main, matrix_cells, run_matrix

#: Two cells, one game each: USA and USA with stations, two players.
SMALL = ["--matrix", "--only", "usa", "--players", "2", "--games", "1", "--rounds", "1",
         "--jobs", "1"]
COMMIT = "c0ffee" * 6 + "beef"


def lines_of(path: Path) -> list[dict]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t]


@pytest.fixture
def at_commit(monkeypatch):
    """The checkout the matrix is played from is at a given commit (COMMIT unless set)."""
    where = {"commit": COMMIT, "dirty": False}
    monkeypatch.setattr(rec, "checkout_commit", lambda *a: (where["commit"], where["dirty"]))
    return where


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """A record file of the two small cells, written by a real run at COMMIT."""
    path = tmp_path_factory.mktemp("record") / "matrix.jsonl"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rec, "checkout_commit", lambda *a: (COMMIT, False))
        assert main(SMALL + ["--record", str(path)]) == 0
    return path


@pytest.fixture
def record(recorded, tmp_path) -> Path:
    """A copy of the small run's record file to play with."""
    return Path(shutil.copy(recorded, tmp_path / "matrix.jsonl"))


class Played:
    """Wraps run_matrix: which cells a run actually played."""

    def __init__(self, monkeypatch):
        self.cells: list[str] = []
        real = sim.run_matrix

        def spy(cells, *args, **kwargs):
            self.cells.extend(c.name for c in cells)
            return real(cells, *args, **kwargs)

        monkeypatch.setattr(sim, "run_matrix", spy)


# --- Recording ---------------------------------------------------------------------------
def test_a_recorded_run_writes_each_cells_figures_with_what_makes_them_comparable(
        tmp_path, capsys):
    path = tmp_path / "runs.jsonl"
    assert main(SMALL + ["--record", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    lines = lines_of(path)
    assert [ln["cell"] for ln in lines] == ["usa 2p", "usa+stations 2p"]
    # The figures are the table's own, cell for cell, with the run that measured them.
    for line, cell in zip(lines, report["cells"]):
        run = line["run"]
        assert {k: v for k, v in line.items() if k != "run"} == cell
        assert {k: run[k] for k in ("games", "seed", "budget", "rounds", "cpu_clock")} == \
            {"games": 1, "seed": 1, "budget": None, "rounds": 1, "cpu_clock": False}
        assert datetime.fromisoformat(run["date"]).tzinfo is not None
        assert isinstance(run["dirty"], bool) or run["commit"] == "unknown"
    head = subprocess.run(["git", "-C", str(Path(sim.__file__).parent), "rev-parse", "HEAD"],
                          capture_output=True, text=True)
    expected = head.stdout.strip() if head.returncode == 0 else "unknown"
    assert lines[0]["run"]["commit"] == expected
    # Each cell's one-line result was shown on stderr as it completed.
    assert "[1/2] usa 2p: Hard" in err and "[2/2] usa+stations 2p: Hard" in err


def test_a_cell_is_recorded_the_moment_its_last_game_is_in_not_at_the_end(monkeypatch):
    events = []
    real = sim._play_one

    def play(variant, names, labels, entries, game_seed, options, *rest):
        events.append(("game", "stations" in options, game_seed))
        return real(variant, names, labels, entries, game_seed, options, *rest)

    monkeypatch.setattr(sim, "_play_one", play)
    cells = [Cell("usa", 2, opponent="easy"), Cell("usa", 2, (("stations", True),), "easy")]
    report = run_matrix(cells, games=2, seed=1, rounds=1,
                        on_cell=lambda fig: events.append(("cell", fig["cell"])))
    assert events == [("game", False, 1), ("game", False, 2), ("cell", "usa 2p vs easy"),
                      ("game", True, 1), ("game", True, 2),
                      ("cell", "usa+stations 2p vs easy")]
    assert [c["cell"] for c in report["cells"]] == ["usa 2p vs easy",
                                                    "usa+stations 2p vs easy"]


def test_a_record_file_that_cannot_be_written_stops_the_run_before_it_plays(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(SMALL + ["--record", str(tmp_path / "no such folder" / "runs.jsonl")])
    err = capsys.readouterr().err
    assert f"--record {tmp_path / 'no such folder' / 'runs.jsonl'}: cannot write" in err


def test_a_record_that_cannot_be_added_to_mid_run_is_named_and_the_table_still_comes(
        tmp_path, monkeypatch, capsys):
    def full(path, line):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(rec, "append_record", full)
    path = tmp_path / "runs.jsonl"
    assert main(SMALL + ["--record", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"could not add usa 2p to {path} (No space left on device)" in err
    assert f"could not add usa+stations 2p to {path}" in err
    assert "\nusa 2p " in out and "\nusa+stations 2p " in out


# --- Resuming ----------------------------------------------------------------------------
def test_a_cell_recorded_by_one_run_is_not_played_again_by_a_resumed_run(
        record, at_commit, monkeypatch, capsys):
    played = Played(monkeypatch)
    assert main(SMALL[:4] + ["2,3"] + SMALL[5:] + ["--record", str(record), "--resume"]) == 0
    out, err = capsys.readouterr()
    assert played.cells == ["usa 3p", "usa+stations 3p"]
    assert "skipping 2 cells recorded in" in err and "usa 2p (" in err \
        and "usa+stations 2p (" in err
    # The file now holds all four cells, and the table shows all four.
    assert [ln["cell"] for ln in lines_of(record)] == ["usa 2p", "usa+stations 2p",
                                                       "usa 3p", "usa+stations 3p"]
    for name in ("usa 2p", "usa 3p", "usa+stations 2p", "usa+stations 3p"):
        assert f"\n{name} " in out
    assert "This run played 2 cells" in out
    # A third sitting has nothing left to play.
    played.cells.clear()
    assert main(SMALL[:4] + ["2,3"] + SMALL[5:] + ["--record", str(record), "--resume"]) == 0
    assert played.cells == []
    err = capsys.readouterr().err
    assert "every cell is recorded" in err and "uncommitted" not in err
    # Uncommitted changes are not told apart: the user is warned.
    at_commit["dirty"] = True
    assert main(SMALL[:4] + ["2,3"] + SMALL[5:] + ["--record", str(record), "--resume"]) == 0
    assert played.cells == []
    assert "uncommitted changes" in capsys.readouterr().err


def test_a_resumed_run_plays_again_what_another_commit_or_setting_measured(
        record, at_commit, monkeypatch, capsys):
    captured = []

    def fake_run(cells, **kwargs):
        captured.append([c.name for c in cells])
        return {"cells": [], "seconds": 0.0}

    monkeypatch.setattr(sim, "run_matrix", fake_run)
    monkeypatch.setattr(sim, "format_matrix", lambda report: "table")
    at_commit["commit"] = "1234567" * 5 + "12345"       # the code changed since
    assert main(SMALL + ["--record", str(record), "--resume"]) == 0
    assert captured.pop() == ["usa 2p", "usa+stations 2p"]
    assert "at another commit or with another setting, so played again: usa 2p" in \
        capsys.readouterr().err
    # --any-commit counts them anyway...
    assert main(SMALL + ["--record", str(record), "--resume", "--any-commit"]) == 0
    assert captured == []
    # ...but never across another seed, number of games or kind of search.
    for change in (["--seed", "2"], ["--games", "2"]):
        assert main(SMALL + change + ["--record", str(record), "--resume", "--any-commit"]) == 0
        assert captured.pop() == ["usa 2p", "usa+stations 2p"]
    clock = ["--matrix", "--only", "usa", "--players", "2", "--games", "1", "--jobs", "1",
             "--budget", "0.05"]
    assert main(clock + ["--record", str(record), "--resume", "--any-commit"]) == 0
    assert captured.pop() == ["usa 2p", "usa+stations 2p"]


def test_a_killed_runs_half_line_is_skipped_with_a_warning(record, at_commit, monkeypatch,
                                                           capsys):
    whole = record.read_text(encoding="utf-8")
    first, second = whole.splitlines()
    # The run was stopped while writing the second cell.
    record.write_text(first + "\n" + second[:len(second) // 2], encoding="utf-8")
    played = Played(monkeypatch)
    assert main(SMALL + ["--record", str(record), "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"{record} line 2: a half-written line" in err
    assert played.cells == ["usa+stations 2p"]
    # The new line went onto a line of its own: it reads back whole, the half line is
    # still named and skipped.
    lines, problems = rec.read_records([record])
    assert [ln["cell"] for ln in lines] == ["usa 2p", "usa+stations 2p"]
    assert problems == [f"{record} line 2: a half-written line (a run stopped while "
                        "writing it?); skipped"]


# --- Reporting ---------------------------------------------------------------------------
def test_report_prints_recorded_cells_and_lists_the_missing_ones(record, capsys):
    assert main(["--report", str(record), "--only", "usa"]) == 0
    out = capsys.readouterr().out
    rows = [ln.split()[0] + " " + ln.split()[1] for ln in out.splitlines()
            if ln.startswith("usa")]
    assert rows == ["usa 2p", "usa+stations 2p"]
    assert f"Recorded at commit {COMMIT[:10]}, " in out
    assert out.startswith("Hard against Normals, 1 game a cell (seeds 1-1), ")
    assert out.rstrip().endswith("Not measured (6): usa 3p, usa 4p, usa 5p, "
                                 "usa+stations 3p, usa+stations 4p, usa+stations 5p.")
    # Without --only, the whole matrix is the measure.
    assert main(["--report", str(record)]) == 0
    out = capsys.readouterr().out
    assert f"Not measured ({len(matrix_cells()) - 2}): " in out


def test_report_takes_the_newest_line_of_a_cell_and_names_each_cells_run(record, tmp_path,
                                                                         capsys):
    later = lines_of(record)[0]
    later["hard"]["win_rate"] = 0.75
    later["run"].update(commit="a" * 40, dirty=True, seed=11, date="2030-01-02T03:04:05+00:00")
    newer = tmp_path / "newer.jsonl"
    newer.write_text(json.dumps(later) + "\n", encoding="utf-8")
    # The newer file first: the date decides, not the order of the files.
    assert main(["--report", str(newer), str(record), "--only", "usa", "--players", "2"]) == 0
    out = capsys.readouterr().out
    row = next(ln for ln in out.splitlines() if ln.startswith("usa 2p"))
    assert "75.0%" in row and row.endswith("a 2030-01-02 03:04")
    other = next(ln for ln in out.splitlines() if ln.startswith("usa+stations 2p"))
    assert other.split()[-3] == "b"
    assert "Run a: 1 game a cell (seeds 11-11), Hard 1 search round a move" in out
    assert f"commit {'a' * 10} with uncommitted changes, 2030-01-02 03:04 UTC." in out
    assert "Run b: 1 game a cell (seeds 1-1)" in out and f"commit {COMMIT[:10]}, " in out
    assert "Not measured" not in out


def test_report_json_gives_the_cells_their_runs_and_the_missing_cells(record, capsys):
    assert main(["--report", str(record), "--only", "usa+stations", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [c["cell"] for c in report["cells"]] == ["usa+stations 2p"]
    assert report["cells"][0]["run"]["commit"] == COMMIT
    assert report["not_measured"] == ["usa+stations 3p", "usa+stations 4p",
                                      "usa+stations 5p"]
    assert report["games"] == 1 and report["rounds"] == 1 and report["problems"] == []
    assert [r["commit"] for r in report["runs"]] == [COMMIT]


def test_a_damaged_record_file_names_each_bad_line_and_the_good_lines_still_count(
        record, capsys):
    good = record.read_text(encoding="utf-8").splitlines()
    missing = json.loads(good[1])
    del missing["hard"]
    wrong = json.loads(good[1])
    wrong["players"] = "two"
    wrong["run"]["date"] = "yesterday"
    dated = json.loads(good[1])
    dated["run"]["date"] = "yesterday"
    record.write_text("\n".join([good[0], "this is not a record", "", json.dumps(missing),
                                 json.dumps(wrong), json.dumps(dated), "[1, 2]"]) + "\n",
                      encoding="utf-8")
    assert main(["--report", str(record), "--only", "usa"]) == 0
    out, err = capsys.readouterr()
    assert f"{record} line 2: not JSON (Expecting value at column 1); skipped" in err
    assert f'{record} line 4: missing "hard"' in err
    assert f'{record} line 5: "players" should be a whole number, not "two"' in err
    assert f'{record} line 6: "run.date" should be a date' in err
    assert f"{record} line 7: a record is a JSON object, not [1, 2]" in err
    assert len(err.splitlines()) == 5     # the good line and the blank one pass quietly
    assert "\nusa 2p " in out and "\nusa+stations 2p " not in out
    assert "Not measured (7): usa 3p" in out and "usa+stations 2p" in out


def test_report_of_a_missing_file_says_so_and_shows_the_others(record, tmp_path, capsys):
    assert main(["--report", str(tmp_path / "gone.jsonl"), str(record)]) == 1
    out, err = capsys.readouterr()
    assert f"{tmp_path / 'gone.jsonl'}: no such file" in err
    assert "\nusa 2p " in out


@pytest.mark.parametrize("args,message", [
    (SMALL + ["--resume"], "--resume goes with --record FILE"),
    (["--record", "x.jsonl"], "--record goes with --matrix"),
    (SMALL + ["--record", "x.jsonl", "--any-commit"], "--any-commit goes with --resume"),
    (["--report", "x.jsonl", "--matrix"], "leave out --matrix"),
    (["--report", "x.jsonl", "--record", "y.jsonl"], "--record goes with --matrix"),
])
def test_record_resume_and_report_misused_exit_with_a_message(args, message, capsys):
    with pytest.raises(SystemExit):
        main(args)
    assert message in capsys.readouterr().err


def test_outside_a_checkout_the_commit_is_unknown(tmp_path):
    assert rec.checkout_commit(tmp_path) == ("unknown", None)


def test_the_strength_records_kept_with_the_project_read_cleanly_and_name_matrix_cells():
    from pathlib import Path

    from ttr_desktop.matrix_record import read_records
    from ttr_desktop.sim import matrix_cells

    path = Path(__file__).resolve().parent.parent / "docs" / "strength" / "matrix.jsonl"
    lines, problems = read_records([path])
    assert problems == []
    assert lines
    known = {c.name for c in matrix_cells()}
    for line in lines:
        assert line["cell"] in known
        assert len(line["run"]["commit"]) == 40
