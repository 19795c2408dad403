"""The scoring screen's layout: every piece fits the window with 2 to 6 players at
1280x720 and 1920x1080, no name is cut mid-word, the game length reads in rounds and the
chart never gets ahead of the tally."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from tests.ui.test_scoring_scene import (  # noqa: E402
    frames,
    play_out,
    press,
    run_until,
    snapshot,
)
from ttr_desktop.rules import VARIANTS  # noqa: E402
from ttr_desktop.ui import style  # noqa: E402
from ttr_desktop.ui.scenes.scoring import ScoringScene  # noqa: E402
from ttr_desktop.ui.scenes.scoring_parts import (  # noqa: E402
    DASH,
    ELLIPSIS,
    fit_text,
    ticket_label,
    whole_words_of,
)
from ttr_desktop.ui.scenes.scoring_words import rounds_played, rounds_text  # noqa: E402

NAMES = ["Annabelle", "Bartholomew", "Cy", "Dominique Martin", "Eve", "Fitzgerald"]
_GAMES: dict[int, object] = {}


def variant_for(players: int) -> str | None:
    """A variant that seats ``players`` (USA when it can)."""
    if VARIANTS["usa"].max_players >= players:
        return "usa"
    return next((name for name, r in VARIANTS.items() if r.max_players >= players), None)


def finished_game(players: int):
    """One finished bot game per player count, shared by the tests of this file."""
    if players not in _GAMES:
        variant = variant_for(players)
        if variant is None:
            pytest.skip(f"no variant seats {players} players yet")
        _GAMES[players] = play_out(seed=3, variant=variant, names=NAMES[:players],
                                   options={} if variant != "usa" else None)
    return _GAMES[players]


def resize_window(app, size: tuple[int, int]) -> None:
    """Make the window ``size`` and tell the scenes, as the OS would."""
    if app.size != size:
        app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1],
                                             size=size))
    frames(app)


def show(app, players: int, size: tuple[int, int]) -> ScoringScene:
    session = finished_game(players)
    scene = app.push(ScoringScene(app, session))
    resize_window(app, size)
    return scene


def text_width(text: str, size: int, bold: bool = False) -> int:
    return style.font(size, bold).size(text)[0]


# Everything fits ------------------------------------------------------------------
SIZES = [(1280, 720), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES, ids=["1280x720", "1920x1080"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_part_fits_the_window(app, players, size, tmp_path):
    scene = show(app, players, size)
    frames(app, 20)  # mid-count first, then everything
    press(app, pygame.K_SPACE)
    frames(app, 15)
    window = pygame.Rect((0, 0), size)
    big = [scene.map_rect, scene.box_rect, scene.panel_rect, scene.result_rect]
    for k, rect in enumerate(big):
        assert window.contains(rect), rect
        for other in big[k + 1:]:
            assert not rect.colliderect(other), (rect, other)
    assert window.contains(scene.map_view.board_rect)
    # The tally: cards inside the panel, apart; lines inside their card, apart, their
    # text inside the line.
    tally = scene.tally
    assert tally.info_text == f"{scene.game.map.name} · {scene.rounds_text}"
    for k, box in enumerate(tally.boxes):
        assert scene.panel_rect.contains(box.rect)
        for other in tally.boxes[k + 1:]:
            assert not box.rect.colliderect(other.rect)
        assert box.rect.contains(box.rows_rect)
        assert box.rect.contains(box.name_rect)
        for line in box.name.lines:
            assert text_width(line, box.name.size, True) <= box.name_rect.width
        assert len(box.rows) >= 1
        for j, row in enumerate(box.rows):
            assert box.rows_rect.contains(row.rect), (box.seat, row.texts)
            for other in box.rows[j + 1:]:
                assert not row.rect.colliderect(other.rect)
            for line in row.texts:
                assert text_width(line, row.size, row.bold) < row.rect.width - 20
        total = style.text(scene.total_text(box.seat), box.total_size, bold=True)
        assert total.get_rect(**{box.total_anchor: box.total_pos}).right <= box.rect.right
    # Every tally line is on screen (alone or in a summary line).
    for seat, box in enumerate(tally.boxes):
        assert sorted(i for row in box.rows for i in row.entry) == \
            list(range(len(scene.rows[seat])))
    # The result box.
    for b in scene.buttons:
        assert scene.result_rect.contains(b.rect)
        assert text_width(b.label, 18, b.primary) < b.rect.width
    assert scene.title_fit.lines and not scene.title_fit.shortened
    # The chart and the statistics inside the box under the map.
    content = scene.content_rect
    assert scene.box_rect.contains(content)
    for r in scene.tab_rects.values():
        assert scene.box_rect.contains(r) and not r.colliderect(content)
    assert content.contains(scene.chart.plot)
    for _, r in scene.chart.legend:
        assert content.contains(r)
    for _, _, (x, y) in scene.chart.end_labels(scene.chart_ends()):
        assert content.left <= x < content.right - 20 and content.top <= y <= content.bottom
    table = scene.table
    for cell in table.cells + table.headers + table.groups + table.name_cells:
        assert content.contains(cell.rect), cell.text
        assert text_width(cell.text, cell.size or table.size, cell.bold) <= cell.rect.width
    assert table.bottom + style.font(max(11, table.size - 2)).get_linesize() <= content.bottom
    snapshot(app, tmp_path, f"fit_{players}_{size[0]}.png")
    press(app, pygame.K_TAB)
    snapshot(app, tmp_path, f"fit_{players}_{size[0]}_stats.png")


def test_many_players_get_bands_and_few_get_columns(app):
    two = show(app, 2, (1280, 720))
    assert two.tally.mode == "columns"
    five = show(app, 5, (1280, 720))
    assert five.tally.mode == "bands"


# No name cut mid-word -----------------------------------------------------------
def test_ticket_names_shrink_wrap_or_leave_whole_words_out(app):
    a, b = "Sault St. Marie", "Oklahoma City"
    full = f"{a} {DASH} {b}"
    for width in range(30, 320, 5):
        for lines in (1, 2):
            fitted = ticket_label(a, b, 15, width, max_lines=lines)
            assert len(fitted.lines) <= lines
            for line in fitted.lines:
                assert whole_words_of(line, full), (width, line)
                assert text_width(line, fitted.size) <= width or line == ELLIPSIS
            if not fitted.shortened:
                assert " ".join(fitted.lines) == full
    # Wide enough: one line; a bit narrower: one city per line, nothing left out.
    assert ticket_label(a, b, 15, 400).lines == [full]
    two = ticket_label(a, b, 15, text_width(f"{a} {DASH}", 15) + 2)
    assert two.lines == [f"{a} {DASH}", b] and not two.shortened


def test_long_labels_wrap_at_spaces(app):
    text = "Shared victory: Annabelle, Bartholomew and Cy"
    fitted = fit_text(text, 30, 300, True, max_lines=2, min_size=18)
    assert " ".join(fitted.lines) == text and len(fitted.lines) == 2


@pytest.mark.parametrize("players", [2, 5])
def test_no_name_is_cut_mid_word(app, players):
    scene = show(app, players, (1280, 720))
    press(app, pygame.K_SPACE)
    for seat, box in enumerate(scene.tally.boxes):
        assert " ".join(box.name.lines) == scene.names[seat]  # whole, maybe on two lines
        for row in box.rows:
            rows = [scene.rows[seat][i] for i in row.entry]
            if len(rows) == 1:
                full = " ".join(rows[0].choices)
                for line in row.texts:
                    assert whole_words_of(line, full), (line, full)
                if not row.shortened:
                    assert " ".join(row.texts) == rows[0].label
            else:
                assert row.texts[0].split()[0] == str(len(rows))  # 'N more tickets'
    for cell, name in zip(scene.table.name_cells, scene.names):
        assert cell.text == name
    assert [text for text, _ in scene.chart.legend] == scene.names


# Rounds ----------------------------------------------------------------------------
def test_rounds_count_every_seat_once():
    assert rounds_played(84, 2) == 42
    assert rounds_played(85, 2) == 43   # a started round counts
    assert rounds_played(0, 3) == 0
    assert rounds_text(3, 3) == "1 round"
    assert rounds_text(182, 5) == "37 rounds"


def test_the_game_length_reads_in_rounds(app):
    scene = show(app, 5, (1280, 720))
    turns = len(scene.session.history) - 1
    expected = rounds_text(turns, 5)
    assert scene.tally.info_text.endswith(expected)
    assert "turn" not in scene.tally.info_text
    assert scene.tab_labels["chart"] == "Score after each round"
    assert scene.chart.rounds == pytest.approx(turns / 5)


# The chart follows the tally ------------------------------------------------------
def test_chart_never_shows_a_total_before_the_tally_reaches_it(app, tmp_path):
    scene = show(app, 2, (1280, 720))
    finals = [sc.total for sc in scene.scores]
    history_end = scene.history[-1]
    history_top = max(v for snap in scene.history for v in snap)
    assert max(finals) > history_top + 20  # tickets and bonuses still to come
    assert scene.chart.hi < max(finals)    # the scale does not give the winner away
    saw_waiting_seat = False
    while not scene.done:
        ends = scene.chart_ends()
        for seat, end in enumerate(ends):
            if scene.revealed(seat) == 0:
                assert end is None
                saw_waiting_seat = True
                continue
            # Between the score track's end and the sums revealed so far: never ahead.
            values = [r.value for r in scene.rows[seat][:scene.revealed(seat)]]
            reached = [history_end[seat]] + [sum(values[:k]) for k in range(1, len(values) + 1)]
            assert min(reached) - 0.01 <= end <= max(reached) + 0.01
        assert scene.chart.covers(v for v in ends if v is not None)
        labels = scene.chart.end_labels(ends)
        assert sorted(seat for seat, _, _ in labels) == \
            [s for s, e in enumerate(ends) if e is not None]
        if scene.pos == len(scene.steps) // 2:
            snapshot(app, tmp_path, "chart_mid_count.png")
        frames(app)
    assert saw_waiting_seat
    assert run_until(app, lambda: scene.chart_ends() == [float(t) for t in finals])
