"""The scoring screen's statistics and its readiness for other rule families: every score
part the engine returns, in its order, with a readable label; dollars instead of points."""

from __future__ import annotations

import dataclasses
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from tests.ui.test_scoring_scene import click, frames, move, play_out, press  # noqa: E402
from ttr_desktop.rules import new_game  # noqa: E402
from ttr_desktop.rules.scoring import Result, ScoreBreakdown  # noqa: E402
from ttr_desktop.ui.scenes.scoring import ScoringScene  # noqa: E402
from ttr_desktop.ui.scenes.scoring_words import (  # noqa: E402
    Amounts,
    margin_text,
    part_label,
    tie_break_text,
)
from ttr_desktop.ui.session import GameSession  # noqa: E402


@pytest.fixture(scope="module")
def finished() -> GameSession:
    return play_out(seed=1)


@pytest.fixture(scope="module")
def five() -> GameSession:
    return play_out(seed=4, names=["Ann", "Bob", "Cy", "Di", "Ed"])


def copy_session(session: GameSession) -> GameSession:
    """An independent session on a copy of ``session``'s finished game."""
    return GameSession(session.game.clone(), list(session.seats), session.variant_key)


def with_parts(session: GameSession, change, **fields) -> GameSession:
    """A copy whose engine reports the parts ``change(seat, parts)`` returns (and totals
    and winners to match, and any other breakdown ``fields``): how a new rule family
    looks to the scoring screen."""
    copy = copy_session(session)
    game = copy.game
    real = game.scores()
    fake = []
    for sc in real:
        parts = change(sc.seat, dict(sc.parts))
        fake.append(dataclasses.replace(sc, parts=parts, total=sum(parts.values()), **fields))
    top = max(sc.total for sc in fake)
    winners = [sc.seat for sc in fake if sc.total == top]
    result = Result(winners, "shared" if len(winners) > 1 else None, fake)
    game.scores = lambda: [dataclasses.replace(sc) for sc in fake]
    game.result = lambda: result
    return copy


class DollarRules:
    """A ruleset that counts money (for engines without the ``currency`` field yet)."""

    def __init__(self, base) -> None:
        self._base = base
        self.currency = "dollars"

    def __getattr__(self, name):
        return getattr(self._base, name)


def in_dollars(session: GameSession) -> GameSession:
    copy = copy_session(session)
    ruleset = copy.game.ruleset
    if "currency" in {f.name for f in dataclasses.fields(ruleset)}:
        copy.game.ruleset = dataclasses.replace(ruleset, currency="dollars")
    else:
        copy.game.ruleset = DollarRules(ruleset)
    return copy


# Statistics --------------------------------------------------------------------------
def count_by_replay(game) -> list[dict[str, int]]:
    """Each seat's actions by kind, found by replaying the log from the seed."""
    replay = new_game(game.variant, list(game.players), seed=game.seed,
                      options=dict(game.options))
    out: list[dict[str, int]] = [{} for _ in game.players]
    for action in game.log:
        seat = replay.current_seat
        out[seat][action.kind] = out[seat].get(action.kind, 0) + 1
        if action.kind == "draw_face_up" and action.card == "locomotive":
            out[seat]["loco"] = out[seat].get("loco", 0) + 1
        replay.apply(action)
    return out


@pytest.mark.parametrize("which", ["finished", "five"])
def test_statistics_are_right_for_a_finished_bot_game(app, which, request):
    session = request.getfixturevalue(which)
    game = session.game
    scene = app.push(ScoringScene(app, session))
    counts = count_by_replay(game)
    owners = game.view(0).route_owners
    scores = game.scores()
    assert len(scene.stats) == game.num_players
    for seat, st in enumerate(scene.stats):
        tickets = scores[seat].tickets
        assert st.tickets_done == sum(1 for t in tickets if t.done)
        assert st.tickets_failed == sum(1 for t in tickets if not t.done)
        mine = [game.map.routes[rid].length for rid, o in owners.items() if o == seat]
        assert st.routes == len(mine)
        assert st.routes_by_length == {n: mine.count(n) for n in set(mine)}
        assert st.trains == sum(mine)
        assert st.blind == counts[seat].get("draw_blind", 0)
        assert st.face_up == counts[seat].get("draw_face_up", 0)
        assert st.face_up_locomotives == counts[seat].get("loco", 0)
        assert st.per_train == pytest.approx(scores[seat].total / sum(mine))
    # Every card draw in the log belongs to one seat.
    kinds = [a.kind for a in game.log]
    assert sum(st.blind for st in scene.stats) == kinds.count("draw_blind")
    assert sum(st.face_up for st in scene.stats) == kinds.count("draw_face_up")


def test_statistics_tab_shows_the_table(app, finished, tmp_path):
    scene = app.push(ScoringScene(app, finished))
    frames(app, 3)
    assert not scene.done and scene.tab == "chart"
    click(app, scene.tab_rects["stats"].center)
    # The numbers give the totals away, so asking for them finishes the count.
    assert scene.tab == "stats" and scene.done
    texts = scene.table.texts()
    for group in ("Tickets", "Routes by length", "Cards drawn"):
        assert group in texts
    for header in ("done", "failed", "Trains", "deck", "face-up", "Points/train"):
        assert header in texts
    for st in scene.stats:
        cells = [c.text for c in scene.table.cells if c.rect.y == scene.table.name_cells[
            st.seat].rect.y]
        assert cells[:2] == [str(st.tickets_done), str(st.tickets_failed)]
        assert str(st.trains) in cells and str(st.blind) in cells
        assert f"{st.total / st.trains:.1f}".replace("-", "\u2212") == cells[-1]
    # Pointing at a heading explains it.
    header = next(h for h in scene.table.headers if h.text == "Points/train")
    move(app, header.rect.center)
    assert scene.tip and "per train" in scene.tip[0][0]
    frames(app, 2)
    # Tab goes back to the chart.
    press(app, pygame.K_TAB)
    assert scene.tab == "chart"
    click(app, scene.tab_rects["chart"].center)
    assert scene.tab == "chart"


def test_clicking_the_chart_tab_during_the_count_does_not_skip_it(app, finished):
    scene = app.push(ScoringScene(app, finished))
    frames(app, 2)
    click(app, scene.tab_rects["chart"].center)
    assert not scene.done


# Parts from other rule families ------------------------------------------------------
def test_every_engine_part_is_shown_in_the_engines_order(app, finished):
    def change(seat, parts):
        out = {"longest_path": parts.pop("longest_path"), "globetrotter": 15 if seat else 0}
        out.update(parts)
        out["mystery_bonus_points"] = 3
        return out

    session = with_parts(finished, change)
    scene = app.push(ScoringScene(app, session))
    press(app, pygame.K_SPACE)
    for seat, rows in enumerate(scene.rows):
        order = []
        for row in rows:
            if row.part not in order:
                order.append(row.part)
        assert order == list(session.game.scores()[seat].parts)
        labels = {row.part: row.label for row in rows}
        assert labels["globetrotter"] == "Globetrotter"
        assert labels["mystery_bonus_points"] == "Mystery bonus points"
    assert scene.shown_totals() == [sc.total for sc in session.game.scores()]
    frames(app, 3)


def test_unknown_part_names_never_crash_and_read_well(app, five, tmp_path):
    long_name = "bonus_for_the_longest_train_of_freight_wagons_ever_built"

    def change(seat, parts):
        parts[long_name] = 7
        parts["RivalCount"] = -2
        parts["x"] = 0
        return parts

    session = with_parts(five, change)
    scene = app.push(ScoringScene(app, session))
    press(app, pygame.K_SPACE)
    frames(app, 3)
    labels = [row.label for row in scene.rows[0]]
    assert "Bonus for the longest train of freight wagons ever built" in labels
    assert "Rival count" in labels and "X" in labels
    # Shortened on screen (whole words only), in full on hover.
    box = scene.tally.boxes[0]
    row = next(r for r in box.rows
               if scene.rows[0][r.entry[0]].part == long_name and len(r.entry) == 1)
    assert row.shortened and row.texts[0].endswith("…")
    move(app, row.rect.center)
    assert scene.tip[0][0].startswith("Bonus for the longest train of freight wagons ever built")
    frames(app, 2)
    assert part_label("") == "Other"


def test_without_a_longest_path_the_map_shows_all_routes(app, finished):
    def change(seat, parts):
        parts.pop("longest_path")
        return parts

    session = with_parts(finished, change, longest_path=0, longest_path_routes=[])
    scene = app.push(ScoringScene(app, session))
    press(app, pygame.K_SPACE)
    frames(app, 2)
    assert all(row.kind != "longest" for rows in scene.rows for row in rows)
    seat = scene.focus
    st = scene.stats[seat]
    captions = [key[0] for key in scene._captions]
    assert f"{scene.names[seat]}'s routes: {st.routes}, {st.trains} trains" in captions
    assert not any("has no routes" in c for c in captions)


def test_legacy_parts_in_dollars(app, finished, tmp_path):
    def change(seat, parts):
        return {"coins": 7 + seat, "trains_left": 6, "tickets": parts["tickets"], "floor": 0}

    session = with_parts(in_dollars(finished), change)
    scene = app.push(ScoringScene(app, session))
    assert scene.amounts.dollars
    labels = [row.label for row in scene.rows[0] if row.kind != "ticket"]
    # The trains-left line shows the trains its dollars were worked out from.
    assert labels[0] == "Coins in hand" and labels[1].startswith("Trains left: ")
    assert labels[1].endswith(" trains") and labels[-1] == "Raised to zero"
    press(app, pygame.K_SPACE)
    frames(app, 3)
    totals = [sc.total for sc in session.game.scores()]
    assert [scene.total_text(s) for s in range(2)] == [Amounts("dollars").total(t) for t in totals]
    assert all("$" in scene.total_text(s) for s in range(2))


def test_dollars_everywhere(app, finished, tmp_path):
    session = in_dollars(finished)
    scene = app.push(ScoringScene(app, session))
    press(app, pygame.K_SPACE)
    frames(app, 15)
    totals = [sc.total for sc in session.game.scores()]
    money = Amounts("dollars").total
    assert [scene.total_text(s) for s in range(2)] == [money(t) for t in totals]
    winner = scene.result.winners[0]
    assert scene.subtitle.startswith(f"${totals[winner]}, $")
    assert "points" not in scene.subtitle
    assert all("$" in label for label in scene.chart.axis_labels if label != "0" and
               label != "$0") and "$0" in scene.chart.axis_labels
    assert scene.tab_labels["chart"] == "Money after each round"
    assert {text for _, text, _ in scene.chart.end_labels(scene.chart_ends())} == \
        {money(t) for t in totals}
    click(app, scene.tab_rects["stats"].center)
    assert "$/train" in scene.table.texts()
    assert any(text.startswith("$") for text in (c.text for c in scene.table.cells))


def test_amounts_read_as_points_or_dollars():
    points, dollars = Amounts(), Amounts("dollars")
    assert (points.total(12), points.signed(4), points.signed(-8), points.phrase(1)) == \
        ("12", "+4", "\u22128", "1 point")
    assert (dollars.total(12), dollars.signed(4), dollars.signed(-8), dollars.phrase(12)) == \
        ("$12", "+$4", "\u2212$8", "$12")
    assert dollars.signed(0) == "$0" and points.signed(0) == "0"


def test_tie_break_words_for_every_family():
    names = ["Ann", "Bob"]
    sc = [ScoreBreakdown(0, 10, {}), ScoreBreakdown(1, 10, {})]
    words = {
        "tickets": "Tie on points — Bob completed more tickets",
        "fewest_stations": "Tie on points — Bob built fewer stations",
        "longest_path": "Tie on points — Bob holds the longest path",
        "merchandise": "Tie on points — Bob collected more merchandise",
        "later_in_turn_order": "Tie on points — Bob played later in turn order",
        "coin_toss": "Tie on points — Bob wins the tie-break (coin toss)",
    }
    for tb, text in words.items():
        assert tie_break_text(Result([1], tb, sc), names) == text
    assert tie_break_text(Result([1], "later_in_turn_order", sc), names, Amounts("dollars")) \
        == "Tie on money — Bob played later in turn order"
    assert tie_break_text(Result([0, 1], "shared", sc), names) == \
        "Tie on points — and every tie-break was level too."
    assert margin_text(Result([0], None, [ScoreBreakdown(0, 51, {}), ScoreBreakdown(1, 47, {})]),
                       names, Amounts("dollars")) == "$51, $4 ahead of Bob"
