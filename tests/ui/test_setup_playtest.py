"""Setup and title screen, as a player met them: seat names, the map list, toasts."""

from __future__ import annotations

from tests.ui.conftest import click, find_button, step
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.setup import SetupScene


def open_setup(app) -> SetupScene:
    app.push(MenuScene(app))
    step(app, 2)
    click(app, find_button(app.top, "New game"))
    assert isinstance(app.top, SetupScene)
    return app.top


def test_seats_keep_names_by_their_seat_number_after_one_is_removed(app):
    setup = open_setup(app)
    assert [s.name for s in setup.seats] == ["Player 1", "Bot 2"]
    click(app, find_button(setup, "+ Add a person"))
    assert [s.name for s in setup.seats] == ["Player 1", "Bot 2", "Player 3"]
    # The bot leaves: two seats remain, and the person added second is Player 2.
    click(app, setup.remove_buttons[1].rect.center)
    assert [s.name for s in setup.seats] == ["Player 1", "Player 2"]
    click(app, find_button(setup, "+ Add a bot"))
    assert [s.name for s in setup.seats] == ["Player 1", "Player 2", "Bot 3"]


def test_a_typed_name_is_kept_when_seats_are_renumbered(app):
    setup = open_setup(app)
    click(app, find_button(setup, "+ Add a bot"))
    setup.seats[2].name = "Zoe"
    setup.rebuild()
    step(app, 2)
    click(app, setup.remove_buttons[1].rect.center)
    assert [s.name for s in setup.seats] == ["Player 1", "Zoe"]


def test_the_settings_saved_toast_covers_neither_the_title_nor_a_button(app):
    from ttr_desktop.ui.scenes.settings import SettingsScene
    app.push(MenuScene(app))
    step(app, 2)
    menu = app.top
    click(app, find_button(menu, "Settings"))
    settings = app.top
    assert isinstance(settings, SettingsScene)
    click(app, settings.mute_box.rect.center)
    click(app, find_button(settings, "Save"))
    assert app.top is menu
    assert [t.message for t in app.toasts] == ["Settings saved."]
    # A second, longer message stacks below it, still clear of everything.
    app.toast("Settings could not be saved: the disk is full and the file stays as it was.",
              6, "error")
    step(app, 2)
    rects = app.toast_rects()
    assert len(rects) == 2
    screen = app.screen.get_rect()
    for rect in rects:
        assert screen.contains(rect)
        assert not rect.colliderect(menu.title_rect())
        for label, button in menu.buttons.items():
            assert not rect.colliderect(button.rect), label
