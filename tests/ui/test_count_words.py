"""Counts read right everywhere: "1 card", "2 cards", never "1 cards" or "2 locomotive".

Every count in the window, the log, the engine's explanations and the hints goes through
one plural rule (``rules/words.py``). This scans the texts generated for many positions of
random games in every family — log lines, explanations of illegal moves, action words,
route, city and player tooltips, hints — for a count that disagrees with its noun.
"""

from __future__ import annotations

import os
import random
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dataclasses import replace  # noqa: E402

import pytest  # noqa: E402

from ttr_desktop.bots.hard import hint_reason  # noqa: E402
from ttr_desktop.rules import BuildStation, ClaimRoute  # noqa: E402
from ttr_desktop.rules.words import card_count, plural  # noqa: E402
from ttr_desktop.ui import log_text  # noqa: E402
from ttr_desktop.ui.app import App  # noqa: E402
from ttr_desktop.ui.scenes.board import BoardScene  # noqa: E402
from ttr_desktop.ui.session import GameSession, SeatConfig  # noqa: E402

NOUNS = ("card", "train", "space", "ticket", "point", "locomotive", "route", "marker",
         "station", "round", "turn", "player", "passenger", "dollar", "claim", "way",
         "choice", "wild", "newspaper", "seat")
_NUM = r"(?<![\d.,+$\u2212-])"
#: "1 cards", "1 red cards", "1 +4 locomotives".
ONE_MANY = re.compile(_NUM + r"1 (?:[a-z]+ |\+4 )?(?:" + "|".join(NOUNS) + r")s\b")
#: "2 card", "3 red card", "2 +4 locomotive" (a count other than one with a singular).
MANY_ONE = re.compile(_NUM + r"(?:0|[2-9]|\d{2,}) (?:red |blue |green |yellow |black |"
                      r"white |orange |pink |grey |gray |\+4 )?(?:" + "|".join(NOUNS)
                      + r")\b(?!s|-)")
GLUED = re.compile(r"\+4[a-z]|\b(?:you's|yous)\b|coal cards?\b|\b[a-z]+_[a-z0-9_]+\b")


def bad_counts(text: str) -> list[str]:
    """The pieces of ``text`` where a count disagrees with its noun."""
    return ONE_MANY.findall(text) + MANY_ONE.findall(text) + GLUED.findall(text)


def test_the_checker_catches_what_it_should():
    assert bad_counts("Denver – Omaha needs 1 trains") == ["1 trains"]
    assert bad_counts("pay 2 locomotive and 3 red card") == ["2 locomotive", "3 red card"]
    assert sorted(bad_counts("Both ends you's: +4locomotive, 2 coal cards")) == \
        sorted(["+4l", "you's", "coal cards"])
    assert bad_counts("1 card, 2 cards, 4 coal, 1 +4 locomotive, 2.5 points, "
                      "routes of 2 or more spaces, a +4 locomotive") == []


def test_a_card_is_named_as_players_say_it():
    from ttr_desktop.rules import DrawFaceUp
    assert bad_counts("take the face-up locomotive_plus4") == ["locomotive_plus4"]
    assert DrawFaceUp(0, "locomotive_plus4").describe() == "take the face-up +4 locomotive"
    assert log_text.card_words("locomotive_plus4") == "+4 locomotive"


def test_one_plural_rule():
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"
    assert plural(2, "city") == "2 cities" and plural(0, "space") == "0 spaces"
    assert card_count(2, "locomotive") == "2 locomotives"
    assert card_count(2, "locomotive_plus4") == "2 +4 locomotives"
    assert card_count(2, "coal") == "2 coal"
    assert card_count(3, "red") == "3 red cards" and card_count(3, "red", cards=False) == "3 red"


FAMILIES = [("usa", {}), ("usa-stations", {}), ("europe", {}), ("old-west", {}),
            ("county-durham", {}), ("marklin", {}), ("legacy", {})]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def odd_claims(game, rng):
    """Claims that are mostly illegal: wrong colours, short payments, too many wilds."""
    names = list(game.board.card_names)
    routes = list(game.map.routes)
    for _ in range(12):
        rid = rng.choice(routes)
        n = rng.randint(1, 7)
        cards = {rng.choice(names): n}
        if rng.random() < 0.5:
            cards[rng.choice(names)] = rng.randint(1, 3)
        yield ClaimRoute(rid, tuple(sorted(cards.items())))


@pytest.mark.parametrize("key", [f[0] for f in FAMILIES])
def test_generated_texts_count_right_in_every_family(app, key):
    from ttr_desktop.ui.session import VARIANT_CHOICES
    if key not in VARIANT_CHOICES:
        pytest.skip(f"{key} is not offered")
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bob", "human", color="blue"),
             SeatConfig("Cy", "human", color="green")]
    session = GameSession.new(key, seats, seed=5, autosave_to=app.paths.autosave_file)
    game = session.game
    rng = random.Random(9)
    texts: list[tuple[str, str]] = []
    board = None
    for step in range(400):
        if game.is_over:
            break
        legal = game.legal_actions()
        if step % 25 == 0:
            seat = game.current_seat
            view = game.view(seat)
            texts.append(("prompt", game.prompt()))
            texts.extend(("action", a.describe()) for a in legal[:30])
            for a in list(odd_claims(game, rng)) + [BuildStation(c, (("red", 2),)) for c in
                                                     list(game.map.cities)[:3]]:
                texts.append(("explain", game.explain(a) or ""))
            for rid in list(game.map.routes)[::7]:
                texts.append(("claim problem", game.claim_problem(rid) or ""))
            for a in rng.sample(legal, min(4, len(legal))):
                texts.append(("hint", hint_reason(view, a)))
            if board is None:
                board = app.push(BoardScene(app, session))
                app.step(1 / 60)
            board.viewer = seat
            for rid in list(game.map.routes)[::5]:
                board.hover_route, board.hover_city, board.hover_seat = rid, None, None
                texts.extend(("route tip", t) for t, _, _ in board.tooltip_lines())
            for cid in list(game.map.cities)[::6]:
                board.hover_route, board.hover_city = None, cid
                texts.extend(("city tip", t) for t, _, _ in board.tooltip_lines())
            for s in range(len(game.players)):
                board.hover_city, board.hover_seat = None, s
                texts.extend(("player tip", t) for t, _, _ in board.tooltip_lines())
            board.hover_seat = None
        action = rng.choice(legal)
        for ev in session.apply(action) or ():
            for viewer in (None, ev.seat):
                line = log_text.event_line(ev, game, viewer)
                if line:
                    texts.append(("log", line))
    assert len(texts) > 200
    wrong = [(where, text, bad_counts(text)) for where, text in texts if bad_counts(text)]
    assert wrong == []


def test_a_claim_short_of_coal_counts_coal_not_coal_cards():
    from tests.helpers import set_hand, set_module, started

    game = started("county-durham", 2, seed=3)
    set_module(game, "county_durham", held={game.current_seat: 2})
    set_hand(game, game.current_seat)
    rid = next(r.id for r in game.map.routes.values() if r.length == 2 and not r.ferry_locomotives)
    text = game.explain(ClaimRoute(rid, (("coal", 4),)))
    assert "you need 2 coal more: you hold 2" in text
    assert bad_counts(text) == []


def test_a_long_payment_stays_inside_its_row(app):
    from ttr_desktop.ui.scenes import board_overlays as ov
    from ttr_desktop.ui import style

    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bob", "human", color="blue")]
    session = GameSession.new("marklin", seats, seed=5, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    pays = [ClaimRoute("x", (("black", 3), ("locomotive", 2), ("locomotive_plus4", 2))),
            ClaimRoute("x", (("black", 7),)),
            ClaimRoute("x", (("locomotive", 6), ("locomotive_plus4", 8)))]
    chooser = ov.ActionChooser(app, board, "Pay", pays)
    for i, rect in enumerate(chooser.rows):
        x, lines, size = chooser.row_label(i)
        assert lines and size >= 12
        for line in lines:
            assert x + style.font(size).size(line)[0] <= rect.right
        assert all(rect.x < cx and cx + 26 <= rect.right for _, cx in chooser.card_spots(i))
