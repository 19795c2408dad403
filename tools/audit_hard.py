"""Where Hard departs from Normal, which of the two moves was better?

Hard replaces Normal's move only when its rollouts say so. This tool checks those
rollouts against a second opinion: it plays Hard against Normal bots, and at every turn
where Hard's move differs from Normal's, it samples games consistent with Hard's view
(``rules.determinize``) and plays each of the two moves out with Normal bots in every
seat. It prints, for each kind of departure (Normal's move -> Hard's move), how many
there were and the mean gain Normal's play-outs give Hard's move (Hard's value: margin
over the best other seat plus the win bonus; and the bare margin).

Run: python tools/audit_hard.py --variant usa --players 4 --games 24 --budget 0.25

A departure the play-outs rate below zero, kind after kind, is a place where the
rollouts misjudge the game. (The play-outs use Normal for Hard's seat after the move, so
they measure the move, not the search that would follow it.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttr_desktop.bots.families import policy_for  # noqa: E402
from ttr_desktop.bots.greedy import GreedyBot  # noqa: E402
from ttr_desktop.bots.hard import HardBot, _value  # noqa: E402
from ttr_desktop.rules import new_game  # noqa: E402
from ttr_desktop.rules.determinize import determinize  # noqa: E402


def play_outs(view, moves, samples: int, seed: int) -> list[list[tuple[float, float]]]:
    """(value, margin) of each move over ``samples`` sampled games, Normal in every seat;
    the same sample and bot seeds serve every move."""
    rng = random.Random(seed)
    me = view.seat
    weight = policy_for(view.variant).search_points_weight
    out: list[list[tuple[float, float]]] = [[] for _ in moves]
    for _ in range(samples):
        sample = determinize(view, rng)
        bot_seed = rng.getrandbits(32)
        for j, move in enumerate(moves):
            game = sample.clone(random.Random(bot_seed))
            bots = [GreedyBot(bot_seed + s) for s in range(len(view.players))]
            game.apply(move)
            while not game.is_over:
                s = game.current_seat
                game.apply(bots[s].choose(game.view(s), game.legal_actions()))
            totals = [x.total for x in game.scores()]
            margin = totals[me] - max(t for i, t in enumerate(totals) if i != me)
            out[j].append((_value(game, me, weight), margin))
    return out


def audit_game(args: tuple[str, int, int, float, int, int | None]) -> list[dict]:
    """Play one seat-rotated game of Hard against Normal; one record per departure."""
    variant, players, seed, budget, samples, rounds = args
    hard_seat = seed % players
    game = new_game(variant, players, seed=seed)
    bots = [HardBot(seed * 7 + s, budget=budget, rounds=rounds) if s == hard_seat
            else GreedyBot(seed * 7 + s) for s in range(players)]
    records = []
    while not game.is_over:
        seat = game.current_seat
        view, legal = game.view(seat), game.legal_actions()
        move = bots[seat].choose(view, legal)
        if seat == hard_seat and view.phase == "turn":
            normal = GreedyBot(seed).choose(view, legal)
            if normal != move:
                res = play_outs(view, [normal, move], samples, seed * 1000 + len(records))
                records.append({
                    "kind": (normal.kind, move.kind),
                    "value": statistics.mean(b[0] - a[0] for a, b in zip(*res)),
                    "margin": statistics.mean(b[1] - a[1] for a, b in zip(*res)),
                })
        game.apply(move)
    return records


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="usa")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=24)
    p.add_argument("--seed", type=int, default=7000, help="game i uses seed+i")
    p.add_argument("--budget", type=float, default=0.25, help="Hard's seconds a decision")
    p.add_argument("--rounds", type=int, default=None,
                   help="a fixed number of rollout rounds instead of the clock")
    p.add_argument("--samples", type=int, default=30, help="sampled games per departure")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    work = [(args.variant, args.players, args.seed + i, args.budget, args.samples,
             args.rounds) for i in range(args.games)]
    by_kind: dict[tuple[str, str], list[dict]] = defaultdict(list)
    if args.jobs > 1:
        with get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map(audit_game, work)
    else:
        results = [audit_game(w) for w in work]
    for records in results:
        for r in records:
            by_kind[r["kind"]].append(r)
    print(f"{args.variant}, {args.players} players, {args.games} games: "
          f"{sum(len(v) for v in by_kind.values())} departures")
    print(f"{'Normal -> Hard':<34}{'count':>6}{'value':>8}{'margin':>8}")
    for kind, rows in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        value = statistics.mean(r["value"] for r in rows)
        margin = statistics.mean(r["margin"] for r in rows)
        print(f"{kind[0] + ' -> ' + kind[1]:<34}{len(rows):>6}{value:>+8.1f}{margin:>+8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
