"""Golden playthroughs: seeded games whose transcripts must not change.

Each game picks its actions with a seeded ``random.Random`` over
``legal_actions()`` and writes one line per action (seat and
``action.describe()``) followed by the public events it caused, then the
final scores. A change in the engine's behaviour (deal, display, legal
actions or their order, scoring) changes the transcript.

Regenerate after an intended rule change with::

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py

and review the diff of ``tests/golden/`` before committing it.
"""

import difflib
import os
import random
from pathlib import Path

import pytest

from ttr_desktop.rules import new_game

GOLDEN = Path(__file__).parent / "golden"
NOBODY = -1  # a seat that sees only public information
GAMES = {
    "usa_2p": ("usa", ["Ann", "Bob"], 2024, None),
    "usa_stations_3p": ("usa", ["Ann", "Bob", "Cy"], 77, {"stations": True}),
    "europe_4p": ("europe", ["Ann", "Bob", "Cy", "Dee"], 1858, None),
}


def transcript(variant, players, seed, options) -> str:
    """The whole seeded game as text."""
    game = new_game(variant, players, seed=seed, options=options)
    rng = random.Random(seed)
    lines = [f"# {variant} {len(players)}p seed={seed} options={options or {}}",
             f"face up: {_face_up(game)}"]
    while not game.is_over:
        seat = game.current_seat
        actions = game.legal_actions()
        action = rng.choice(actions)
        lines.append(f"{seat} {players[seat]}: {action.describe()}  [{len(actions)} legal]")
        for event in game.apply(action):
            public = event.visible_to(NOBODY)
            if public is not None:
                lines.append("    " + public.describe(players))
    result = game.result()
    for score in game.scores():
        parts = ", ".join(f"{k}={v}" for k, v in sorted(score.parts.items()))
        tickets = " ".join(f"{t.id}{'+' if t.done else '-'}{t.points}" for t in score.tickets)
        lines.append(f"score {players[score.seat]}: {score.total} ({parts}) "
                     f"path={score.longest_path} tickets: {tickets}")
    lines.append(f"winners: {[players[w] for w in result.winners]} "
                 f"tie-break: {result.tie_break}")
    return "\n".join(lines) + "\n"


def _face_up(game):
    return [game.board.card_names[c] if c >= 0 else None for c in game.state.face_up]


def check_golden(name: str, text: str, what: str) -> None:
    """``text`` must equal the golden file ``name`` (written anew with UPDATE_GOLDEN=1);
    else the test fails with the first lines of the difference, saying ``what`` changed."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run with UPDATE_GOLDEN=1 to create it")
    expected = path.read_text()
    if text != expected:
        diff = difflib.unified_diff(expected.splitlines(), text.splitlines(),
                                    "golden", "now", n=2, lineterm="")
        shown = "\n".join(list(diff)[:60])
        pytest.fail(f"{name}: {what} (UPDATE_GOLDEN=1 to accept an intended change):"
                    f"\n{shown}")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_seeded_playthrough_matches_its_golden_transcript(name):
    check_golden(name, transcript(*GAMES[name]),
                 "the engine now plays this seeded game differently")


def test_a_transcript_is_reproducible_within_one_run():
    assert transcript(*GAMES["usa_2p"]) == transcript(*GAMES["usa_2p"])


# Hard's search by rounds -------------------------------------------------------------
# Hard searching a fixed number of rounds plays the same game from the same seed, and a
# change meant only to make its rollouts faster (the engine's search calls, the rollout
# policy, the scoring) must leave these transcripts alone: they were written before such
# changes and hold every move, each with the rounds' values of its candidates.
HARD_GAMES = {
    "hard_usa_4p": ("usa", 4, 7),
    "hard_marklin_3p": ("marklin", 3, 5),
    "hard_legacy_3p": ("legacy", 3, 1),
    "hard_old_west_3p": ("old-west", 3, 4),
    "hard_county_durham_3p": ("county-durham", 3, 3),
}
#: Moves of each game in the transcript (Hard in seat 0, Normal elsewhere).
HARD_MOVES = 70


def hard_transcript(variant: str, players: int, seed: int) -> str:
    """Hard (2 rounds a move) against Normals: each move, Hard's candidates' mean values,
    then the totals."""
    from ttr_desktop.bots import make_bot

    game = new_game(variant, players, seed=seed)
    bots = [make_bot("hard" if s == 0 else "greedy", seed=seed * 10 + s)
            for s in range(players)]
    bots[0].rounds = 2
    lines = [f"# {variant} {players}p seed={seed}: Hard in seat 0, 2 rounds a move"]
    for _ in range(HARD_MOVES):
        if game.is_over:
            break
        seat = game.current_seat
        bots[0].last = {}
        action = bots[seat].choose(game.view(seat), game.legal_actions())
        lines.append(f"{seat}: {action.describe()}")
        values = bots[seat].last.get("values") if seat == 0 else None
        if values:
            lines.append("    " + "; ".join(f"{a.describe()} {v:.2f}"
                                            for a, v in values.items()))
        game.apply(action)
    lines.append(f"totals: {[s.total for s in game.scores()]}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(HARD_GAMES))
def test_hard_by_rounds_plays_its_golden_transcript(name):
    check_golden(name, hard_transcript(*HARD_GAMES[name]),
                 "Hard now plays this seeded game differently")
