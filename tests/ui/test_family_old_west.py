"""Old West in the window, driven like a player (headless, real events): the setup choices,
choosing a home city on the map, a claim followed by the city-marker panel, the tokens on
the map, the log, the scoring screen with Globetrotter and Alvin, and the rules page."""

from __future__ import annotations

import os
from dataclasses import replace

import pygame
import pytest

from tests.helpers import set_hand, set_module
from tests.ui.boardkit import confirm_claim, post_click, post_key, run_until
from ttr_desktop.rules import Phase
from ttr_desktop.rules.modules.old_west import CHOOSE_HOME, PLACE_MARKER
from ttr_desktop.ui.app import App
from ttr_desktop.ui.families import load_all
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig

load_all()
from ttr_desktop.ui.families.old_west import HomeCityOverlay, PlaceMarkerOverlay  # noqa: E402

VARIANT = "old-west"
COLOURS = ["red", "blue", "green", "yellow", "black", "purple"]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def shot(app, name: str) -> None:
    """Save the screen when TTR_SHOTS names a folder (to look at the window by eye)."""
    folder = os.environ.get("TTR_SHOTS")
    if folder:
        app.draw()
        pygame.image.save(app.screen, os.path.join(folder, name))


def start(app, bots: int = 1, options: dict | None = None) -> BoardScene:
    """Ann (seat 0, plays first so chooses her home last) against ``bots`` Normal bots,
    past the ticket choice: the home-city panel is up for Ann."""
    seats = [SeatConfig("Ann", "human", color="red")] + [
        SeatConfig(f"Bot {i + 1}", "bot", "greedy", COLOURS[i + 1]) for i in range(bots)]
    key = "old-west-alvin" if options else VARIANT
    session = GameSession.new(key, seats, seed=5, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    assert isinstance(app.top, TicketChoiceOverlay)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: isinstance(app.top, HomeCityOverlay), 30)
    assert board.game.phase == CHOOSE_HOME and board.game.current_seat == 0
    return board


def give_cards(board, seat, **cards) -> None:
    set_hand(board.game, seat, **cards)


def board_log(board) -> list[str]:
    return [text for text, _ in board.log_lines]


def click_city(app, board, cid: str) -> None:
    x, y = board.map_view.city_pos[cid]
    post_click(app, (int(x), int(y)))


def click_route(app, board, route_id: str) -> None:
    x, y = board.map_view.space_centers(route_id)[0]
    post_click(app, (int(x), int(y)))


def test_setup_offers_old_west_with_and_without_alvin():
    assert VARIANT_CHOICES[VARIANT][:2] == (VARIANT, {})
    assert VARIANT_CHOICES["old-west-alvin"][:2] == (VARIANT, {"alvin": True})


def test_the_home_city_panel_lists_the_tickets_cities_first_and_a_map_click_chooses(app):
    board = start(app)
    g = board.game
    panel = app.top
    tickets = {p for t in g.view(0).tickets for p in (t.a, t.b)}
    free = {a.city_id for a in panel.actions}
    first = [a.city_id for a in panel.actions[:len(tickets & free)]]
    assert set(first) == tickets & free
    assert "(on " in panel.row_text(panel.actions[0])
    shot(app, "ow-home.png")
    city = sorted(tickets & free)[0]
    click_city(app, board, city)
    assert g.view(0).extra["home_cities"][0] == city
    assert any(f"Ann chose {g.map.cities[city].name} as home city" in line
               for line in board_log(board))
    assert run_until(app, lambda: board.is_human_turn() and g.phase == Phase.TURN, 10)
    tokens = g.view(0).city_tokens[city]
    assert [(t.kind, t.seat) for t in tokens] == [("home", 0)]


def test_the_top_line_asks_for_the_home_city_as_it_asks_every_decision(app):
    # "Ann: choose your starting tickets." - a rule module's question reads the same way.
    board = start(app)
    assert board.status_text() == "Ann: choose your home city: your network grows from there."


def test_h_on_the_home_city_panel_names_the_city_to_make_home(app):
    app.settings = replace(app.settings, hard_budget=0.5)
    board = start(app)
    g = board.game
    panel = app.top
    post_key(app, pygame.K_h)
    assert board.hint_runner is not None
    board.hint_runner.join(15)
    app.step(1 / 60)
    hints = [t.message for t in app.toasts if t.message.startswith("Hint: ")]
    names = {g.map.cities[a.city_id].name for a in panel.actions}
    assert hints and any(hints[0].startswith(f"Hint: make {name} your home city: ")
                         for name in names), hints
    assert app.top is panel and g.phase == CHOOSE_HOME   # the hint chose nothing


def choose_home(app, board, city: str) -> None:
    panel = app.top
    assert isinstance(panel, HomeCityOverlay)
    row = [a.city_id for a in panel.actions].index(city)
    if row < len(panel.rows):
        post_click(app, panel.rows[row].center)
    else:
        click_city(app, board, city)
    assert run_until(app, lambda: board.is_human_turn() and board.game.phase == Phase.TURN, 10)


def test_a_claim_from_home_then_a_marker_for_a_pair_on_the_other_end(app):
    board = start(app)
    g = board.game
    taken = g.view(0).extra["home_cities"][1]
    home, other = ("bend", "ashland") if taken != "bend" else ("ashland", "bend")
    choose_home(app, board, home)
    give_cards(board, 0, black=4)
    click_route(app, board, "ashland-bend")
    confirm_claim(app)
    assert g.state.owner[g.board.route_index["ashland-bend"]] == 0
    assert g.phase == PLACE_MARKER
    assert run_until(app, lambda: isinstance(app.top, PlaceMarkerOverlay), 5)
    panel = app.top
    texts = [panel.row_text(a) for a in panel.actions[:len(panel.rows)]]
    assert "No marker" in texts
    name = g.map.cities[other].name
    assert f"Marker on {name}: pay 2 black" in texts
    assert f"Place a city marker on {name}" in panel.title_text()
    shot(app, "ow-marker.png")
    post_click(app, panel.rows[texts.index(f"Marker on {name}: pay 2 black")].center, frames=0)
    view = g.view(0)
    assert view.extra["city_markers"][other] == 0
    assert view.extra["markers_left"][0] == 1
    assert dict(view.hand).get("black", 0) == 0
    assert [(t.kind, t.seat) for t in view.city_tokens[other]] == [("marker", 0)]
    assert any(f"Ann placed a city marker on {name} (2 black); 1 marker left." in line
               for line in board_log(board))


def test_a_route_away_from_the_network_is_refused_in_words(app):
    board = start(app)
    g = board.game
    taken = g.view(0).extra["home_cities"][1]
    choose_home(app, board, "bend" if taken != "bend" else "ashland")
    problem = g.claim_problem("seattle-portland-1") if "seattle-portland-1" in g.map.routes \
        else g.claim_problem(next(r for r, x in g.map.routes.items()
                                  if "bend" not in (x.a, x.b) and "ashland" not in (x.a, x.b)))
    assert "home city" in problem


def test_the_marker_panel_can_say_no_and_keeps_no_marker_visible(app):
    board = start(app)
    g = board.game
    taken = g.view(0).extra["home_cities"][1]
    choose_home(app, board, "bend" if taken != "bend" else "ashland")
    # Many pairs: every colour twice and locomotives; "No marker" must still be on screen.
    give_cards(board, 0, black=4, red=2, blue=2, green=2, yellow=2, white=2, orange=2,
               pink=2, locomotive=2)
    click_route(app, board, "ashland-bend")
    from ttr_desktop.ui.scenes.board_overlays import ActionChooser
    if isinstance(app.top, ActionChooser):
        post_click(app, app.top.rows[0].center)
    assert run_until(app, lambda: isinstance(app.top, PlaceMarkerOverlay), 5)
    panel = app.top
    shown = panel.actions[:len(panel.rows)]
    assert any(a.kind == "decline" for a in shown)
    # The H hint names a marker choice as the panel does, in a sentence.
    marker = next(a for a in shown if a.kind == "place_city_marker")
    name = g.map.cities[marker.city_id].name
    assert panel.hint_words(marker).startswith(f"place a marker on {name}, paying ")
    assert panel.hint_words(next(a for a in shown if a.kind == "decline")) == "place no marker"
    post_key(app, pygame.K_1 + [a.kind for a in shown].index("decline"), frames=1)
    assert g.phase != PLACE_MARKER
    assert g.view(0).extra["markers_left"][0] == 2


def test_six_seats_fit_at_1280x720_with_their_homes_on_the_map(app):
    seats = [SeatConfig(f"Bot {i + 1}", "bot", "greedy", COLOURS[i]) for i in range(6)]
    session = GameSession.new("old-west-alvin", seats, seed=3,
                              autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    g = session.game
    assert run_until(app, lambda: g.phase == Phase.TURN, 60, dt=1 / 10)
    lay = board.lay
    assert lay.players.bottom <= 720 and lay.players.right <= 1280
    homes = g.view(0).extra["home_cities"]
    assert len(set(homes)) == 6 and "roswell" not in homes
    tokens = g.view(0).city_tokens
    for seat, city in enumerate(homes):
        assert ("home", seat) in [(t.kind, t.seat) for t in tokens[city]]
        assert city in board.map_view.city_pos
    assert [t.kind for t in tokens["roswell"]] == ["alvin"]
    assert g.view(0).extra["seat_stats"] == (("2 markers",) * 6,)
    shot(app, "ow-six.png")


def test_the_rules_page_has_old_west():
    from ttr_desktop.ui.scenes.rules import load_rules_text
    text = load_rules_text()
    assert "## Old West" in text
    for words in ("home city", "city marker", "Globetrotter", "Alvin"):
        assert words in text


def test_a_route_tooltip_says_who_would_score_it_and_why_it_cannot_be_claimed(app):
    board = start(app)
    g = board.game
    bot_home = g.view(0).extra["home_cities"][1]
    choose_home(app, board, "bend" if bot_home != "bend" else "ashland")
    # A route into the bot's home city: its points would go to the bot.
    rid = next(r for r, x in g.map.routes.items() if bot_home in (x.a, x.b))
    pts = g.ruleset.route_points[g.map.routes[rid].length]
    board.hover_city, board.hover_stub, board.hover_route = None, None, rid
    texts = [t for t, _, _ in board.tooltip_lines()]
    assert f"{pts} points to Bot 1 (marker on {g.map.cities[bot_home].name})" in texts
    assert any("home city" in t for t in texts)      # not connected to Ann's network
    shot(app, "ow-tooltip.png")


def test_the_log_sums_a_route_scored_twice_for_one_opponent():
    from ttr_desktop.rules import new_game
    from ttr_desktop.rules.events import Event
    from ttr_desktop.ui.log_text import event_line
    game = new_game(VARIANT, 2, seed=1)
    ev = Event("route_claimed", 0, {"route": "ashland-bend", "cards": "2 black", "points": 0,
                                    "scorers": [[1, 2], [1, 2]]})
    line = event_line(ev, game, 0)
    assert line.endswith(f"{game.players[1]} scores 4.")


def test_a_saved_game_with_homes_markers_and_alvin_loads_and_plays_on(app, tmp_path):
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    seats = [SeatConfig("Bot A", "bot", "greedy", "red"), SeatConfig("Bot B", "bot", "easy",
                                                                        "blue")]
    session = GameSession.new("old-west-alvin", seats, seed=4,
                              autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    g = session.game
    assert run_until(app, lambda: len(g.view(0).extra["city_markers"]) >= 3, 600, dt=1 / 10)
    path = session.save(tmp_path / "ow.toml")
    loaded = GameSession.load(path)
    assert loaded.game.state.to_dict() == g.state.to_dict()
    assert loaded.game.options == {"alvin": True}
    app.pop(board)
    app.push(BoardScene(app, loaded))
    lg = loaded.game
    assert lg.view(0).extra["city_markers"] == g.view(0).extra["city_markers"]
    assert run_until(app, lambda: isinstance(app.top, ScoringScene), 900, dt=1 / 10)
    shot(app, "ow-scoring.png")
    from ttr_desktop.ui.scenes.scoring_words import part_label
    for score in lg.scores():
        assert {"routes", "tickets", "globetrotter", "alvin"} <= set(score.parts)
        assert "longest_path" not in score.parts
    alvin = lg.view(0).extra["alvin"]
    # +10 per capture, +10 to his holder at the end
    assert sum(s.parts["alvin"] for s in lg.scores()) == 10 * sum(alvin["captures"]) + (
        10 if alvin["holder"] >= 0 else 0)
    assert part_label("globetrotter") == "Globetrotter"
    assert part_label("alvin") == "Alvin the Alien"


def test_capturing_alvin_asks_where_he_goes_among_the_captors_cities(app):
    from ttr_desktop.ui.families.old_west import MoveAlvinOverlay
    board = start(app, options={"alvin": True})
    g = board.game
    taken = g.view(0).extra["home_cities"][1]
    home = "albuquerque" if taken != "albuquerque" else "las-cruces"
    choose_home(app, board, home)
    st = g.state.ext["old_west"]
    set_module(g, "old_west", marker={g.board.city_index["tucson"]: 0},   # a second city of Ann's
               placed={0: st.placed[0] + 1})
    give_cards(board, 0, red=2, green=2)
    route = f"{home}-roswell"
    assert route in g.map.routes
    click_route(app, board, route)
    from ttr_desktop.ui.scenes.board_overlays import ActionChooser
    if isinstance(app.top, ActionChooser):
        post_click(app, app.top.rows[0].center)
    assert run_until(app, lambda: isinstance(app.top, MoveAlvinOverlay), 5)
    panel = app.top
    texts = [panel.row_text(a) for a in panel.actions]
    assert sorted(texts) == sorted([f"Move Alvin to {g.map.cities[home].name}",
                                    "Move Alvin to Tucson"])
    shot(app, "ow-alvin.png")
    post_click(app, panel.rows[texts.index("Move Alvin to Tucson")].center, frames=0)
    alvin = g.view(0).extra["alvin"]
    assert alvin["city"] == "tucson" and alvin["holder"] == 0
    assert g.scores()[0].parts["alvin"] == 10 + 10   # the capture, and holding him now
    log = board_log(board)
    assert any("Ann captured Alvin the Alien in Roswell: +10." in line for line in log)
    assert any("Ann took Alvin to Tucson." in line for line in log)
