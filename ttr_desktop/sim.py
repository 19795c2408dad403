"""Bot tournaments: ``python -m ttr_desktop.sim --variant usa --bots greedy,random --games 200``.

Game ``i`` uses seed ``seed + i``, and the seats rotate each game so every bot
sits in every seat equally often. A game in which every seat passes in a row
(nobody can ever act again) counts as stalled and is scored as it stands.

Printed per bot: win rate (a shared win counts as a fraction), mean score and
its standard deviation, tickets completed and failed per game, turns per game
and the mean time per move (the bot's thinking only).
``run_tournament`` returns the same figures as a dict for tests and scripts.
``--rounds N`` has bots that search play N search rounds a move instead of watching
the clock, so the figures do not depend on the machine's load.

``--matrix`` (``matrix_cells``, ``run_matrix``, ``format_matrix``) plays Hard against
Normals in every registered family at every table size from 2 up to 5 and prints
Hard's win share with its Wilson 95% interval against the targets, with the cards
each side holds at the end, Hard's failed tickets and its thinking time per move.
``--record FILE`` writes each cell the moment it completes, ``--resume`` plays only the
cells not recorded yet and ``--report FILE...`` prints the table from the records alone
(``ttr_desktop.matrix_record``), so the hours the matrix takes can be spread over sittings.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ttr_desktop.bots import bot_names, make_bot
from ttr_desktop.rules import new_game
from ttr_desktop.rules.ruleset import VARIANTS, get_ruleset
from ttr_desktop.rules.words import plural

Progress = Callable[[int, int], None]


class TournamentError(RuntimeError):
    """A game of the tournament failed; the message names the game and its seed."""


def parse_bots(bots: str | Sequence[str]) -> list[str]:
    """Bot names from a list or a comma-separated text."""
    if isinstance(bots, str):
        bots = bots.split(",")
    return [str(b).strip().lower() for b in bots if str(b).strip()]


def check_setup(variant: str, bots: Sequence[str], players: int | None,
                options: dict[str, Any] | None) -> int:
    """The player count; ValueError with a clear message when the setup cannot be played."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(sorted(VARIANTS))})")
    if not bots:
        raise ValueError("no bots given: name one per seat, e.g. --bots greedy,random")
    for name in bots:
        make_bot(name)  # raises ValueError naming the known bots
    if players is None:
        players = len(bots)
    elif players != len(bots):
        raise ValueError(f"{players} players but {len(bots)} bots ({', '.join(bots)}): "
                         f"give exactly one bot per seat")
    ruleset = get_ruleset(variant, options)  # raises ValueError for a bad option
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise ValueError(f"{variant} is for {ruleset.min_players}-{ruleset.max_players} "
                         f"players, not {players}")
    return players


def _labels(bots: Sequence[str]) -> list[str]:
    """Display names: the bot name, numbered when several seats use the same bot."""
    out = []
    for k, name in enumerate(bots):
        if bots.count(name) == 1:
            out.append(name)
        else:
            out.append(f"{name}#{bots[:k + 1].count(name)}")
    return out


def run_tournament(variant: str, bots: str | Sequence[str], games: int, seed: int,
                   players: int | None = None, options: dict[str, Any] | None = None,
                   progress: Progress | None = None, jobs: int = 1,
                   budget: float | None = None, rounds: int | None = None,
                   cpu_clock: bool = False) -> dict[str, Any]:
    """Play ``games`` games and return the figures per bot entry.

    ``bots`` names one bot per seat (duplicates allowed). ``jobs`` worker processes
    play games side by side (the figures do not depend on it: game ``i`` is always
    played the same way); ``budget`` is the seconds per decision of bots that
    search, ``rounds`` a fixed number of search rounds per decision instead (then the
    figures do not depend on the machine's load either). ``cpu_clock``: the budget and
    the thinking times are processor time, what a quiet core gives (see ``searcher_clock``).
    Raises ValueError for a setup that cannot be played and TournamentError when a game
    fails.
    """
    names = parse_bots(bots)
    n = check_setup(variant, names, players, options)
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if jobs < 1:
        raise ValueError("the number of jobs must be at least 1")
    _check_search(budget, rounds)
    labels = _labels(names)
    stats = _new_stats(len(names), n)
    game_turns: list[int] = []
    stalled_games = 0
    started = time.perf_counter()
    tasks = [(variant, names, labels, i, seed, n, options, budget, rounds, cpu_clock)
             for i in range(games)]
    if jobs > 1 and games > 1:
        import multiprocessing
        ctx = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        with ctx.Pool(min(jobs, games)) as pool:
            stalled_games = _collect(pool.imap(_game_task, tasks), games, stats, game_turns,
                                     progress)
    else:
        stalled_games = _collect(map(_game_task, tasks), games, stats, game_turns, progress)
    seconds = time.perf_counter() - started
    out_bots = _summaries(stats, names, labels, games)
    return {
        "variant": variant,
        "players": n,
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "budget": budget,
        "rounds": rounds,
        "cpu_clock": cpu_clock,
        "jobs": jobs,
        "bots": out_bots,
        "turns_per_game": statistics.fmean(game_turns) if game_turns else 0.0,
        # Games stopped because every seat passed in a row (scored as they stood).
        "stalled_games": stalled_games,
        "seconds": seconds,
    }


def _check_search(budget: float | None, rounds: int | None) -> None:
    """ValueError for a time budget or a number of search rounds that is not positive."""
    if budget is not None and not budget > 0:
        raise ValueError("the time budget must be positive")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or rounds < 1):
        raise ValueError(f"the number of search rounds must be a whole number of at least 1, "
                         f"not {rounds!r}")


def _new_stats(entries: int, seats: int) -> list[dict[str, Any]]:
    """Empty running figures for ``entries`` bot entries at a table of ``seats``."""
    return [{"wins": 0.0, "scores": [], "done": 0, "failed": 0, "turns": 0, "moves": 0,
             "think": 0.0, "times": [], "rounds": [], "seats": [0] * seats, "family": {},
             "parts": {}, "cards_left": 0, "trains_left": 0, "ticket_draws": 0,
             "draw_at": []} for _ in range(entries)]


def _summaries(stats: list[dict[str, Any]], names: Sequence[str], labels: Sequence[str],
               games: int) -> list[dict[str, Any]]:
    """Each bot entry's figures per game (or per move) from its running figures."""
    per = max(games, 1)
    out_bots = []
    for entry, st in enumerate(stats):
        scores = st["scores"]
        times = sorted(st["times"])
        rounds = sorted(st["rounds"])
        out_bots.append({
            "label": labels[entry],
            "name": names[entry],
            "wins": round(st["wins"], 4),
            "win_rate": st["wins"] / per,
            "mean_score": statistics.fmean(scores) if scores else 0.0,
            "stdev_score": statistics.pstdev(scores) if len(scores) > 1 else 0.0,
            "min_score": min(scores) if scores else 0,
            "max_score": max(scores) if scores else 0,
            "tickets_completed": st["done"] / per,
            "tickets_failed": st["failed"] / per,
            "turns": st["turns"] / per,
            "moves": st["moves"] / per,
            "ms_per_move": 1000.0 * st["think"] / st["moves"] if st["moves"] else 0.0,
            # Thinking time per move: median and 95th percentile (seconds).
            "move_median_s": _percentile(times, 0.5),
            "move_p95_s": _percentile(times, 0.95),
            # Search rounds per searched decision (median; None for a bot that does not
            # search or never had a choice to search).
            "rounds_median": _percentile(rounds, 0.5) if rounds else None,
            "games_per_seat": st["seats"],
            # The rule family's own figures, per game (rules modules' statistics()).
            "family": {k: v / per for k, v in sorted(st["family"].items())},
            # Where the score came from, per game (the scoring's named parts).
            "score_parts": {k: v / per for k, v in sorted(st["parts"].items())},
            # Tempo: what a seat still held when the game ended (cards it drew and never
            # spent, trains it never placed), and its extra ticket draws in the turn phase,
            # how many per game and how far into the game on average (0 = the first turn,
            # 1 = the last; None without any).
            "cards_left": st["cards_left"] / per,
            "trains_left": st["trains_left"] / per,
            "ticket_draws": st["ticket_draws"] / per,
            "ticket_draw_at": statistics.fmean(st["draw_at"]) if st["draw_at"] else None,
        })
    return out_bots


def _percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    k = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[k]


def _collect(results, games: int, stats: list[dict], game_turns: list[int],
             progress: Progress | None) -> int:
    """Fold per-game results (in game order) into the per-bot figures; the number of
    stalled games."""
    stalled = 0
    for i, res in enumerate(results):
        if "error" in res:
            raise TournamentError(res["error"])
        stalled += res["stalled"]
        game_turns.append(res["turns"])
        for row in res["seats"]:
            st = stats[row["entry"]]
            st["seats"][row["seat"]] += 1
            st["scores"].append(row["score"])
            st["done"] += row["done"]
            st["failed"] += row["failed"]
            st["turns"] += row["turns"]
            st["moves"] += row["moves"]
            st["think"] += row["think"]
            st["times"].extend(row["times"])
            st["rounds"].extend(row["rounds"])
            st["wins"] += row["win"]
            for key, value in row["family"].items():
                st["family"][key] = st["family"].get(key, 0.0) + value
            for key, value in row["parts"].items():
                st["parts"][key] = st["parts"].get(key, 0) + value
            st["cards_left"] += row["cards_left"]
            st["trains_left"] += row["trains_left"]
            st["ticket_draws"] += len(row["draw_at"])
            st["draw_at"].extend(row["draw_at"])
        if progress is not None:
            progress(i + 1, games)
    return stalled


def searcher_clock(cpu: bool = False):
    """The clock bots that search watch, and the sim times every move by: the wall clock,
    or with ``cpu`` this process's processor time. On a busy machine (other programs, more
    jobs than cores) a move's wall-clock budget buys fewer rounds; processor time buys
    what a quiet core would, so the figures stay those of the budget."""
    return time.process_time if cpu else time.perf_counter


def _game_task(task) -> dict[str, Any]:
    """Play game ``i`` of a tournament; its figures as plain data (a worker's job)."""
    variant, names, labels, i, seed, n, options, budget, rounds, cpu_clock = task
    game_seed = seed + i
    shift = i % n
    entries = [(s + shift) % n for s in range(n)]  # seat -> bot entry
    try:
        return _play_one(variant, names, labels, entries, game_seed, options, budget, rounds,
                         cpu_clock)
    except Exception as exc:  # name the game so it can be replayed
        return {"error": f"game {i + 1} (seed {game_seed}, seats "
                         f"{[labels[e] for e in entries]}) failed: "
                         f"{type(exc).__name__}: {exc}"}


def _play_one(variant: str, names: list[str], labels: list[str], entries: list[int],
              game_seed: int, options: dict[str, Any] | None,
              budget: float | None = None, rounds: int | None = None,
              cpu_clock: bool = False) -> dict[str, Any]:
    """One game; bots are fresh per game, seeded from the game seed and their entry.
    ``rounds``: bots that search play that many rounds a decision, whatever the clock;
    ``cpu_clock``: their budget and every thinking time are processor time."""
    game = new_game(variant, [labels[e] for e in entries], seed=game_seed, options=options)
    bots = [make_bot(names[e], seed=game_seed * 1009 + e, budget=budget) for e in entries]
    clock = searcher_clock(cpu_clock)
    for bot in bots:
        if getattr(bot, "searches", False):
            bot.clock = clock
            if rounds is not None:
                bot.rounds = rounds
    n = len(entries)
    rows = [{"entry": e, "seat": seat, "turns": 0, "moves": 0, "think": 0.0, "times": [],
             "rounds": [], "draw_at": []} for seat, e in enumerate(entries)]
    passes = 0
    stalled = False
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        view = game.view(seat)
        row = rows[seat]
        bot = bots[seat]
        before = getattr(bot, "last", None)
        t0 = clock()
        action = bot.choose(view, legal)
        spent = clock() - t0
        row["think"] += spent
        row["moves"] += 1
        if getattr(bot, "searches", False):
            row["times"].append(spent)
            last = getattr(bot, "last", None)
            # A decision it searched (it leaves the figures of each search it makes).
            if last is not before and isinstance(last, dict) and last.get("rounds"):
                row["rounds"].append(last["rounds"])
        if view.phase == "turn":
            row["turns"] += 1
            if action.kind == "draw_tickets":
                row["draw_at"].append(game.state.turn)
        game.apply(action)
        passes = passes + 1 if action.kind == "pass" else 0
        if passes >= n:
            # Every seat passed in a row: nobody can ever act again. The engine ends such
            # a game itself (ruleset knob end_on_pass_round); with the knob off, stop here
            # rather than go round forever. Either way the game is scored as it stands.
            stalled = True
            break
    scores = game.scores()
    winners = game.result().winners
    last_turn = max(game.state.turn, 1)
    for seat, row in enumerate(rows):
        sc = scores[seat]
        end = game.view(seat)
        row["score"] = sc.total
        row["parts"] = dict(sc.parts)
        row["cards_left"] = sum(end.hand.values())
        row["trains_left"] = end.trains_left[seat]
        row["draw_at"] = [turn / last_turn for turn in row["draw_at"]]
        row["done"] = sc.tickets_completed
        row["failed"] = len(sc.tickets) - sc.tickets_completed
        row["family"] = dict(game.statistics(seat))
        row["win"] = 1.0 / len(winners) if seat in winners else 0.0
    return {"turns": game.state.turn, "stalled": int(stalled), "seats": rows}


# ----------------------------------------------------------------------
# The strength matrix: Hard against Normals in every family at every table size
#: Hard's share of wins against Normals the matrix asks for, by table size: 1.6 times
#: parity (a fair share, 1/n), and 65% at two players.
MATRIX_TARGETS: dict[int, float] = {2: 0.65, 3: 0.53, 4: 0.40, 5: 0.32}
#: Hard's share of wins against Easy at two players.
EASY_TARGET = 0.85
#: At most this many cards in hand at the end of a game, on average, by bot.
CARDS_MAX: dict[str, float] = {"hard": 6.0, "greedy": 8.0}
#: At most this many failed tickets a game for Hard, on average.
HARD_FAILED_MAX = 0.5
#: A Hard move's thinking time, as a multiple of its budget: median and 95th percentile
#: (checked only when it plays by the clock).
MOVE_MEDIAN_MAX = 1.0
MOVE_P95_MAX = 2.5
#: Hard's seconds per move in the matrix unless --budget or --rounds says otherwise.
MATRIX_BUDGET = 0.25
#: The largest table the matrix plays.
MATRIX_MAX_PLAYERS = 5
#: Option sets played besides each family's defaults: USA with and without stations, Old
#: West with and without Alvin (``--all-options`` plays every family's every set).
MATRIX_EXTRA_OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "usa": ({"stations": True},),
    "old-west": ({"alvin": True},),
}
#: The seat-mates of each kind of cell: Hard against Normals, and the 2-player checks.
OPPONENT_NAMES = {"greedy": "Normal", "easy": "Easy", "hard": "Hard"}


@dataclass(frozen=True)
class Cell:
    """One cell of the matrix: Hard in a game of ``variant`` with ``options``, against
    ``players - 1`` bots called ``opponent``."""

    variant: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    opponent: str = "greedy"

    @property
    def setup(self) -> str:
        """The game: 'usa', 'usa+stations', 'old-west+alvin' (options switched on by name;
        any other value as name=value)."""
        parts = [self.variant]
        for key, value in self.options:
            parts.append(key if value is True else f"{key}={value}")
        return "+".join(parts)

    @property
    def name(self) -> str:
        """'usa+stations 3p', with ' vs easy' / ' vs hard' for the 2-player checks."""
        tail = "" if self.opponent == "greedy" else f" vs {self.opponent}"
        return f"{self.setup} {self.players}p{tail}"

    @property
    def bots(self) -> list[str]:
        """One bot per seat, Hard first (entry 0)."""
        return ["hard"] + [self.opponent] * (self.players - 1)

    @property
    def target(self) -> float:
        """Hard's share of wins the cell asks for (for Hard against Hard: a half)."""
        if self.opponent == "easy":
            return EASY_TARGET
        if self.opponent == "hard":
            return 1.0 / self.players
        return MATRIX_TARGETS.get(self.players, 1.6 / self.players)


def matrix_cells(only: str | Sequence[str] | None = None,
                 players: Sequence[int] | None = None, sanity: bool = False,
                 all_options: bool = False) -> list[Cell]:
    """The matrix's cells: every registered family with its default options (and the
    option sets of ``MATRIX_EXTRA_OPTIONS``, or every one with ``all_options``), at every
    table size it seats from 2 up to 5; with ``sanity``, each setup's 2-player cell is
    followed by Hard against Easy and Hard against Hard.

    ``only`` keeps the setups named (a family id such as 'usa' keeps all of its option
    sets, a setup such as 'usa+stations' only that one); ``players`` keeps those table
    sizes. ValueError for a name or size that matches nothing."""
    from ttr_desktop.rules.family import games

    setups: list[tuple[str, tuple[tuple[str, Any], ...], tuple[int, ...]]] = []
    for family in games():
        sets = list(family.option_sets()) if all_options else \
            [{}] + list(MATRIX_EXTRA_OPTIONS.get(family.id, ()))
        sizes = tuple(n for n in family.player_counts if 2 <= n <= MATRIX_MAX_PLAYERS)
        for opts in sets:
            setups.append((family.id, tuple(sorted(opts.items())), sizes))
    wanted = parse_bots(only) if only else []
    if wanted:
        known = {Cell(v, 2, o).setup for v, o, _ in setups} | {v for v, _, _ in setups}
        unknown = [w for w in wanted if w not in known]
        if unknown:
            raise ValueError(f"no family or setup called {', '.join(map(repr, unknown))} "
                             f"(known: {', '.join(sorted(known))})")
        setups = [s for s in setups if s[0] in wanted or Cell(s[0], 2, s[1]).setup in wanted]
    cells: list[Cell] = []
    for variant, opts, sizes in setups:
        for n in sizes:
            if players and n not in players:
                continue
            cells.append(Cell(variant, n, opts))
            if sanity and n == 2:
                cells.extend(Cell(variant, 2, opts, other) for other in ("easy", "hard"))
    if not cells:
        raise ValueError(f"no cell seats {', '.join(map(str, players or ()))} players "
                         "in the families chosen")
    return cells


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share of ``wins`` in ``games`` (95% with the default
    ``z``); (0, 1) without games. Fractional wins (shared first places) are allowed."""
    if games <= 0:
        return 0.0, 1.0
    p = min(max(wins / games, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def hard_seat(game: int, players: int) -> int:
    """The seat Hard takes in the matrix's game ``game`` (from 0): seat ``game mod n``."""
    return game % players


def _matrix_entries(game: int, players: int) -> list[int]:
    """Seat -> bot entry for game ``game``: Hard (entry 0) in ``hard_seat``, the others
    rotating with it."""
    return [(s - game) % players for s in range(players)]


def _matrix_task(task) -> tuple[int, int, dict[str, Any]]:
    """Play one game of one cell (a worker's job): (cell index, game index, figures)."""
    index, variant, names, labels, i, game_seed, options, budget, rounds, cpu_clock = task
    entries = _matrix_entries(i, len(names))
    try:
        res = _play_one(variant, names, labels, entries, game_seed, options, budget, rounds,
                        cpu_clock)
    except Exception as exc:  # name the game so it can be replayed
        res = {"error": f"game {i + 1} (seed {game_seed}, seats "
                        f"{[labels[e] for e in entries]}) failed: "
                        f"{type(exc).__name__}: {exc}"}
    return index, i, res


def run_matrix(cells: Sequence[Cell], games: int = 100, seed: int = 1, jobs: int = 1,
               budget: float | None = None, rounds: int | None = None,
               progress: Progress | None = None, cpu_clock: bool = False,
               on_cell: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play ``games`` seat-rotated games in every cell (game ``i`` uses seed ``seed + i``
    and puts Hard in seat ``i mod n``) and return each cell's figures against its targets.

    All games of all cells share one pool of ``jobs`` worker processes, handed out cell
    by cell, so a cell's games finish close together. Hard thinks ``budget`` seconds a
    move (processor seconds with ``cpu_clock``), or ``rounds`` search rounds a move (then
    the figures do not depend on the machine's load). A game that fails is counted and
    named in its cell's ``errors``; the other games still count. ``on_cell`` is called
    with a cell's figures the moment its last game is in (a long run can record and show
    each cell as it goes)."""
    if games < 1:
        raise ValueError("the number of games per cell must be at least 1")
    if jobs < 1:
        raise ValueError("the number of jobs must be at least 1")
    _check_search(budget, rounds)
    started = time.perf_counter()
    tasks = []
    for index, cell in enumerate(cells):
        names = cell.bots
        check_setup(cell.variant, names, cell.players, dict(cell.options))
        labels = _labels(names)
        tasks.extend((index, cell.variant, names, labels, i, seed + i, dict(cell.options),
                      budget, rounds, cpu_clock) for i in range(games))
    results: list[dict[int, dict[str, Any]]] = [{} for _ in cells]
    out_cells: list[dict[str, Any] | None] = [None] * len(cells)
    total = len(tasks)

    def gather(stream) -> None:
        for done, (index, i, res) in enumerate(stream, 1):
            results[index][i] = res
            if progress is not None:
                progress(done, total)
            if len(results[index]) == games:   # the cell's last game is in
                figures = _cell_figures(cells[index],
                                        [results[index][k] for k in range(games)],
                                        budget, rounds)
                results[index] = {}
                out_cells[index] = figures
                if on_cell is not None:
                    on_cell(figures)

    if jobs > 1 and total > 1:
        import multiprocessing
        ctx = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        with ctx.Pool(min(jobs, total)) as pool:
            gather(pool.imap_unordered(_matrix_task, tasks))
    else:
        gather(map(_matrix_task, tasks))
    assert all(c is not None for c in out_cells)
    return {
        "matrix": True,
        "games": games,
        "seed": seed,
        "budget": budget,
        "rounds": rounds,
        "cpu_clock": cpu_clock,
        "jobs": jobs,
        "seat_rotation": "game i puts Hard in seat i mod n",
        "ties": "a first place shared by k players counts as 1/k of a win",
        "targets": {"win_share": {str(n): t for n, t in MATRIX_TARGETS.items()},
                    "win_share_vs_easy": EASY_TARGET,
                    "cards_left": CARDS_MAX, "hard_tickets_failed": HARD_FAILED_MAX,
                    "move_median_budgets": MOVE_MEDIAN_MAX,
                    "move_p95_budgets": MOVE_P95_MAX},
        "cells": out_cells,
        "cells_ok": sum(1 for c in out_cells if c["ok"]),
        "seconds": time.perf_counter() - started,
    }


def _cell_figures(cell: Cell, results: list[dict[str, Any]], budget: float | None,
                  rounds: int | None) -> dict[str, Any]:
    """One cell's figures: Hard's (entry 0) and its seat-mates' (the mean of entries
    1..n-1), with the targets met or missed."""
    names = cell.bots
    labels = _labels(names)
    errors = [r["error"] for r in results if "error" in r]
    good = [r for r in results if "error" not in r]
    stats = _new_stats(len(names), cell.players)
    turns: list[int] = []
    stalled = _collect(iter(good), len(good), stats, turns, None)
    bots = _summaries(stats, names, labels, len(good))
    hard, others = bots[0], bots[1:]
    played = len(good)
    low, high = wilson_interval(hard["wins"], played)

    def mean(key: str) -> float:
        return statistics.fmean(b[key] for b in others)

    hard_fig = {k: hard[k] for k in ("wins", "win_rate", "mean_score", "cards_left",
                                     "tickets_completed", "tickets_failed", "move_median_s",
                                     "move_p95_s", "rounds_median", "turns",
                                     "games_per_seat")}
    hard_fig["interval"] = [low, high]
    other_fig = {k: mean(k) for k in ("win_rate", "mean_score", "cards_left",
                                      "tickets_completed", "tickets_failed")}
    other_fig["bot"] = cell.opponent
    target = cell.target
    checks: dict[str, bool | None] = {}
    if cell.opponent == "hard":   # a copy of itself: a fair share within the noise
        checks["wins"] = low <= target <= high
    else:
        checks["wins"] = hard["win_rate"] >= target
    checks["hard_cards"] = hard["cards_left"] <= CARDS_MAX["hard"]
    limit = CARDS_MAX.get(cell.opponent)
    checks["other_cards"] = None if limit is None else other_fig["cards_left"] <= limit
    checks["hard_failed"] = hard["tickets_failed"] <= HARD_FAILED_MAX
    if rounds is None and hard["move_median_s"]:
        spend = budget if budget is not None else _default_budget()
        checks["move_time"] = (hard["move_median_s"] <= MOVE_MEDIAN_MAX * spend
                               and hard["move_p95_s"] <= MOVE_P95_MAX * spend)
    else:
        checks["move_time"] = None   # by rounds: the clock is not the measure
    return {
        "cell": cell.name,
        "setup": cell.setup,
        "variant": cell.variant,
        "options": dict(cell.options),
        "players": cell.players,
        "opponent": cell.opponent,
        "games": played,
        "target": target,
        "hard": hard_fig,
        "others": other_fig,
        "checks": checks,
        "ok": not errors and all(v is not False for v in checks.values()),
        "turns_per_game": statistics.fmean(turns) if turns else 0.0,
        "stalled_games": stalled,
        "errors": errors,
    }


def _default_budget() -> float:
    from ttr_desktop.bots.hard import DEFAULT_BUDGET
    return DEFAULT_BUDGET


def _mark(ok: bool | None) -> str:
    return "" if ok is None else ("✓" if ok else "✗")


def _judged(value: float, limit: float | None, ok: bool | None, digits: int = 1) -> str:
    """A figure and its mark; a figure over its ``limit`` gets the digits it needs to
    read so (6.05 cards against a limit of 6 reads '6.05 ✗', not '6.0 ✗')."""
    text = f"{value:.{digits}f}"
    while ok is False and limit is not None and float(text) <= limit and digits < 3:
        digits += 1
        text = f"{value:.{digits}f}"
    return f"{text} {_mark(ok)}".rstrip()


def _matrix_work(rounds: int | None, budget: float | None, cpu_clock: bool) -> str:
    """How much Hard thinks a move, in words: '40 search rounds a move (...)', '0.25 s a
    move (clock)'."""
    if rounds is not None:
        return (f"{plural(rounds, 'search round')} a move (independent of the "
                "machine's load)")
    spend = budget if budget is not None else _default_budget()
    return (f"{spend:g} s of processor time a move (a quiet core's clock)"
            if cpu_clock else f"{spend:g} s a move (clock)")


def _cell_columns(c: dict[str, Any]) -> dict[str, str]:
    """A cell's figures as the matrix table writes them."""
    h, o, ch = c["hard"], c["others"], c["checks"]
    low, high = h["interval"]
    return {
        "win": f"{h['win_rate']:.1%}",
        "interval": f"[{low:.0%}, {high:.0%}]",
        "target": (f"½ {_mark(ch['wins'])}" if c["opponent"] == "hard"
                   else f"≥{c['target']:.0%} {_mark(ch['wins'])}"),
        "points": f"{h['mean_score']:.0f}/{o['mean_score']:.0f}",
        "cards_h": _judged(h["cards_left"], CARDS_MAX["hard"], ch["hard_cards"]),
        "cards_o": _judged(o["cards_left"], CARDS_MAX.get(c["opponent"]), ch["other_cards"]),
        "failed": _judged(h["tickets_failed"], HARD_FAILED_MAX, ch["hard_failed"], 2),
        "timing": (f"{h['move_median_s']:.3f}/{h['move_p95_s']:.2f} "
                   f"{_mark(ch['move_time'])}").rstrip(),
        "rounds": "-" if h["rounds_median"] is None else f"{h['rounds_median']:g}",
    }


def format_cell_line(cell: dict[str, Any]) -> str:
    """One cell's result on one line (shown as each cell of a long run completes):
    'usa 2p: Hard 65.0% of 100 games [55%, 74%] ≥65% ✓ · points 110/95 · ...'."""
    f = _cell_columns(cell)
    line = (f"{cell['cell']}: Hard {f['win']} of {plural(cell['games'], 'game')} "
            f"{f['interval']} {f['target']} · points {f['points']} · cards H {f['cards_h']}, "
            f"opp {f['cards_o']} · failed H {f['failed']} · move {f['timing']} s")
    if cell["hard"]["rounds_median"] is not None:
        line += f" · rounds {f['rounds']}"
    if cell["errors"]:
        line += f" · {plural(len(cell['errors']), 'game')} failed"
    return line


def format_matrix(report: dict[str, Any]) -> str:
    """The matrix as a plain-text table: one line per cell, Hard's win share with its 95%
    interval against the target, points, cards held at the end, failed tickets, time.

    The same layout serves recorded cells (``--report``): then ``games`` may be None
    (cells measured in different runs; each cell's ``recorded`` text gets a column),
    ``seconds`` may be missing, and ``notes`` and ``not_measured`` close the table."""
    games, seed = report["games"], report["seed"]
    if games is not None:
        work = _matrix_work(report["rounds"], report["budget"], report.get("cpu_clock", False))
        title = (f"Hard against Normals, {plural(games, 'game')} a cell "
                 f"(seeds {seed}-{seed + games - 1}), "
                 f"Hard in seat i mod n in game i; Hard {work}.")
    elif report["cells"]:
        title = ("Hard against Normals, cells measured in different runs (the column 'run' "
                 "and the notes below say which), Hard in seat i mod n in game i.")
    else:
        title = "Hard against Normals: no cell measured yet."
    lines = [title,
             "A shared first place counts as 1/k of a win. Targets: win share ≥ "
             + ", ".join(f"{t:.0%} at {n}p" for n, t in MATRIX_TARGETS.items())
             + f" (vs easy ≥ {EASY_TARGET:.0%}, vs hard: ½ inside the interval); cards held "
             f"at the end Hard ≤ {CARDS_MAX['hard']:g}, Normal ≤ {CARDS_MAX['greedy']:g}; "
             f"Hard's failed tickets ≤ {HARD_FAILED_MAX:g} a game. ✓/✗ judge the "
             "figure itself; the interval says how sure it is.", ""]
    cells = report["cells"]
    runs = any("recorded" in c for c in cells)
    w = max([20] + [len(c["cell"]) + 1 for c in cells])
    head = (f"{'cell':<{w}}{'games':>5}  {'Hard win':>8}  {'95% interval':<13} "
            f"{'target':<8}{'points H/opp':>13}  {'cards H':>8}  {'cards opp':>9}  "
            f"{'failed H':>8}  {'move med/p95 s':>16}  {'rounds':>6}"
            + ("  run" if runs else ""))
    lines.extend((head, "-" * len(head)))
    for c in cells:
        f = _cell_columns(c)
        lines.append(
            (f"{c['cell']:<{w}}{c['games']:>5}  {f['win']:>8}  {f['interval']:<13} "
             f"{f['target']:<8}{f['points']:>13}  {f['cards_h']:>8}  {f['cards_o']:>9}  "
             f"{f['failed']:>8}  {f['timing']:>16}  {f['rounds']:>6}"
             + (f"  {c.get('recorded', '')}" if runs else "")).rstrip())
        for err in c["errors"]:
            lines.append(f"    error: {err}")
    lines.append("")
    misses = []
    for key, what in (("wins", "win share"), ("hard_cards", "Hard's cards"),
                      ("other_cards", "the others' cards"),
                      ("hard_failed", "Hard's failed tickets"), ("move_time", "move time")):
        count = sum(1 for c in cells if c["checks"].get(key) is False)
        if count:
            misses.append(f"{what} in {plural(count, 'cell')}")
    errors = sum(len(c["errors"]) for c in cells)
    if errors:
        misses.append(f"{plural(errors, 'game')} failed")
    lines.append(f"{report['cells_ok']}/{len(cells)} cells meet every target"
                 + (f"; missed: {', '.join(misses)}" if misses else "")
                 + (f". {report['seconds']:.1f} s in all." if "seconds" in report else "."))
    lines.extend(report.get("notes", ()))
    missing = report.get("not_measured")
    if missing:
        lines.append(f"Not measured ({len(missing)}): {', '.join(missing)}.")
    return "\n".join(lines)


# ----------------------------------------------------------------------
# Command line
def parse_options(items: Sequence[str] | None) -> dict[str, Any]:
    """``["stations=true", "a=1,b=no"]`` -> ``{"stations": True, "a": 1, "b": False}``."""
    out: dict[str, Any] = {}
    for item in items or ():
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, text = part.partition("=")
            key = key.strip()
            if not key:
                raise ValueError(f"bad option {part!r}: expected name=value")
            out[key] = _option_value(text.strip()) if sep else True
    return out


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _bar(stream) -> Progress:
    started = time.perf_counter()
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - last[0] < 0.1:
            return  # at most ten updates a second
        last[0] = now
        width = 30
        filled = width * done // max(total, 1)
        elapsed = now - started
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games "
                     f"{elapsed:6.1f} s")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show


def format_report(report: dict[str, Any]) -> str:
    """The tournament figures as a plain-text table."""
    opts = ", ".join(f"{k}={v}" for k, v in report["options"].items()) or "none"
    games, seed = report["games"], report["seed"]
    title = (f"{report['variant']}, {report['players']} players, {games} games "
             f"(seeds {seed}-{seed + games - 1}), options: {opts}")
    lines = [title, ""]
    head = (f"{'bot':<12}{'wins':>8}{'win rate':>10}{'score':>8}{'stdev':>7}"
            f"{'tickets done':>14}{'failed':>8}{'cards':>7}{'turns':>7}{'ms/move':>9}")
    lines.append(head)
    lines.append("-" * len(head))
    for b in report["bots"]:
        lines.append(f"{b['label']:<12}{b['wins']:>8.1f}{b['win_rate']:>10.1%}"
                     f"{b['mean_score']:>8.1f}{b['stdev_score']:>7.1f}"
                     f"{b['tickets_completed']:>14.2f}{b['tickets_failed']:>8.2f}"
                     f"{b['cards_left']:>7.1f}{b['turns']:>7.1f}{b['ms_per_move']:>9.3f}")
    for title, key, digits in (("per game", "family", 2), ("score per game", "score_parts", 1)):
        line = _named_figures(report["bots"], title, key, digits)
        if line:
            lines.extend(("", line))
    if report["bots"] and "cards_left" in report["bots"][0]:
        lines.append("at the end: " + " · ".join(
            f"{b['label']}: {b['cards_left']:.1f} cards, {b['trains_left']:.1f} trains left, "
            f"{b['ticket_draws']:.2f} ticket draws"
            + (f" (at {b['ticket_draw_at']:.0%} of the game)"
               if b["ticket_draw_at"] is not None else "")
            for b in report["bots"]))
    searching = [b for b in report["bots"] if b.get("move_median_s")]
    if searching:
        budget, rounds = report.get("budget"), report.get("rounds")
        how = (f" ({plural(rounds, 'search round')} a move)" if rounds
               else f" (budget {budget:g} s"
               + (" of processor time)" if report.get("cpu_clock") else ")") if budget
               else "")
        lines.append("")
        lines.append("thinking per move" + how + ": "
                     + " · ".join(f"{b['label']}: median {b['move_median_s']:.2f} s, "
                                  f"95th percentile {b['move_p95_s']:.2f} s"
                                  + (f", {b['rounds_median']:g} rounds a search (median)"
                                     if b.get("rounds_median") else "")
                                  for b in searching))
    rate = games / report["seconds"] if report["seconds"] > 0 else 0.0
    lines.append("")
    pace = (f"{rate:.1f} games/s" if rate >= 1 or not games
            else f"{report['seconds'] / games:.1f} s a game")
    lines.append(f"{report['turns_per_game']:.1f} turns per game (all seats); "
                 f"{report['seconds']:.1f} s in all, {pace}")
    if report.get("stalled_games"):
        stalled = report["stalled_games"]
        lines.append(f"{plural(stalled, 'game')} stopped after every seat "
                     "passed in a row, scored as they stood")
    return "\n".join(lines)


def _named_figures(bots: list[dict[str, Any]], title: str, key: str, digits: int) -> str:
    """One line of each bot's named per-game figures (``bots[i][key]``: name -> value), or
    "" when no bot has any: 'per game: hard: routes 74.4, tickets 33.5 · greedy: ...'."""
    names = sorted({k for b in bots for k in b.get(key, {})})
    if not names:
        return ""
    return f"{title}: " + " · ".join(
        f"{b['label']}: " + ", ".join(f"{k.replace('_', ' ')} {b[key].get(k, 0):.{digits}f}"
                                      for k in names) for b in bots)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ttr_desktop.sim",
        description="Play bot tournaments and print win rates, scores and speed. "
                    "With --matrix: Hard against Normals in every family at every table "
                    "size, against the targets.",
        epilog="A first place shared by k players counts as 1/k of a win (so the shares of "
               "a table add up to 1 and parity is 1/n). Results with --rounds do not depend "
               "on the machine's load: the same seed gives the same games on a busy or a "
               "quiet machine; with the clock (--budget) a busy machine searches less.")
    p.add_argument("--variant", default="usa", help=f"one of {', '.join(sorted(VARIANTS))}")
    p.add_argument("--players", default=None, metavar="N",
                   help="number of seats (must equal the number of bots); with --matrix, "
                        "the table sizes to play, e.g. 2,3 or 2-4 (default: 2 up to 5)")
    p.add_argument("--bots", default="greedy,random",
                   help=f"comma-separated, one per seat; known: {', '.join(bot_names())}")
    p.add_argument("--games", type=int, default=100, help="games (per cell with --matrix)")
    p.add_argument("--seed", type=int, default=1, help="game i uses seed+i")
    p.add_argument("--options", action="append", metavar="NAME=VALUE",
                   help="optional rules, e.g. stations=true (repeat or comma-separate)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="games played side by side in worker processes (default: the "
                        "number of cores); with --matrix one pool plays every cell's games")
    p.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                   help="seconds per move for bots that search (hard); default 1.0, and "
                        "0.25 with --matrix")
    p.add_argument("--rounds", type=int, default=None, metavar="N",
                   help="bots that search (hard) play N search rounds a move instead of "
                        "watching the clock: a fixed amount of work, so the results do not "
                        "depend on the machine's load (and repeat exactly from the seed)")
    p.add_argument("--cpu-clock", action="store_true",
                   help="bots that search count their --budget in processor time, the "
                        "time a quiet core gives them: a busy machine (other programs, "
                        "more --jobs than cores) does not weaken them; thinking times "
                        "are processor time too")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true",
                   help="show a progress bar on stderr even when it is not a terminal")
    p.add_argument("--campaign", type=int, default=0, metavar="GAMES",
                   help="legacy only: play one campaign of GAMES games (one company per bot) "
                        "and print its standings")
    m = p.add_argument_group(
        "matrix", "Hard against Normals in every registered family (USA also with stations, "
                  "Old West also with Alvin) at every table size from 2 up to 5, game i with "
                  "Hard in seat i mod n; a table of Hard's win share with its Wilson 95% "
                  "interval against the target (2p 65%, 3p 53%, 4p 40%, 5p 32%), points, "
                  "cards held at the end (Hard <= 6, Normal <= 8), Hard's failed tickets "
                  "(<= 0.5) and thinking time. --variant, --bots and --options are not used.")
    m.add_argument("--matrix", action="store_true", help="play the matrix")
    m.add_argument("--only", metavar="FAMILIES",
                   help="comma-separated family ids (usa, old-west...) or setups "
                        "(usa+stations, old-west+alvin)")
    m.add_argument("--sanity", action="store_true",
                   help="add 2-player cells Hard against Easy (target 85%%) and Hard against "
                        "Hard (a half inside the interval)")
    m.add_argument("--all-options", action="store_true",
                   help="play every family with every combination of its optional rules")
    m.add_argument("--record", metavar="FILE",
                   help="add each cell's figures to FILE as one JSON line the moment its "
                        "last game is in, with the commit, setting and date (a long run "
                        "stopped early keeps the cells it finished)")
    m.add_argument("--resume", action="store_true",
                   help="with --record: play only the cells FILE does not hold yet with the "
                        "same --games, --seed, --budget, --rounds, --cpu-clock and commit")
    m.add_argument("--any-commit", action="store_true",
                   help="with --resume: count recorded cells whatever commit played them")
    m.add_argument("--report", nargs="+", metavar="FILE",
                   help="print the matrix from recorded files without playing (the newest "
                        "line of each cell counts; --only and --players choose cells, "
                        "--json for machines); cells not recorded are listed at the end")
    return p


def parse_players(text: str | None) -> list[int] | None:
    """``"2,3"`` or ``"2-4"`` -> the table sizes; None for none given. ValueError naming
    the problem."""
    if text is None:
        return None
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(f"--players: {part!r} is not a number of players "
                             "(e.g. 4, or 2,3 or 2-5 with --matrix)") from None
        if first > last or first < 1:
            raise ValueError(f"--players: {part!r} is not a range of table sizes")
        out.extend(n for n in range(first, last + 1) if n not in out)
    if not out:
        raise ValueError("--players: no table size given")
    return out


def _warn(message: str) -> None:
    print(f"sim: {message}", file=sys.stderr, flush=True)


def _play_matrix(args: argparse.Namespace, parser: argparse.ArgumentParser,
                 cells: list[Cell], show: Progress | None) -> int:
    """``--matrix``: play the cells (with ``--resume``, those not recorded yet), show each
    cell's result on stderr as it completes, add it to ``--record``'s file, print the
    table. 1 when a game failed."""
    from ttr_desktop import matrix_record as rec

    budget = args.budget if args.budget is not None or args.rounds is not None \
        else MATRIX_BUDGET
    jobs = max(1, args.jobs)
    setting: dict[str, Any] | None = None
    kept: list[dict[str, Any]] = []      # recorded lines standing for skipped cells
    played: list[dict[str, Any]] = []    # this run's lines
    all_cells = cells
    if args.record:
        try:
            rec.check_writable(args.record)
        except OSError as exc:
            parser.error(f"--record {args.record}: cannot write to it "
                         f"({exc.strerror or exc})")
        commit, dirty = rec.checkout_commit()
        setting = rec.run_setting(args.games, args.seed, budget, args.rounds,
                                  args.cpu_clock, jobs, commit, dirty)
        if args.resume:
            lines, problems = rec.read_records([args.record], missing_ok=True)
            for problem in problems:
                _warn(f"warning: {problem}")
            if commit == rec.UNKNOWN_COMMIT and not args.any_commit and lines:
                _warn("the commit of this copy is unknown, so no recorded cell can be "
                      "known to match it; --any-commit counts them whatever the commit")
            cells, kept, other = rec.split_recorded(cells, lines, setting, args.any_commit)
            if kept:
                _warn(f"skipping {plural(len(kept), 'cell')} recorded in {args.record} "
                      "with this setting: " + ", ".join(
                          f"{ln['cell']} ({rec.short_date(ln)})" for ln in kept))
            if kept and not args.any_commit and (dirty or any(ln["run"]["dirty"]
                                                              for ln in kept)):
                _warn("note: uncommitted changes (in this copy or when those cells were "
                      "played) are not told apart: the skipped cells count as this code")
            if other:
                _warn("recorded only at another commit or with another setting, so played "
                      f"again: {', '.join(other)}")
            if not cells:
                _warn(f"every cell is recorded in {args.record} already; nothing to play")

    finished = [0]

    def cell_done(figures: dict[str, Any]) -> None:
        finished[0] += 1
        if setting is not None:
            line = rec.record_line(figures, setting)
            played.append(line)
            try:
                rec.append_record(args.record, line)
            except OSError as exc:
                _warn(f"error: could not add {figures['cell']} to {args.record} "
                      f"({exc.strerror or exc}); its figures are in the table at the end")
        text = f"[{finished[0]}/{len(cells)}] {format_cell_line(figures)}"
        sys.stderr.write(("\r" + text.ljust(72) if show is not None else text) + "\n")
        sys.stderr.flush()

    report = run_matrix(cells, games=args.games, seed=args.seed, jobs=jobs, budget=budget,
                        rounds=args.rounds, progress=show, cpu_clock=args.cpu_clock,
                        on_cell=cell_done) if cells else None
    failed = report is not None and any(c["errors"] for c in report["cells"])
    if kept:   # the whole selection: the recorded cells with the ones just played
        report_all = rec.recorded_matrix(kept + played, order=all_cells, expected=all_cells)
        if report is not None:
            report_all["notes"].append(
                f"This run played {plural(len(report['cells']), 'cell')} in "
                f"{report['seconds']:.1f} s; {plural(len(kept), 'cell')} came from "
                f"{args.record}.")
        report = report_all
    assert report is not None
    print(json.dumps(report, indent=None, sort_keys=True) if args.json
          else format_matrix(report))
    return 1 if failed else 0


def _print_recorded(args: argparse.Namespace, sizes: list[int] | None,
                    expected: list[Cell]) -> int:
    """``--report FILE...``: the matrix from recorded lines alone. 1 when a file could not
    be read or holds no good line."""
    from ttr_desktop import matrix_record as rec

    lines, problems = rec.read_records(args.report)
    for problem in problems:
        _warn(f"warning: {problem}")
    wanted = parse_bots(args.only) if args.only else []

    def keep(line: dict[str, Any]) -> bool:
        return ((not wanted or line["setup"] in wanted or line["variant"] in wanted)
                and (not sizes or line["players"] in sizes))

    order = matrix_cells(args.only, sizes, sanity=True, all_options=args.all_options)
    report = rec.recorded_matrix(lines, order=order, expected=expected, keep=keep)
    report["files"] = list(args.report)
    report["problems"] = problems
    print(json.dumps(report, indent=None, sort_keys=True) if args.json
          else format_matrix(report))
    unreadable = any(p.startswith(f"{f}: ") for p in problems for f in args.report)
    if not lines:
        _warn("no recorded cell could be read")
    return 1 if unreadable or not lines else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        sizes = parse_players(args.players)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.budget is not None and not args.budget > 0:
            raise ValueError("--budget must be a positive number of seconds")
        if args.rounds is not None and args.rounds < 1:
            raise ValueError("--rounds must be at least 1")
        if args.rounds is not None and args.budget is not None:
            raise ValueError("give --budget (the clock) or --rounds (fixed work), not both")
        if args.rounds is not None and args.cpu_clock:
            raise ValueError("--cpu-clock goes with the clock (--budget), not --rounds")
        if args.report is not None:
            if args.matrix:
                raise ValueError("--report prints recorded cells without playing: leave out "
                                 "--matrix (or --report)")
            for flag, given in (("--record", args.record), ("--resume", args.resume),
                                ("--any-commit", args.any_commit)):
                if given:
                    raise ValueError(f"{flag} goes with --matrix, not --report")
            expected = matrix_cells(args.only, sizes, sanity=args.sanity,
                                    all_options=args.all_options)
        elif not args.matrix:
            for flag, given in (("--only", args.only), ("--sanity", args.sanity),
                                ("--all-options", args.all_options),
                                ("--record", args.record), ("--resume", args.resume),
                                ("--any-commit", args.any_commit)):
                if given:
                    raise ValueError(f"{flag} goes with --matrix")
            if sizes is not None and len(sizes) != 1:
                raise ValueError("--players: give one number of seats (lists go with "
                                 "--matrix)")
            players = sizes[0] if sizes else None
            options = parse_options(args.options)
            names = parse_bots(args.bots)
            check_setup(args.variant, names, players, options)
        else:
            if args.resume and not args.record:
                raise ValueError("--resume goes with --record FILE (the file to read and "
                                 "add to)")
            if args.any_commit and not args.resume:
                raise ValueError("--any-commit goes with --resume")
            cells = matrix_cells(args.only, sizes, sanity=args.sanity,
                                 all_options=args.all_options)
    except ValueError as exc:
        parser.error(str(exc))
    if args.report is not None:
        return _print_recorded(args, sizes, expected)
    show = _bar(sys.stderr) if (args.progress or sys.stderr.isatty()) else None
    if args.matrix:
        return _play_matrix(args, parser, cells, show)
    if args.campaign:
        from ttr_desktop.campaign_sim import run_cli
        return run_cli(args.variant, names, args.campaign, args.seed, parser.error)
    try:
        report = run_tournament(args.variant, names, args.games, args.seed,
                                players=players, options=options, progress=show,
                                jobs=max(1, args.jobs), budget=args.budget,
                                rounds=args.rounds, cpu_clock=args.cpu_clock)
    except TournamentError as exc:
        print(f"sim: error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=None, sort_keys=True))
    else:
        print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
