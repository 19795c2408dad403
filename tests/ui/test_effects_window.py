"""Say what will happen, and show what happened: the board driven like a player (headless,
real mouse and key events). A route's tooltip names what its claim does under the family's
rules; closed tracks of a double look closed; a free tunnel shows its revealed cards; a
wrong home city says why; the rules open at the game's family; rounds are counted the same
everywhere; news of the others' moves stays off the map; any lit track is a target."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.helpers import give_route, set_hand, set_module, stack_deck
from tests.ui.boardkit import confirm_claim, post_click, post_key, run_until
from tests.ui.conftest import click, find_button
from ttr_desktop.rules import Phase
from ttr_desktop.rules.scenario import Scenario
from ttr_desktop.ui.animations import TunnelReveal
from ttr_desktop.ui.app import App
from ttr_desktop.ui.families import load_all
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
from ttr_desktop.ui.scenes.scoring_words import rounds_text
from ttr_desktop.ui.session import GameSession, SeatConfig

load_all()


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def start(app, key="usa", bots=1, seed=3) -> BoardScene:
    seats = [SeatConfig("Ann", "human", color="red")] + [
        SeatConfig(f"Bot {i + 1}", "bot", "greedy", c)
        for i, c in zip(range(bots), ("blue", "green", "yellow"))]
    session = GameSession.new(key, seats, seed=seed, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def to_anns_turn(app, board, home: str | None = None) -> None:
    """Past the starting tickets (and the home city) to Ann's first turn."""
    for _ in range(600):
        g = board.game
        top = app.top
        if top is board and g.phase == Phase.TURN and board.is_human_turn():
            return
        if isinstance(top, TicketChoiceOverlay):
            post_click(app, top.ok.rect.center)
        elif top is not board and g.current_seat == 0 and g.phase == "choose_home_city":
            x, y = board.map_view.city_pos[home]
            post_click(app, (int(x), int(y)))
        elif top is not board and g.current_seat == 0 and getattr(top, "rows", None):
            post_click(app, top.rows[0].center)      # Märklin: the first ticket mix offered
        else:
            app.step(1 / 30)
    raise AssertionError("Ann's turn never came")


def hover(app, pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 60)


def on(board, route_id: str, i: int = 0) -> tuple[int, int]:
    x, y = board.map_view.space_centers(route_id)[i]
    return int(x), int(y)


def tooltip(board) -> str:
    """The tooltip's words, its wrapped lines joined again."""
    return " ".join(text.strip("\u2022 ") for text, _, _ in board.tooltip_lines())


# 1. The tooltip says what the claim will do ----------------------------------------------
def test_hovering_a_route_into_alvins_city_tells_the_capture_and_where_he_goes(app):
    board = start(app, "old-west-alvin", seed=5)
    to_anns_turn(app, board, home="santa-fe")
    hover(app, on(board, "roswell-santa-fe"))
    assert board.hover_route == "roswell-santa-fe"
    text = tooltip(board)
    assert ("Captures Alvin in Roswell: +10 now, and +10 at the end if you still hold him. "
            "He then moves to Santa Fe.") in text


def test_hovering_a_county_durham_route_names_the_coal_it_would_take(app):
    board = start(app, "county-durham")
    to_anns_turn(app, board)
    g = board.game
    set_module(g, "county_durham", city={g.board.city_index["consett"]: 1,
                                         g.board.city_index["stanley"]: 0})
    hover(app, on(board, "consett-stanley"))
    assert "Takes the coal at Consett (you would hold 1)." in tooltip(board)


def test_hovering_a_marklin_route_names_the_passenger_it_lets_you_place(app):
    board = start(app, "marklin")
    to_anns_turn(app, board)
    hover(app, on(board, "augsburg-nurnberg"))
    assert ("Then you may place a passenger on Augsburg or Nürnberg (3 left to place)."
            in tooltip(board))


def test_hovering_a_legacy_company_route_names_the_bonus(app):
    board = start(app, "legacy", seed=4)
    to_anns_turn(app, board)
    g = board.game
    company = g.state.ext["legacy"].companies[0]
    rid = next(r for r, route in g.map.routes.items() if route.color == company
               and g.state.owner[g.board.route_index[r]] < 0)
    hover(app, on(board, rid))
    assert f"Company route ({company}): +$1." in tooltip(board)


# 2. Closed tracks look closed -------------------------------------------------------------
def test_at_two_players_the_other_track_of_a_claimed_double_is_drawn_closed(app):
    board = start(app, "usa")
    to_anns_turn(app, board)
    g = board.game
    mv = board.map_view
    route = g.map.routes["chicago-pittsburgh-1"]
    set_hand(g, 0, **{route.color: route.length})
    assert mv.route_state("chicago-pittsburgh-2") == "open"
    hover(app, (5, 5))
    app.draw()
    before = app.screen.get_at(on(board, "chicago-pittsburgh-2", 0))
    post_click(app, on(board, "chicago-pittsburgh-1"))
    confirm_claim(app)
    assert g.state.owner[g.board.route_index["chicago-pittsburgh-1"]] == 0
    hover(app, (5, 5))
    app.draw()
    assert mv.route_state("chicago-pittsburgh-2") == "closed"
    assert mv.route_state("chicago-pittsburgh-1") == "claimed"
    after = app.screen.get_at(on(board, "chicago-pittsburgh-2", 0))
    assert after != before          # greyed and hatched, no longer its open colour


def test_at_four_players_the_other_track_of_a_taken_double_stays_open(app):
    board = start(app, "usa", bots=3)
    to_anns_turn(app, board)
    g = board.game
    give_route(g, 1, "chicago-pittsburgh-1")
    hover(app, (5, 5))
    app.draw()
    assert board.map_view.route_state("chicago-pittsburgh-2") == "open"


# 3. A free tunnel shows its revealed cards -------------------------------------------------
def test_a_tunnel_that_costs_nothing_more_shows_the_three_revealed_cards(app):
    board = start(app, "europe")
    to_anns_turn(app, board)
    g = board.game
    set_hand(g, 0, orange=3)
    stack_deck(g, ["blue", "green", "white"])    # nothing matches orange: no extra cards
    post_click(app, on(board, "angora-smyrna", 1))
    confirm_claim(app, frames=1)
    assert g.state.owner[g.board.route_index["angora-smyrna"]] == 0
    reveal = next(a for a in board.anims if isinstance(a, TunnelReveal))
    assert reveal.cards == ["blue", "green", "white"]
    assert reveal.verdict == "Nothing more to pay: the route is claimed."
    assert not reveal.rect.colliderect(pygame.Rect(*board.map_view.route_center(
        "angora-smyrna"), 1, 1))
    assert any("revealed blue, green, white — nothing more to pay" in text
               for text, _ in board.log_lines)


# 4. A home city that cannot be chosen says why -------------------------------------------
def test_clicking_roswell_or_a_taken_city_as_home_says_why(app):
    from ttr_desktop.ui.families.old_west import HomeCityOverlay
    board = start(app, "old-west-alvin", seed=5)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: isinstance(app.top, HomeCityOverlay), 30)
    g = board.game
    x, y = board.map_view.city_pos["roswell"]
    hover(app, (int(x), int(y)))          # the tooltip says it before the click
    assert "Nobody may start in Roswell: Alvin the Alien is there." in tooltip(board)
    post_click(app, (int(x), int(y)))
    assert any(t.message == "Nobody may start in Roswell: Alvin the Alien is there."
               for t in app.toasts)
    assert isinstance(app.top, HomeCityOverlay) and g.phase == "choose_home_city"
    taken = g.view(0).extra["home_cities"][1]
    x, y = board.map_view.city_pos[taken]
    post_click(app, (int(x), int(y)))
    name = g.map.cities[taken].name
    assert any(t.message == f"{name} is already Bot 1's city; choose another."
               for t in app.toasts)


# 5. The rules open at the game's family --------------------------------------------------
@pytest.mark.parametrize("key,section", [("marklin", "Märklin (Germany)"),
                                         ("old-west", "Old West"),
                                         ("europe", "Europe: tunnels and ferries"),
                                         ("usa-1910-mega", "USA 1910")])
def test_rules_opened_during_a_game_start_at_that_familys_section(app, key, section):
    from ttr_desktop.ui.scenes.rules import RulesScene
    board = start(app, key)
    to_anns_turn(app, board, home="santa-fe")
    post_key(app, pygame.K_ESCAPE)
    click(app, find_button(app.top, "Rules"))
    rules = app.top
    assert isinstance(rules, RulesScene)
    assert rules.anchors[rules.current_section()][0] == section
    assert rules.scroll == dict(rules.anchors)[section] - 8


def test_rules_of_the_base_game_open_at_the_top(app):
    from ttr_desktop.ui.scenes.rules import RulesScene
    board = start(app, "usa")
    to_anns_turn(app, board)
    post_key(app, pygame.K_ESCAPE)
    click(app, find_button(app.top, "Rules"))
    assert isinstance(app.top, RulesScene) and app.top.scroll == 0


# 6. Rounds, one notion everywhere -------------------------------------------------------
def test_the_header_counts_rounds_as_the_end_screen_does(app):
    board = start(app, "usa", bots=2)
    to_anns_turn(app, board)
    g = board.game
    assert board.round_text() == "Round 1"
    Scenario(g).turns_played(132)   # 132 turns done by 3 seats: the 45th round is being played
    assert board.round_text() == "Round 45"
    assert rounds_text(133, 3) == "45 rounds"      # the end screen after one more turn


def test_a_resumed_game_says_the_round_in_the_log(app, tmp_path):
    board = start(app, "usa", bots=2)
    to_anns_turn(app, board)
    g = board.game
    post_key(app, pygame.K_d)        # Ann draws two cards, both bots play: round 2
    post_key(app, pygame.K_d)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and g.phase == Phase.TURN)
    assert g.state.turn == 3 and board.round_text() == "Round 2"
    path = board.session.save(tmp_path / "mid.toml")
    app.pop(board)
    session = GameSession.load(path)
    resumed = app.push(BoardScene(app, session))
    app.step(1 / 60)
    assert any(text == "— Resumed in round 2 —" for text, _ in resumed.log_lines)


# 7. News of the others' moves stays off the map -------------------------------------------
def test_what_the_others_did_is_told_beside_the_map_never_over_a_city(app):
    board = start(app, "europe", bots=3, seed=7)
    to_anns_turn(app, board)
    post_key(app, pygame.K_d)
    post_key(app, pygame.K_d)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    news = board.news_layout()
    assert len(news) == 2
    for _, rect in news:
        assert not rect.colliderect(board.lay.map)
        assert board.lay.log.contains(rect)
        for city in ("petrograd", "moskva"):
            x, y = board.map_view.city_pos[city]
            assert not rect.collidepoint(x, y)
    app.toast("Hint: a long hint that reaches across the top of the map " * 3, 6.0)
    for _, rect in board.news_layout():
        assert not any(rect.colliderect(t) for t in app.toast_rects())


# 8. Any lit track of a double is a target in a passenger's move -------------------------
def test_a_click_on_the_free_track_of_a_lit_double_moves_the_passenger(app):
    from ttr_desktop.rules.modules.marklin import MOVE
    board = start(app, "marklin", bots=3)      # at 4 players both tracks of a double are open
    to_anns_turn(app, board)
    g = board.game
    give_route(g, 0, "augsburg-munchen-1")
    st = g.state.ext["marklin"]
    set_module(g, "marklin", supply={0: st.supply[0] - 1},
               at={0: st.at[0] + [g.board.city_index["augsburg"]]})
    app.step(1 / 60)
    x, y = board.map_view.city_pos["augsburg"]
    post_click(app, (int(x), int(y)))
    assert g.phase == MOVE
    assert ("route", "augsburg-munchen-1") in app.top.targets
    assert ("route", "augsburg-munchen-2") not in app.top.targets   # nobody's track
    post_click(app, on(board, "augsburg-munchen-2"))
    assert st.cur == g.board.city_index["munchen"] or any(
        "from Augsburg to München" in text for text, _ in board.log_lines)


def test_a_game_of_a_family_opens_its_section_and_never_a_longer_familys():
    from ttr_desktop.ui.scenes.rules import family_section
    titles = ["Playing", "USA 1910", "Europe: tunnels and ferries", "Old West",
              "Märklin (Germany)", "County Durham: coal country"]
    assert family_section("usa", titles) is None          # the base game: from the top
    assert family_section("usa-1910", titles) == "USA 1910"
    assert family_section("usa-1910-mega", titles) == "USA 1910"
    assert family_section("usa-1910-big-cities", titles) == "USA 1910"
    assert family_section("marklin", titles) == "Märklin (Germany)"
    assert family_section("county-durham", titles) == "County Durham: coal country"
