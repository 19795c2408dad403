"""Every board overlay fits a 1280x720 window, and the ticket choice never covers a player.

Also the bot's turn wording in the market and the generic step panel for a decision the
board has no overlay of its own for."""

from __future__ import annotations

import pygame
import pytest

from tests.helpers import scenario, set_current, set_hand, stack_deck
from tests.ui.boardkit import run_until
from ttr_desktop.rules import Phase
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import (
    ActionChooser, HandOverOverlay, StepOverlay, TicketChoiceOverlay, TunnelOverlay,
)
from ttr_desktop.ui.session import GameSession, SeatConfig

SEATS6 = ["red", "blue", "green", "yellow", "black", "purple"]


def board_for(app, variant="usa", players=2, humans=1, seed=3) -> BoardScene:
    seats = [SeatConfig(f"P{i + 1}", "human" if i < humans else "bot", "greedy",
                        SEATS6[i]) for i in range(players)]
    session = GameSession.new(variant, seats, seed=seed)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def inside(rect: pygame.Rect, size) -> bool:
    return pygame.Rect(0, 0, *size).contains(rect)


@pytest.mark.parametrize("players", [2, 5])
def test_the_starting_ticket_choice_fits_and_covers_no_player(app, players):
    board = board_for(app, players=players)
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    assert inside(overlay.panel, app.size)
    for row in board.lay.player_rows:
        assert not overlay.panel.colliderect(row)
    for card in overlay.cards:
        assert overlay.panel.contains(card)
    assert overlay.panel.contains(overlay.ok.rect)


def test_five_drawn_tickets_fit_too(app):
    board = board_for(app, players=5)
    g = board.game
    s, ids = g.state, g.board.ticket_ids
    deck = s.ticket_decks["regular"]
    five = [ids[t] for t in s.pending[s.current] + [deck[-1], deck[-2]]]   # as in Old West
    scenario(g).offer(g.current_seat, five)
    app.pop(app.top)
    overlay = TicketChoiceOverlay(app, board)
    app.push(overlay)
    assert len(overlay.cards) == 5 and inside(overlay.panel, app.size)
    assert all(overlay.panel.contains(c) for c in overlay.cards)


def keep_all(app):
    while isinstance(app.top, TicketChoiceOverlay):
        app.top.on_button(app.top.ok)
        app.step(1 / 60)


def test_a_chooser_with_many_ways_to_pay_fits(app):
    board = board_for(app)
    keep_all(app)
    assert run_until(app, lambda: board.is_human_turn() and board.game.phase == Phase.TURN)
    set_hand(board.game, 0, red=6, blue=6, green=6, locomotive=6)
    route = next(r.id for r in board.game.map.routes.values()
                 if r.color == "gray" and r.length == 6)
    board.click_route(route)
    overlay = app.top
    assert isinstance(overlay, ActionChooser) and len(overlay.actions) > 10
    assert inside(overlay.panel, app.size)
    assert all(overlay.panel.contains(r) for r in overlay.rows)
    assert overlay.actions[0].cards in ((("red", 6),), (("blue", 6),), (("green", 6),))


def test_the_tunnel_dialog_fits(app):
    board = board_for(app, variant="europe")
    keep_all(app)
    assert run_until(app, lambda: board.is_human_turn() and board.game.phase == Phase.TURN)
    g = board.game
    set_hand(g, 0, orange=3, locomotive=3)
    stack_deck(g, ["orange", "locomotive", "orange"])
    acts = [a for a in g.payments_for("angora-smyrna")]
    board.perform(acts[0])
    app.step(1 / 60)
    overlay = app.top
    assert isinstance(overlay, TunnelOverlay)
    assert inside(overlay.panel, app.size)
    assert all(overlay.panel.contains(b.rect) for b in overlay.buttons)


def test_the_hand_over_fits_and_offers_to_take_back(app):
    board = board_for(app, humans=2)
    assert isinstance(app.top, HandOverOverlay)
    assert inside(app.top.panel, app.size)


def test_an_unknown_decision_gets_the_generic_step_panel(app, monkeypatch):
    if not _toy(monkeypatch):
        pytest.skip("the made-up family is defined by tests/test_rule_family_hooks.py")
    board = board_for(app, variant="toy-favourites", players=2, humans=2)
    while board.game.phase == Phase.CHOOSE_INITIAL_TICKETS:
        board.perform(board.game.legal_actions()[0])
    board.viewer = board.game.current_seat
    while isinstance(app.top, HandOverOverlay):
        app.pop(app.top)
    app.step(1 / 60)
    overlay = app.top
    assert isinstance(overlay, StepOverlay)
    assert inside(overlay.panel, app.size)
    assert "favourite" in " ".join(overlay.title_lines).lower()
    assert overlay.targets  # the cities to pick glow on the map
    overlay.on_click(overlay.rows[0].center)
    assert board.game.state.ext["favourites"].favourite.count(-1) == 1


def _toy(monkeypatch) -> bool:
    """Make the made-up family of tests/test_rule_family_hooks.py playable in the window
    (for this test only)."""
    try:
        import tests.test_rule_family_hooks  # noqa: F401  (registers the made-up family)
    except ImportError:
        return False
    from ttr_desktop.ui.session import VARIANT_CHOICES
    monkeypatch.setitem(VARIANT_CHOICES, "toy-favourites",
                        ("toy-favourites", {}, "Favourites (test)"))
    return True


def test_the_market_says_whose_turn_it_is_while_a_bot_plays(app):
    board = board_for(app)
    keep_all(app)
    g = board.game
    set_current(g, 1, Phase.SECOND_CARD)
    data = board._view_data()
    assert data["thinking"] == "P2"


@pytest.mark.parametrize("title", ["Train cards", "Take your second card",
                                   "Bot 2 is thinking…", "Bartholomew is thinking…"])
def test_the_deck_counts_never_run_into_the_train_cards_title(app, title):
    from ttr_desktop.ui import style
    from ttr_desktop.ui.scenes.board_panels import compute_layout, market_counts

    lay = compute_layout((1280, 720), 2)
    head = style.text(title, 15, style.INK, bold=True)
    head_rect = head.get_rect(topleft=(lay.market.x + 10, lay.market.y + 7))
    shown = market_counts(lay, head.get_width(), 96, 12)
    if title == "Train cards":
        assert shown is not None and shown[1].width > 100   # the full "deck · discard"
    if shown is not None:
        assert not shown[1].colliderect(head_rect)
        assert lay.market.contains(shown[1])


def test_a_two_column_chooser_on_a_tall_map_stays_on_the_map_and_off_its_route(app):
    """Nordic's tall map leaves a narrow map area: the chooser of a ferry with dozens of
    ways to pay, two columns as wide as the map, covered the very ferry it was about; it
    now stands in the room above the ferry."""
    from tests.ui.boardkit import anns_turn, post_click
    board = anns_turn(app, "nordic")
    set_hand(board.game, 0, red=1, blue=1, green=1, black=1, white=2, orange=1,
             locomotive=1)
    route = "alborg-goteborg"
    x, y = board.map_view.route_center(route)
    post_click(app, (int(x), int(y)))
    overlay = app.top
    assert isinstance(overlay, ActionChooser) and len(overlay.actions) > 12
    assert board.lay.map.contains(overlay.panel), (overlay.panel, board.lay.map)
    assert all(overlay.panel.contains(r) for r in overlay.rows)
    for cx, cy in board.map_view.space_centers(route):
        assert not overlay.panel.collidepoint(cx, cy)
    # Two columns still, in the room above the ferry: more ways to pay than one column.
    assert overlay.shown >= 12


def test_every_way_to_pay_can_be_reached_a_page_at_a_time(app):
    """More ways to pay than rows: the chooser said "+13 more: use the map" (over its
    Cancel button) and the map offered none of them. Its More button now pages through all
    of them, and one from a later page is paid with."""
    from tests.ui.boardkit import anns_turn, post_click
    board = anns_turn(app, "usa")
    g = board.game
    set_hand(g, 0, red=6, blue=6, green=6, locomotive=6)
    route = next(r.id for r in g.map.routes.values() if r.color == "gray" and r.length == 6)
    x, y = board.map_view.route_center(route)
    post_click(app, (int(x), int(y)))
    chooser = app.top
    assert isinstance(chooser, ActionChooser) and chooser.more is not None
    n = len(chooser.actions)
    page = style_text_rect(chooser)
    assert chooser.panel.contains(page)
    assert all(not page.colliderect(b.rect) for b in chooser.buttons)
    assert all(chooser.panel.contains(b.rect) for b in chooser.buttons)
    seen = []
    for _ in range(n):
        rows = [chooser.row_action(i) for i in range(len(chooser.rows))]
        seen += [a for a in rows if a is not None and a not in seen]
        if len(seen) == n:
            break
        post_click(app, chooser.more.rect.center)
        assert app.top is chooser
    assert len(seen) == n
    # Back to a page with the last way to pay, and pay with it.
    last = chooser.actions[-1]
    while last not in [chooser.row_action(i) for i in range(len(chooser.rows))]:
        post_click(app, chooser.more.rect.center)
    row = [chooser.row_action(i) for i in range(len(chooser.rows))].index(last)
    before = dict(g.view(0).hand)
    post_click(app, chooser.rows[row].center)
    assert g.state.owner[g.board.route_index[route]] == 0
    spent = {c: before[c] - g.view(0).hand.get(c, 0) for c in before}
    assert {c: k for c, k in spent.items() if k} == dict(last.cards)


def style_text_rect(chooser) -> pygame.Rect:
    """Where the chooser writes which ways to pay it shows."""
    from ttr_desktop.ui import style
    words = chooser.page_words()
    assert words.startswith("Ways 1\u2013")
    return pygame.Rect(chooser.page_at, style.font(13).size(words))


def test_the_tunnel_payment_panel_stands_beside_the_tunnel(app):
    """On Nordic's narrow map the tunnel panel (560 px wide) could not step aside left or
    right and stood over the tunnel it asks about; it now stands above or below it."""
    from tests.ui.boardkit import anns_turn, post_click
    from tests.ui.test_tunnel_panel_beside import covered, middle_of
    board = anns_turn(app, "nordic")
    g = board.game
    rid = "ostersund-trondheim"                      # a black tunnel of 2
    set_hand(g, 0, black=2, locomotive=1)
    stack_deck(g, ["black", "locomotive", "black"])
    post_click(app, middle_of(board, rid, 0))
    chooser = app.top
    assert isinstance(chooser, ActionChooser)
    pays = [a.cards for a in chooser.actions]
    post_click(app, chooser.rows[pays.index((("black", 2),))].center)    # 2 black
    assert run_until(app, lambda: isinstance(app.top, TunnelOverlay), 10)
    overlay = app.top
    assert board.lay.map.contains(overlay.panel)
    assert all(overlay.panel.contains(b.rect) for b in overlay.buttons)
    assert not covered(overlay.panel, board.map_view.polys[rid])
