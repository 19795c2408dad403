"""No dead end, played through the window: every decision can be backed out of or taken back.

- a passenger's ride (Märklin) has Cancel until its last step, and Ctrl+Z takes the whole
  ride back;
- Ctrl+Z on the step that follows a claim (a passenger, a city marker, a coal token) takes
  the claim back, and the pause menu offers the take-back whenever the board can do it;
- against a bot, the bot waits a visible pause (a setting) in which Ctrl+Z still works;
- a move taken back leaves no trace but one log line saying so.
"""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.helpers import give_route, set_hand, set_module, set_tickets
from tests.ui.boardkit import confirm_claim, post_click, post_key, run_until
from ttr_desktop.rules import Phase
from ttr_desktop.rules.modules.marklin import MOVE, PLACE
from ttr_desktop.ui.app import App
from ttr_desktop.ui.families.marklin import PassengerMoveOverlay, PlacePassengerOverlay
from ttr_desktop.ui.route_plan import best_path
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import ActionChooser, TicketChoiceOverlay
from ttr_desktop.ui.session import GameSession, SeatConfig


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def ann_vs_bot(app, variant: str, seed: int = 3) -> BoardScene:
    """Ann (seat 0) against a Normal bot, at Ann's first turn."""
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new(variant, seats, seed=seed, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    if isinstance(app.top, ActionChooser):                # a ticket mix to announce
        post_click(app, app.top.rows[0].center)
    assert isinstance(app.top, TicketChoiceOverlay)
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    return board


def click_route(app, board, route_id: str, space: int = 0) -> None:
    x, y = board.map_view.space_centers(route_id)[space]
    post_click(app, (int(x), int(y)))


def click_city(app, board, city_id: str) -> None:
    x, y = board.map_view.city_pos[city_id]
    post_click(app, (int(x), int(y)))


def ctrl_z(app) -> None:
    post_key(app, pygame.K_z, pygame.KMOD_CTRL)


def lines(board) -> list[str]:
    return [text for text, _ in board.log_lines]


def snapshot(game) -> dict:
    return game.state.to_dict()


# Märklin: a passenger's ride ------------------------------------------------------------
def rhine(board) -> None:
    """Ann owns Dortmund–Düsseldorf and Düsseldorf–Köln, the bot Köln–Koblenz; Ann's
    passenger stands in Dortmund and she holds one passenger card."""
    g = board.game
    give_route(g, 0, "dortmund-dusseldorf-1")
    give_route(g, 0, "dusseldorf-koln-1")
    give_route(g, 1, "koblenz-koln-1")
    st = g.state.ext["marklin"]
    set_module(g, "marklin", supply={0: st.supply[0] - 1},
               at={0: st.at[0] + [g.board.city_index["dortmund"]]})
    set_hand(g, 0, passenger=1)


def test_a_passenger_ride_can_be_cancelled_at_every_step_before_the_last(app):
    board = ann_vs_bot(app, "marklin")
    rhine(board)
    before = snapshot(board.game)
    log_before = lines(board)
    click_city(app, board, "dortmund")                   # the ride starts: one click
    assert board.game.phase == MOVE
    overlay = app.top
    assert isinstance(overlay, PassengerMoveOverlay)
    assert overlay.cancel is not None and overlay.cancel in overlay.buttons
    post_click(app, overlay.cancel.rect.center)          # changed her mind at once
    g = board.game
    assert g.phase == Phase.TURN and g.current_seat == 0 and board.is_human_turn()
    assert snapshot(g) == before                         # the passenger is not spent
    assert app.top is board
    assert lines(board) == log_before + ["Ann took back the last move."]
    # Two steps into a ride, Cancel still takes back the whole ride.
    click_city(app, board, "dortmund")
    click_route(app, board, "dortmund-dusseldorf-1")
    click_route(app, board, "dusseldorf-koln-1")
    assert board.game.phase == MOVE and board.game.state.points[0] > before["points"][0]
    post_click(app, app.top.cancel.rect.center)
    assert snapshot(board.game) == before
    assert not any("passenger" in line for line in lines(board)[len(log_before):])


def test_ctrl_z_takes_a_whole_passenger_ride_back_and_the_pause_menu_offers_it(app):
    board = ann_vs_bot(app, "marklin")
    rhine(board)
    before = snapshot(board.game)
    click_city(app, board, "dortmund")
    click_route(app, board, "dortmund-dusseldorf-1")
    assert isinstance(app.top, PassengerMoveOverlay)
    ctrl_z(app)                                          # the footer's Ctrl+Z works here
    assert snapshot(board.game) == before and board.game.phase == Phase.TURN
    click_city(app, board, "dortmund")
    click_route(app, board, "dortmund-dusseldorf-1")
    post_key(app, pygame.K_ESCAPE)                       # the pause menu
    from ttr_desktop.ui.scenes.overlays import PauseOverlay
    assert isinstance(app.top, PauseOverlay)
    assert "Take back the last move" in app.top.buttons
    post_click(app, app.top.buttons["Take back the last move"].rect.center)
    assert snapshot(board.game) == before
    assert app.top is board or not isinstance(app.top, (PauseOverlay, PassengerMoveOverlay))


def test_the_pause_menu_has_no_take_back_when_there_is_none(app):
    board = ann_vs_bot(app, "marklin")
    assert not board.can_take_back()
    post_key(app, pygame.K_ESCAPE)
    assert "Take back the last move" not in app.top.buttons


def test_ctrl_z_on_place_a_passenger_takes_the_claim_back(app):
    board = ann_vs_bot(app, "marklin")
    g = board.game
    set_hand(g, 0, red=1)
    before = snapshot(g)
    click_route(app, board, "dusseldorf-koln-1")
    confirm_claim(app)
    assert board.game.phase == PLACE and isinstance(app.top, PlacePassengerOverlay)
    assert app.top.cancel is not None
    ctrl_z(app)
    g = board.game
    assert snapshot(g) == before
    assert g.state.owner[g.board.route_index["dusseldorf-koln-1"]] == -1
    assert g.phase == Phase.TURN and g.current_seat == 0 and app.top is board


# Old West and County Durham: the step after a claim ----------------------------------------
def test_ctrl_z_on_the_city_marker_step_takes_the_claim_back(app):
    from tests.ui.test_family_old_west import choose_home, give_cards, start
    from ttr_desktop.rules.modules.old_west import PLACE_MARKER
    from ttr_desktop.ui.families.old_west import PlaceMarkerOverlay
    board = start(app)
    taken = board.game.view(0).extra["home_cities"][1]
    home = "bend" if taken != "bend" else "ashland"
    choose_home(app, board, home)
    give_cards(board, 0, black=4)
    before = snapshot(board.game)
    click_route(app, board, "ashland-bend")
    confirm_claim(app)
    assert board.game.phase == PLACE_MARKER
    assert run_until(app, lambda: isinstance(app.top, PlaceMarkerOverlay), 5)
    ctrl_z(app)
    assert snapshot(board.game) == before
    assert board.game.phase == Phase.TURN and board.is_human_turn()


def test_ctrl_z_on_the_coal_choice_takes_the_claim_back(app):
    from tests.ui.test_family_county_durham import (
        RED_THREE, give_cards, set_coal, start_ann_vs_bot,
    )
    from ttr_desktop.rules.modules.county_durham import TAKE_COAL
    from ttr_desktop.ui.families.county_durham import CoalChoiceOverlay
    board = start_ann_vs_bot(app)
    set_coal(board, on=["consett", "stanley"], held=[0, 0])
    give_cards(board, 0, red=3)
    before = snapshot(board.game)
    click_route(app, board, RED_THREE, space=1)
    if isinstance(app.top, ActionChooser):
        post_click(app, app.top.rows[0].center)
    assert board.game.phase == TAKE_COAL
    assert run_until(app, lambda: isinstance(app.top, CoalChoiceOverlay), 5)
    ctrl_z(app)
    assert snapshot(board.game) == before
    assert board.game.phase == Phase.TURN and board.is_human_turn()


# Against a bot: the pause before its turn -------------------------------------------------
def claim_chicago_duluth(app, board) -> None:
    g = board.game
    set_hand(g, 0, red=3)
    click_route(app, board, "chicago-duluth", space=1)
    confirm_claim(app, frames=1)
    assert g.state.owner[g.board.route_index["chicago-duluth"]] == 0


def test_a_bot_waits_the_set_pause_and_says_a_take_back_is_still_possible(app):
    board = ann_vs_bot(app, "usa")
    assert app.settings.bot_pause == 1.5                  # the default
    claim_chicago_duluth(app, board)
    after_claim = board.game.version
    for _ in range(60):                                   # one second later
        app.step(1 / 60)
    assert board.game.current_seat == 1 and board.game.version == after_claim
    assert board.status_text() == "Bot moves in 1 s — Ctrl+Z to take back your move."
    # The card panel agrees: the bot has not started thinking yet.
    from ttr_desktop.ui.scenes.board_panels import market_title
    assert market_title(board._view_data()) == "Bot plays next"
    ctrl_z(app)
    assert board.game.current_seat == 0 and board.game.phase == Phase.TURN
    assert board.game.state.owner[board.game.board.route_index["chicago-duluth"]] == -1
    # Claimed again and left alone, the bot plays once the pause is over.
    claim_chicago_duluth(app, board)
    assert run_until(app, lambda: board.game.current_seat == 0, seconds=10)
    assert not board.can_take_back()


def test_with_no_pause_set_the_bot_answers_at_once(app):
    app.settings = replace(app.settings, bot_pause=0.0)
    board = ann_vs_bot(app, "usa")
    claim_chicago_duluth(app, board)
    assert run_until(app, lambda: board.game.current_seat == 0, seconds=0.5)


def test_the_settings_screen_sets_the_pause_and_keeps_it(app):
    from ttr_desktop.persistence.settings import load_settings
    from ttr_desktop.ui.scenes.settings import SettingsScene, pause_label
    scene = app.push(SettingsScene(app))
    app.step(1 / 60)
    assert scene.pause_menu.selected_option[0] == pause_label(1.5) == "Wait 1.5 s"
    import pygame_gui
    pygame.event.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
                                         ui_element=scene.pause_menu, text="Wait 3 s"))
    app.step(1 / 60)
    scene.save()
    assert app.settings.bot_pause == 3.0
    assert load_settings(app.paths.settings_file)[0].bot_pause == 3.0


def test_a_pause_not_offered_in_the_settings_file_is_refused_with_its_name(tmp_path):
    from ttr_desktop.persistence.settings import load_settings
    path = tmp_path / "settings.toml"
    path.write_text("bot_pause = 7.0\n")
    settings, problem = load_settings(path)
    assert settings.bot_pause == 1.5 and "bot_pause" in problem


# No trace ----------------------------------------------------------------------------------
def test_a_claim_taken_back_leaves_no_ticket_message_and_one_log_line(app):
    board = ann_vs_bot(app, "usa")
    g = board.game
    ticket = next(t for t in g.map.tickets if t.points <= 8)
    set_tickets(g, 0, [ticket.id])
    path = best_path(g.view(0), ticket.a, ticket.b)
    for rid in path[:-1]:
        give_route(g, 0, rid)
    last = g.map.routes[path[-1]]
    colour = last.color if last.color != "gray" else "red"
    set_hand(g, 0, **{colour: last.length})
    log_before = lines(board)
    news_before = dict(board.recent_lines), dict(board.recent_routes)
    click_route(app, board, last.id)
    confirm_claim(app, frames=1)
    assert any("Ticket completed" in t.message for t in app.toasts)
    assert len(lines(board)) > len(log_before)
    ctrl_z(app)
    assert not any("Ticket completed" in t.message for t in app.toasts)
    assert lines(board) == log_before + ["Ann took back the last move."]
    assert (dict(board.recent_lines), dict(board.recent_routes)) == news_before
    assert not board.anims and not board.filling


def test_the_rules_page_says_what_can_be_taken_back_and_when():
    from ttr_desktop.ui.scenes.rules import load_rules_text, parse_rules
    blocks = parse_rules(load_rules_text())
    headings = [b.text for b in blocks if b.kind == "h2"]
    assert "Taking a move back" in headings
    start = next(i for i, b in enumerate(blocks) if b.text == "Taking a move back")
    text = " ".join(b.text for b in blocks[start + 1:start + 6])
    for fact in ("revealed nothing hidden", "Cancel", "passenger's ride", "Before a bot moves",
                 "Pass the screen", "card drawn from the deck"):
        assert fact in text


def test_a_move_taken_back_is_not_in_the_autosave(app):
    board = ann_vs_bot(app, "usa")
    claim_chicago_duluth(app, board)     # the turn passes: the game is autosaved with it
    board.session.wait_for_autosave()
    assert "chicago-duluth" in app.paths.autosave_file.read_text(encoding="utf-8")
    ctrl_z(app)
    board.session.wait_for_autosave()
    assert "chicago-duluth" not in app.paths.autosave_file.read_text(encoding="utf-8")
