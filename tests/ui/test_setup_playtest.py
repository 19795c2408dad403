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
