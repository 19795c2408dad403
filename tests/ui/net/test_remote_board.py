"""The board plays a table that runs elsewhere: what the seat sees comes only from the
table's messages (its view, its legal choices, the events it may see), and its clicks go
back as actions. The table here is in-process (``loopback``), with the network codec."""

from __future__ import annotations

import pygame

from tests.ui.boardkit import post_click, post_key, run_until
from tests.ui.net.loopback import LoopTable


def open_table(app, variant="usa", seed=5):
    from ttr_desktop.ui.net.remote import RemoteSession
    from ttr_desktop.ui.scenes.board import BoardScene
    table = LoopTable(variant, ["Ann", "Bob"], people=[0], seed=seed)
    session = RemoteSession(table.links[0])
    session.poll()
    assert session.ready
    board = app.push(BoardScene(app, session))
    return table, session, board


def keep_starting_tickets(app, board, table):
    from ttr_desktop.rules import Phase
    from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
    assert run_until(app, lambda: isinstance(app.top, TicketChoiceOverlay), 2)
    post_click(app, app.top.ok.rect.center)
    table.pump()
    assert run_until(app, lambda: app.top is board and board.is_human_turn()
                     and board.game.phase == Phase.TURN, 5)


def test_the_seat_sees_its_own_hand_and_only_counts_of_the_other(instant_app):
    table, _session, board = open_table(instant_app)
    g = table.game
    assert board.game.view(0).hand == g.view(0).hand
    assert board.viewer == 0 and board.humans == [0]
    # The stand-in never holds the other seat's cards: its view is seat 0's only.
    assert board.game.view(1).seat == 0
    assert board.game.view(1).hand_sizes[1] == sum(g.view(1).hand.values())


def test_a_draw_from_the_deck_goes_to_the_table_and_comes_back_as_events(instant_app):
    app = instant_app
    table, _session, board = open_table(app)
    keep_starting_tickets(app, board, table)
    hand_before = sum(board.game.view(0).hand.values())
    log_before = len(board.log_lines)
    post_key(app, pygame.K_d)
    # Sent, not applied here: the table's engine applied it and answered.
    assert table.links[0].sent[-1]["type"] == "action"
    assert table.game.phase == "second_card"
    assert run_until(app, lambda: board.game.phase == "second_card", 2)
    assert sum(board.game.view(0).hand.values()) == hand_before + 1
    assert len(board.log_lines) > log_before          # the same log as a local game
    assert "drew" in " ".join(t for t, _ in board.log_lines[log_before:]).lower()


def test_the_other_seats_moves_arrive_and_are_logged(instant_app):
    app = instant_app
    table, _session, board = open_table(app)
    keep_starting_tickets(app, board, table)
    post_key(app, pygame.K_d)
    run_until(app, lambda: board.game.phase == "second_card", 2)
    post_key(app, pygame.K_d)
    run_until(app, lambda: board.game.current_seat == 1, 2)
    lines = len(board.log_lines)
    assert table.pump() >= 1            # Bob (a bot on the table) plays
    assert run_until(app, lambda: board.game.current_seat == 0, 2)
    assert any("Bob" in t for t, _ in board.log_lines[lines:])
    assert board.game.version == table.game.version
    assert board.game.view(0).points == table.game.view(0).points


def test_a_refused_move_is_explained_and_nothing_changes(instant_app):
    app = instant_app
    table, _session, board = open_table(app)
    keep_starting_tickets(app, board, table)
    version = table.game.version
    # A move for a position the table has left: the table says why, the window shows it.
    table.links[0].send({"type": "action", "version": version - 1,
                         "action": {"kind": "draw_blind"}})
    app.step(1 / 60)
    assert any("earlier position" in t.message for t in app.toasts)
    assert table.game.version == version and board.game.version == version


def test_no_bot_runs_in_the_window_and_the_idle_board_sleeps(instant_app):
    app = instant_app
    table, _session, board = open_table(app)
    keep_starting_tickets(app, board, table)
    assert board.bots == {} and board.runner is None
    post_key(app, pygame.K_d)
    run_until(app, lambda: board.game.phase == "second_card", 2)
    post_key(app, pygame.K_d)
    run_until(app, lambda: board.game.current_seat == 1 and not board.anims, 2)
    for _ in range(5):
        app.step(1 / 60)
    # Waiting for another seat: no frame until the table sends something.
    assert app.next_wake() is None
    assert board.runner is None


def test_the_end_screen_shows_the_tables_own_result(instant_app):
    app = instant_app
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    table, _session, board = open_table(app)
    keep_starting_tickets(app, board, table)
    # A bot plays Ann's seat on the table to the end; the window only watches.
    table.pump(limit=2000, also=(0,))
    assert table.game.is_over
    assert run_until(app, lambda: isinstance(app.top, ScoringScene), 20)
    end = app.top
    assert [s.total for s in end.scores] == [b.total for b in table.game.result().scores]
    assert end.names == ["Ann", "Bob"]
    assert end.play_again_button.label == "Play online again"
    # The draws on the statistics tab are those every seat saw, counted as a local game
    # counts them from its move list.
    from ttr_desktop.ui.scenes.scoring_stats import count_actions
    local = count_actions(table.game)
    for stats in end.stats:
        assert stats.blind == local[stats.seat].get("draw_blind", 0)
        assert stats.face_up == local[stats.seat].get("draw_face_up", 0)
        assert stats.ticket_draws == local[stats.seat].get("draw_tickets", 0)


def test_a_slow_table_never_gets_the_same_decision_twice(instant_app):
    """The answer takes a while: the window waits for it without asking again (the
    ticket panel does not come back for a choice already sent)."""
    app = instant_app
    from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
    table, _session, board = open_table(app)
    assert run_until(app, lambda: isinstance(app.top, TicketChoiceOverlay), 2)
    link = table.links[0]
    link.hold = True
    post_click(app, app.top.ok.rect.center)
    for _ in range(10):
        app.step(1 / 60)
    assert app.top is board                     # waiting, not asking again
    assert [m["type"] for m in link.sent] == ["action"]
    assert board.game.legal_actions() == []      # nothing more is offered meanwhile
    link.release()
    table.pump()
    assert run_until(app, lambda: board.game.phase == "turn" and board.is_human_turn(), 5)
    assert [m["type"] for m in link.sent] == ["action"]
