"""The board scene driven like a player: real mouse and key events, headless."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tests.helpers import face_up, hand, set_face_up, set_hand
from tests.ui.boardkit import confirm_claim, post_click, post_key, run_until
from ttr_desktop.rules.modules.tunnels import PAY_TUNNEL
from ttr_desktop.rules import Phase
from ttr_desktop.ui.app import App
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.board_overlays import (
    HandOverOverlay, PaymentOverlay, TicketChoiceOverlay,
)
from ttr_desktop.ui.session import GameSession, SeatConfig


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / "home"))
    application = App(size=(1280, 720))
    application.settings = replace(application.settings, animation_speed="instant")
    yield application
    application.shutdown()


def start(app, seats, variant="usa", seed=3) -> BoardScene:
    session = GameSession.new(variant, seats, seed=seed, autosave_to=app.paths.autosave_file)
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    return board


def keep_tickets_by_clicking(app) -> None:
    overlay = app.top
    assert isinstance(overlay, TicketChoiceOverlay)
    post_click(app, overlay.ok.rect.center)


def human_vs_bot(app, **kw) -> BoardScene:
    return start(app, [SeatConfig("Ann", "human", color="red"),
                       SeatConfig("Bot", "bot", "greedy", "blue")], **kw)


def wait_for_ann(app, board) -> None:
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN)


def give_cards(board, seat, **cards) -> None:
    g = board.game
    set_hand(g, seat, **{**hand(g, seat), **cards})


def test_starting_tickets_are_kept_by_clicking_the_button(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    assert len(board.game.state.tickets[0]) == 3
    wait_for_ann(app, board)


def test_a_ticket_clicked_in_the_chooser_is_returned(app):
    board = human_vs_bot(app)
    overlay = app.top
    post_click(app, overlay.cards[0].center)   # return the first ticket
    first = overlay.pending[0].id
    post_click(app, overlay.ok.rect.center)
    kept = [board.game.board.ticket_ids[t] for t in board.game.state.tickets[0]]
    assert first not in kept and len(kept) == 2


def test_a_claim_is_confirmed_with_the_cards_to_be_paid_shown(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    route = "chicago-duluth"  # 3 red
    give_cards(board, 0, red=3, locomotive=0)
    x, y = board.map_view.space_centers(route)[1]
    post_click(app, (int(x), int(y)))
    overlay = app.top
    assert isinstance(overlay, PaymentOverlay) and len(overlay.actions) == 1
    assert overlay.actions[0].cards == (("red", 3),)
    assert board.game.state.owner[board.game.board.route_index[route]] == -1  # nothing spent
    # The dialog stays clear of the route it is about.
    for poly in board.map_view.polys[route]:
        assert not any(overlay.panel.collidepoint(p) for p in poly)
    post_click(app, overlay.rows[0].center)
    assert board.game.state.owner[board.game.board.route_index[route]] == 0
    assert board.game.state.hands[0][board.game.board.card_index["red"]] == 0


def test_with_confirmation_off_one_click_claims(app):
    app.settings = replace(app.settings, confirm_claims=False)
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    route = "chicago-duluth"
    give_cards(board, 0, red=3, locomotive=0)
    x, y = board.map_view.space_centers(route)[1]
    post_click(app, (int(x), int(y)))
    assert board.game.state.owner[board.game.board.route_index[route]] == 0


def test_several_payments_open_the_payment_choice(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=3, locomotive=2)
    x, y = board.map_view.space_centers("chicago-duluth")[0]
    post_click(app, (int(x), int(y)))
    overlay = app.top
    assert isinstance(overlay, PaymentOverlay)
    assert len(overlay.actions) >= 3
    post_click(app, overlay.rows[0].center)
    assert board.game.state.owner[board.game.board.route_index["chicago-duluth"]] == 0


def test_an_impossible_claim_says_why(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=1, locomotive=0)
    x, y = board.map_view.space_centers("chicago-duluth")[0]
    post_click(app, (int(x), int(y)))
    assert board.game.state.owner[board.game.board.route_index["chicago-duluth"]] == -1
    assert any("Chicago" in t.message and "red" in t.message for t in app.toasts)
    assert "error" in app.sound.played


def test_hover_tooltip_tells_whether_the_route_can_be_paid(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=3, locomotive=0)
    x, y = board.map_view.space_centers("chicago-duluth")[1]
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(x), int(y)), rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step(1 / 60)
    lines = [text for text, _, _ in board.tooltip_lines()]
    assert lines[0].startswith("Chicago") and "3 spaces" in lines[1]
    assert any("Click to claim" in t for t in lines)


def test_draw_two_cards_from_the_deck_by_clicking(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    before = sum(board.game.state.hands[0])
    turn = board.game.state.turn
    post_click(app, board.lay.deck.center)
    assert board.game.phase == Phase.SECOND_CARD
    post_click(app, board.lay.deck.center, frames=0)
    assert sum(board.game.state.hands[0]) == before + 2
    assert board.game.state.turn == turn + 1 and board.game.current_seat == 1


def test_second_card_face_up_locomotive_is_refused_and_explained(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_click(app, board.lay.deck.center)
    g = board.game
    set_face_up(g, [*face_up(g)[:2], "locomotive", *face_up(g)[3:]])
    post_click(app, board.lay.face_up[2].center)
    assert g.phase == Phase.SECOND_CARD
    assert any("locomotive" in t.message for t in app.toasts)


def test_keys_d_and_t(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_key(app, pygame.K_d)
    assert board.game.phase == Phase.SECOND_CARD
    post_key(app, pygame.K_d)
    wait_for_ann(app, board)
    post_key(app, pygame.K_t)
    assert board.game.phase == Phase.KEEP_TICKETS
    assert isinstance(app.top, TicketChoiceOverlay)
    keep_tickets_by_clicking(app)
    assert len(board.game.state.tickets[0]) == 6


def test_ctrl_z_takes_back_a_claim_but_not_a_draw(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    give_cards(board, 0, red=3, locomotive=0)
    board.session.undo_stack.clear()
    x, y = board.map_view.space_centers("chicago-duluth")[1]
    post_click(app, (int(x), int(y)), frames=1)
    confirm_claim(app, frames=1)
    rid = board.game.board.route_index["chicago-duluth"]
    assert board.game.state.owner[rid] == 0
    post_key(app, pygame.K_z, pygame.KMOD_CTRL, frames=1)
    assert board.game.state.owner[rid] == -1
    assert board.game.current_seat == 0
    post_click(app, board.lay.deck.center, frames=1)      # a blind draw reveals a card
    post_key(app, pygame.K_z, pygame.KMOD_CTRL, frames=1)
    assert board.game.phase == Phase.SECOND_CARD
    assert any("Nothing to take back" in t.message for t in app.toasts)


def test_hot_seat_hides_hands_until_the_next_player_clicks(app):
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bea", "human", color="blue")])
    assert isinstance(app.top, HandOverOverlay)
    assert board.viewer is None
    post_click(app, app.top.buttons[0].rect.center)
    assert board.viewer == 0
    keep_tickets_by_clicking(app)
    app.step(1 / 60)
    assert not isinstance(app.top, HandOverOverlay)  # Ann first sees her move land
    assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), seconds=3)
    assert app.top.seat == 1
    assert board.viewer is None                      # Ann's hand is hidden now
    data = board._view_data()
    assert "hand" not in data and "tickets" not in data
    post_click(app, app.top.buttons[0].rect.center)
    assert board.viewer == 1


def test_autosave_after_every_turn_and_continue_resumes_it(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_click(app, board.lay.deck.center)
    post_click(app, board.lay.deck.center)
    wait_for_ann(app, board)
    board.session.wait_for_autosave()
    path = app.paths.autosave_file
    resumed = GameSession.load(path)
    assert resumed.game.state.to_dict() == board.game.state.to_dict()
    assert [s.name for s in resumed.seats] == ["Ann", "Bot"]
    assert resumed.seats[1].is_bot


def test_two_bots_play_a_whole_game_to_the_scoring_scene(app):
    board = start(app, [SeatConfig("B1", "bot", "greedy", "red"),
                        SeatConfig("B2", "bot", "random", "blue")], seed=11)
    assert run_until(app, lambda: board.game.is_over, seconds=3000, dt=0.05)
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    assert run_until(app, lambda: isinstance(app.top, ScoringScene), seconds=30)


@pytest.mark.parametrize("map_id", ["usa", "europe"])
@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1920, 1080)])
def test_every_route_has_a_clickable_spot_that_no_other_route_covers(map_id, size):
    from ttr_desktop.maps import get_map
    from ttr_desktop.ui import style
    pygame.init()
    style.reset_caches()
    from ttr_desktop.ui.map_view import MapView
    from ttr_desktop.ui.scenes.board_panels import compute_layout
    lay = compute_layout(size, 4)
    view = MapView(get_map(map_id), lay.map)
    for rid in view.route_ids:
        spots = [(round(x), round(y)) for x, y in view.space_centers(rid)]
        assert any(view.route_at(p) == rid for p in spots), rid


def test_a_tunnel_shows_the_revealed_cards_and_can_be_paid(app):
    from tests.helpers import set_hand, stack_deck
    from ttr_desktop.ui.scenes.board_overlays import TunnelOverlay
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bot", "bot", "greedy", "blue")], variant="europe")
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    g = board.game
    route = "angora-smyrna"           # a 3-space orange tunnel
    set_hand(g, 0, orange=4, locomotive=1)
    stack_deck(g, ["orange", "blue", "locomotive"])   # two matches: 2 more cards
    x, y = board.map_view.space_centers(route)[1]
    post_click(app, (int(x), int(y)))
    if isinstance(app.top, PaymentOverlay):           # several ways to pay: all orange first
        assert "tunnel" in app.top.subtitle
        choice = next(i for i, a in enumerate(app.top.actions) if a.cards == (("orange", 3),))
        post_click(app, app.top.rows[choice].center)
    assert g.phase == PAY_TUNNEL
    overlay = app.top
    assert isinstance(overlay, TunnelOverlay)
    assert any("Give up" in b.label for b in overlay.buttons)
    # The H hint names a tunnel choice in the window's words.
    from ttr_desktop.rules.actions import PayTunnel
    assert overlay.hint_words(PayTunnel((("orange", 1), ("locomotive", 1)))) == \
        "pay the tunnel with 1 orange + 1 locomotive"
    assert overlay.hint_words(PayTunnel((("locomotive", 2),))) == \
        "pay the tunnel with 2 locomotives"
    pay = next(b for b in overlay.buttons if b.label.startswith("Pay"))
    post_click(app, pay.rect.center)
    assert g.state.owner[g.board.route_index[route]] == 0
    assert sum(g.state.hands[0]) == 0


def test_give_up_a_tunnel_keeps_the_cards(app):
    from tests.helpers import set_hand, stack_deck
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bot", "bot", "greedy", "blue")], variant="europe")
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    g = board.game
    set_hand(g, 0, orange=3)
    stack_deck(g, ["orange", "orange", "orange"])
    x, y = board.map_view.space_centers("angora-smyrna")[1]
    post_click(app, (int(x), int(y)))
    confirm_claim(app)
    overlay = app.top
    assert "need 3 more" in " ".join(overlay.lines) and "have 0" in " ".join(overlay.lines)
    give_up = next(b for b in overlay.buttons if "Give up" in b.label)
    assert not any(b.label.startswith("Pay") for b in overlay.buttons)  # cannot pay 3 more
    post_click(app, give_up.rect.center, frames=0)
    assert g.state.owner[g.board.route_index["angora-smyrna"]] == -1
    assert g.state.hands[0][g.board.card_index["orange"]] == 3


def test_click_a_city_to_build_a_station(app):
    from tests.helpers import set_hand
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bot", "bot", "greedy", "blue")], variant="usa-stations")
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    g = board.game
    set_hand(g, 0, red=1)
    post_click(app, tuple(int(v) for v in board.map_view.city_pos["denver"]))
    overlay = app.top
    assert isinstance(overlay, PaymentOverlay) and "Denver" in overlay.title
    post_click(app, overlay.rows[0].center, frames=0)
    assert g.view(0).extra["stations"] == {"denver": 0}


def test_the_wheel_scrolls_a_long_ticket_list(app):
    from tests.helpers import set_tickets
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    g = board.game
    set_tickets(g, 0, [t.id for t in g.map.tickets[:9]])
    app.step(1 / 60)
    from ttr_desktop.ui.scenes import board_panels as panels
    visible = panels.tickets_visible(board.lay)
    assert len(board.game.view(0).tickets) > visible
    pos = board.lay.tickets.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False,
                                         precise_x=0.0, precise_y=-1.0))
    app.step(1 / 60)
    assert board.ticket_scroll > 0
    first_shown = panels.ticket_rows(board.lay, 9, board.ticket_scroll)[0][0]
    assert first_shown == board.ticket_scroll


def i_am(app) -> None:
    """Wait for the hand-over (it comes once the last move has landed) and take the seat."""
    assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), seconds=3)
    post_click(app, app.top.buttons[0].rect.center)


def test_hot_seat_log_and_toasts_keep_private_draws_and_tickets_hidden(app):
    from tests.helpers import give_route, set_hand, set_tickets
    from ttr_desktop.ui.route_plan import best_path
    board = start(app, [SeatConfig("Ann", "human", color="red"),
                        SeatConfig("Bea", "human", color="blue")])
    post_click(app, app.top.buttons[0].rect.center)      # I am Ann
    keep_tickets_by_clicking(app)
    i_am(app)  # Bea
    keep_tickets_by_clicking(app)
    i_am(app)  # Ann
    g = board.game
    # Ann's first turn: two blind draws; the log must not say which cards.
    post_click(app, board.lay.deck.center)
    post_click(app, board.lay.deck.center)
    assert not isinstance(app.top, HandOverOverlay)    # Ann sees her second card land first
    assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), seconds=3)
    from ttr_desktop.ui.animations import CardFlight
    assert not any(a.card for a in board.anims if isinstance(a, CardFlight))
    lines = [text for text, _ in board.log_lines]
    assert lines.count("Ann drew a card from the deck.") == 2
    assert not any(t.startswith("Ann drew a ") and "from the deck" in t
                   and t != "Ann drew a card from the deck." for t in lines)
    i_am(app)  # Bea
    post_click(app, board.lay.deck.center)
    post_click(app, board.lay.deck.center)
    i_am(app)  # Ann
    # Ann completes a ticket with a click: the toast is hers and goes before Bea sits down.
    ticket = next(t for t in g.map.tickets if t.points <= 8)
    set_tickets(g, 0, [ticket.id])
    path = best_path(g.view(0), ticket.a, ticket.b)
    for rid in path[:-1]:
        give_route(g, 0, rid)
    last = g.map.routes[path[-1]]
    colour = last.color if last.color != "gray" else "red"
    set_hand(g, 0, **{colour: last.length})
    x, y = board.map_view.space_centers(last.id)[0]
    post_click(app, (int(x), int(y)), frames=1)
    confirm_claim(app, frames=0)
    app.step(1 / 60)
    assert any(t.kind == "private" and "Ticket completed" in t.message for t in app.toasts)
    assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), seconds=3)
    assert not any(t.kind == "private" for t in app.toasts)


def test_a_claim_can_be_taken_back_before_the_bot_answers_at_normal_speed(app):
    board = human_vs_bot(app)
    app.settings = replace(app.settings, animation_speed="normal")
    keep_tickets_by_clicking(app)
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN, seconds=120)
    give_cards(board, 0, red=3, locomotive=0)
    x, y = board.map_view.space_centers("chicago-duluth")[1]
    post_click(app, (int(x), int(y)))
    confirm_claim(app)
    for _ in range(30):               # half a second of frames: the bot has not moved yet
        app.step(1 / 60)
    assert board.game.current_seat == 1 and board.session.can_undo()
    post_key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert board.game.state.owner[board.game.board.route_index["chicago-duluth"]] == -1


def test_resizing_the_window_lays_the_board_out_again(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    before = board.map_view.board_rect.copy()
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1920, h=1080, size=(1920, 1080)))
    app.step(1 / 60)
    assert board.lay.right.right == 1920 and board.lay.bottom.bottom == 1080
    assert board.map_view.board_rect.width > before.width
    x, y = board.map_view.space_centers("chicago-duluth")[1]
    assert board.map_view.route_at((int(x), int(y))) == "chicago-duluth"
    # Smaller than 1280x720 is held at 1280x720.
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=600, size=(800, 600)))
    app.step(1 / 60)
    assert app.size == (1280, 720) and board.lay.right.right == 1280


@pytest.mark.parametrize("map_id", ["usa", "europe"])
@pytest.mark.parametrize("size", [(1280, 720), (1600, 900), (1920, 1080)])
def test_city_labels_never_overlap_each_other_or_a_city_marker(map_id, size):
    from ttr_desktop.maps import get_map
    from ttr_desktop.ui import style
    from ttr_desktop.ui.map_view import MapView
    from ttr_desktop.ui.scenes.board_panels import compute_layout
    pygame.init()
    style.reset_caches()
    view = MapView(get_map(map_id), compute_layout(size, 4).map)
    labels = {cid: rect.inflate(-2, -2) for cid, (_, rect) in view.labels.items()}
    r = view.city_r
    markers = {cid: pygame.Rect(x - r, y - r, 2 * r, 2 * r) for cid, (x, y) in view.city_pos.items()}
    ids = list(labels)
    for i, a in enumerate(ids):
        assert view.board_rect.contains(view.labels[a][1]), a
        for b in ids[i + 1:]:
            assert not labels[a].colliderect(labels[b]), (a, b)
        for c, marker in markers.items():
            assert not labels[a].colliderect(marker), (a, c)


def test_a_wait_message_fades_as_soon_as_the_persons_turn_comes_back(app):
    board = human_vs_bot(app)
    app.settings = replace(app.settings, animation_speed="normal")
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_key(app, pygame.K_d)        # two blind cards end Ann's turn
    post_key(app, pygame.K_d)
    assert board.game.current_seat == 1
    post_key(app, pygame.K_d)        # pressed while the bot plays
    assert any(m.message.startswith("Wait: it is Bot") for m in app.toasts)
    wait_for_ann(app, board)
    for _ in range(30):              # half a second later
        app.step(1 / 60)
    assert not any(m.message.startswith("Wait") for m in app.toasts)


def test_what_the_others_did_stays_readable_under_a_long_hint(app):
    board = human_vs_bot(app)
    keep_tickets_by_clicking(app)
    wait_for_ann(app, board)
    post_key(app, pygame.K_d)        # two blind cards end Ann's turn; the bot plays
    post_key(app, pygame.K_d)
    wait_for_ann(app, board)
    news = board.news_layout()
    assert news, "the bot's move is told at the top of the game log"
    # A hint long enough to wrap reaches across the map's top; the news is beside the map.
    app.toast("Hint: claim Los Angeles – El Paso with 6 yellow: it finishes "
              "Los Angeles – Miami, your longest ticket, and keeps your red cards", 6.0,
              "private")
    hint = app.toast_rects()[-1]
    for _, rect in board.news_layout():
        assert not rect.colliderect(hint)
        assert not rect.colliderect(board.lay.map) and board.lay.log.contains(rect)
    app.toasts.clear()
    assert board.news_layout()[0][1].top == news[0][1].top