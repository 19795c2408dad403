"""The scoring screen after a real (bot-played) game: the tally, the winner, the way on."""

from __future__ import annotations

import os
import sys
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from ttr_desktop.bots import make_bot  # noqa: E402
from ttr_desktop.rules import new_game  # noqa: E402
from ttr_desktop.rules.scoring import Result  # noqa: E402
from ttr_desktop.rules.state import Phase  # noqa: E402
from ttr_desktop.rules.graph import cheapest_path, graph_for  # noqa: E402
from ttr_desktop.ui.scenes.scoring import (  # noqa: E402
    ScoringScene,
    tie_break_text,
    winner_title,
)
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig  # noqa: E402

# Helpers ---------------------------------------------------------------------
COLORS = ("red", "blue", "green", "yellow", "black", "purple")
LEVELS = ("random", "greedy", "easy")


def play_out(seed: int = 1, variant: str = "usa", names: list[str] | None = None,
             options: dict | None = None) -> GameSession:
    """A whole bot game (two seats, A and B, unless ``names`` says otherwise), every
    action through the session so history is kept."""
    names = names or ["A", "B"]
    seats = [SeatConfig(name, "bot", LEVELS[i % 3], COLORS[i]) for i, name in enumerate(names)]
    if variant in VARIANT_CHOICES and options is None:
        session = GameSession.new(variant, seats, seed=seed)
    else:
        game = new_game(variant, names, seed=seed, options=dict(options or {}))
        session = GameSession(game, seats, variant)
    bots = [make_bot(s.level, seed=seed * 10 + i) for i, s in enumerate(session.seats)]
    for _ in range(5000):
        if session.game.is_over:
            break
        game = session.game
        seat = game.current_seat
        session.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    assert session.game.is_over
    return session


def snapshot(app, folder, name: str) -> None:
    """Save the window (to SCORING_SHOTS when set, for a person to look at)."""
    target = os.environ.get("SCORING_SHOTS") or str(folder)
    pygame.image.save(app.screen, os.path.join(target, name))


def frames(app, n: int = 1, dt: float = 1 / 30) -> None:
    for _ in range(n):
        app.step(dt)


def run_until(app, predicate, seconds: float = 120.0, dt: float = 1 / 30) -> bool:
    t = 0.0
    while t < seconds and not predicate():
        app.step(dt)
        t += dt
    return predicate()


def move(app, pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    frames(app)


def click(app, pos) -> None:
    move(app, pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app)


def press(app, key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="",
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="",
                                         scancode=0))
    frames(app)


@pytest.fixture(scope="module")
def finished() -> GameSession:
    """One finished game shared by the tests that only read it."""
    return play_out(seed=1)


@pytest.fixture
def scoring(app, finished):
    scene = app.push(ScoringScene(app, finished))
    frames(app)
    return scene


# The tally -------------------------------------------------------------------
def test_tally_counts_up_to_the_engine_totals(app, finished, scoring, tmp_path):
    game = finished.game
    totals = [sc.total for sc in game.scores()]
    assert app.sound.played.count("end") == 1
    assert not scoring.done
    focused = {scoring.focus}
    assert run_until(app, lambda: (focused.add(scoring.focus), scoring.done)[1])
    assert focused == {0, 1}  # the map followed the player being counted
    assert scoring.shown_totals() == totals
    assert app.sound.played.count("end") == 1
    result = game.result()
    assert len(result.winners) == 1
    assert scoring.title == f"{game.players[result.winners[0]]} wins!"
    # Every line of every player is shown and adds up to the total.
    for seat, rows in enumerate(scoring.rows):
        assert scoring.revealed(seat) == len(rows)
        assert sum(r.value for r in rows) == totals[seat]
        assert sum(1 for r in rows if r.kind == "ticket") == len(game.scores()[seat].tickets)
    # The chart ends at the final score.
    assert scoring.chart_ends() == [float(t) for t in totals]
    frames(app, 15)
    snapshot(app, tmp_path, "scoring.png")


def test_tally_is_step_by_step(app, scoring):
    frames(app, 4)
    assert 0 < scoring.pos < len(scoring.steps)
    shown_now = scoring.pos
    frames(app, 30)
    assert scoring.pos > shown_now


def test_click_skips_to_the_end(app, finished, scoring):
    click(app, scoring.map_rect.center)
    assert scoring.done
    assert scoring.shown_totals() == [sc.total for sc in finished.game.scores()]


def test_space_skips_to_the_end(app, finished, scoring):
    press(app, pygame.K_SPACE)
    assert scoring.done
    assert scoring.shown_totals() == [sc.total for sc in finished.game.scores()]


def test_instant_animation_shows_everything_at_once(app, finished):
    app.settings = replace(app.settings, animation_speed="instant")
    scene = app.push(ScoringScene(app, finished))
    frames(app)
    assert scene.done
    assert scene.shown_totals() == [sc.total for sc in finished.game.scores()]


def test_hovering_a_column_and_a_ticket_line(app, finished, scoring):
    press(app, pygame.K_SPACE)
    loser = next(s for s in range(2) if s not in finished.game.result().winners)
    card = scoring.tally.boxes[loser]
    inside = (card.rect.centerx, card.rect.bottom - 5)
    move(app, inside)
    assert scoring.focus == loser
    # A ticket line: its cities are marked on the map.
    k = next(i for i, row in enumerate(card.rows)
             if scoring.rows[loser][row.entry[0]].kind == "ticket")
    move(app, card.rows[k].rect.center)
    hovered = scoring.hovered_tickets()
    assert hovered and hovered[0][0] == loser
    assert hovered[0][1] in finished.game.scores()[loser].tickets
    frames(app, 2)
    # Leaving the panel gives the focus back to the winner.
    move(app, (5, 5))
    assert scoring.focus == finished.game.result().winners[0]
    # Clicking a column keeps it focused.
    click(app, inside)
    move(app, (5, 5))
    assert scoring.focus == loser


def test_resize_lays_out_again(app, scoring):
    press(app, pygame.K_SPACE)
    for size in ((1600, 900), (1280, 720)):
        scoring.resize(size)
        frames(app)
        w, h = size
        for card in scoring.tally.boxes:
            assert card.rect.right <= w and card.rect.bottom <= h
            for row in card.rows:
                assert row.rect.bottom <= card.rect.bottom
        for b in scoring.buttons:
            assert pygame.Rect(0, 0, w, h).contains(b.rect)
        assert scoring.map_view.rect.right <= scoring.panel_rect.x


# Leaving -----------------------------------------------------------------------
def test_play_again_starts_a_new_board_with_the_same_seats(app, finished, scoring):
    from ttr_desktop.ui.scenes.board import BoardScene
    click(app, scoring.play_again_button.rect.center)
    board = app.top
    assert isinstance(board, BoardScene)
    assert scoring not in app.scenes
    assert [s.name for s in board.session.seats] == [s.name for s in finished.seats]
    assert [s.kind for s in board.session.seats] == [s.kind for s in finished.seats]
    assert board.session is not finished and board.session.game is not finished.game
    assert not board.session.game.is_over
    assert board.session.game.state.turn < 3


def test_main_menu_button_leaves(app, scoring):
    click(app, scoring.menu_button.rect.center)
    assert scoring not in app.scenes
    from ttr_desktop.ui.scenes.menu import MenuScene
    assert isinstance(app.top, MenuScene)


def test_escape_goes_to_the_main_menu(app, scoring):
    press(app, pygame.K_ESCAPE)
    assert scoring not in app.scenes


def test_without_a_menu_the_window_closes(app, scoring, monkeypatch):
    monkeypatch.setitem(sys.modules, "ttr_desktop.ui.scenes.menu", None)  # import fails
    scoring.main_menu()
    assert not app.running


# Ties ----------------------------------------------------------------------------
def set_position(game, routes: list[list[str]], tickets: list[list[str]]) -> None:
    """Rewrite a finished game's board: who owns which route, who holds which ticket."""
    b, s = game.board, game.state
    s.owner = [-1] * b.n_routes
    for seat, rids in enumerate(routes):
        for rid in rids:
            s.owner[b.route_index[rid]] = seat
    s.tickets = [[b.ticket_index[t] for t in held] for held in tickets]
    s.points = [sum(b.r_points[r] for r in range(b.n_routes) if s.owner[r] == seat)
                for seat in range(game.num_players)]
    s.phase = Phase.GAME_OVER
    game._version += 1


def subset_with_sum(items: list[tuple[str, int]], target: int) -> list[str] | None:
    """Ticket ids whose points add up to ``target`` exactly (or None)."""
    reach: dict[int, list[str]] = {0: []}
    for tid, pts in items:
        for total, chosen in list(reach.items()):
            new = total + pts
            if new <= target and new not in reach:
                reach[new] = chosen + [tid]
        if target in reach:
            return reach[target]
    return reach.get(target)


def balance(game, routes, tickets) -> bool:
    """Give the seat ahead failed tickets until both totals are equal."""
    set_position(game, routes, tickets)
    totals = [sc.total for sc in game.scores()]
    ahead = 0 if totals[0] > totals[1] else 1
    diff = abs(totals[0] - totals[1])
    if diff:
        held = {t for ts in tickets for t in ts}
        done_cities = {c for rid in routes[ahead] for c in (game.map.routes[rid].a,
                                                            game.map.routes[rid].b)}
        # A ticket fails for sure when one of its cities is off the seat's network.
        items = [(t.id, t.points) for t in game.map.tickets if t.id not in held and
                 (t.a not in done_cities or t.b not in done_cities)]
        chosen = subset_with_sum(items, diff)
        if chosen is None:
            return False
        tickets[ahead] = tickets[ahead] + chosen
        set_position(game, routes, tickets)
    totals = [sc.total for sc in game.scores()]
    return totals[0] == totals[1]


def plan_path(game, seat: int, owners: dict[str, int], a: str, b: str) -> list[str]:
    """Route ids of the cheapest path for ``seat`` if ``owners`` held the routes."""
    g = graph_for(game.map)
    cost = [0.0 if owners.get(rid) == seat else None if rid in owners else float(g.r_len[r])
            for r, rid in enumerate(g.route_ids)]
    found = cheapest_path(g, cost, g.places[a], g.places[b])
    return [] if found is None else [g.route_ids[r] for r in found[1]]


def tie_on(kind: str) -> GameSession:
    """A finished two-player game edited into a tie decided by ``kind``."""
    session = play_out(seed=2)
    game = session.game
    routes = list(game.map.routes.values())
    if kind == "tickets":
        # A completes a ticket; B has a longer network but completes none.
        for t0 in game.map.tickets:
            p0 = plan_path(game, 0, {}, t0.a, t0.b)
            owners = {rid: 0 for rid in p0}
            for t1 in sorted(game.map.tickets, key=lambda t: -t.points):
                p1 = plan_path(game, 1, owners, t1.a, t1.b)
                if p1 and balance(game, [p0, p1], [[t0.id], []]):
                    return session
    elif kind == "longest_path":
        # Neither completes a ticket; A holds the longest path.
        long_r = max(routes, key=lambda r: r.length)
        for short in (r for r in routes if r.length < long_r.length):
            if {short.a, short.b} & {long_r.a, long_r.b}:
                continue
            if balance(game, [[long_r.id], [short.id]], [[], []]):
                return session
    elif kind == "shared":
        # Same points, no tickets, both paths equally long.
        for r0 in routes:
            for r1 in routes:
                if r1.length == r0.length and not {r0.a, r0.b} & {r1.a, r1.b}:
                    if balance(game, [[r0.id], [r1.id]], [[], []]):
                        return session
    raise AssertionError(f"could not build a tie decided by {kind}")


@pytest.mark.parametrize("kind, words", [
    ("tickets", "Tie on points — A completed more tickets"),
    ("longest_path", "Tie on points — A holds the longest path"),
])
def test_real_tie_is_explained(app, kind, words, tmp_path):
    session = tie_on(kind)
    result = session.game.result()
    assert result.tie_break == kind and result.winners == [0]
    scene = app.push(ScoringScene(app, session))
    assert run_until(app, lambda: scene.done)
    assert scene.shown_totals() == [sc.total for sc in session.game.scores()]
    assert scene.shown_totals()[0] == scene.shown_totals()[1]
    assert scene.title == "A wins!"
    assert scene.subtitle == words
    frames(app, 15)
    snapshot(app, tmp_path, f"tie_{kind}.png")


def test_real_shared_victory(app):
    session = tie_on("shared")
    result = session.game.result()
    assert result.tie_break == "shared" and sorted(result.winners) == [0, 1]
    scene = app.push(ScoringScene(app, session))
    press(app, pygame.K_SPACE)
    assert scene.title == "Shared victory: A and B"
    assert "every tie-break" in scene.subtitle


def test_tie_break_wording():
    names = ["Ann", "Bob", "Cy"]
    assert winner_title(Result([1], None, []), names) == "Bob wins!"
    assert winner_title(Result([0, 2], "shared", []), names) == "Shared victory: Ann and Cy"
    assert winner_title(Result([0, 1, 2], "shared", []), names) == \
        "Shared victory: Ann, Bob and Cy"
    assert tie_break_text(Result([1], None, []), names) == ""
    assert tie_break_text(Result([0], "tickets", []), names) == \
        "Tie on points — Ann completed more tickets"
    assert tie_break_text(Result([1], "fewest_stations", []), names) == \
        "Tie on points — Bob built fewer stations"
    assert tie_break_text(Result([2], "longest_path", []), names) == \
        "Tie on points — Cy holds the longest path"


def test_the_final_map_draws_the_closed_tracks_of_a_two_player_game_closed(app, finished):
    # With two players only one track of a double is used: the end screen's map shows
    # the other track closed, as the board did during play.
    closed = finished.game.view(0).closed_routes
    assert closed                      # a whole two-player game closes some doubles
    scene = app.push(ScoringScene(app, finished))
    frames(app)
    for rid in closed:
        assert scene.map_view.route_state(rid) == "closed"
    owned = next(iter(finished.game.view(0).route_owners))
    assert scene.map_view.route_state(owned) == "claimed"
