"""County Durham in the window, driven like a player (headless, real events): the setup
choice, coal on the map and in the player rows, a coal payment in the chooser, the
choice between two coal tokens, the log, the scoring screen and the rules page."""

from __future__ import annotations

import os
from dataclasses import replace

import pygame
import pytest

from tests.helpers import set_hand
from tests.test_rules_county_durham import set_coal as set_game_coal
from tests.ui.boardkit import post_click, post_key, run_until
from ttr_desktop.rules import Phase
from ttr_desktop.rules.modules.county_durham import TAKE_COAL
from ttr_desktop.ui.app import App
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import ActionChooser, TicketChoiceOverlay
from ttr_desktop.ui.session import VARIANT_CHOICES, GameSession, SeatConfig

VARIANT = "county-durham"
RED_THREE = "consett-stanley"             # 3 red spaces


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


def start_ann_vs_bot(app) -> BoardScene:
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    session = GameSession.new(VARIANT, seats, seed=5, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    post_click(app, overlay.ok.rect.center)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)
    return board


def coal(game):
    return game.state.ext["county_durham"]


def set_coal(board, on=(), held=None) -> None:
    set_game_coal(board.game, on, held)


def give_cards(board, seat, **cards) -> None:
    set_hand(board.game, seat, **cards)


def click_route(app, board, route_id: str) -> None:
    x, y = board.map_view.space_centers(route_id)[1]
    post_click(app, (int(x), int(y)))


def open_coal_choice(app, board, route: str, coal_on: list[str], **cards):
    """Ann claims ``route`` (coal on ``coal_on``, her hand ``cards``), confirming the first
    way to pay if asked: the coal panel is open."""
    from ttr_desktop.ui.families.county_durham import CoalChoiceOverlay
    set_coal(board, on=coal_on, held=[0, 0])
    give_cards(board, 0, **cards)
    click_route(app, board, route)
    if isinstance(app.top, ActionChooser):      # the claim is confirmed first
        post_click(app, app.top.rows[0].center)
    assert run_until(app, lambda: isinstance(app.top, CoalChoiceOverlay), 5)
    return app.top


def test_setup_offers_county_durham():
    assert VARIANT_CHOICES[VARIANT][0] == VARIANT
    assert "Durham" in VARIANT_CHOICES[VARIANT][2]


def test_coal_is_on_the_map_and_counted_in_the_player_rows(app):
    board = start_ann_vs_bot(app)
    g = board.game
    view = g.view(0)
    tokens = [t for ts in view.city_tokens.values() for t in ts if t.kind == "coal"]
    assert sum(t.count for t in tokens) == sum(coal(g).city) > 0
    assert view.extra["seat_stats"] == ("0 coal", "0 coal")
    shot(app, "cd-board.png")


def test_the_payment_chooser_offers_coal_for_a_claim(app):
    board = start_ann_vs_bot(app)
    g = board.game
    set_coal(board, on=[], held=[4, 0])
    give_cards(board, 0, red=2)
    click_route(app, board, RED_THREE)
    chooser = app.top
    assert isinstance(chooser, ActionChooser)
    pays = [a.cards for a in chooser.actions]
    assert (("coal", 2), ("red", 2)) in pays
    assert all(dict(p).get("coal", 0) % 2 == 0 for p in pays)
    shot(app, "cd-pay.png")
    row = pays.index((("coal", 2), ("red", 2)))
    post_click(app, chooser.rows[row].center)
    assert g.state.owner[g.board.route_index[RED_THREE]] == 0
    assert coal(g).held[0] == 2 and coal(g).spent[0] == 2


def test_with_coal_at_both_ends_the_player_picks_the_token_in_a_panel(app):
    board = start_ann_vs_bot(app)
    g = board.game
    panel = open_coal_choice(app, board, RED_THREE, ["consett", "stanley"], red=3)
    assert g.phase == TAKE_COAL
    assert [panel.row_text(i) for i in range(len(panel.rows))] == [
        f"Take the coal at {g.map.cities[c].name}" for c in panel.cities]
    assert sorted(panel.cities) == ["consett", "stanley"]
    shot(app, "cd-coal-choice.png")
    post_click(app, panel.rows[panel.cities.index("stanley")].center, frames=0)
    assert coal(g).held[0] == 1
    assert coal(g).city[g.board.city_index["consett"]] == 1
    assert coal(g).city[g.board.city_index["stanley"]] == 0
    assert any("took the coal at Stanley" in line for line in board_log(board))


def test_the_coal_choice_can_be_made_by_clicking_a_station_or_a_number_key(app):
    board = start_ann_vs_bot(app)
    g = board.game
    open_coal_choice(app, board, RED_THREE, ["consett", "stanley"], red=3)
    first = app.top.cities[0]
    post_key(app, pygame.K_1, frames=1)
    assert coal(g).held[0] == 1 and coal(g).city[g.board.city_index[first]] == 0


def board_log(board) -> list[str]:
    return [text for text, _ in board.log_lines]


def test_a_bot_game_reaches_the_scoring_screen_with_the_coal_bonuses(app):
    seats = [SeatConfig("Bot A", "bot", "greedy", "red"), SeatConfig("Bot B", "bot", "easy",
                                                                        "blue")]
    app.settings = replace(app.settings, animation_speed="instant")
    session = GameSession.new(VARIANT, seats, seed=7, autosave_to=app.paths.autosave_file)
    app.push(BoardScene(app, session))
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    assert run_until(app, lambda: isinstance(app.top, ScoringScene), 900, dt=1 / 10)
    shot(app, "cd-scoring.png")
    g = session.game
    for score in g.scores():
        assert {"most_coal", "least_coal", "most_tickets", "longest_path"} <= set(score.parts)
    coal_parts = [(s.parts["most_coal"], s.parts["least_coal"]) for s in g.scores()]
    held = coal(g).held
    for seat, (most, least) in enumerate(coal_parts):
        assert most == (10 if held[seat] == max(held) else 0)
        assert least == (-5 if held[seat] == min(held) else 0)


def test_the_rules_page_has_county_durham_and_credits_robert_bettles():
    from ttr_desktop.ui.scenes.rules import load_rules_text
    text = load_rules_text()
    assert "## County Durham" in text
    assert "Robert Bettles" in text and "MIT" in text


def test_the_coal_choice_can_be_made_by_clicking_the_station_on_the_map(app):
    board = start_ann_vs_bot(app)
    g = board.game
    open_coal_choice(app, board, RED_THREE, ["consett", "stanley"], red=3)
    for city in ("stanley", "consett"):
        x, y = board.map_view.city_pos[city]
        assert not app.top.panel.collidepoint(x, y)
    x, y = board.map_view.city_pos["stanley"]
    post_click(app, (int(x), int(y)), frames=0)
    assert coal(g).held[0] == 1
    assert coal(g).city[g.board.city_index["stanley"]] == 0
    assert coal(g).city[g.board.city_index["consett"]] == 1


def test_a_game_saved_during_the_coal_choice_loads_and_continues_in_the_window(app, tmp_path):
    import random
    from ttr_desktop.rules import new_game
    from ttr_desktop.ui.families.county_durham import CoalChoiceOverlay
    from ttr_desktop.ui.scenes.load import load_and_open
    game = new_game(VARIANT, ["Ann", "Bot"], seed=3)
    rng = random.Random(3)
    while not (game.phase == TAKE_COAL and game.current_seat == 0):
        game.apply(rng.choice(game.legal_actions()))
    held = list(coal(game).held)
    seats = [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot", "bot", "greedy", "blue")]
    path = GameSession(game, seats, VARIANT).save(tmp_path / "coal.toml")
    assert load_and_open(app, path) is None
    assert run_until(app, lambda: isinstance(app.top, CoalChoiceOverlay), 5)
    panel = app.top
    loaded = app.find(BoardScene).game
    assert loaded.phase == TAKE_COAL and coal(loaded).held == held
    city = panel.cities[-1]
    post_click(app, panel.rows[len(panel.cities) - 1].center, frames=0)
    assert coal(loaded).held[0] == held[0] + 1
    assert coal(loaded).city[loaded.board.city_index[city]] == 0
    # The bot answers and the game comes back to Ann.
    turn = loaded.state.turn
    assert run_until(app, lambda: loaded.current_seat == 0 and loaded.phase == Phase.TURN
                     and loaded.state.turn > turn, 30)


def test_the_coal_choice_has_a_cancel_that_takes_the_claim_back_with_nothing_spent(app):
    """A player who changes her mind at the coal panel clicks its Cancel button: the claim
    goes back whole, the route is free, her cards and coal are as before, both stations
    keep their coal and it is her turn again, on the plain board."""
    from ttr_desktop.ui.families.county_durham import CoalChoiceOverlay
    board = start_ann_vs_bot(app)
    g = board.game
    set_coal(board, on=["consett", "stanley"], held=[2, 0])
    give_cards(board, 0, red=2, blue=1)
    hand = dict(g.view(0).hand)
    click_route(app, board, RED_THREE)
    chooser = app.top
    assert isinstance(chooser, ActionChooser)
    row = [a.cards for a in chooser.actions].index((("coal", 2), ("red", 2)))
    post_click(app, chooser.rows[row].center)     # pays with coal too
    assert run_until(app, lambda: isinstance(app.top, CoalChoiceOverlay), 5)
    panel = app.top
    assert coal(g).held[0] == 0
    cancel = next((b for b in panel.buttons if b.label == "Cancel"), None)
    assert cancel is not None, "the coal panel shows no Cancel button"
    assert panel.panel.contains(cancel.rect)
    assert not any(cancel.rect.colliderect(r) for r in panel.rows)
    shot(app, "cd-coal-cancel.png")
    post_click(app, cancel.rect.center, frames=0)
    assert app.top is board
    g = board.game
    assert g.phase == Phase.TURN and g.current_seat == 0
    assert g.state.owner[g.board.route_index[RED_THREE]] == -1
    assert dict(g.view(0).hand) == hand
    assert coal(g).held[0] == 2 and coal(g).spent[0] == 0
    assert coal(g).city[g.board.city_index["consett"]] == 1
    assert coal(g).city[g.board.city_index["stanley"]] == 1
    # Nothing else comes up: the board waits for her move.
    for _ in range(5):
        app.step(1 / 60)
    assert app.top is board and board.is_human_turn()


def test_a_long_station_name_in_the_coal_panel_stays_inside_its_row(app, monkeypatch):
    """'Take the coal at Middleton-in-Teesdale' ran past its row and the panel's edge: its
    words (after the coal lump, 70 px into the row) now fit the row, on one or two lines."""
    from ttr_desktop.ui import style
    board = start_ann_vs_bot(app)
    g = board.game
    panel = open_coal_choice(app, board, "barnard-castle-middleton-in-teesdale-2",
                             ["barnard-castle", "middleton-in-teesdale"], yellow=4)
    shot(app, "cd-coal-long-name.png")
    rect = panel.rows[panel.cities.index("middleton-in-teesdale")]
    words = panel.row_text(panel.cities.index("middleton-in-teesdale"))
    drawn: list[tuple[str, int]] = []
    real_text = style.text

    def recording(string, size=16, *args, **kwargs):
        if string and string in words:
            drawn.append((string, size))
        return real_text(string, size, *args, **kwargs)

    monkeypatch.setattr(style, "text", recording)
    panel.draw(app.screen)
    mine = [(line, size) for line, size in drawn
            if "Middleton" in line or line.startswith("Take the coal")]
    assert "Middleton-in-Teesdale" in " ".join(line for line, _ in mine)
    for line, size in mine:
        assert size >= 12 and style.font(size).size(line)[0] <= rect.width - 70 - 6, line
    assert g.phase == TAKE_COAL
