"""Review through the window: opened from the scoring screen and from a save, a progress
bar while a worker process reviews, Cancel, and the board as it was at each decision."""

from __future__ import annotations

import time

import pygame
import pytest

from tests.ui.conftest import click, key, step
from ttr_desktop.bots import make_bot
from ttr_desktop.rules.family import families
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes import review as review_scene
from ttr_desktop.ui.scenes.load import LoadOverlay
from ttr_desktop.ui.scenes.review import ReviewScene
from ttr_desktop.ui.scenes.scoring import ScoringScene
from ttr_desktop.ui.session import GameSession, SeatConfig


@pytest.fixture(autouse=True)
def tiny_budget(monkeypatch):
    """One rollout round a decision: the window's part is under test, not the figures;
    no review kept from another test."""
    monkeypatch.setattr(review_scene, "ROUNDS", 1)
    monkeypatch.setattr(review_scene, "_FINISHED", {})


def finished_game(seed: int = 3, variant: str = "usa") -> GameSession:
    """Ann (a person) against a Normal bot, played to the end (Ann's moves by Easy)."""
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bob", "bot", "greedy", "blue")]
    session = GameSession.new(variant, seats, seed=seed)
    bots = [make_bot("easy", seed=1), make_bot("greedy", seed=2)]
    while not session.game.is_over:
        game = session.game
        seat = game.current_seat
        session.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return session


def wait_for(app, predicate, seconds: float = 60.0) -> bool:
    """Run frames (real time passes: the worker is another process) until ``predicate``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step(1 / 30)
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def open_from_scoring(app, session) -> ReviewScene:
    app.push(ScoringScene(app, session))
    scoring = app.top
    scoring.skip()
    step(app, 2)
    click(app, scoring.review_button.rect.center)
    assert isinstance(app.top, ReviewScene)
    return app.top


def map_pixels(app, scene) -> bytes:
    rect = scene.map_rect
    return pygame.image.tobytes(app.screen.subsurface(rect), "RGB")


def test_review_opens_from_the_scoring_screen_and_a_worker_process_fills_the_list(app):
    session = finished_game()
    scene = open_from_scoring(app, session)
    assert scene.seat == 0 and scene.names[0] == "Ann"          # the person, not the bot
    assert scene.job.in_process                                  # off the window's process
    ann_moves = len(scene.moments)
    assert ann_moves == len(session.game.log) - _moves_of(session, 1)   # Ann's, not Bob's
    assert wait_for(app, lambda: not scene.running, 120)
    assert scene.job.total == ann_moves
    assert scene.job.complete and scene.job.error is None
    assert all(m.review is not None for m in scene.moments)
    assert scene.cancel_button not in scene.buttons
    marked = sorted(m.review.mark for m in scene.moments if m.review.mark)
    assert marked == list(range(1, len(marked) + 1)) and len(marked) <= 3
    # Escape goes back to the scores; Review again shows the same review at once.
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, ScoringScene)
    first = [m.review for m in scene.moments]
    click(app, app.top.review_button.rect.center)
    again = app.top
    assert isinstance(again, ReviewScene) and again is not scene
    assert not again.running and [m.review for m in again.moments] == first


def _moves_of(session, seat: int) -> int:
    from ttr_desktop.bots.review import count_decisions, game_record
    return count_decisions(game_record(session.game), seat)


def test_clicking_a_decision_shows_the_board_as_it_was_from_the_persons_seat(app):
    session = finished_game(seed=5)
    scene = open_from_scoring(app, session)
    step(app, 2)
    early = map_pixels(app, scene)
    # A decision late in the game: Ann's claims by then are on the map, her hand is hers.
    last = len(scene.moments) - 1
    key(app, pygame.K_END)
    assert scene.selected == last
    k = last - 2
    assert scene.list_rect.contains(scene.row_rect(k))
    click(app, scene.row_rect(k).center)
    assert scene.selected == k
    m = scene.moment
    from ttr_desktop.bots.review import replay
    for index, game, _ in replay(scene.record):
        if index == m.index:
            then = game
            break
    assert m.view.seat == 0
    assert dict(m.view.route_owners) == dict(then.view(0).route_owners)
    assert dict(m.view.hand) == dict(then.view(0).hand)
    assert [t.id for t in m.view.tickets] == [t.id for t in then.view(0).tickets]
    assert map_pixels(app, scene) != early          # the later board, drawn
    # Up and Down walk the decisions.
    key(app, pygame.K_UP)
    assert scene.selected == k - 1
    key(app, pygame.K_DOWN)
    assert scene.selected == k
    scene.leave()


def test_cancel_stops_the_review_and_keeps_what_is_done(app, monkeypatch):
    monkeypatch.setattr(review_scene, "ROUNDS", 40)    # long enough to cancel midway
    session = finished_game(seed=7)
    scene = open_from_scoring(app, session)
    assert wait_for(app, lambda: scene.job.done >= 2)
    # The progress bar fills while the window goes on drawing frames.
    assert scene.running and scene.cancel_button in scene.buttons
    step(app, 1)
    bar = (scene.status_rect.x + 16, scene.status_rect.y + 32 + 7)
    assert tuple(app.screen.get_at(bar))[:3] == style.ACCENT
    assert tuple(app.screen.get_at((scene.status_rect.right - 140, bar[1])))[:3] != style.ACCENT
    click(app, scene.cancel_button.rect.center)
    assert scene.job.cancelled
    assert wait_for(app, lambda: not scene.running, 30)
    assert not scene.job.complete and scene.job.error is None
    done = [m for m in scene.moments if m.review is not None]
    assert 1 <= len(done) < len(scene.moments)
    step(app, 2)
    assert scene.cancel_button not in scene.buttons


def test_review_opens_for_a_saved_game_from_the_load_screen(app):
    session = finished_game(seed=9)
    folder = app.paths.saves_dir
    folder.mkdir(parents=True, exist_ok=True)
    session.save(folder / "Sunday.toml")
    app.push(LoadOverlay(app))
    overlay = app.top
    index = next(i for i, s in enumerate(overlay.saves) if s.title == "Sunday")
    click(app, overlay.row_rect(index).center)
    assert overlay.review_button.is_enabled
    click(app, overlay.review_button.rect.center)
    scene = app.top
    assert isinstance(scene, ReviewScene)
    assert scene.names == ["Ann", "Bob"] and scene.seat == 0
    assert wait_for(app, lambda: scene.job.done >= 1)
    key(app, pygame.K_ESCAPE)
    assert app.top is overlay


def test_a_damaged_save_cannot_be_reviewed(app):
    folder = app.paths.saves_dir
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Broken.toml").write_text("format = 2\nvariant = 'usa'\n", encoding="utf-8")
    app.push(LoadOverlay(app))
    overlay = app.top
    index = next(i for i, s in enumerate(overlay.saves) if s.title == "Broken")
    click(app, overlay.row_rect(index).center)
    assert not overlay.review_button.is_enabled
    key(app, pygame.K_r)
    assert app.top is overlay


@pytest.mark.parametrize("variant", [f.ruleset.name for f in families()])
def test_the_review_screen_shows_a_short_game_of_every_family(app, variant):
    from ttr_desktop.rules import new_game
    game = new_game(variant, ["Ann", "Bob"], seed=4)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    for _ in range(40):                      # a game saved part way: its moves so far
        seat = game.current_seat
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bob", "bot", "hard", "blue")]
    scene = ReviewScene.for_session(app, GameSession(game, seats, variant), use_process=False)
    app.push(scene)
    assert wait_for(app, lambda: not scene.running, 120)
    assert scene.job.complete and scene.job.error is None
    assert scene.moments and all(m.review is not None for m in scene.moments)
    for k in range(len(scene.moments)):      # every moment's board and words draw
        key(app, pygame.K_DOWN, frames=1)
    assert scene.selected == len(scene.moments) - 1
    key(app, pygame.K_ESCAPE)
    assert app.top is not scene


def test_with_two_people_at_the_table_the_review_switches_between_them(app):
    session = finished_game(seed=11)
    session.seats[1] = SeatConfig("Bob", "human", color="blue")
    scene = ReviewScene.for_session(app, session)
    app.push(scene)
    assert scene.seat == 0 and scene.seat_button in scene.buttons
    assert scene.seat_button.label == "Review Bob"
    click(app, scene.seat_button.rect.center)
    assert scene.seat == 1 and scene.seat_button.label == "Review Ann"
    assert all(m.view.seat == 1 for m in scene.moments)      # Bob's view, Bob's hand
    assert wait_for(app, lambda: scene.job.done >= 1)
    assert scene.job.seat == 1
    scene.leave()


def test_an_unfinished_game_between_two_people_shows_a_review_only_to_its_player(app):
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bob", "human", color="blue")]
    session = GameSession.new("usa", seats, seed=2)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    for _ in range(30):
        game = session.game
        session.apply(bots[game.current_seat].choose(game.view(game.current_seat),
                                                     game.legal_actions()))
    scene = ReviewScene.for_session(app, session)
    app.push(scene)
    step(app, 2)
    # Nothing of Ann's is reviewed or drawn until she says it is her at the screen.
    assert not scene.confirmed and scene.job is None
    assert scene.iam_button in scene.buttons and scene.iam_button.label == "I am Ann"
    hidden = pygame.image.tobytes(app.screen.subsurface(scene.map_rect), "RGB")
    click(app, scene.iam_button.rect.center)
    assert scene.confirmed and scene.job is not None and scene.job.seat == 0
    step(app, 2)
    assert pygame.image.tobytes(app.screen.subsurface(scene.map_rect), "RGB") != hidden
    # Bob's decisions ask again, for Bob.
    click(app, scene.seat_button.rect.center)
    assert scene.seat == 1 and not scene.confirmed and scene.job is None
    assert scene.iam_button.label == "I am Bob"
    key(app, pygame.K_RETURN)
    assert scene.confirmed and scene.job.seat == 1
    scene.leave()
