"""Old West's score breakdown keeps apart what a seat's claims earned it, what others'
claims paid its markers, and what its claims paid others' markers (rules.md §3) — on the
scoring screen and, during play, in the player row's tooltip."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dataclasses import replace  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from tests.ui.test_scoring_scene import play_out  # noqa: E402
from ttr_desktop.ui import style  # noqa: E402
from ttr_desktop.ui.app import App  # noqa: E402
from ttr_desktop.ui.scenes.board import BoardScene  # noqa: E402
from ttr_desktop.ui.scenes.scoring import ScoringScene  # noqa: E402

NAMES = ["A", "B", "C"]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


@pytest.fixture(scope="module")
def finished():
    """A whole 3-seat Old West game where markers moved points both ways."""
    for seed in range(1, 8):
        session = play_out(seed=seed, variant="old-west", names=NAMES)
        view = session.game.view(0)
        tallies = [view.route_tally(s) for s in range(3)]
        if any(t.income and t.given for t in tallies):
            return session
    pytest.fail("no game moved points through markers both ways")


def test_the_route_tally_splits_the_routes_part_and_what_goes_out_comes_in(finished):
    game = finished.game
    view = game.view(0)
    scores = game.scores()
    tallies = [view.route_tally(s) for s in range(3)]
    for sc, tally in zip(scores, tallies):
        assert tally.own + tally.income == sc.parts["routes"]
        assert tally.claimed == sum(1 for o in view.route_owners.values() if o == sc.seat)
        assert sc.total == sum(sc.parts.values())
        assert set(sc.parts) >= {"routes", "tickets", "globetrotter"}
    # Every point a claim gave away was some other seat's marker income.
    assert sum(t.given for t in tallies) == sum(t.income for t in tallies)


def test_the_scoring_screen_shows_own_claims_markers_and_points_given_away(app, finished):
    scene = app.push(ScoringScene(app, finished))
    app.step(1 / 30)
    game = finished.game
    view = game.view(0)
    for sc, rows in zip(game.scores(), scene.rows):
        tally = view.route_tally(sc.seat)
        assert sum(r.value for r in rows) == sc.total
        route_rows = [r for r in rows if r.part == "routes"]
        assert sum(r.value for r in route_rows) == sc.parts["routes"]
        if not (tally.income or tally.given):
            continue
        labels = [r.label for r in route_rows]
        # A claim whose points went to a marker is not counted among the seat's own.
        assert route_rows[0].value == tally.own
        # The seat's own claims come first: "Claims: 8 routes" (the words fit the column).
        assert f"{tally.own_routes} route" in labels[0] and "claim" in labels[0].lower()
        if tally.income_routes:
            assert any(r.value == tally.income and "markers" in r.label.lower()
                       for r in route_rows)
        if tally.given_routes:
            given = [r for r in route_rows if r.kind == "note"]
            assert given and given[0].value == 0
            assert f"gave {tally.given} point" in given[0].label.lower()


def test_points_given_away_are_a_note_without_a_zero_beside_them(app, finished):
    # "Gave 10 points away  0" read as a contradiction: the note shows no value at all.
    scene = app.push(ScoringScene(app, finished))
    for _ in range(400):                  # the tally is revealed line by line
        app.step(1 / 10)
    notes = [(box, placed) for box in scene.tally.boxes for placed in box.rows
             if any(scene.rows[box.seat][i].kind == "note" for i in placed.entry)]
    assert notes
    for box, placed in notes:
        assert not placed.full[0].endswith(": 0"), placed.full
        surf = placed.surface
        end = 4 + max(style.font(placed.size).size(line)[0] for line in placed.texts) + 3
        after = [surf.get_at((x, y)).a for x in range(end, surf.get_width())
                 for y in range(surf.get_height())]
        assert not any(after), "something (a value) is drawn after the note's words"


def test_hovering_a_player_row_breaks_the_score_down_during_play(app):
    from ttr_desktop.bots import make_bot
    from ttr_desktop.ui.session import GameSession, SeatConfig

    seats = [SeatConfig("Ann", "human", color="red"),
             SeatConfig("B", "bot", "greedy", "blue"), SeatConfig("C", "bot", "greedy", "green")]
    session = GameSession.new("old-west", seats, seed=2, autosave_to=app.paths.autosave_file)
    bots = [make_bot("greedy", seed=i) for i in range(3)]
    game = session.game
    for _ in range(3000):  # on until someone's marker has earned from another's claim
        if game.current_seat == 0 and game.phase == "turn" and \
                any(game.view(0).route_tally(s).income for s in range(3)):
            break
        session.apply(bots[game.current_seat].choose(game.view(game.current_seat),
                                                     game.legal_actions()))
    assert not game.is_over
    board = app.push(BoardScene(app, session))
    app.step(1 / 30)
    view = game.view(0)
    seat = max(range(3), key=lambda s: view.route_tally(s).income)
    tally = view.route_tally(seat)
    pos = board.lay.player_rows[seat].center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 30)
    assert board.hover_seat == seat
    lines = [text for text, _, _ in board.tooltip_lines()]
    assert lines[0] == f"{game.players[seat]}: {view.points[seat]} points so far"
    assert f"Claims: {tally.own_routes} routes scoring {tally.own} points" in lines
    assert any(line.startswith(f"Markers: {tally.income} point") for line in lines)
