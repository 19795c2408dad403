"""Märklin in the window: the ticket mix, placing a passenger and a passenger's move,
played with real clicks on a 1280x720 board."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.helpers import give_route, leave_tickets_in_deck, refresh, set_hand, set_module
from tests.ui.boardkit import confirm_claim, post_click, post_key, run_until
from ttr_desktop.rules import Phase, new_game
from ttr_desktop.rules.modules.marklin import MOVE, PLACE
from ttr_desktop.ui.app import App
from ttr_desktop.ui.families import NOTES
from ttr_desktop.ui.families.marklin import (
    PassengerMoveOverlay, PlacePassengerOverlay, movable_passengers,
)
from ttr_desktop.ui.log_text import event_line
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import ActionChooser, TicketChoiceOverlay
from ttr_desktop.ui.scenes.scoring_words import part_label
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig

import pygame


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def start(app, seed=3) -> BoardScene:
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new("marklin", seats, seed=seed, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def choose_row(app, text: str) -> None:
    overlay = app.top
    i = next(i for i, a in enumerate(overlay.actions) if text in a.describe())
    post_click(app, overlay.rows[i].center)


def ann_to_play(app) -> BoardScene:
    """A started game at Ann's first turn (both seats announced 2 short + 2 long)."""
    board = start(app)
    choose_row(app, "2 short, 2 long")
    post_click(app, app.top.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    return board


def click_route(app, board, route_id: str) -> None:
    x, y = board.map_view.space_centers(route_id)[0]
    post_click(app, (int(x), int(y)))


def click_city(app, board, city_id: str) -> None:
    x, y = board.map_view.city_pos[city_id]
    post_click(app, (int(x), int(y)))


def marklin(game):
    return game.state.ext["marklin"]


# Setup ------------------------------------------------------------------------------
def test_setup_offers_marklin_with_a_short_description():
    assert VARIANT_CHOICES["marklin"] == ("marklin", {}, "Märklin (Germany)")
    assert "passengers" in NOTES["marklin"]


def test_the_scoring_screen_names_merchandise_and_the_most_tickets_bonus():
    assert part_label("merchandise") == "Merchandise"
    assert part_label("most_tickets") == "Most tickets"


# Tickets ------------------------------------------------------------------------------
def test_the_starting_tickets_are_drawn_in_the_mix_the_player_announces(app):
    board = start(app)
    overlay = app.top
    assert isinstance(overlay, ActionChooser)
    assert [dict(a.mix) for a in overlay.actions] == [
        {"short": 4}, {"short": 3, "long": 1}, {"short": 2, "long": 2},
        {"short": 1, "long": 3}, {"long": 4}]
    assert "Decks: short 23 left, long 23 left." in overlay.subtitle
    choose_row(app, "1 short, 3 long")
    assert isinstance(app.top, TicketChoiceOverlay)
    decks = [t.id for t in app.top.pending]
    short = {t.id for t in board.game.map.tickets if t.deck == "short"}
    assert len(decks) == 4 and sum(t in short for t in decks) == 1


def test_the_starting_mix_cannot_be_cancelled_as_there_is_nothing_to_go_back_to(app):
    """The announcement comes before the first turn: the chooser shows no Cancel, a click
    beside it leaves it as it is, Esc opens the pause menu, and the mix is then chosen."""
    from ttr_desktop.ui.scenes.overlays import PauseOverlay

    board = start(app)
    chooser = app.top
    assert isinstance(chooser, ActionChooser) and chooser.title == "Your starting tickets"
    assert "Cancel" not in [b.label for b in chooser.buttons]
    below = (chooser.panel.centerx, chooser.panel.bottom - 30)   # where Cancel used to be
    post_click(app, below)
    beside = (board.lay.map.left + 4, board.lay.map.top + 4)
    post_click(app, beside)
    assert app.top is chooser and board.game.phase == Phase.CHOOSE_INITIAL_TICKETS
    post_key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, PauseOverlay)
    post_key(app, pygame.K_ESCAPE)
    assert app.top is chooser
    choose_row(app, "2 short, 2 long")
    assert isinstance(app.top, TicketChoiceOverlay)


def test_cancel_closes_the_mix_chooser_of_a_ticket_draw_in_a_turn(app):
    board = ann_to_play(app)
    version = board.game.version
    post_key(app, pygame.K_t)
    chooser = app.top
    assert isinstance(chooser, ActionChooser)
    cancel = next(b for b in chooser.buttons if b.label == "Cancel")
    post_click(app, cancel.rect.center)
    assert app.top is board and board.game.version == version
    assert board.game.phase == Phase.TURN


def test_a_ticket_draw_offers_only_the_mixes_the_decks_can_serve(app):
    board = ann_to_play(app)
    g = board.game
    leave_tickets_in_deck(g, 1, deck="short")
    refresh(g)
    post_key(app, pygame.K_t)
    overlay = app.top
    assert isinstance(overlay, ActionChooser)
    assert [dict(a.mix) for a in overlay.actions] == [{"short": 1, "long": 3}, {"long": 4}]
    assert "short 1 left" in overlay.subtitle
    choose_row(app, "1 short, 3 long")
    assert isinstance(app.top, TicketChoiceOverlay) and len(app.top.pending) == 4


# Passengers -----------------------------------------------------------------------------
def test_after_a_claim_the_player_is_asked_where_to_place_a_passenger(app):
    board = ann_to_play(app)
    g = board.game
    set_hand(g, 0, red=1)
    refresh(g)
    click_route(app, board, "dusseldorf-koln-1")
    confirm_claim(app)
    assert g.phase == PLACE
    overlay = app.top
    assert isinstance(overlay, PlacePassengerOverlay)
    assert g.prompt() == "Place a passenger on Düsseldorf or Köln?"
    assert " ".join(overlay.title_lines) == "Place a passenger on Düsseldorf or Köln?"
    rows = [overlay.row_text(a) for a in overlay.actions]
    assert rows[0].startswith("Place a passenger on Düsseldorf (goods here: ")
    assert rows[-1] == "No passenger"
    assert ("city", "koln") in overlay.targets
    click_city(app, board, "koln")                       # a click on the city places it
    st = marklin(g)
    assert st.at[0] == [g.board.city_index["koln"]] and st.supply[0] == 2
    kinds = {t.kind for t in g.view(0).city_tokens["koln"]}
    assert kinds == {"passenger", "merchandise"}
    assert any("Ann placed a passenger on Köln (2 left in supply)." in line
               for line, _ in board.log_lines)


def test_placing_can_be_declined_from_the_panel(app):
    board = ann_to_play(app)
    g = board.game
    set_hand(g, 0, red=1)
    refresh(g)
    click_route(app, board, "dusseldorf-koln-1")
    confirm_claim(app)
    overlay = app.top
    post_click(app, overlay.rows[len(overlay.rows) - 1].center)
    assert marklin(g).supply[0] == 3 and not (g.phase == PLACE and g.current_seat == 0)


def rhine(board) -> None:
    """Ann owns Dortmund–Düsseldorf and Düsseldorf–Köln, the bot Köln–Koblenz; Ann's
    passenger stands in Dortmund and she holds one passenger card."""
    g = board.game
    give_route(g, 0, "dortmund-dusseldorf-1")
    give_route(g, 0, "dusseldorf-koln-1")
    give_route(g, 1, "koblenz-koln-1")
    st = marklin(g)
    set_module(g, "marklin", supply={0: st.supply[0] - 1},
               at={0: st.at[0] + [g.board.city_index["dortmund"]]})
    set_hand(g, 0, passenger=1)


def test_a_passenger_moves_two_routes_by_clicks_and_stops_here(app):
    board = ann_to_play(app)
    g = board.game
    rhine(board)
    dus = g.view(0).extra["merchandise"]["dusseldorf"][0]
    koln = g.view(0).extra["merchandise"]["koln"][0]
    before = g.state.points[0]
    assert board.status_text() == ("Ann: draw cards, claim a route, draw tickets or move the "
                                   "passenger from Dortmund.")
    assert movable_passengers(board) == ["dortmund"]       # ringed on the map
    app.step(1 / 60)
    click_city(app, board, "dortmund")                   # the passenger's city starts the move
    assert g.phase == MOVE
    overlay = app.top
    assert isinstance(overlay, PassengerMoveOverlay)
    assert overlay.title_text().startswith("Your passenger leaves Dortmund")
    assert [overlay.row_text(a) for a in overlay.actions] == [
        f"To Düsseldorf (your route, free, +{dus})"]
    assert overlay.targets == {("route", "dortmund-dusseldorf-1")}
    click_route(app, board, "dortmund-dusseldorf-1")     # step 1: the lit route
    assert g.state.points[0] == before + dus
    overlay = app.top
    assert isinstance(overlay, PassengerMoveOverlay)
    assert f"Collected {dus} so far" in overlay.title_text()
    rows = [overlay.row_text(a) for a in overlay.actions]
    assert f"To Köln (your route, free, +{koln})" in rows and rows[-1] == "Stop here"
    click_route(app, board, "dusseldorf-koln-1")         # step 2
    overlay = app.top
    rows = [overlay.row_text(a) for a in overlay.actions]
    assert rows[0].startswith("To Koblenz (Bot's route, 1 passenger card, +")
    post_click(app, overlay.rows[rows.index("Stop here")].center)
    assert g.phase != MOVE and g.state.points[0] == before + dus + koln
    st = marklin(g)
    assert st.at[0] == [] and st.moves[0] == 1
    assert g.view(0).hand["passenger"] == 1              # Ann's own routes were free
    assert any(line == f"Ann's passenger rode 2 routes from Dortmund to Köln: +{dus + koln} "
               "merchandise. It leaves the game." for line, _ in board.log_lines)


def test_every_passenger_event_has_a_log_line(app):
    board = ann_to_play(app)
    g = board.game
    rhine(board)
    click_city(app, board, "dortmund")
    events = []
    for rid in ("dortmund-dusseldorf-1", "dusseldorf-koln-1", "koblenz-koln-1"):
        events += g.apply(next(a for a in g.legal_actions() if getattr(a, "route_id", "") == rid))
    lines = [event_line(e, g, 0) for e in events]
    assert any("travels from Köln to Koblenz for 1 passenger card: merchandise +" in (x or "") for x in lines)
    assert any("rode 3 routes from Dortmund to Koblenz" in (x or "") and
               "1 passenger card paid" in (x or "") for x in lines)
    from ttr_desktop.ui.log_text import turn_summary
    assert "rode 3 routes" in turn_summary(events, g, 0)     # the news line sums the move up


def test_save_load_and_continue_in_the_window_in_the_middle_of_a_move(app, tmp_path):
    game = new_game("marklin", ["Ann", "Bob"], seed=11)
    rng = random.Random(11)
    while not (game.phase == MOVE and marklin(game).used):   # played to a move under way
        acts = game.legal_actions()
        moves = [a for a in acts if a.kind in ("move_passenger", "passenger_step")]
        game.apply(rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(acts))
    seats = [SeatConfig("Ann", "bot", "greedy", color="red"),
             SeatConfig("Bob", "bot", "greedy", color="blue")]
    seats[game.current_seat] = SeatConfig(game.players[game.current_seat], "human",
                                          color=seats[game.current_seat].color)
    path = GameSession(game, seats, "marklin").save(tmp_path / "mid-move.toml")
    session = GameSession.load(path)
    board = app.push(BoardScene(app, session))
    g = session.game
    run_until(app, lambda: isinstance(app.top, PassengerMoveOverlay), seconds=5)
    assert isinstance(app.top, PassengerMoveOverlay), (type(app.top), g.phase)
    assert g.state.to_dict() == game.state.to_dict()
    seat, before = g.current_seat, sum(marklin(g).taken[g.current_seat])
    overlay = app.top
    stop = next(i for i, a in enumerate(overlay.actions) if a.kind == "stop_passenger")
    post_click(app, overlay.rows[stop].center)            # the move goes on: stop here
    assert g.phase != MOVE and marklin(g).mover == -1
    assert sum(marklin(g).taken[seat]) == before
    assert any("passenger rode" in line for line, _ in board.log_lines)


def test_the_log_says_which_mix_was_drawn_and_which_cards_refresh_the_display(app):
    board = ann_to_play(app)
    assert any(line == "Ann drew 4 destination tickets (2 short, 2 long)."
               for line, _ in board.log_lines)
    from ttr_desktop.rules.events import Event
    line = event_line(Event("face_up_refreshed", None, {"cards": []}), board.game, 0)
    assert line == ("Three locomotives or three passenger cards face up: the display was "
                    "replaced.")


def test_the_scoring_screen_shows_merchandise_most_tickets_and_country_names(app):
    from tests.ui.test_scoring_scene import play_out
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    session = play_out(seed=5, variant="marklin")
    scene = app.push(ScoringScene(app, session))
    app.step(1 / 30)
    labels = [row.label for rows in scene.rows for row in rows]
    assert "Merchandise" in labels
    # The bonus with what decided it: "Most tickets: 4 tickets".
    assert any(label.startswith("Most tickets: ") and label.endswith(" tickets")
               or label == "Most tickets: 1 ticket" for label in labels)
    countries = {c.name for c in session.game.map.countries.values()}
    ids = set(session.game.map.countries)
    assert not any(part in ids for label in labels for part in label.split(" – "))
    tickets = [row.label for rows in scene.rows for row in rows if row.kind == "ticket"]
    assert "Emden – Österreich" in tickets          # a ticket to a country, by its name
    assert any(part in countries for t in tickets for part in t.split(" – "))


def test_the_ticket_deck_shows_the_short_and_the_long_deck_sizes(app, monkeypatch):
    # A Märklin draw announces how many tickets to take from each deck, so the player
    # sees each deck's size on the ticket deck, not only their sum.
    import ttr_desktop.ui.scenes.board_panels as panels

    board = ann_to_play(app)
    data = board._view_data()
    sizes = board.game.view(0).ticket_deck_sizes
    assert data["ticket_decks"] == (("short", sizes["short"]), ("long", sizes["long"]))
    labels = []
    real = panels.card_back
    monkeypatch.setattr(panels, "card_back",
                        lambda size, label="": labels.append(label) or real(size, label))
    panels.draw_market(pygame.Surface((1280, 720)), board.lay, data, None)
    assert f"Short {sizes['short']}\nLong {sizes['long']}" in labels
