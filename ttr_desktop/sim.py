"""Bot tournaments: ``python -m ttr_desktop.sim --variant usa --bots greedy,random --games 200``.

Game ``i`` uses seed ``seed + i``, and the seats rotate each game so every bot
sits in every seat equally often. A game in which every seat passes in a row
(nobody can ever act again) counts as stalled and is scored as it stands.

Printed per bot: win rate (a shared win counts as a fraction), mean score and
its standard deviation, tickets completed and failed per game, turns per game
and the mean time per move (the bot's thinking only).
``run_tournament`` returns the same figures as a dict for tests and scripts.
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
                   budget: float | None = None) -> dict[str, Any]:
    """Play ``games`` games and return the figures per bot entry.

    ``bots`` names one bot per seat (duplicates allowed). ``jobs`` worker processes
    play games side by side (the figures do not depend on it: game ``i`` is always
    played the same way); ``budget`` is the seconds per decision of bots that
    search. Raises ValueError for a setup that cannot be played and
    TournamentError when a game fails.
    """
    names = parse_bots(bots)
    n = check_setup(variant, names, players, options)
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if jobs < 1:
        raise ValueError("the number of jobs must be at least 1")
    if budget is not None and not budget > 0:
        raise ValueError("the time budget must be positive")
    labels = _labels(names)
    stats = [{"wins": 0.0, "scores": [], "done": 0, "failed": 0, "turns": 0, "moves": 0,
              "think": 0.0, "times": [], "seats": [0] * n, "family": {}, "parts": {},
              "cards_left": 0, "trains_left": 0, "ticket_draws": 0, "draw_at": []}
             for _ in names]
    game_turns: list[int] = []
    stalled_games = 0
    started = time.perf_counter()
    tasks = [(variant, names, labels, i, seed, n, options, budget) for i in range(games)]
    if jobs > 1 and games > 1:
        import multiprocessing
        ctx = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        with ctx.Pool(min(jobs, games)) as pool:
            stalled_games = _collect(pool.imap(_game_task, tasks), games, stats, game_turns,
                                     progress)
    else:
        stalled_games = _collect(map(_game_task, tasks), games, stats, game_turns, progress)
    seconds = time.perf_counter() - started
    per = max(games, 1)
    out_bots = []
    for entry, st in enumerate(stats):
        scores = st["scores"]
        times = sorted(st["times"])
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
    return {
        "variant": variant,
        "players": n,
        "games": games,
        "seed": seed,
        "options": dict(options or {}),
        "budget": budget,
        "jobs": jobs,
        "bots": out_bots,
        "turns_per_game": statistics.fmean(game_turns) if game_turns else 0.0,
        # Games stopped because every seat passed in a row (scored as they stood).
        "stalled_games": stalled_games,
        "seconds": seconds,
    }


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


def _game_task(task) -> dict[str, Any]:
    """Play game ``i`` of a tournament; its figures as plain data (a worker's job)."""
    variant, names, labels, i, seed, n, options, budget = task
    game_seed = seed + i
    shift = i % n
    entries = [(s + shift) % n for s in range(n)]  # seat -> bot entry
    try:
        return _play_one(variant, names, labels, entries, game_seed, options, budget)
    except Exception as exc:  # name the game so it can be replayed
        return {"error": f"game {i + 1} (seed {game_seed}, seats "
                         f"{[labels[e] for e in entries]}) failed: "
                         f"{type(exc).__name__}: {exc}"}


def _play_one(variant: str, names: list[str], labels: list[str], entries: list[int],
              game_seed: int, options: dict[str, Any] | None,
              budget: float | None = None) -> dict[str, Any]:
    """One game; bots are fresh per game, seeded from the game seed and their entry."""
    game = new_game(variant, [labels[e] for e in entries], seed=game_seed, options=options)
    bots = [make_bot(names[e], seed=game_seed * 1009 + e, budget=budget) for e in entries]
    n = len(entries)
    rows = [{"entry": e, "seat": seat, "turns": 0, "moves": 0, "think": 0.0, "times": [],
             "draw_at": []} for seat, e in enumerate(entries)]
    clock = time.perf_counter
    passes = 0
    stalled = False
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        view = game.view(seat)
        row = rows[seat]
        t0 = clock()
        action = bots[seat].choose(view, legal)
        spent = clock() - t0
        row["think"] += spent
        row["moves"] += 1
        if getattr(bots[seat], "searches", False):
            row["times"].append(spent)
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
            f"{'tickets done':>14}{'failed':>8}{'turns':>7}{'ms/move':>9}")
    lines.append(head)
    lines.append("-" * len(head))
    for b in report["bots"]:
        lines.append(f"{b['label']:<12}{b['wins']:>8.1f}{b['win_rate']:>10.1%}"
                     f"{b['mean_score']:>8.1f}{b['stdev_score']:>7.1f}"
                     f"{b['tickets_completed']:>14.2f}{b['tickets_failed']:>8.2f}"
                     f"{b['turns']:>7.1f}{b['ms_per_move']:>9.3f}")
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
        budget = report.get("budget")
        lines.append("")
        lines.append("thinking per move" + (f" (budget {budget:g} s)" if budget else "") + ": "
                     + " · ".join(f"{b['label']}: median {b['move_median_s']:.2f} s, "
                                  f"95th percentile {b['move_p95_s']:.2f} s"
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
        description="Play bot tournaments and print win rates, scores and speed.")
    p.add_argument("--variant", default="usa", help=f"one of {', '.join(sorted(VARIANTS))}")
    p.add_argument("--players", type=int, default=None,
                   help="number of seats (must equal the number of bots)")
    p.add_argument("--bots", default="greedy,random",
                   help=f"comma-separated, one per seat; known: {', '.join(bot_names())}")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1, help="game i uses seed+i")
    p.add_argument("--options", action="append", metavar="NAME=VALUE",
                   help="optional rules, e.g. stations=true (repeat or comma-separate)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="games played side by side in worker processes (default: the "
                        "number of cores)")
    p.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                   help="seconds per move for bots that search (hard); default 1.0")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true",
                   help="show a progress bar on stderr even when it is not a terminal")
    p.add_argument("--campaign", type=int, default=0, metavar="GAMES",
                   help="legacy only: play one campaign of GAMES games (one company per bot) "
                        "and print its standings")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.options)
        names = parse_bots(args.bots)
        check_setup(args.variant, names, args.players, options)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.budget is not None and not args.budget > 0:
            raise ValueError("--budget must be a positive number of seconds")
    except ValueError as exc:
        parser.error(str(exc))
    if args.campaign:
        from ttr_desktop.campaign_sim import run_cli
        return run_cli(args.variant, names, args.campaign, args.seed, parser.error)
    show = _bar(sys.stderr) if (args.progress or sys.stderr.isatty()) else None
    try:
        report = run_tournament(args.variant, names, args.games, args.seed,
                                players=args.players, options=options, progress=show,
                                jobs=max(1, args.jobs), budget=args.budget)
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
