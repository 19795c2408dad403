"""Every end bonus shows what it was decided on: County Durham's coal held, the tickets
completed behind Globetrotter and Most tickets, the longest path's length — on the
scoring screen's tally and in the statistics table."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dataclasses import replace  # noqa: E402

import pytest  # noqa: E402

from tests.ui.test_scoring_scene import play_out  # noqa: E402
from ttr_desktop.ui.app import App  # noqa: E402
from ttr_desktop.ui.scenes.scoring import ScoringScene  # noqa: E402


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def scene_for(app, session) -> ScoringScene:
    scene = app.push(ScoringScene(app, session))
    app.step(1 / 30)
    return scene


def row(rows, part):
    return next(r for r in rows if r.part == part)


def test_county_durham_shows_every_seats_coal_beside_the_coal_bonuses(app):
    session = play_out(seed=1, variant="county-durham", names=["A", "B", "C"])
    game = session.game
    coal = game.view(0).extra["coal"]["held"]
    scene = scene_for(app, session)
    for sc, rows in zip(game.scores(), scene.rows):
        held = coal[sc.seat]
        unit = "coal"
        assert row(rows, "most_coal").label == f"Most coal: {held} {unit}"
        assert row(rows, "least_coal").label == f"Least coal: {held} {unit}"
        done = sum(1 for t in sc.tickets if t.done)
        assert row(rows, "most_tickets").label == \
            f"Most tickets: {done} ticket{'s' if done != 1 else ''}"
        assert sum(r.value for r in rows) == sc.total
    scene.show_tab("stats")
    app.step(1 / 30)
    table = scene.table
    headers = [h.text for h in table.headers]
    assert "Coal" in headers and "Longest" in headers
    k = headers.index("Coal")
    # Cells run column by column, one per seat.
    cells = [c.text for c in table.cells]
    n = len(game.players)
    assert cells[k * n:(k + 1) * n] == [str(c) for c in coal]
    longest = headers.index("Longest")
    assert cells[longest * n:(longest + 1) * n] == [str(sc.longest_path)
                                                    for sc in game.scores()]


def test_old_west_globetrotter_shows_the_tickets_it_counted(app):
    session = play_out(seed=2, variant="old-west", names=["A", "B"])
    scene = scene_for(app, session)
    for sc, rows in zip(session.game.scores(), scene.rows):
        done = sum(1 for t in sc.tickets if t.done)
        assert sc.measures["globetrotter"] == ("completed_tickets", done)
        assert row(rows, "globetrotter").label == \
            f"Globetrotter: {done} ticket{'s' if done != 1 else ''}"


def test_marklin_statistics_show_merchandise(app):
    session = play_out(seed=1, variant="marklin", names=["A", "B"])
    scene = scene_for(app, session)
    scene.show_tab("stats")
    app.step(1 / 30)
    table = scene.table
    headers = [h.text for h in table.headers]
    assert "Merch." in headers
    k = headers.index("Merch.")
    cells = [c.text for c in table.cells]
    assert cells[2 * k:2 * k + 2] == [str(sc.parts["merchandise"])
                                      for sc in session.game.scores()]


def test_legacy_trains_left_shows_the_trains_it_was_worked_out_from(app):
    session = play_out(seed=1, variant="legacy", names=["A", "B"])
    scene = scene_for(app, session)
    view = session.game.view(0)
    for sc, rows in zip(session.game.scores(), scene.rows):
        n = view.trains_left[sc.seat]
        assert row(rows, "trains_left").label == \
            f"Trains left: {n} train{'s' if n != 1 else ''}"
        assert sum(r.value for r in rows) == sc.total
