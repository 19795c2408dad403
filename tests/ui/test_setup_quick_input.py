"""Setup screen, played quickly: a map picked in the list and Return (or Start) at once
start the map the screen shows as chosen, however few frames lie between them."""

from __future__ import annotations

import pygame
import pytest

from tests.ui.conftest import click, find_button, step
from ttr_desktop.ui.scenes.board import BoardScene
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.setup import SetupScene


def open_setup(app) -> SetupScene:
    app.push(MenuScene(app))
    step(app, 2)
    click(app, find_button(app.top, "New game"))
    assert isinstance(app.top, SetupScene)
    return app.top


def map_entry(app, setup: SetupScene, label: str) -> tuple[int, int]:
    """Open the map list; where its entry ``label`` is drawn."""
    click(app, setup.variant_menu.rect.center)
    listed = setup.variant_menu.current_state.options_selection_list
    return next(item["button_element"].rect.center for item in listed.item_list
                if item["text"] == label)


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


def press_entry(app, pos) -> None:
    """Point at the entry and press the button (a frame), then let go (no frame yet)."""
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    app.step(1 / 60)
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    app.step(1 / 60)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1)


def started_map(app) -> str:
    board = app.find(BoardScene)
    assert board is not None, f"no game started; scenes: {[type(s).__name__ for s in app.scenes]}"
    return board.session.variant_key


@pytest.mark.parametrize("frames_between", [0, 1, 2, 3])
def test_return_right_after_picking_a_map_starts_that_map(app, frames_between):
    # 60 frames a second: up to 3 frames is the ~50 ms a quick hand takes.
    setup = open_setup(app)
    assert setup.variant_key == "usa"
    press_entry(app, map_entry(app, setup, "Nordic Countries"))
    for _ in range(frames_between):
        app.step(1 / 60)
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    step(app, 4)
    assert started_map(app) == "nordic"


def test_start_clicked_right_after_picking_a_map_starts_that_map(app):
    setup = open_setup(app)
    press_entry(app, map_entry(app, setup, "Europe"))
    start = setup.start_button.rect.center
    post(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    post(pygame.MOUSEBUTTONUP, pos=start, button=1)
    step(app, 4)
    assert started_map(app) == "europe"


def test_a_picked_map_shows_in_the_list_before_return_starts_it(app):
    # What the closed list shows is what Return starts, whatever was chosen before.
    setup = open_setup(app)
    press_entry(app, map_entry(app, setup, "Nordic Countries"))
    step(app, 4)
    assert setup.variant_menu.selected_option[0] == "Nordic Countries"
    press_entry(app, map_entry(app, setup, "Europe"))
    app.step(1 / 60)
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    step(app, 4)
    assert started_map(app) == "europe"


def test_a_maps_description_is_shown_to_its_last_word(app):
    # Nordic Countries' description is the longest: its end ("no longest path") matters.
    from ttr_desktop.ui import style
    from ttr_desktop.ui.scenes.setup import NOTE_SIZES, VARIANT_NOTES
    from ttr_desktop.ui.scenes.setup_choices import grouped_family, menu_entries
    setup = open_setup(app)
    click(app, map_entry(app, setup, "Nordic Countries"))
    step(app, 3)
    assert setup.variant_key == "nordic"
    lines, size, line_h = setup.note_block()
    assert " ".join(lines).split() == VARIANT_NOTES["nordic"].split()
    assert " ".join(lines).endswith("no longest path.")
    for _, key in menu_entries():
        setup.set_variant(key)
        if grouped_family(setup.variant_key) is not None:
            continue                      # a family with games shows its game rows instead
        lines, size, line_h = setup.note_block()
        assert " ".join(lines).split() == VARIANT_NOTES[key].split(), key
        # Inside the map panel, above the seed, each line within the panel's width.
        assert setup.left.y + 112 + len(lines) * line_h <= setup.seed_y, key
        assert all(style.font(size).size(line)[0] <= setup.left.w - 48 for line in lines)
        assert (size, line_h) in NOTE_SIZES
