"""The score track (rules.md §1.5, §1.8): every point change is an entry with a reason,
written in one place, and a claim takes the same steps whatever the rule modules."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tests.helpers import claims, set_hand, started
from ttr_desktop.rules import new_game
from ttr_desktop.rules.family import games, load_shipped

load_shipped()
ENGINE = Path(__file__).resolve().parent.parent / "ttr_desktop" / "rules"


@pytest.mark.parametrize("variant", [f.id for f in games()])
def test_each_seats_points_are_its_score_track_entries_summed(variant):
    game = new_game(variant, 2, seed=4)
    rng = random.Random(4)
    for _ in range(160):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        for seat in range(2):
            assert game.state.points[seat] == sum(
                amount for who, amount, _, _ in game.state.ledger if who == seat)


def _score_writers() -> list[str]:
    """Where the engine changes ``points`` or ``ledger`` of a state."""
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for n in ast.walk(fn):
                targets = (n.targets if isinstance(n, ast.Assign)
                           else [n.target] if isinstance(n, ast.AugAssign) else [])
                for t in targets:
                    node = t.value if isinstance(t, ast.Subscript) else t
                    if isinstance(node, ast.Attribute) and node.attr in ("points", "ledger"):
                        out.append(f"{path.name}:{fn.name}")
    return sorted(set(out))


def test_one_function_writes_the_score_track():
    # Setup lays the empty track; a copy, a view and a determinized game copy one;
    # every move on it goes through Game._score.
    assert _score_writers() == ["determinize.py:determinize", "game.py:_score",
                                "game.py:_setup", "state.py:copy", "view.py:build"]


def test_a_claim_without_rule_modules_runs_the_claim_steps_and_scores_once():
    game = started("usa", 2, seed=3)
    set_hand(game, 0, pink=4)                           # Denver–Omaha: 4 pink, 7 points
    action = claims(game, "denver-omaha")[0]
    before = len(game.state.ledger)
    events = game.apply(action)
    assert game.state.ledger[before:] == ((0, 7, "route", "denver-omaha"),)
    assert [e.kind for e in events][:1] == ["route_claimed"]
    assert game.state.pipeline == [] and game.current_seat == 1
