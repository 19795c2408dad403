"""Several people at the host's computer, one friend online: the host sets the table up
with two seats "At this computer" (Ann and Ben) and one "Friend, online" (Cleo). The
host's window passes the screen between Ann and Ben as a local hot-seat game does ("Pass
the screen to Ben" -> "I am Ben"), each of them plays with their own seat's connection,
and Cleo's window sees their moves land. Frame by frame, the host's window never draws
one local person's hand or tickets while the other (or nobody) has the screen.

Both windows are App instances in this process (the dummy video driver); the server runs
on the host's background thread on 127.0.0.1, as when a person hosts."""

from __future__ import annotations

import time

import pygame

from tests.ui.boardkit import post_click, post_key
from tests.ui.test_online_window import button, join_table, two_windows  # noqa: F401
from ttr_desktop.ui.scenes import board_panels


class HostFrames:
    """Steps both windows; for every frame of the host's window keeps its header, the
    panel on top, whose screen it is (the board's viewer) and whose private parts were
    drawn."""

    def __init__(self, host, friend, monkeypatch) -> None:
        self.host, self.friend = host, friend
        self.drawn: list[tuple[int, str]] = []
        self.log: list[tuple[str, object, int | None, list[tuple[int, str]]]] = []
        self.board = None
        monkeypatch.setattr(board_panels, "PRIVATE_DRAW_HOOKS",
                            [lambda seat, part: self.drawn.append((seat, part))])

    def step(self) -> None:
        self.drawn = []
        self.host.step(1 / 60)
        if self.board is not None:
            private = self.drawn + [(-1, f"message: {t.message}") for t in self.host.toasts
                                    if t.kind == "private"]
            # The board reads the side of the person at the screen from that seat's own
            # view (never another local seat's).
            viewer = self.board.viewer
            if viewer is not None and self.board.game.known:
                private += [(self.board.game.view(viewer).seat, "view read")]
            self.log.append((self.board.status_text(), self.host.top, self.board.viewer,
                             private))
        self.friend.step(1 / 60)
        time.sleep(0.005)

    def until(self, predicate, seconds: float = 30.0) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if predicate():
                return True
            self.step()
        return predicate()


def set_up_ann_and_ben_here_and_cleo_online(host):
    """Title screen -> Host a game -> a third seat -> Ann and Ben "At this computer",
    Cleo a friend online; returns the host setup screen, ready for "Host table"."""
    from ttr_desktop.ui.scenes.menu import MenuScene
    menu = host.push(MenuScene(host))
    host.step(1 / 60)
    post_click(host, button(menu, "Host a game").rect.center)
    setup = host.top
    post_click(host, button(setup, "+ Add a person").rect.center)
    setup.set_kind(1, "At this computer")
    assert [s.kind for s in setup.seats] == ["human", "human", "remote"]
    for seat, name in zip(setup.seats, ("Ann", "Ben", "Cleo")):
        seat.name = name
    setup.rebuild()
    return setup


def test_two_people_at_the_hosts_computer_take_turns_and_the_friend_sees_their_moves(
        two_windows, monkeypatch):
    from ttr_desktop.ui.net.screens import LobbyScene
    from ttr_desktop.ui.scenes.board import BoardScene
    from ttr_desktop.ui.scenes.board_overlays import HandOverOverlay, TicketChoiceOverlay
    host, friend = two_windows
    frames = HostFrames(host, friend, monkeypatch)

    # Host a game: Ann and Ben at this computer, Cleo a friend online.
    setup = set_up_ann_and_ben_here_and_cleo_online(host)
    post_click(host, button(setup, "Host table").rect.center)
    lobby = host.top
    assert isinstance(lobby, LobbyScene)
    assert frames.until(lambda: lobby.invites and lobby.session.lobby)
    (seat, invite), = lobby.invites           # an invite for Cleo only
    assert seat == 2

    flobby = join_table([host, friend], friend, invite)
    assert frames.until(lambda: flobby.session.seat == 2 and all(
        s.get("connected") for s in lobby.session.lobby))
    post_click(host, button(lobby, "Start game").rect.center)
    assert frames.until(lambda: host.find(BoardScene) and friend.find(BoardScene))
    hb, fb = host.find(BoardScene), friend.find(BoardScene)
    frames.board = hb
    assert hb.humans == [0, 1] and hb.viewer is None and fb.viewer == 2

    # Everyone keeps their starting tickets, then each person draws two cards from the
    # deck twice. On Ann's and Ben's turns the host's window hands the screen over.
    handed_to: list[str] = []
    played = {0: 0, 1: 0, 2: 0}
    kept: set[int] = set()

    def someone_decides() -> bool:
        # Both windows caught up with the table (a person plays from what is on screen).
        return hb.game.version == fb.game.version and hb.game.settled and (
                isinstance(host.top, HandOverOverlay)
                or (hb.is_human_turn() and host.top is not hb
                    and isinstance(host.top, TicketChoiceOverlay))
                or (hb.is_human_turn() and host.top is hb and hb.game.phase == "turn"
                    and hb.game.legal_actions())
                or (fb.is_human_turn() and isinstance(friend.top, TicketChoiceOverlay))
                or (fb.is_human_turn() and friend.top is fb and fb.game.phase == "turn"
                    and fb.game.legal_actions()))

    while min(played.values()) < 2:
        assert frames.until(someone_decides, 60), (
            hb.game.phase, hb.game.current_seat, type(host.top).__name__,
            type(friend.top).__name__, hb.viewer)
        if isinstance(host.top, HandOverOverlay):
            seat = host.top.seat
            assert seat in (0, 1) and hb.viewer is None
            assert hb.status_text() == f"Pass the screen to {hb.game.players[seat]}."
            ok = host.top.buttons[0]
            handed_to.append(ok.label)
            for _ in range(10):                  # the screen waits for the next person
                frames.step()
            post_click(host, ok.rect.center, frames=0)
            frames.step()
            assert hb.viewer == seat
            continue
        if hb.is_human_turn():
            app, board, other = host, hb, fb
        else:
            app, board, other = friend, fb, hb
        seat = board.viewer
        if isinstance(app.top, TicketChoiceOverlay):
            assert seat not in kept
            post_click(app, app.top.ok.rect.center)
            kept.add(seat)
            frames.step()
            assert frames.until(lambda b=board, s=seat: b.game.current_seat != s
                                or b.game.phase == "turn")
            continue
        before = other.game.view(other.viewer).hand_sizes[seat]
        post_key(app, pygame.K_d)
        # The second draw is offered once this seat's own copy of the new state came.
        assert frames.until(lambda b=board: b.game.phase == "second_card"
                            and b.game.legal_actions()), (
            seat, board.game.current_seat, board.game.version, board.game._versions,
            board.game.legal_actions()[:2], [t.message for t in app.toasts],
            board.game.awaiting)
        post_key(app, pygame.K_d)
        # The move lands in the other window too (the table played it for that seat).
        assert frames.until(lambda o=other, s=seat, n=before + 2:
                            o.game.view(o.viewer).hand_sizes[s] == n)
        assert any(hb.game.players[seat] in text for text, _ in other.log_lines)
        played[seat] += 1

    assert kept == {0, 1, 2}
    assert "I am Ann" in handed_to and "I am Ben" in handed_to
    # Each local person's own view came from their own seat: their hands are their own.
    # (each local seat's own copy of the newest state included: it comes by that seat's
    # own connection)
    assert frames.until(lambda: hb.game.version == fb.game.version and hb.game.settled)
    ann, ben, cleo = hb.game.view(0), hb.game.view(1), fb.game.view(2)
    assert (ann.seat, ben.seat, cleo.seat) == (0, 1, 2)
    assert sum(ann.hand.values()) == cleo.hand_sizes[0]
    assert sum(ben.hand.values()) == cleo.hand_sizes[1]
    assert ann.hand_sizes == ben.hand_sizes == cleo.hand_sizes

    # No frame of the host's window drew a private part of a seat other than the one
    # at the screen, nor any private part while the screen was to be passed on.
    assert frames.log
    wrong = [(header, viewer, parts) for header, _, viewer, parts in frames.log
             if any(seat != viewer for seat, _ in parts)]
    assert not wrong, wrong[:3]
    between = [(header, parts) for header, top, _, parts in frames.log
               if header.startswith("Pass the screen") or isinstance(top, HandOverOverlay)]
    assert between and not any(parts for _, parts in between)
    # Both local people's private parts were drawn in their own turns.
    assert {seat for *_, parts in frames.log for seat, part in parts
            if part != "view read"} == {0, 1}


def test_a_saved_table_is_hosted_again_with_both_people_at_this_computer(
        two_windows, monkeypatch):
    """Ann and Ben (here) with Cleo (online) start; the host saves the table from the
    table's menu and leaves; hosting it again from the saved file seats Ann and Ben at
    this computer again (no invite for Ben), and Cleo's old invite takes her seat."""
    from ttr_desktop.ui.net import links
    from ttr_desktop.ui.net.screens import LobbyScene, TableMenu
    from ttr_desktop.ui.scenes.board import BoardScene
    from tests.ui.test_online_window import free_port, settle
    monkeypatch.setattr(links, "DEFAULT_PORT", free_port())   # the same port each time
    host, friend = two_windows
    apps = [host, friend]
    setup = set_up_ann_and_ben_here_and_cleo_online(host)
    post_click(host, button(setup, "Host table").rect.center)
    lobby = host.top
    assert settle(apps, lambda: lobby.invites and lobby.session.lobby)
    (_, invite), = lobby.invites
    join_table(apps, friend, invite)
    assert settle(apps, lambda: all(s.get("connected") for s in lobby.session.lobby))
    post_click(host, button(lobby, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene))
    hb, fb = host.find(BoardScene), friend.find(BoardScene)

    table_menu = host.push(TableMenu(host, hb))
    host.step(1 / 60)
    post_click(host, button(table_menu, "Save table").rect.center)
    assert settle(apps, lambda: any("Table saved" in t.message for t in host.toasts))
    if host.top is not table_menu:
        table_menu = host.push(TableMenu(host, hb))
        host.step(1 / 60)
    post_click(host, button(table_menu, "Leave the table").rect.center)
    assert settle(apps, lambda: fb.session.status in ("reconnecting", "closed"))
    fb.session.close()

    post_click(host, button(host.top, "Host a game").rect.center)
    setup = host.top
    post_click(host, button(setup, "Load a table").rect.center)
    post_click(host, host.top.buttons_for_test()[0].rect.center)
    lobby2 = host.top
    assert isinstance(lobby2, LobbyScene)
    assert settle(apps, lambda: lobby2.invites and lobby2.session.seat == 0)
    assert [seat for seat, _ in lobby2.invites] == [2]     # Ben plays here again
    join_table(apps, friend, invite)
    assert settle(apps, lambda: all(s.get("connected") for s in lobby2.session.lobby))
    post_click(host, button(lobby2, "Start game").rect.center)
    assert settle(apps, lambda: host.find(BoardScene) and friend.find(BoardScene)
                  and friend.find(BoardScene) is not fb)
    hb2 = host.find(BoardScene)
    assert hb2.humans == [0, 1]
    assert settle(apps, lambda: hb2.game.settled)
    assert hb2.game.view(1).seat == 1 and hb2.game.view(0).seat == 0
