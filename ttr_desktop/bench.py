"""Throughput figures: ``python -m ttr_desktop.bench [--quick] [--json] [--only TEXT]``.

Each row is a small function that measures one figure for about a given
number of seconds; the table prints the figure next to its target. Add a row
with the ``bench_row`` decorator (the window adds its frame-time rows so)::

    @bench_row("frame time, board scene", "ms", target=16.7, higher_is_better=False)
    def _frame(seconds: float) -> float:
        ...
        return mean_ms

The random-bot rows measure the engine: the random bot never reads its view,
so none is built there (``view()`` has its own row).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ttr_desktop.bots import make_bot
from ttr_desktop.rules import new_game


@dataclass(frozen=True)
class BenchRow:
    """One figure: ``measure(seconds)`` returns the value in ``unit``."""

    name: str
    unit: str
    measure: Callable[[float], float]
    target: float | None = None
    higher_is_better: bool = True
    #: Rows that need a display or other extras can be left out of quick runs.
    quick: bool = True

    def meets(self, value: float) -> bool | None:
        """Whether ``value`` reaches the target (None when there is no target)."""
        if self.target is None or value != value:  # no target, or not measured (nan)
            return None
        return value >= self.target if self.higher_is_better else value <= self.target


#: Every row, in table order.
ROWS: list[BenchRow] = []


def bench_row(name: str, unit: str, target: float | None = None,
              higher_is_better: bool = True, quick: bool = True):
    """Decorator: register ``measure(seconds) -> value`` as a table row."""
    def register(fn: Callable[[float], float]) -> Callable[[float], float]:
        ROWS.append(BenchRow(name, unit, fn, target, higher_is_better, quick))
        return fn
    return register


# ----------------------------------------------------------------------
# Helpers
def _random_game(variant: str, players: int, seed: int) -> int:
    """Play one game with random bots (no views); return the number of actions."""
    game = new_game(variant, players, seed=seed)
    bot = make_bot("random", seed=seed)
    choose, legal, apply = bot.choose, game.legal_actions, game.apply
    steps = passes = 0
    while not game.is_over and passes < players:  # a round of passes never ends
        action = choose(None, legal())
        apply(action)
        steps += 1
        passes = passes + 1 if action.kind == "pass" else 0
    return steps


def _games_per_second(play: Callable[[int], Any], seconds: float) -> float:
    """Games finished per second by ``play(seed)`` over about ``seconds``."""
    play(10_000)  # warm the per-map caches
    start = time.perf_counter()
    end = start + seconds
    games = 0
    while True:
        play(games)
        games += 1
        now = time.perf_counter()
        if now >= end:
            return games / (now - start)


def _greedy_game(variant: str, players: int, seed: int) -> None:
    game = new_game(variant, players, seed=seed)
    bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
    passes = 0
    while not game.is_over and passes < players:
        seat = game.current_seat
        action = bots[seat].choose(game.view(seat), game.legal_actions())
        game.apply(action)
        passes = passes + 1 if action.kind == "pass" else 0


def mid_game(variant: str = "usa", players: int = 4, seed: int = 3):
    """A game about halfway through (random play until someone has 22 trains or fewer)."""
    game = new_game(variant, players, seed=seed)
    bot = make_bot("random", seed=seed)
    while not game.is_over and min(game.state.trains) > 22:
        game.apply(bot.choose(None, game.legal_actions()))
    return game


def _time_per_call(fn: Callable[[], Any], seconds: float) -> float:
    """Mean microseconds per call of ``fn`` over about ``seconds``."""
    fn()
    calls = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(100):
            fn()
        calls += 100
        now = time.perf_counter()
        if now >= end:
            return (now - start) / calls * 1e6


# ----------------------------------------------------------------------
# Rows
def _search_game(variant: str, players: int, seed: int) -> int:
    """A random game as search plays it: quiet (no events), one canonical payment per
    route, no legality re-check of a listed action; the number of actions."""
    import random

    game = new_game(variant, players, seed=seed).quiet()
    rng = random.Random(seed)
    legal, apply = game.legal_actions, game.apply
    steps = passes = 0
    while not game.is_over and passes < players:
        acts = legal(True)
        action = acts[rng.randrange(len(acts))]
        apply(action, False)
        steps += 1
        passes = passes + 1 if action.kind == "pass" else 0
    return steps


def _greedy_positions(count: int = 200) -> list:
    """Positions (cloned games) greedy play reaches in 2- and 4-player USA."""
    out = []
    seed = 0
    while len(out) < count:
        players = 2 + 2 * (seed % 2)
        game = new_game("usa", players, seed=500 + seed)
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
        while not game.is_over:
            seat = game.current_seat
            if game.phase == "turn":
                out.append(game.clone())
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        seed += 1
    return out[:count]


# ----------------------------------------------------------------------
# Reference: ../shared/bench/reference_ttr.py (or TTR_REFERENCE), measured in the same run
def _reference_module():
    import importlib.util
    import os
    from pathlib import Path

    path = os.environ.get("TTR_REFERENCE") or str(
        Path(__file__).resolve().parents[2] / "shared" / "bench" / "reference_ttr.py")
    if not Path(path).is_file():
        return None
    spec = importlib.util.spec_from_file_location("reference_ttr", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ratio_to_reference(ours: Callable[[int], Any], players: int, seconds: float) -> float:
    """Our games per second over the reference's random games, measured alternately in
    short slices so machine load falls on both alike (nan without the reference)."""
    ref = _reference_module()
    if ref is None:
        return float("nan")

    def theirs(seed: int) -> None:
        ref.play(players, [ref.random_agent] * players, seed)

    a = b = 0.0
    for _ in range(4):
        a += _games_per_second(ours, seconds / 8)
        b += _games_per_second(theirs, seconds / 8)
    return a / b


@bench_row("random games, USA 4p, search mode ÷ reference", "×", target=2.2)
def _ratio4(seconds: float) -> float:
    return _ratio_to_reference(lambda s: _search_game("usa", 4, s), 4, seconds)


@bench_row("random games, USA 4p, checked ÷ reference", "×")
def _ratio4_checked(seconds: float) -> float:
    return _ratio_to_reference(lambda s: _random_game("usa", 4, s), 4, seconds)


@bench_row("random games, USA 2 players", "games/s", target=600)
def _usa2(seconds: float) -> float:
    return _games_per_second(lambda s: _random_game("usa", 2, s), seconds)


@bench_row("random games, USA 4 players", "games/s", target=400)
def _usa4(seconds: float) -> float:
    return _games_per_second(lambda s: _random_game("usa", 4, s), seconds)


@bench_row("random games, Europe 4 players", "games/s")
def _europe4(seconds: float) -> float:
    return _games_per_second(lambda s: _random_game("europe", 4, s), seconds)


@bench_row("greedy games, USA 2 players", "games/s")
def _greedy2(seconds: float) -> float:
    return _games_per_second(lambda s: _greedy_game("usa", 2, s), seconds)


@bench_row("greedy decision, USA 4p mid-game", "ms", target=5.0, higher_is_better=False)
def _greedy_decision(seconds: float) -> float:
    game = mid_game("usa", 4)
    seat = game.current_seat
    view, legal = game.view(seat), game.legal_actions()
    bot = make_bot("greedy", seed=1)
    return _time_per_call(lambda: bot.choose(view, legal), seconds) / 1000.0


@bench_row("legal_actions + apply pairs", "pairs/s")
def _pairs(seconds: float) -> float:
    start = time.perf_counter()
    end = start + seconds
    pairs = 0
    seed = 0
    while True:
        pairs += _random_game("usa", 4, seed)
        seed += 1
        now = time.perf_counter()
        if now >= end:
            return pairs / (now - start)


@bench_row("random games, USA 4p, search mode", "games/s")
def _usa4_search(seconds: float) -> float:
    return _games_per_second(lambda s: _search_game("usa", 4, s), seconds)


@bench_row("legal_actions(canonical), greedy positions", "µs", target=10.0,
           higher_is_better=False)
def _legal_canonical(seconds: float) -> float:
    games = _greedy_positions()
    return _mean_over(games, lambda g: g.legal_actions(True), seconds)


@bench_row("legal_actions(), every payment, greedy positions", "µs", higher_is_better=False)
def _legal_full(seconds: float) -> float:
    games = _greedy_positions()

    def fresh(g):
        g._legal_cache = None   # the list itself, not the cached copy
        return g.legal_actions()

    return _mean_over(games, fresh, seconds)


def _mean_over(games: list, fn: Callable[[Any], Any], seconds: float) -> float:
    """Mean microseconds of ``fn(game)`` over ``games``, repeated for ``seconds``."""
    calls = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for g in games:
            fn(g)
        calls += len(games)
        now = time.perf_counter()
        if now >= end:
            return (now - start) / calls * 1e6


@bench_row("clone(), USA 4p mid-game", "µs", target=5.0, higher_is_better=False)
def _clone(seconds: float) -> float:
    import random

    game = mid_game("usa", 4)
    rng = random.Random(1)
    return _time_per_call(lambda: game.clone(rng), seconds)


@bench_row("Hard bot playouts, USA 2p mid-game", "playouts/s", target=1000)
def _playouts(seconds: float) -> float:
    return _hard_playouts("usa", seconds)


@bench_row("Hard bot playouts, Old West 2p mid-game", "playouts/s")
def _playouts_old_west(seconds: float) -> float:
    return _hard_playouts("old-west", seconds)


@bench_row("Hard bot playouts, County Durham 2p mid-game", "playouts/s")
def _playouts_county_durham(seconds: float) -> float:
    return _hard_playouts("county-durham", seconds)


@bench_row("Hard bot playouts, Märklin 2p mid-game", "playouts/s")
def _playouts_marklin(seconds: float) -> float:
    return _hard_playouts("marklin", seconds)


def _hard_playouts(variant: str, seconds: float) -> float:
    """Full playouts from a mid-game position as the Hard bot runs them: the rollout
    policy's map facts once per decision, one sample per round, shared plans (its own
    seat leaning and ordering its tickets as the family says), a clone and a rollout per
    candidate (here 6)."""
    import random

    from ttr_desktop.bots.families import policy_for
    from ttr_desktop.bots.rollout import RolloutPolicy
    from ttr_desktop.rules.determinize import determinize

    game = mid_game(variant, 2)
    seat = game.current_seat
    view = game.view(seat)
    family = policy_for(variant)
    leans = {seat: family.search_route_lean}
    ordered = (seat,) if family.search_plan_orders else ()
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    end = start + seconds
    blank = None
    while True:
        sample = determinize(view, rng).quiet()
        if blank is None:      # the map's facts, once per decision (as Hard works them out)
            blank = RolloutPolicy(sample, rng, leans, ordered)
        base = blank.fork(rng)
        for other in range(2):
            base.plan(sample, other)
        for k in range(6):
            g = sample.clone(random.Random(k)).quiet()
            policy = base.fork(random.Random(k))
            policy.play_out(g)
            g.scores()
            done += 1
        now = time.perf_counter()
        if now >= end:
            return done / (now - start)


#: Where Hard's rounds are measured: the 2-player USA position the search was first
#: tuned on, and the families and table sizes where Hard gets fewest rounds (each row: at
#: least one 1 s decision, then as many as fit in the row's seconds).
HARD_ROUND_POSITIONS = (("usa", "USA", 2), ("marklin", "Märklin", 5), ("usa", "USA", 4),
                        ("marklin", "Märklin", 3), ("legacy", "Legacy", 3),
                        ("old-west", "Old West", 3), ("county-durham", "County Durham", 3),
                        ("nordic", "Nordic", 3))


def _hard_rounds_row(variant: str, players: int) -> Callable[[float], float]:
    def measure(seconds: float) -> float:
        return _hard_rounds(variant, players, seconds)
    return measure


for _variant, _label, _players in HARD_ROUND_POSITIONS:
    bench_row(f"Hard rounds in 1 s, {_label} {_players}p mid-game", "rounds")(
        _hard_rounds_row(_variant, _players))


def _hard_rounds(variant: str, players: int, seconds: float) -> float:
    """The search rounds Hard plays in 1 s on a fixed position (a mid-game turn with a
    choice to search) on one quiet core: decisions with a 1 s budget, their rounds over
    the processor time they took (so another program on the core does not lower it), the
    median over the decisions that fit in ``seconds`` (at least one)."""
    from ttr_desktop.bots.hard import HardBot

    game = mid_game(variant, players)
    rand = make_bot("random", seed=7)
    while not game.is_over:
        seat = game.current_seat
        if game.phase == "turn":
            probe = HardBot(seed=1, rounds=1)
            probe.choose(game.view(seat), game.legal_actions())
            if probe.last.get("rounds"):
                break   # Hard searches here (more than one candidate)
        game.apply(rand.choose(None, game.legal_actions()))
    seat = game.current_seat
    view, legal = game.view(seat), game.legal_actions()
    counts = []
    end = time.perf_counter() + seconds
    while not counts or time.perf_counter() < end:
        bot = HardBot(seed=len(counts) + 1, budget=1.0)
        cpu = time.process_time()
        bot.choose(view, legal)
        counts.append(bot.last["rounds"] / max(time.process_time() - cpu, 1e-6))
    counts.sort()
    return counts[len(counts) // 2]


@bench_row("view(), USA 4p mid-game", "µs", higher_is_better=False)
def _view(seconds: float) -> float:
    game = mid_game("usa", 4)
    seat = game.current_seat
    return _time_per_call(lambda: game.view(seat), seconds)


# ----------------------------------------------------------------------
# Running and printing
def run_bench(quick: bool = False, only: str | None = None,
              seconds: float | None = None) -> list[dict[str, Any]]:
    """Measure every row (or those whose name contains ``only``); one dict per row."""
    budget = seconds if seconds is not None else (0.4 if quick else 2.0)
    out = []
    for row in ROWS:
        if only and only.lower() not in row.name.lower():
            continue
        if quick and not row.quick:
            continue
        value = row.measure(budget)
        out.append({"name": row.name, "value": value, "unit": row.unit, "target": row.target,
                    "higher_is_better": row.higher_is_better, "ok": row.meets(value)})
    return out


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3f}"


def format_table(results: list[dict[str, Any]]) -> str:
    """The results as a plain-text table with the targets beside the figures."""
    w = max([36] + [len(r["name"]) + 1 for r in results])
    head = f"{'figure':<{w}}{'value':>12}  {'unit':<10}{'target':>12}  status"
    lines = [head, "-" * len(head)]
    for r in results:
        if r["target"] is None:
            target, status = "-", ""
        else:
            sign = ">=" if r["higher_is_better"] else "<="
            target = f"{sign} {_number(r['target'])}"
            status = "ok" if r["ok"] else "BELOW TARGET"
        lines.append(f"{r['name']:<{w}}{_number(r['value']):>12}  {r['unit']:<10}"
                     f"{target:>12}  {status}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ttr_desktop.bench",
                                description="Engine and bot throughput, with targets.")
    p.add_argument("--quick", action="store_true", help="about 0.4 s per row instead of 2 s")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--only", metavar="TEXT", help="only the rows whose name contains TEXT")
    p.add_argument("--no-window", action="store_true",
                   help="leave out the window's rows (frame time, start-up)")
    args = p.parse_args(argv)
    if not args.no_window:
        try:  # the window registers its own rows; it sits above this module
            import ttr_desktop.ui.bench_rows  # noqa: F401
        except ImportError as exc:
            print(f"(window rows left out: {exc})", file=sys.stderr)
    results = run_bench(quick=args.quick, only=args.only)
    if not results:
        p.error(f"no row matches {args.only!r}")
    if args.json:
        print(json.dumps({"rows": results, "python": sys.version.split()[0],
                          "quick": args.quick}))
    else:
        print(format_table(results))
    return 0


if __name__ == "__main__":
    # Run the imported module's main, so rows registered by other modules (the window's)
    # land in the same table as this file's own rows.
    from ttr_desktop.bench import main as _main
    sys.exit(_main())
