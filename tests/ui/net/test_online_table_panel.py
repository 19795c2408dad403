"""Around the game at an online table: the chat beside the log, "Reconnecting…", "Waiting
for Bob" and the host's choice to let a bot play his seat, and the turn timer — driven
with real keys and clicks on a board playing an in-process table (``loopback``)."""

from __future__ import annotations

import pygame

from tests.ui.boardkit import post_click, post_key
from tests.ui.net.loopback import LoopTable


def two_people(app, host=True):
    from ttr_desktop.ui.net.remote import RemoteSession
    from ttr_desktop.ui.scenes.board import BoardScene
    table = LoopTable("usa", ["Ann", "Bob"], people=[0, 1], seed=7)
    table.pump(limit=2, also=(0, 1))      # both keep their starting tickets
    assert table.game.phase == "turn"
    session = RemoteSession(table.links[0], host_token="host-key" if host else None)
    session.poll()
    board = app.push(BoardScene(app, session))
    app.step(1 / 60)
    assert app.top is board
    return table, session, board


def type_text(app, text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step(1 / 60)


def test_chat_lines_are_typed_beside_the_log_and_do_not_trigger_board_keys(instant_app):
    app = instant_app
    table, _session, board = two_people(app)
    sent = len(table.links[0].sent)
    post_key(app, pygame.K_RETURN)                  # Enter: the chat takes the keyboard
    assert board.net.typing == ""
    post_key(app, pygame.K_d)                       # a letter for the chat, not a draw
    type_text(app, "good luck, Bob!")
    post_key(app, pygame.K_RETURN)
    assert [m["type"] for m in table.links[0].sent[sent:]] == ["chat"]
    assert table.game.version == board.game.version and table.game.phase != "second_card"
    lines = [t for t, _ in board.net.chat_lines(400)]
    assert lines == ["Ann: good luck, Bob!"]
    # Bob's window gets the same line.
    assert any(m["type"] == "chat" and m["text"] == "good luck, Bob!"
               for m in table.links[1].poll())
    assert board.net.chat_rect.top > board.lay.log.bottom      # under the log, not over it


def test_a_lost_connection_shows_reconnecting_and_resumes_by_itself(instant_app):
    app = instant_app
    table, _session, board = two_people(app)
    from ttr_desktop.ui.net.remote import wake_event_type
    link = table.links[0]
    app.step(1 / 60)
    assert app.next_wake() is None       # nothing moves: the window sleeps...
    link.status = "reconnecting"
    events = app.wait(3.0)               # ...until the link's watcher wakes it
    assert any(e.type == wake_event_type() for e in events)
    app.step(1 / 60, events=events)
    assert board.net.banner_lines()[0] == "Reconnecting…"
    link.status = "open"
    app.step(1 / 60, events=app.wait(3.0))
    assert board.net.banner_lines() == []
    assert any("Connected again" in t.message for t in app.toasts)


def test_the_host_chooses_a_bot_for_a_friend_who_stays_away(instant_app):
    app = instant_app
    table, session, board = two_people(app)
    now = [1000.0]
    session.clock = lambda: now[0]
    table.links[0].deliver({"type": "presence", "seat": 1, "connected": False, "name": "Bob",
                            "away_seconds": 0, "bot_playing": False})
    app.step(1 / 60)
    assert board.net.banner_lines() == ["Waiting for Bob…"]
    assert board.net.buttons == {}                 # not asked yet: he may be back soon
    now[0] += 45
    app.step(1 / 60)
    app.step(1 / 60)
    assert set(board.net.buttons) == {"wait", "bot"}
    post_click(app, board.net.buttons["bot"].rect.center)
    assert table.links[0].sent[-1] == {"type": "host", "host_token": "host-key",
                                       "command": "bot_for", "seat": 1}
    table.links[0].deliver({"type": "presence", "seat": 1, "connected": False, "name": "Bob",
                            "away_seconds": 45, "bot_playing": True})
    app.step(1 / 60)
    assert board.net.banner_lines() == ["A Normal bot plays for Bob until they return."]
    assert board.net.buttons == {}
    table.links[0].deliver({"type": "presence", "seat": 1, "connected": True, "name": "Bob",
                            "away_seconds": 0, "bot_playing": False})
    app.step(1 / 60)
    assert board.net.banner_lines() == []


def test_a_friend_who_is_not_the_host_is_never_asked(instant_app):
    app = instant_app
    table, session, board = two_people(app, host=False)
    now = [1000.0]
    session.clock = lambda: now[0]
    table.links[0].deliver({"type": "presence", "seat": 1, "connected": False, "name": "Bob",
                            "away_seconds": 0, "bot_playing": False})
    app.step(1 / 60)
    now[0] += 300
    app.step(1 / 60)
    assert board.net.buttons == {}
    assert board.net.banner_lines() == ["Waiting for Bob (5:00)…"]


def test_the_turn_timer_counts_down_on_screen(instant_app):
    app = instant_app
    table, session, board = two_people(app)
    now = [50.0]
    session.clock = lambda: now[0]
    table.links[0].deliver({"type": "timer", "seat": 1, "deadline_seconds": 42})
    app.step(1 / 60)
    assert board.net.timer_text() == ("Bob's turn: 0:42", 42)
    now[0] += 40
    text, left = board.net.timer_text()
    assert text == "Bob's turn: 0:02" and left == 2
    table.links[0].deliver({"type": "timer", "seat": 0, "deadline_seconds": None})
    app.step(1 / 60)
    assert board.net.timer_text() is None


def test_the_chat_the_table_repeats_on_a_rejoin_is_shown_once(instant_app):
    app = instant_app
    table, _session, board = two_people(app)
    line = {"type": "chat", "seat": 1, "name": "Bob", "text": "back in a minute",
            "time": 1764286000.5}
    table.links[0].deliver(line)
    app.step(1 / 60)
    table.links[0].deliver(dict(line))          # sent again after a reconnect
    table.links[0].deliver(dict(line, time=1764286009.0))   # said again, later
    app.step(1 / 60)
    assert [t for t, _ in board.net.chat_lines(400)] == ["Bob: back in a minute"] * 2
