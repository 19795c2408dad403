"""Write the fixture saves under saves/ (games in progress that the tests load).

Run: python tools/make_fixture_saves.py  — deterministic; commit the output.
"""

from __future__ import annotations

import random
from pathlib import Path

from ttr_desktop.persistence import save_game
from ttr_desktop.rules import new_game

FIXTURES = [
    ("usa-2p-midgame.toml", "usa", ["Ann", "Bob"], None, 11, 80),
    ("usa-stations-3p-late.toml", "usa", ["Ann", "Bob", "Cleo"], {"stations": True}, 12, 230),
    ("europe-4p-midgame.toml", "europe", ["Ann", "Bob", "Cleo", "Dev"], None, 13, 160),
]


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "saves"
    for name, variant, players, options, seed, moves in FIXTURES:
        game = new_game(variant, players, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        save_game(game, out / name, meta={"seats": ["human"] * len(players), "fixture": True})
        print(f"{name}: {len(game.log)} moves, phase {game.phase}")


if __name__ == "__main__":
    main()
