"""Legacy in the window: companies from the seats' colours, the current event card and a
newspaper's announcement, the claim steps' payouts in the log, the bank slips, and a game
saved and continued — on a 1280x720 board."""

from __future__ import annotations

import random
from dataclasses import replace

import pygame
import pytest

from tests.helpers import add_points, set_current, set_face_up, set_hand, set_module, stack_deck
from tests.ui.boardkit import confirm_claim, post_click, run_until
from ttr_desktop.bots import make_bot
from ttr_desktop.rules import new_game
from ttr_desktop.rules.modules import legacy as rules
from ttr_desktop.ui.app import App
from ttr_desktop.ui.families import legacy as family
from ttr_desktop.ui.log_text import event_line
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.scoring import ScoringScene
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig

COLOURS5 = ["black", "blue", "white", "green", "yellow"]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def seats(*colours, human=0):
    return [SeatConfig(f"P{i + 1}", "human" if i == human else "bot", "greedy", c)
            for i, c in enumerate(colours)]


def session_at_first_turn(colours=("blue", "red"), seed=4) -> GameSession:
    """A session whose initial tickets are chosen (seat 0, a person, is to play)."""
    session = GameSession.new("legacy", seats(*colours), seed=seed)
    g = session.game
    while g.phase != "turn":
        session.apply(g.legal_actions()[0])
    set_current(g, 0)
    set_face_up(g, COLOURS5)
    return session


def finished_session(seed=2, players=3) -> GameSession:
    colours = ("blue", "red", "green", "yellow", "black")[:players]
    session = GameSession.new("legacy", seats(*colours, human=-1), seed=seed)
    g = session.game
    bots = [make_bot("greedy", seed=seed + i) for i in range(players)]
    while not g.is_over:
        seat = g.current_seat
        session.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
    return session


# Setup ---------------------------------------------------------------------------------
def test_setup_offers_legacy_and_each_train_colour_is_a_company():
    assert VARIANT_CHOICES["legacy"][0] == "legacy"
    session = GameSession.new("legacy", seats("yellow", "black", "red"), seed=1)
    assert session.game.state.ext["legacy"].companies == ["yellow", "black", "red"]


def test_a_purple_seat_cannot_start_a_legacy_game_and_is_told_why():
    with pytest.raises(ValueError, match="purple runs no company"):
        GameSession.new("legacy", seats("purple", "red"), seed=1)


def test_setup_screen_shows_the_reason_for_a_purple_seat(app):
    from ttr_desktop.ui.scenes.setup import SetupScene
    scene = app.push(SetupScene(app))
    scene.variant_key = "legacy"
    scene.seats = seats("purple", "red")
    scene.start()
    assert "purple" in scene.error and "company" in scene.error


# Events on the board -------------------------------------------------------------------
def test_before_any_newspaper_the_card_says_no_event_yet():
    head, title, texts, footer = family.event_card_lines(
        {"current_event": "", "events_left": 7, "newspapers_left": 6})
    assert head == "NO EVENT YET" and "newspaper" in texts[0]
    assert footer == "7 events face down · 6 newspapers in the deck"


def test_a_newspaper_drawn_shows_the_event_card_and_announces_it(app, monkeypatch):
    session = session_at_first_turn()
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    drawn: list[pygame.Rect] = []
    real_card, real_news = family.draw_event_card, family.draw_announcement
    monkeypatch.setattr(family, "draw_event_card",
                        lambda *a, **k: drawn.append(real_card(*a, **k)) or drawn[-1])
    announced: list[str] = []
    monkeypatch.setattr(family, "draw_announcement",
                        lambda s, r, e, *a: announced.append(e) or real_news(s, r, e, *a))
    g = session.game
    st = g.state.ext["legacy"]
    set_module(g, "legacy", deck=[e for e in st.deck if e != "improvements"] + ["improvements"])
    stack_deck(g, ["newspaper", "white", "white"])
    post_click(app, board.lay.deck.center)
    assert st.current == "improvements"
    app.step(1 / 60)
    assert announced and announced[-1] == "improvements"
    # In the room the layout keeps for it (beside Legacy's tall map), over no panel.
    lay = board.lay
    assert drawn and lay.aside.contains(drawn[-1])
    assert not any(drawn[-1].colliderect(r) for r in (*lay.hand, lay.tickets, lay.info))
    head, title, texts, _ = family.event_card_lines(g.view(0).extra["legacy"])
    assert head == "CURRENT EVENT · ONGOING" and title == "Railway improvements"
    assert any("EXTRA!" in line and "Railway improvements" in line
               for line, _ in board.log_lines)


def test_an_instant_event_card_says_it_was_resolved():
    head, title, texts, _ = family.event_card_lines(
        {"current_event": "reeves", "events_left": 6, "newspapers_left": 5})
    assert head.endswith("INSTANT") and title == "Reeves Rails needs assistance"
    assert "Resolved" in texts[-1]


def test_a_claim_shows_the_company_bonus_and_the_large_city_card_in_the_log(app):
    session = session_at_first_turn()
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    g = session.game
    rid = "bangor-montreal"                      # blue, 2 spaces, Montreal is large
    assert g.map.routes[rid].color == "blue" and g.map.cities["montreal"].large
    set_hand(g, 0, blue=2)
    x, y = board.map_view.space_centers(rid)[0]
    post_click(app, (int(x), int(y)))
    confirm_claim(app)
    assert g.state.ext["legacy"].company_paid[0] == 1
    lines = [line for line, _ in board.log_lines]
    assert any("company route (blue)" in line and "pays $1" in line for line in lines)
    assert any(line.startswith("Large city") for line in lines)


def test_every_legacy_event_reads_as_a_sentence_in_the_log():
    kinds = set()
    for seed in range(4):
        game = new_game("legacy", ["Ann", "Bob", "Cy"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            for ev in game.apply(rng.choice(game.legal_actions())):
                if ev.kind in family.EVENT_LINES and ev.kind in (
                        "newspaper", "event_paid", "event_card", "company_bonus",
                        "event_claim", "large_city_card"):
                    kinds.add(ev.kind)
                    for viewer in (None, 0):
                        line = event_line(ev, game, viewer)
                        assert line and "=" not in line and "{" not in line, line
    assert {"newspaper", "company_bonus", "large_city_card"} <= kinds


# The bank slip ---------------------------------------------------------------------------
def test_the_scoring_screen_is_a_bank_slip_per_company(app):
    session = finished_session()
    scene = app.push(ScoringScene(app, session))
    app.step(1 / 60)
    assert scene.panel_title == "Bank slips"
    assert scene.kinds[0].startswith("Blue company") and scene.kinds[1].startswith("Red company")
    for seat, rows in enumerate(scene.rows):
        parts = [r.part for r in rows]
        assert parts[0] == "coins" and "trains_left" in parts
        assert sum(r.value for r in rows) == scene.scores[seat].total >= 0
        assert scene.amounts.dollars


def test_the_raise_to_zero_shows_on_the_slip(app):
    session = finished_session()
    g = session.game
    add_points(g, 0, -60, "event", "test")           # a company deep in debt
    scene = ScoringScene(app, session)
    floor = [r for r in scene.rows[0] if r.part == "floor"]
    assert floor and floor[0].value > 0 and scene.scores[0].total == 0


# Save and continue -----------------------------------------------------------------------
def test_save_load_and_continue_in_the_window_after_an_event(app, tmp_path):
    session = GameSession.new("legacy", seats("green", "black", human=-1), seed=6)
    g = session.game
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while not g.state.ext["legacy"].seen or g.current_seat != 0:   # played to an event
        session.apply(bots[g.current_seat].choose(g.view(g.current_seat), g.legal_actions()))
    path = session.save(tmp_path / "legacy.toml")
    loaded = GameSession.load(path)
    assert loaded.game.state.to_dict() == g.state.to_dict()
    assert loaded.game.state.ext["legacy"].companies == ["green", "black"]
    board = app.push(BoardScene(app, loaded))
    lg = loaded.game
    turn = lg.state.turn
    assert run_until(app, lambda: lg.is_over or lg.state.turn > turn + 4, seconds=120)
    assert board.game is lg and lg.state.ext["legacy"].seen


# The rules page ------------------------------------------------------------------------------
def test_the_rules_have_a_legacy_page_saying_the_events_are_our_own_design():
    from ttr_desktop.ui.scenes.rules import load_rules_text
    text = load_rules_text()
    page = text[text.index("## Legacy: Legends of the West"):]
    assert "Our own design" in page and "sealed" in page
    for ev in rules.EVENTS:
        assert ev.title in page
    assert text.rstrip().endswith(text[text.index("## Keys"):].rstrip())   # keys stay last


def test_a_claims_payouts_are_badges_beside_the_route(app, monkeypatch):
    session = session_at_first_turn()
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    g = session.game
    set_hand(g, 0, blue=2)
    x, y = board.map_view.space_centers("bangor-montreal")[0]
    post_click(app, (int(x), int(y)))
    confirm_claim(app)
    claim_events = next(session.past_events[i:] for i in range(len(session.past_events))
                        if session.past_events[i].kind == "route_claimed")
    badges = family.payout_badges(claim_events, 0)
    assert badges["bangor-montreal"] == ["+$1 company", "+1 card"]
    texts: list[str] = []
    real = family.style.text
    monkeypatch.setattr(family.style, "text", lambda s, *a, **k: texts.append(s) or real(s, *a, **k))
    board.draw(app.screen if hasattr(app, "screen") else pygame.display.get_surface())
    assert "+$1 company" in texts and "+1 card" in texts


def test_a_newspapers_announcement_hides_nothing_of_the_map(app):
    session = session_at_first_turn()
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    g = session.game
    st = g.state.ext["legacy"]
    set_module(g, "legacy", deck=[e for e in st.deck if e != "improvements"] + ["improvements"])
    stack_deck(g, ["newspaper", "white", "white"])
    post_click(app, board.lay.deck.center)
    assert st.current == "improvements"
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0),
                                         buttons=(0, 0, 0)))   # no tooltip over the map
    app.step(1 / 60)
    lay = board.lay
    news = app.screen.copy()
    memo = board.port.memo["_legacy_news"]
    assert memo["event"] == "improvements" and memo["shown"].left > 0   # it is showing
    # The same frame once the announcement is over.
    memo["shown"].left = 0
    quiet = pygame.Surface(app.size)
    board.draw(quiet)
    # Every city and route of the map looks the same with the news showing.
    assert pygame.image.tobytes(news.subsurface(lay.map), "RGB") == \
        pygame.image.tobytes(quiet.subsurface(lay.map), "RGB")
    # It is shown over the game log, whole, with the event's title and text, and leaves
    # the players, the cards to draw and the hand uncovered.
    rect = family.announcement_rect(lay, "improvements")
    assert lay.log.contains(rect)
    assert not any(rect.colliderect(r) for r in (lay.players, lay.market, *lay.hand))
    assert news.subsurface(rect).get_at((rect.width // 2, 4)) != \
        quiet.subsurface(rect).get_at((rect.width // 2, 4))


def test_the_announcement_waits_while_the_board_is_covered():
    class Scene:          # the board's port, as far as the announcement uses it
        app = type("A", (), {"top": None})()

        def on_top(self) -> bool:
            return self.app.top is self
    scene = Scene()
    shown = family.Shown()
    assert shown.tick(scene, 1, 0.01)
    import time
    time.sleep(0.03)
    assert shown.tick(scene, 1, 0.01)          # covered: the clock does not run
    scene.app.top = scene
    shown.tick(scene, 1, 0.01)
    time.sleep(0.03)
    assert not shown.tick(scene, 1, 0.01)      # on top: it runs out


def test_the_ticket_list_beside_the_map_shows_every_ticket_the_room_above_the_card_holds(app):
    from tests.helpers import set_tickets
    from ttr_desktop.ui.scenes import board_panels as panels

    session = session_at_first_turn()
    g = session.game
    four = [t.id for t in g.board.tickets][:4]
    set_tickets(g, 0, four)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    shot = pygame.Surface(app.size)
    board.draw(shot)
    lay = board.lay
    assert lay.beside
    info = g.view(0).extra[rules.NAME]
    card = family.draw_event_card(pygame.Surface(app.size), lay.aside, info)
    rows = panels.ticket_rows(lay, 4, 0)
    # All four tickets stand in the list (no "1–3 of 4 · scroll"), above the event card.
    assert [i for i, _ in rows] == [0, 1, 2, 3]
    assert all(rect.bottom <= card.top for _, rect in rows)
    # And the hovered chip under the mouse is the fourth ticket.
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rows[3][1].center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 60)
    assert board.hover_ticket == 3
