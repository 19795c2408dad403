"""Two windows play one table over 127.0.0.1 through the real server: the host sets the
table up from the title screen (a seat for a friend, a bot), copies the invite; the
friend's window joins with it and sees the lobby; the host starts; both keep their
tickets and play turns with real clicks and keys, each seeing only their own hand.

Both windows are App instances in this process (the dummy video driver), stepped in turn;
the server runs on the host's background thread, as when a person hosts."""

from __future__ import annotations

import time

import pygame
import pytest

from tests.ui.boardkit import post_click, post_key


def settle(apps, predicate, seconds: float = 20.0) -> bool:
    """Step every window until ``predicate()`` holds (real time: the network answers)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        for app in apps:
            app.step(1 / 60)
        time.sleep(0.01)
    return predicate()


def type_into(app, entry, text: str) -> None:
    """Click a text field and type ``text`` into it."""
    post_click(app, entry.rect.center)
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step(1 / 60)


def button(scene, label: str):
    from pygame_gui.elements import UIButton
    for el in scene.ui.get_sprite_group().sprites():
        if isinstance(el, UIButton) and el.text == label:
            return el
    raise AssertionError(f"no button {label!r}")


@pytest.fixture
def two_windows(tmp_path, monkeypatch):
    from dataclasses import replace

    from ttr_desktop.ui.app import App
    from ttr_desktop.ui.net import links
    monkeypatch.setattr(links, "DEFAULT_PORT", 0)         # any free port on 127.0.0.1
    apps = []
    for who in ("host", "friend"):
        monkeypatch.setenv("TTR_DESKTOP_HOME", str(tmp_path / who))
        app = App(size=(1280, 720))
        app.settings = replace(app.settings, animation_speed="instant")
        apps.append(app)
    yield apps
    for app in apps:
        for scene in app.scenes:
            session = getattr(scene, "session", None)
            if session is not None and hasattr(session, "close"):
                session.close()
            hosting = getattr(scene, "hosting", None)
            if hosting is not None and hosting.server is not None:
                hosting.server.stop()
    apps[0].shutdown()


def keep_starting_tickets(apps, boards) -> None:
    """Each window keeps its starting tickets when the table asks it (in seat order)."""
    from ttr_desktop.ui.scenes.board_overlays import TicketChoiceOverlay
    kept = set()
    while len(kept) < len(apps):
        assert settle(apps, lambda: any(isinstance(a.top, TicketChoiceOverlay)
                                        for i, a in enumerate(apps) if i not in kept), 30)
        i = next(i for i, a in enumerate(apps)
                 if i not in kept and isinstance(a.top, TicketChoiceOverlay))
        post_click(apps[i], apps[i].top.ok.rect.center)
        kept.add(i)


def test_host_and_friend_play_turns_in_two_windows_over_127_0_0_1(two_windows):
    from ttr_desktop.ui.net.screens import JoinScene, LobbyScene
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.menu import MenuScene
    host, friend = two_windows
    apps = [host, friend]

    # The host: Host a game -> a seat for a friend -> Host table -> the invite.
    menu = host.push(MenuScene(host))
    host.step(1 / 60)
    post_click(host, button(menu, "Host a game").rect.center)
    setup = host.top
    post_click(host, button(setup, "+ Add a person").rect.center)
    assert [s.kind for s in setup.seats] == ["human", "bot", "remote"]
    type_into(host, setup.name_entries[0], "Ann" + "")
    setup.seats[0].name = "Ann"
    setup.seats[2].name = "Cleo"
    setup.rebuild()
    post_click(host, button(setup, "Host table").rect.center)
    lobby = host.top
    assert isinstance(lobby, LobbyScene)
    assert settle(apps, lambda: lobby.invites and lobby.session.lobby)
    (seat, invite), = lobby.invites
    assert seat == 2 and invite.startswith("ws://127.0.0.1:") and "/join/" in invite
    assert lobby.hosting.listen == "127.0.0.1"

    # The friend: Join a game -> paste the invite, a name -> Join -> the lobby.
    menu2 = friend.push(MenuScene(friend))
    friend.step(1 / 60)
    post_click(friend, button(menu2, "Join a game").rect.center)
    join = friend.top
    assert isinstance(join, JoinScene)
    type_into(friend, join.invite_entry, invite)
    type_into(friend, join.name_entry, "Cleo")
    post_click(friend, button(join, "Join").rect.center)
    flobby = friend.top
    assert isinstance(flobby, LobbyScene)
    assert settle(apps, lambda: flobby.session.seat == 2 and all(
        s.get("connected") for s in lobby.session.lobby))
    assert not flobby.session.is_host and flobby.start_button is None

    # The host starts: both windows show the board.
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: isinstance(host.top, BoardScene) or
                  isinstance(host.find(BoardScene), BoardScene))
    assert settle(apps, lambda: friend.find(BoardScene) is not None)
    hb, fb = host.find(BoardScene), friend.find(BoardScene)
    assert hb.remote and fb.remote and hb.viewer == 0 and fb.viewer == 2

    # Everyone keeps their starting tickets (the bot on the server too).
    keep_starting_tickets(apps, [hb, fb])

    # Two rounds: on each person's turn they draw two cards from the deck (D, D) in their
    # own window, the other window sees the draws land; the bot plays on the server.
    played = {0: 0, 2: 0}
    while min(played.values()) < 2:
        # Both windows caught up with the table (a person plays from what is on screen).
        assert settle(apps, lambda: hb.game.version == fb.game.version and (
            (hb.is_human_turn() and host.top is hb and hb.game.phase == "turn")
            or (fb.is_human_turn() and friend.top is fb and fb.game.phase == "turn")), 60), (
            hb.game.phase, hb.game.current_seat, hb.game.version, fb.game.version,
            type(host.top).__name__, type(friend.top).__name__, hb.session.status,
            [t.message for t in host.toasts + friend.toasts], hb.game.awaiting,
            fb.game.awaiting)
        app, board, other = (host, hb, fb) if hb.is_human_turn() else (friend, fb, hb)
        seat = board.viewer
        before = other.game.view(other.viewer).hand_sizes[seat]
        post_key(app, pygame.K_d)
        assert settle(apps, lambda b=board: b.game.phase == "second_card"), repr((
            board.game.phase, board.game.version, board.game.awaiting, board.session.status,
            [t.message for t in app.toasts], list(board.session.notices), board.net.typing,
            type(app.top).__name__, board.is_human_turn(), board.viewer, board.game.current_seat))
        post_key(app, pygame.K_d)
        assert settle(apps, lambda o=other, s=seat, n=before + 2:
                      o.game.view(o.viewer).hand_sizes[s] == n, 30)
        assert any(hb.game.players[seat] in text for text, _ in other.log_lines)
        played[seat] += 1
    assert settle(apps, lambda: hb.game.version == fb.game.version, 30)
    # Each window holds only its own hand; the public facts agree.
    hv, fv = hb.game.view(0), fb.game.view(2)
    assert hv.seat == 0 and fv.seat == 2
    assert hv.hand_sizes == fv.hand_sizes and hv.points == fv.points
    assert hv.face_up == fv.face_up and hv.deck_size == fv.deck_size
    assert sum(fv.hand.values()) == fv.hand_sizes[2]

    # A chat line from the friend reaches the host's chat beside the log.
    post_key(friend, pygame.K_RETURN)
    for ch in "hi Ann":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    friend.step(1 / 60)
    post_key(friend, pygame.K_RETURN)
    assert settle(apps, lambda: [t for t, _ in hb.net.chat_lines(400)] == ["Cleo: hi Ann"])


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def host_table(apps, host, friend_name="Cleo", bot=False):
    """The host's window sets a table for Ann (here) and a friend; returns the lobby and
    the friend's invite."""
    from ttr_desktop.ui.net.screens import LobbyScene
    from ttr_desktop.ui.scenes.menu import MenuScene
    menu = host.push(MenuScene(host))
    host.step(1 / 60)
    post_click(host, button(menu, "Host a game").rect.center)
    setup = host.top
    post_click(host, button(setup, "+ Add a person").rect.center)
    if not bot:
        post_click(host, setup.remove_buttons[1].rect.center)
    assert [s.kind for s in setup.seats] == ["human"] + ["bot"] * bot + ["remote"]
    setup.seats[0].name = "Ann"
    setup.seats[-1].name = friend_name
    setup.rebuild()
    post_click(host, button(setup, "Host table").rect.center)
    lobby = host.top
    assert isinstance(lobby, LobbyScene)
    assert settle(apps, lambda: lobby.invites and lobby.session.lobby)
    return lobby, lobby.invites[-1][1]


def join_table(apps, friend, invite, name="Cleo"):
    from ttr_desktop.ui.net.screens import JoinScene
    join = friend.push(JoinScene(friend))
    friend.step(1 / 60)
    type_into(friend, join.invite_entry, invite)
    type_into(friend, join.name_entry, name)
    post_click(friend, button(join, "Join").rect.center)
    return friend.top


def test_a_friend_who_drops_rejoins_with_the_invite_and_the_host_saves_and_loads(
        two_windows, monkeypatch):
    from ttr_desktop.ui.net import links
    from ttr_desktop.ui.net.screens import TableMenu
    from ttr_desktop.ui.scenes.board import BoardScene
    port = free_port()
    monkeypatch.setattr(links, "DEFAULT_PORT", port)      # the same port each time hosted
    host, friend = two_windows
    apps = [host, friend]
    lobby, invite = host_table(apps, host)
    assert f"127.0.0.1:{port}/join/" in invite
    join_table(apps, friend, invite)
    assert settle(apps, lambda: all(s.get("connected") for s in lobby.session.lobby))
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene))
    hb, fb = host.find(BoardScene), friend.find(BoardScene)
    keep_starting_tickets(apps, [hb, fb])
    assert settle(apps, lambda: hb.game.phase == "turn" and fb.game.phase == "turn")

    # Cleo leaves (Esc -> Leave the table): Ann's window says it waits for her.
    post_key(friend, pygame.K_ESCAPE)
    assert isinstance(friend.top, TableMenu)
    post_click(friend, button(friend.top, "Leave the table").rect.center)
    assert settle(apps, lambda: hb.net.banner_lines() == ["Waiting for Cleo…"] or
                  hb.net.banner_lines()[:1] == ["Waiting for Cleo (0:01)…"])
    # She joins again with the same invite and takes her seat back.
    join_table(apps, friend, invite)
    assert settle(apps, lambda: friend.find(BoardScene) is not None)
    fb = friend.find(BoardScene)
    assert fb.viewer == 1 and settle(apps, lambda: hb.net.banner_lines() == [])
    assert settle(apps, lambda: fb.game.version == hb.game.version)

    # Ann saves the table (Ctrl+S), leaves, and hosts it again from the saved file.
    post_key(host, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert settle(apps, lambda: any("Table saved" in t.message for t in host.toasts))
    version = hb.game.version
    post_key(host, pygame.K_ESCAPE)
    post_click(host, button(host.top, "Leave the table").rect.center)
    assert settle(apps, lambda: fb.session.status in ("reconnecting", "closed"))
    fb.session.close()
    setup_menu = host.top
    post_click(host, button(setup_menu, "Host a game").rect.center)
    setup = host.top
    post_click(host, button(setup, "Load a table").rect.center)
    post_click(host, host.top.buttons_for_test()[0].rect.center)
    lobby2 = host.top
    assert settle(apps, lambda: lobby2.invites and lobby2.session.seat == 0)
    # Cleo's old invite still takes her seat at the loaded table.
    join_table(apps, friend, invite)
    assert settle(apps, lambda: all(s.get("connected") for s in lobby2.session.lobby))
    post_click(host, button(lobby2, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene) and
                  friend.find(BoardScene) is not fb)
    hb2, fb2 = host.find(BoardScene), friend.find(BoardScene)
    assert settle(apps, lambda: hb2.session.ready and fb2.session.ready)
    assert hb2.viewer == 0 and fb2.viewer == 1
    assert hb2.game.view(0).hand == hb.game.view(0).hand
    assert hb2.game.view(0).points == hb.game.view(0).points
    assert hb2.game.turn == hb.game.turn and version >= 0


def test_an_invite_the_table_does_not_know_is_explained_in_the_lobby(app, tmp_path):
    from ttr_desktop.net.server import ServerThread
    from ttr_desktop.ui.net.screens import LobbyScene
    server = ServerThread("127.0.0.1", 0, tmp_path / "tables")
    url = server.start()
    try:
        lobby = join_table([app], app, f"{url}/join/WRONG-CODE1")
        assert isinstance(lobby, LobbyScene)
        assert settle([app], lambda: lobby.session.status == "closed", 20)
        words, _ = lobby.status_words()
        assert "invite" in words.lower() and "not valid" in words.lower()
        post_click(app, button(lobby, "Leave").rect.center)
        from ttr_desktop.ui.scenes.menu import MenuScene
        assert isinstance(app.top, MenuScene)
    finally:
        server.stop()


def test_a_whole_online_game_ends_on_the_tables_own_scores(two_windows):
    """Ann hosts for a bot and Cleo; Cleo never comes, so Ann lets a Normal bot play her
    seat, and plays to the end (her moves chosen by a bot helper, sent through the board
    as a panel sends them); the end screen shows the table's own result."""
    from ttr_desktop.bots import make_bot
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.scoring import ScoringScene
    host = two_windows[0]
    apps = [host]
    lobby, _ = host_table(apps, host, bot=True)
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) is not None)
    board = host.find(BoardScene)
    assert settle(apps, lambda: board.session.ready)
    board.session.let_bot_play(2)
    helper = make_bot("greedy", seed=1)
    end = time.monotonic() + 120
    while time.monotonic() < end and not isinstance(host.top, ScoringScene):
        g = board.game
        if g.current_seat == 0 and g.legal_actions() and not g.is_over:
            while host.top is not board and host.top is not None and \
                    not isinstance(host.top, ScoringScene):
                host.pop()
            board.port.perform(helper.choose(g.view(0), g.legal_actions()))
        host.step(1 / 60)
        time.sleep(0.002)
    assert isinstance(host.top, ScoringScene), (board.game.turn, board.session.status)
    over = board.session.over
    assert [s.total for s in host.top.scores] == over["scores"]
    assert host.top.names == board.game.players


def test_the_seat_colours_the_host_chose_show_in_every_window(two_windows):
    """Ann hosts as purple with a yellow bot and Cleo in red: the friend's lobby and both
    boards colour the seats so, not in the usual red-blue-green order."""
    from ttr_desktop.ui import style
    from ttr_desktop.ui.net.screens import LobbyScene
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.menu import MenuScene
    host, friend = two_windows
    apps = [host, friend]
    menu = host.push(MenuScene(host))
    host.step(1 / 60)
    post_click(host, button(menu, "Host a game").rect.center)
    setup = host.top
    post_click(host, button(setup, "+ Add a person").rect.center)
    chosen = ["purple", "yellow", "red"]
    for seat, name, color in zip(setup.seats, ["Ann", "Robo", "Cleo"], chosen):
        seat.name, seat.color = name, color
    setup.rebuild()
    post_click(host, button(setup, "Host table").rect.center)
    lobby = host.top
    assert settle(apps, lambda: lobby.invites and lobby.session.lobby)
    flobby = join_table(apps, friend, lobby.invites[-1][1])
    assert isinstance(flobby, LobbyScene)
    assert settle(apps, lambda: flobby.session.seat == 2 and len(flobby.session.seats) == 3)
    assert [s.color for s in flobby.session.seats] == chosen
    assert [s.color for s in lobby.session.seats] == chosen
    assert settle(apps, lambda: all(s.get("connected") for s in lobby.session.lobby))
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene))
    rgb = [style.PLAYER_COLORS[c] for c in chosen]
    assert host.find(BoardScene).rgb == rgb and friend.find(BoardScene).rgb == rgb


def test_a_link_cut_mid_game_reconnects_by_itself_and_play_goes_on(two_windows):
    """Cleo's connection is cut in the middle of the game (the table's end of it drops
    without a goodbye): her window says "Reconnecting…", her link takes her seat back by
    itself, the banner goes, her next move lands in Ann's window, and the game plays on."""
    from ttr_desktop.ui.scenes.board import BoardScene
    host, friend = two_windows
    apps = [host, friend]
    lobby, invite = host_table(apps, host)
    join_table(apps, friend, invite)
    assert settle(apps, lambda: all(s.get("connected") for s in lobby.session.lobby))
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene))
    hb, fb = host.find(BoardScene), friend.find(BoardScene)
    keep_starting_tickets(apps, [hb, fb])
    assert settle(apps, lambda: hb.game.phase == "turn" and fb.game.phase == "turn")
    link = fb.session.link
    server = lobby.hosting.server

    def cut() -> None:   # on the server's thread: drop Cleo's connection, no close frame
        table, = server.server.tables.values()
        table.conns[1].ws.transport.abort()

    seen = []

    def watch() -> bool:
        seen.append(fb.net.banner_lines()[:1])
        return False

    server.call(cut)
    assert settle(apps, lambda: watch() or ["Reconnecting…"] in seen, 20), seen
    assert settle(apps, lambda: link.status == "open" and fb.net.banner_lines() == [], 30), (
        link.status, link.problem, fb.net.banner_lines())
    assert fb.session.link is link, "the same link took the seat back"
    assert settle(apps, lambda: fb.game.version == hb.game.version, 20)

    # Play on: each person draws two cards on their turn; the other window sees them land.
    played = {0: 0, 1: 0}
    while min(played.values()) < 2:
        # Both windows caught up with the table (a person plays from what is on screen).
        assert settle(apps, lambda: hb.game.version == fb.game.version and (
            (hb.is_human_turn() and host.top is hb and hb.game.phase == "turn")
            or (fb.is_human_turn() and friend.top is fb and fb.game.phase == "turn")), 60), (
            hb.game.current_seat, hb.game.version, fb.game.version, link.status)
        app, board, other = (host, hb, fb) if hb.is_human_turn() else (friend, fb, hb)
        seat = board.viewer
        before = other.game.view(other.viewer).hand_sizes[seat]
        post_key(app, pygame.K_d)
        assert settle(apps, lambda b=board: b.game.phase == "second_card"), repr((
            board.game.phase, board.game.version, board.game.awaiting, board.session.status,
            [t.message for t in app.toasts], list(board.session.notices), board.net.typing,
            type(app.top).__name__, board.is_human_turn(), board.viewer, board.game.current_seat))
        post_key(app, pygame.K_d)
        assert settle(apps, lambda o=other, s=seat, n=before + 2:
                      o.game.view(o.viewer).hand_sizes[s] == n, 30)
        played[seat] += 1
    assert settle(apps, lambda: hb.game.version == fb.game.version, 30)
    assert hb.game.view(0).hand_sizes == fb.game.view(1).hand_sizes
    assert fb.net.banner_lines() == [] and hb.net.banner_lines() == []


def test_a_move_made_while_reconnecting_lands_once_the_link_is_back(two_windows):
    """Cleo's connection drops on her turn; she draws a card while her window still says
    "Reconnecting…": the draw waits in her link and lands once it has her seat back."""
    from ttr_desktop.ui.scenes.board import BoardScene
    host, friend = two_windows
    apps = [host, friend]
    lobby, invite = host_table(apps, host)
    join_table(apps, friend, invite)
    assert settle(apps, lambda: all(s.get("connected") for s in lobby.session.lobby))
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene))
    hb, fb = host.find(BoardScene), friend.find(BoardScene)
    keep_starting_tickets(apps, [hb, fb])
    if not settle(apps, lambda: fb.is_human_turn() and fb.game.phase == "turn", 5):
        assert settle(apps, lambda: hb.is_human_turn() and hb.game.phase == "turn", 30)
        post_key(host, pygame.K_d)
        assert settle(apps, lambda: hb.game.phase == "second_card")
        post_key(host, pygame.K_d)
        assert settle(apps, lambda: fb.is_human_turn() and fb.game.phase == "turn", 30)
    server = lobby.hosting.server
    link = fb.session.link
    version = hb.game.version
    before = hb.game.view(0).hand_sizes[1]

    def cut() -> None:
        table, = server.server.tables.values()
        table.conns[1].ws.transport.abort()

    server.call(cut)
    assert settle(apps, lambda: fb.net.banner_lines()[:1] == ["Reconnecting…"], 20)
    post_key(friend, pygame.K_d)
    assert settle(apps, lambda: link.status == "open" and fb.net.banner_lines() == [], 30)
    assert settle(apps, lambda: hb.game.version > version, 20), (
        fb.game.phase, fb.game.awaiting, link.status, link.problem)
    assert settle(apps, lambda: fb.game.phase == "second_card", 20)
    post_key(friend, pygame.K_d)
    assert settle(apps, lambda: hb.game.view(0).hand_sizes[1] == before + 2, 20)
