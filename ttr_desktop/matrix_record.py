"""The strength matrix over several sittings: ``sim --matrix --record FILE [--resume]`` and
``sim --report FILE...``.

A record file holds one JSON line per measured cell: the cell's figures (what
``sim._cell_figures`` gives, as in ``run_matrix``'s ``cells``) with a ``run`` object saying
what makes them comparable: the commit of the checkout that played them (and whether its
tree had uncommitted changes), games, seed, budget, rounds, cpu_clock, jobs and the date.
A line is written (flushed and synced) the moment a cell's last game is in, so a run
stopped after three hours keeps three hours of cells; ``--resume`` then plays only the
cells not recorded with the same setting, and ``--report`` prints the table from the
lines alone. A damaged line (a half line from a killed run, a hand edit) is named by
file and line and skipped; the good lines still count.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

#: What must agree for two measurements of a cell to stand for each other (besides the
#: commit, unless --any-commit).
SETTING_KEYS = ("games", "seed", "budget", "rounds", "cpu_clock")

UNKNOWN_COMMIT = "unknown"


# ----------------------------------------------------------------------
# What played the cells
def checkout_commit(where: str | os.PathLike[str] | None = None) -> tuple[str, bool | None]:
    """The commit the package was run from and whether its tree had uncommitted changes
    to tracked files: ``("3f2c...", False)``; ``("unknown", None)`` outside a git checkout
    (an installed copy, a built program, no git)."""
    folder = Path(where) if where is not None else Path(__file__).resolve().parent

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, timeout=20, check=False)

    try:
        # The package's own files must be tracked there, or this is some other repository
        # the package happens to sit in (a virtual environment inside a project).
        if git("ls-files", "--error-unmatch", "--", "__init__.py").returncode != 0:
            return UNKNOWN_COMMIT, None
        head = git("rev-parse", "HEAD")
        if head.returncode != 0 or not head.stdout.strip():
            return UNKNOWN_COMMIT, None
        status = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN_COMMIT, None
    dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
    return head.stdout.strip(), dirty


def run_setting(games: int, seed: int, budget: float | None, rounds: int | None,
                cpu_clock: bool, jobs: int, commit: str, dirty: bool | None) -> dict[str, Any]:
    """The ``run`` object of a record line, without its date."""
    return {"games": games, "seed": seed, "budget": budget, "rounds": rounds,
            "cpu_clock": bool(cpu_clock), "jobs": jobs, "commit": commit, "dirty": dirty}


def now_text() -> str:
    """The date and time a line is written, in UTC: '2026-11-28T04:31:07+00:00'."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def record_line(figures: dict[str, Any], setting: dict[str, Any],
                date: str | None = None) -> dict[str, Any]:
    """A cell's figures with the run that measured them (``setting`` and the date)."""
    line = dict(figures)
    line["run"] = {**setting, "date": date or now_text()}
    return line


# ----------------------------------------------------------------------
# Writing
def check_writable(path: str | os.PathLike[str]) -> None:
    """OSError with the reason when ``path`` cannot be appended to (checked before hours
    of play, not after the first cell). Creates the file when missing."""
    with open(path, "ab"):
        pass


def append_record(path: str | os.PathLike[str], line: dict[str, Any]) -> None:
    """Append one JSON line to ``path`` and make sure it is on the disk (flush + fsync).
    A half line left at the end by a run killed while writing gets its own line end
    first, so the new line stays whole."""
    data = (json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
    with open(path, "a+b") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                data = b"\n" + data
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


# ----------------------------------------------------------------------
# Reading
def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_date(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        datetime.fromisoformat(v)
    except ValueError:
        return False
    return True


_Check = tuple[Callable[[Any], bool], str]
_NUMBER: _Check = (_is_number, "a number")
_WHOLE: _Check = (_is_whole, "a whole number")
_TEXT: _Check = (lambda v: isinstance(v, str), "a text")
_FLAG: _Check = (lambda v: isinstance(v, bool), "true or false")
_FLAG_OR_NULL: _Check = (lambda v: v is None or isinstance(v, bool), "true, false or null")
_NUMBER_OR_NULL: _Check = (lambda v: v is None or _is_number(v), "a number or null")
_WHOLE_OR_NULL: _Check = (lambda v: v is None or _is_whole(v), "a whole number or null")
_OBJECT: _Check = (lambda v: isinstance(v, dict), "an object")
_PAIR: _Check = (lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_number, v)),
                 "a pair of numbers")
_TEXTS: _Check = (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
                  "a list of texts")
_DATE: _Check = (_is_date, "a date such as 2026-11-28T04:31:07+00:00")

#: What a record line must hold (what the table, --resume and --report read), by part.
LINE_SCHEMA: dict[str, _Check] = {
    "cell": _TEXT, "setup": _TEXT, "variant": _TEXT, "options": _OBJECT, "players": _WHOLE,
    "opponent": _TEXT, "games": _WHOLE, "target": _NUMBER, "hard": _OBJECT,
    "others": _OBJECT, "checks": _OBJECT, "ok": _FLAG, "errors": _TEXTS, "run": _OBJECT,
}
PART_SCHEMAS: dict[str, dict[str, _Check]] = {
    "hard": {"win_rate": _NUMBER, "interval": _PAIR, "mean_score": _NUMBER,
             "cards_left": _NUMBER, "tickets_failed": _NUMBER, "move_median_s": _NUMBER,
             "move_p95_s": _NUMBER, "rounds_median": _NUMBER_OR_NULL},
    "others": {"mean_score": _NUMBER, "cards_left": _NUMBER},
    "checks": {k: _FLAG_OR_NULL for k in ("wins", "hard_cards", "other_cards", "hard_failed",
                                          "move_time")},
    "run": {"games": _WHOLE, "seed": _WHOLE, "budget": _NUMBER_OR_NULL,
            "rounds": _WHOLE_OR_NULL, "cpu_clock": _FLAG, "commit": _TEXT,
            "dirty": _FLAG_OR_NULL, "date": _DATE},
}


def line_problem(line: Any) -> str | None:
    """What is wrong with a parsed record line, in words ('"hard.win_rate" should be a
    number, not "high"'), or None for a good line."""
    if not isinstance(line, dict):
        return f"a record is a JSON object, not {_show(line)}"

    def check(obj: dict[str, Any], schema: dict[str, _Check], prefix: str) -> str | None:
        missing = [k for k in schema if k not in obj]
        if missing:
            return "missing " + ", ".join(f'"{prefix}{k}"' for k in missing)
        for key, (ok, what) in schema.items():
            if not ok(obj[key]):
                return f'"{prefix}{key}" should be {what}, not {_show(obj[key])}'
        return None

    problem = check(line, LINE_SCHEMA, "")
    for part, schema in PART_SCHEMAS.items():
        if problem is None:
            problem = check(line[part], schema, f"{part}.")
    return problem


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def read_records(paths: Iterable[str | os.PathLike[str]],
                 missing_ok: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """The good record lines of the files, in file and line order, and a message for each
    problem ('runs.jsonl line 7: not JSON (...); skipped'). A missing or unreadable file
    is a problem too, unless ``missing_ok`` and it does not exist yet."""
    lines: list[dict[str, Any]] = []
    problems: list[str] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                text = f.read()
        except FileNotFoundError:
            if not missing_ok:
                problems.append(f"{path}: no such file")
            continue
        except OSError as exc:
            problems.append(f"{path}: cannot be read ({exc.strerror or exc})")
            continue
        raw_lines = text.split("\n")
        last = len(raw_lines)
        for number, raw in enumerate(raw_lines, 1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError as exc:
                # A record cut short: the end of the file without a line end, or a line
                # that opens an object and never closes it (a later run carried on after
                # it on a line of its own).
                if number == last or (raw.lstrip().startswith("{")
                                      and not raw.rstrip().endswith("}")):
                    problems.append(f"{path} line {number}: a half-written line (a run "
                                    "stopped while writing it?); skipped")
                else:
                    where = (f"{exc.msg} at column {exc.colno}"
                             if isinstance(exc, json.JSONDecodeError) else str(exc))
                    problems.append(f"{path} line {number}: not JSON ({where}); skipped")
                continue
            problem = line_problem(line)
            if problem:
                problems.append(f"{path} line {number}: {problem}; skipped")
                continue
            line["_source"] = f"{path} line {number}"
            lines.append(line)
    return lines, problems


def public(line: dict[str, Any]) -> dict[str, Any]:
    """A record line without what reading added."""
    return {k: v for k, v in line.items() if not k.startswith("_")}


# ----------------------------------------------------------------------
# Which cells are recorded
def cell_key(line: dict[str, Any]) -> tuple[str, int, str]:
    """What names a cell whatever the run: (setup, players, opponent)."""
    return line["setup"], line["players"], line["opponent"]


def same_setting(run: dict[str, Any], setting: dict[str, Any], any_commit: bool) -> bool:
    """Whether a recorded ``run`` measured with ``setting`` (and, unless ``any_commit``,
    at the same known commit)."""
    if any(run.get(k) != setting.get(k) for k in SETTING_KEYS):
        return False
    if any_commit:
        return True
    return run["commit"] == setting["commit"] != UNKNOWN_COMMIT


def _when(line: dict[str, Any]) -> datetime:
    when = datetime.fromisoformat(line["run"]["date"])
    return when.astimezone(timezone.utc) if when.tzinfo else when.replace(tzinfo=timezone.utc)


def newest(lines: Sequence[dict[str, Any]]) -> dict[tuple[str, int, str], dict[str, Any]]:
    """The newest line of each cell (by date; of lines of the same second, the later in
    the files)."""
    order = sorted(range(len(lines)), key=lambda k: (_when(lines[k]), k))
    out: dict[tuple[str, int, str], dict[str, Any]] = {}
    for k in order:
        out[cell_key(lines[k])] = lines[k]
    return out


def split_recorded(cells: Sequence[Any], lines: Sequence[dict[str, Any]],
                   setting: dict[str, Any], any_commit: bool
                   ) -> tuple[list[Any], list[dict[str, Any]], list[str]]:
    """For ``--resume``: the cells still to play, the newest recorded line of each cell
    that need not be played again, and the names of cells recorded only with another
    setting or commit (played again)."""
    fitting = newest([ln for ln in lines if same_setting(ln["run"], setting, any_commit)])
    known = {cell_key(ln) for ln in lines}
    todo, done, other = [], [], []
    for cell in cells:
        key = (cell.setup, cell.players, cell.opponent)
        if key in fitting:
            done.append(fitting[key])
        else:
            todo.append(cell)
            if key in known:
                other.append(cell.name)
    return todo, done, other


# ----------------------------------------------------------------------
# The table from recorded lines
def short_date(line: dict[str, Any]) -> str:
    return _when(line).strftime("%Y-%m-%d %H:%M")


def _commit_words(run: dict[str, Any]) -> str:
    commit = run["commit"]
    text = "an unknown commit" if commit == UNKNOWN_COMMIT else f"commit {commit[:10]}"
    if run["dirty"]:
        text += " with uncommitted changes"
    return text


def _setting_words(run: dict[str, Any]) -> str:
    from ttr_desktop.rules.words import plural
    from ttr_desktop.sim import _matrix_work

    games, seed = run["games"], run["seed"]
    return (f"{plural(games, 'game')} a cell (seeds {seed}-{seed + games - 1}), Hard "
            f"{_matrix_work(run['rounds'], run['budget'], run['cpu_clock'])}")


def _run_key(run: dict[str, Any]) -> tuple[Any, ...]:
    """What tells runs apart in a report: commit, uncommitted changes and setting."""
    return (run["commit"], run["dirty"]) + tuple(run[k] for k in SETTING_KEYS)


def recorded_matrix(lines: Sequence[dict[str, Any]], order: Sequence[Any] = (),
                    expected: Sequence[Any] = (),
                    keep: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
    """A matrix report (``format_matrix``'s input, and ``--report --json``'s output) from
    recorded lines alone: the newest line of each cell, in the order of the cells
    ``order`` (then any others in file order), those ``keep`` accepts. Cells of
    ``expected`` without a line are listed as ``not_measured``. When the cells come from
    different runs (commit or setting) or days, each cell's ``recorded`` names its run
    (a letter explained in ``notes``) and date."""
    position = {id(ln): k for k, ln in enumerate(lines)}
    rank = {c.name: k for k, c in enumerate(order)}
    chosen = [ln for ln in newest(lines).values() if keep is None or keep(ln)]
    chosen.sort(key=lambda ln: (rank.get(ln["cell"], len(rank)), position[id(ln)]))
    labels: dict[tuple[Any, ...], str] = {}
    dates: dict[str, list[datetime]] = {}
    groups: list[dict[str, Any]] = []
    for ln in chosen:
        run = ln["run"]
        key = _run_key(run)
        if key not in labels:
            labels[key] = chr(ord("a") + len(groups)) if len(groups) < 26 \
                else str(len(groups) + 1)
            groups.append({"run": labels[key],
                           **{k: run[k] for k in ("commit", "dirty") + SETTING_KEYS}})
        dates.setdefault(labels[key], []).append(_when(ln))
    several = len(groups) > 1
    per_cell = several or len({_when(ln).date() for ln in chosen}) > 1
    cells = []
    for ln in chosen:
        cell = public(ln)
        if per_cell:
            label = f"{labels[_run_key(ln['run'])]} " if several else ""
            cell["recorded"] = label + short_date(ln)
        cells.append(cell)
    notes = []
    for g in groups:
        first, last = min(dates[g["run"]]), max(dates[g["run"]])
        g["first"], g["last"] = first.isoformat(), last.isoformat()
        span = first.strftime("%Y-%m-%d %H:%M")
        if last.strftime("%Y-%m-%d %H:%M") != span:
            span += f" to {last.strftime('%Y-%m-%d %H:%M')}"
        if several:
            notes.append(f"Run {g['run']}: {_setting_words(g)}; {_commit_words(g)}, "
                         f"{span} UTC.")
        else:
            notes.append(f"Recorded at {_commit_words(g)}, {span} UTC.")
    one = groups[0] if len(groups) == 1 else None
    names = {c["cell"] for c in cells}
    return {
        "matrix": True,
        "recorded": True,
        "games": one["games"] if one else None,
        "seed": one["seed"] if one else None,
        "budget": one["budget"] if one else None,
        "rounds": one["rounds"] if one else None,
        "cpu_clock": one["cpu_clock"] if one else None,
        "runs": groups,
        "cells": cells,
        "cells_ok": sum(1 for c in cells if c["ok"]),
        "not_measured": [c.name for c in expected if c.name not in names],
        "notes": notes,
    }
