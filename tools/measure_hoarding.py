"""How many train cards do the bots sit on? Cards held at the end and over the game.

Plays games of every shipped family (USA also with stations, Old West also with Alvin)
at every player count from 2 to min(max, 5), the same bot in every seat unless
``--bots`` says otherwise, and prints per cell and per bot name: the mean cards held
at the end of the game, the mean cards held at the start of the seat's turns, the
share of turns begun with more than 20 cards, tickets failed and points per game.

Run: python tools/measure_hoarding.py --games 40
     python tools/measure_hoarding.py --games 100 --json after.json
     python tools/measure_hoarding.py --families usa,marklin --players 2,4
     python tools/measure_hoarding.py --bots greedy,easy --players 2
     python tools/measure_hoarding.py --bots "greedy,greedy{endgame_trains=0}"

Game ``i`` of a cell uses seed ``seed + i`` and rotates the seats, as ``sim`` does, so
two runs with the same arguments play the same deals (and the same games while the
bots' choices agree). With different bots at the table, each deal is played once per
rotation of the seats (``--games`` counts the games, not the deals): two copies of one
bot on unpaired deals differed by 7 points over 100 2-player Old West games. One
process; the machine's other users keep their cores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttr_desktop.bots import make_bot  # noqa: E402
from ttr_desktop.rules import new_game  # noqa: E402
from ttr_desktop.rules.family import SHIPPED  # noqa: E402

#: A hand over this many cards counts as a hoard in the share of turns.
BIG_HAND = 20


def configurations() -> list[tuple[str, str, dict]]:
    """(label, variant, options) of every family as shipped, plus USA with stations and
    Old West with Alvin."""
    out = []
    for fam in SHIPPED:
        out.append((fam.id, fam.id, {}))
        if fam.id == "usa":
            out.append(("usa+stations", "usa", {"stations": True}))
        if fam.id == "old-west":
            out.append(("old-west+alvin", "old-west", {"alvin": True}))
    return out


def player_counts(variant: str) -> list[int]:
    fam = next(f for f in SHIPPED if f.id == variant)
    return list(range(fam.ruleset.min_players, min(fam.ruleset.max_players, 5) + 1))


def bot_for(spec: str, seed: int):
    """A bot by name, or ``name{attr=value;...}``: the bot with some of its class
    attributes changed (``greedy{endgame_trains=0}``: Normal without its end-game
    spending), to weigh a knob against the bot as shipped at the same table."""
    name, _, rest = spec.partition("{")
    bot = make_bot(name, seed=seed)
    for item in rest.rstrip("}").split(";"):
        if item.strip():
            key, _, value = item.partition("=")
            old = getattr(bot, key.strip())
            setattr(bot, key.strip(), type(old)(float(value)) if old is not None else value)
    return bot


def play(variant: str, options: dict, names: list[str], seed: int) -> list[dict]:
    """One game; per seat: bot name, cards at the end, hand sizes at its turns, points,
    tickets failed."""
    n = len(names)
    game = new_game(variant, [f"P{k}" for k in range(n)], seed=seed, options=options)
    bots = [bot_for(names[s], seed * 1009 + s) for s in range(n)]
    hands: list[list[int]] = [[] for _ in range(n)]
    passes = 0
    while not game.is_over:
        seat = game.current_seat
        view = game.view(seat)
        if view.phase == "turn":
            hands[seat].append(sum(view.hand.values()))
        action = bots[seat].choose(view, game.legal_actions())
        game.apply(action)
        passes = passes + 1 if action.kind == "pass" else 0
        if passes >= n:
            break
    scores = game.scores()
    rows = []
    for seat in range(n):
        sc = scores[seat]
        rows.append({"bot": names[seat],
                     "end": sum(game.view(seat).hand.values()),
                     "hands": hands[seat],
                     "points": sc.total,
                     "failed": len(sc.tickets) - sc.tickets_completed})
    return rows


def measure_cell(variant: str, options: dict, bots: list[str], players: int, games: int,
                 seed: int) -> dict[str, dict]:
    """Figures per bot name over ``games`` games of ``players`` seats (bots repeated in
    turn to fill the seats, seats rotated each game)."""
    base = [bots[k % len(bots)] for k in range(players)]
    # Different bots at one table play each deal once per rotation of the seats, so a
    # lucky deal or seat favours none of them; one bot plays a new deal every game.
    paired = len(set(bots)) > 1
    acc: dict[str, dict[str, list]] = {}
    for i in range(games):
        shift = i % players
        names = [base[(s + shift) % players] for s in range(players)]
        for row in play(variant, options, names, seed + (i // players if paired else i)):
            a = acc.setdefault(row["bot"], {"end": [], "held": [], "big": [], "points": [],
                                            "failed": []})
            a["end"].append(row["end"])
            hands = row["hands"] or [0]
            a["held"].append(statistics.fmean(hands))
            a["big"].append(sum(1 for h in hands if h > BIG_HAND) / len(hands))
            a["points"].append(row["points"])
            a["failed"].append(row["failed"])
    out = {}
    for bot, a in acc.items():
        pts = a["points"]
        out[bot] = {"end_cards": statistics.fmean(a["end"]),
                    "held_cards": statistics.fmean(a["held"]),
                    "big_hand_share": statistics.fmean(a["big"]),
                    "tickets_failed": statistics.fmean(a["failed"]),
                    "points": statistics.fmean(pts),
                    "points_se": (statistics.stdev(pts) / len(pts) ** 0.5
                                  if len(pts) > 1 else 0.0),
                    "seats": len(pts)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="greedy",
                   help="comma-separated, repeated to fill seats; name{attr=value;...} "
                        "changes a bot's knobs")
    p.add_argument("--families", default="", help="comma-separated labels (default: all)")
    p.add_argument("--players", default="", help="comma-separated counts (default: all)")
    p.add_argument("--json", default="", help="also write the figures to this file")
    args = p.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    want = {f.strip() for f in args.families.split(",") if f.strip()}
    counts = {int(c) for c in args.players.split(",") if c.strip()}
    results = []
    print(f"{'cell':<26}{'bot':<12}{'end cards':>10}{'held':>7}{'>20':>6}{'failed':>8}"
          f"{'points':>8}{'±':>6}{'s':>6}")
    for label, variant, options in configurations():
        if want and label not in want:
            continue
        for players in player_counts(variant):
            if counts and players not in counts:
                continue
            t0 = time.perf_counter()
            cell = measure_cell(variant, options, bots, players, args.games, args.seed)
            secs = time.perf_counter() - t0
            for bot, f in cell.items():
                results.append({"family": label, "players": players, "bot": bot, **f})
                print(f"{label + ' ' + str(players) + 'p':<26}{bot[:11]:<12}{f['end_cards']:>10.1f}"
                      f"{f['held_cards']:>7.1f}{f['big_hand_share']:>6.0%}"
                      f"{f['tickets_failed']:>8.2f}{f['points']:>8.1f}{f['points_se']:>6.1f}"
                      f"{secs:>6.0f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"games": args.games, "seed": args.seed,
                                               "bots": bots, "cells": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
