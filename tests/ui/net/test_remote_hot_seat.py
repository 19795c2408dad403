"""Two people at the host's computer play one remote table (hot-seat): each seat has its
own link; after "I am Ben" the board's questions about the position (which cards may pay,
which tickets are done) are asked as Ben's seat knows it, never with Ann's cards."""

from __future__ import annotations

from tests.ui.boardkit import post_click, run_until
from tests.ui.net.loopback import LoopTable


def test_the_position_is_asked_as_the_seat_at_the_screen_knows_it(instant_app):
    from ttr_desktop.ui.net.remote import RemoteSession
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.board_overlays import HandOverOverlay, TicketChoiceOverlay
    app = instant_app
    table = LoopTable("usa", ["Ann", "Ben", "Cleo"], people=[0, 1], seed=5)
    session = RemoteSession(table.links[0])
    session.add_seat_link(table.links[1])
    assert run_until(app, lambda: (session.poll() or True) and session.ready, 2)
    board = app.push(BoardScene(app, session))
    assert board.humans == [0, 1] and board.viewer is None
    g = table.game
    seen = set()
    while len(seen) < 2:
        assert run_until(app, lambda: isinstance(app.top, HandOverOverlay), 5)
        seat = app.top.seat
        assert app.top.buttons[0].label == f"I am {g.players[seat]}"
        post_click(app, app.top.buttons[0].rect.center)
        assert board.viewer == seat
        # This seat's own hand, exactly, in the view and in the position asked.
        assert board.game.view(seat).hand == g.view(seat).hand
        assert board.game.state.hands[seat] == g.state.hands[seat]
        seen.add(seat)
        assert run_until(app, lambda: isinstance(app.top, TicketChoiceOverlay), 5)
        post_click(app, app.top.ok.rect.center)
        table.pump()
    # Both seats' moves went by their own links.
    assert any(m["type"] == "action" for m in table.links[0].sent)
    assert any(m["type"] == "action" for m in table.links[1].sent)
    session.close()


def test_a_lost_connection_of_the_second_seat_shows_like_the_first(instant_app):
    from ttr_desktop.ui.net.remote import RemoteSession
    table = LoopTable("usa", ["Ann", "Ben", "Cleo"], people=[0, 1], seed=5)
    session = RemoteSession(table.links[0])
    session.add_seat_link(table.links[1])
    session.poll()
    assert session.ready and session.status == "open" and session.humans == [0, 1]
    table.links[1].status = "reconnecting"
    assert session.status == "reconnecting"
    table.links[1].status = "closed"
    table.links[1].problem = "The table refused the seat's key."
    assert session.status == "closed" and session.problem == "The table refused the seat's key."
    session.close()


def test_a_move_shows_once_and_the_chat_speaks_for_the_person_at_the_screen(instant_app):
    from ttr_desktop.net import codec
    from ttr_desktop.rules import Event
    from ttr_desktop.ui.net.remote import RemoteSession
    table = LoopTable("usa", ["Ann", "Ben", "Cleo"], people=[0, 1], seed=5)
    session = RemoteSession(table.links[0])
    session.add_seat_link(table.links[1])
    session.poll()
    # Ben draws from the deck: each link brings its copy; Ben's own (with the card) shows.
    drawn = Event("card_drawn", 1, {"source": "deck", "card": "red"}, private=("card",))
    for seat, link in table.links.items():
        seen = drawn.visible_to(seat)
        link.deliver({"type": "events", "version": 7,
                      "events": [codec.event_to_json(seen)]})
    # ... and a copy coming again (a reconnect) is not shown twice.
    table.links[1].deliver({"type": "events", "version": 7,
                            "events": [codec.event_to_json(drawn)]})
    shown = [ev for events, _ in session.poll() for ev in events]
    assert [(ev.kind, ev.seat, ev.data) for ev in shown] == [
        ("card_drawn", 1, {"source": "deck", "card": "red"})]
    session.show(1)
    session.send_chat("my turn soon")
    assert table.links[1].sent[-1] == {"type": "chat", "text": "my turn soon"}
    assert not any(m["type"] == "chat" for m in table.links[0].sent)
    session.close()
