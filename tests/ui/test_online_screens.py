"""The online screens through the window: hosting for the local network asks first (and
nothing listens until the host says yes), the table listens on 127.0.0.1 by default, a
bad invite is explained, several seats may be played at the host's computer."""

from __future__ import annotations

import pygame
import pytest

from tests.ui.boardkit import post_click
from tests.ui.conftest import click, find_button
from tests.ui.test_online_window import button, type_into


def host_setup(app):
    from ttr_desktop.ui.net.host_setup import HostSetupScene
    from ttr_desktop.ui.scenes.menu import MenuScene
    menu = app.push(MenuScene(app))
    app.step(1 / 60)
    post_click(app, button(menu, "Host a game").rect.center)
    assert isinstance(app.top, HostSetupScene)
    return app.top


def test_hosting_for_the_network_asks_first_and_cancel_opens_nothing(app, monkeypatch):
    from ttr_desktop.ui.net import host_setup as hs
    from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay
    opened = []
    monkeypatch.setattr(hs, "Hosting", lambda *a, **k: opened.append((a, k)))
    setup = host_setup(app)
    assert setup.listen_label == "This computer only"        # 127.0.0.1 by default
    click(app, setup.listen_menu.rect.center)
    click(app, find_button(setup, "My local network"))
    assert setup.listen_label == "My local network"
    post_click(app, button(setup, "Host table").rect.center)
    assert isinstance(app.top, ConfirmOverlay)
    assert "network" in app.top.message.lower() and "127.0.0.1" in app.top.message
    post_click(app, button(app.top, "Cancel").rect.center)
    assert app.top is setup and opened == []


def test_the_table_listens_on_127_0_0_1_unless_the_host_chooses_otherwise(app, monkeypatch):
    from ttr_desktop.ui.net import host_setup as hs
    from ttr_desktop.ui.net.screens import LobbyScene
    opened = []

    class Recorded:
        def __init__(self, data_dir, create, here, name, listen):
            opened.append((create, here, name, listen))
            self.problem, self.url, self.server = None, None, None

        def step(self, lobby): ...
        def words(self): return "Opening the table…"
        def address_words(self): return ""
        def stop(self): ...

    monkeypatch.setattr(hs, "Hosting", Recorded)
    setup = host_setup(app)
    post_click(app, button(setup, "+ Add a person").rect.center)
    post_click(app, button(setup, "Host table").rect.center)
    assert isinstance(app.top, LobbyScene)
    (create, here, _name, listen), = opened
    assert listen == "127.0.0.1" and here == [0]
    assert [s["kind"] for s in create["seats"]] == ["remote", "bot", "remote"]
    assert create["autostart"] is False and "seed" not in create


def test_several_people_may_play_at_the_hosts_computer(app):
    setup = host_setup(app)
    post_click(app, button(setup, "+ Add a person").rect.center)
    # A person added is a friend online; one more at this computer is chosen as such.
    assert [s.kind for s in setup.seats] == ["human", "bot", "remote"]
    setup.set_kind(2, "At this computer")
    assert [s.kind for s in setup.seats] == ["human", "bot", "human"]
    assert setup.problems() == ""
    # Somebody must play at this computer: it is the host's table.
    setup.set_kind(0, "Friend, online")
    setup.set_kind(2, "Friend, online")
    assert "At this computer" in setup.problems()


def test_a_mistyped_invite_is_explained_and_nothing_connects(app):
    from ttr_desktop.ui.net.screens import JoinScene
    join = app.push(JoinScene(app))
    app.step(1 / 60)
    type_into(app, join.invite_entry, "hello there")
    post_click(app, button(join, "Join").rect.center)
    assert app.top is join
    assert "not an invite" in join.error
    # Pasted another way it is still an invite.
    from ttr_desktop.ui.net.links import normalise_invite
    for pasted in (" 192.168.1.5:8765/join/K7QX2-M4P9R ", "192.168.1.5:8765 K7QX2-M4P9R",
                   "ws://192.168.1.5:8765/K7QX2-M4P9R"):
        assert normalise_invite(pasted) == "ws://192.168.1.5:8765/join/K7QX2-M4P9R"
    for wrong in ("", "hello there", "192.168.1.5:8765", "http://x/join/K7QX2-M4P9R"):
        with pytest.raises(ValueError):
            normalise_invite(wrong)
    assert pygame.get_init()


@pytest.mark.parametrize("size", [(1280, 720), (1600, 900)])
def test_the_note_on_who_may_join_ends_inside_its_panel(home, size):
    from ttr_desktop.ui.app import App
    app = App(size=size)
    try:
        scene = host_setup(app)
        for label in ("This computer only", "My local network"):
            scene.listen_label = label
            lines, y = scene.hint_lines()
            assert lines and y + scene.HINT_LINE * len(lines) <= scene.left.bottom - 8, label
            app.step(1 / 60)
    finally:
        app.shutdown()
