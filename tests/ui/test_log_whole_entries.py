"""The game log on the board shows whole entries: when the oldest shown entry would not fit,
it is left out rather than shown as its last line alone (that line, "(1) with 1 yellow:
+1.", read as an entry of its own with no one doing anything)."""

from __future__ import annotations

import pytest

from tests.ui.boardkit import anns_turn
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes import board_panels


def long_entry(k: int) -> str:
    return (f"Bot {k} claimed Middlesbrough – Stockton-on-Tees (1) with 1 yellow and then "
            f"took the coal at Stockton-on-Tees (entry {k}).")


@pytest.mark.parametrize("short", [0, 1, 2])
def test_the_top_line_of_the_log_is_the_start_of_an_entry(instant_app, monkeypatch, short):
    app = instant_app
    board = anns_turn(app, "county-durham")
    width = board.lay.log.width - 20
    entries = [long_entry(k) for k in range(20)] + [f"Ann drew card {k}." for k in range(short)]
    wrapped = {e: style.wrap(e, 13, width) for e in entries}
    assert all(len(wrapped[e]) == 3 for e in entries[:20])   # each long one takes 3 rows
    first_lines = {lines[0] for lines in wrapped.values()}
    later_lines = {line for lines in wrapped.values() for line in lines[1:]}
    board.log_lines = [(e, style.INK) for e in entries]
    drawn: list[str] = []
    real_text = style.text

    def recording(string, *args, **kwargs):
        if string in first_lines or string in later_lines:
            drawn.append(string)
        return real_text(string, *args, **kwargs)

    monkeypatch.setattr(style, "text", recording)
    app.draw()
    assert drawn, "nothing of the log was drawn"
    assert drawn[0] in first_lines, f"the log starts mid-entry: {drawn[0]!r}"
    # What is shown is the newest entries, each with all its lines, in order.
    suffixes = [[line for e in entries[j:] for line in wrapped[e]] for j in range(len(entries))]
    assert drawn in suffixes

def test_a_newest_entry_longer_than_the_log_shows_its_start(instant_app):
    rows = board_panels.log_rows([("word " * 80, style.INK)], 200, 3)
    assert len(rows) == 3 and rows[0][0].startswith("word")
