"""The end screen's tally columns read alike: a line says the same thing in every
player's column (a bot's too), shortened the same way when columns are narrow."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from ttr_desktop.rules.scoring import RouteTally  # noqa: E402
from ttr_desktop.ui import style  # noqa: E402
from ttr_desktop.ui.scenes.scoring_parts import TallyRow, route_rows  # noqa: E402
from ttr_desktop.ui.scenes.scoring_tally import TallyLayout  # noqa: E402
from ttr_desktop.ui.scenes.scoring_words import Amounts  # noqa: E402


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    style.reset_caches()
    yield


def seat_rows(claims: int, markers: int, tickets: int, bonus: int) -> list[TallyRow]:
    tally = RouteTally(claimed=claims, own=claims * 3, own_routes=claims,
                       income=markers * 2, income_routes=markers, given=4, given_routes=2)
    return [*route_rows(claims * 3 + markers * 2, claims, tally),
            TallyRow("part", f"Globetrotter: {tickets} tickets", bonus, part="globetrotter",
                     shorter=(f"Globetrotter: {tickets}", "Globetrotter"))]


def test_a_bots_column_never_says_your_claims():
    rows = seat_rows(9, 3, 4, 15)
    for row in rows:
        for words in row.choices:
            assert "your" not in words.lower() and "you " not in words.lower(), words


@pytest.mark.parametrize("width", [700, 760, 820, 900, 1000, 1100])
def test_one_line_reads_the_same_way_in_every_column(width):
    # Four players: Globetrotter "0" with 3 tickets beside "+15" with 4.
    rows = [seat_rows(9, 3, 3, 0), seat_rows(12, 11, 4, 15), seat_rows(7, 0, 3, 0),
            seat_rows(10, 5, 4, 15)]
    lay = TallyLayout(pygame.Rect(0, 0, width, 520), rows, ["Ann", "Bot 1", "Bot 2", "Bot 3"],
                      ["You", "Bot", "Bot", "Bot"], [(200, 40, 40)] * 4, Amounts(),
                      "Final scores", [])
    assert lay.mode == "columns"
    wording: dict[tuple, set[int]] = {}
    for box in lay.boxes:
        for placed in box.rows:
            if len(placed.entry) != 1:
                continue
            row = rows[box.seat][placed.entry[0]]
            if row.kind == "ticket":
                continue
            texts = " ".join(placed.texts)
            k = next((k for k, c in enumerate(row.choices) if c == texts), None)
            same = [r for r in rows[box.seat][:placed.entry[0]]
                    if (r.kind, r.part) == (row.kind, row.part)]
            wording.setdefault((row.kind, row.part, len(same)), set()).add(k)
    assert wording
    for key, used in wording.items():
        assert len(used) == 1, (key, used)
