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


def open_map_list(app, setup):
    click(app, setup.variant_menu.rect.center)
    state = setup.variant_menu.current_state
    assert state is setup.variant_menu.menu_states["expanded"]
    return state.options_selection_list


def test_every_map_in_the_list_is_picked_where_it_is_drawn_whatever_map_is_chosen(app):
    from ttr_desktop.ui.scenes.setup_choices import entry_label, menu_entries
    setup = open_setup(app)
    labels = [label for label, _ in menu_entries()]
    listed = open_map_list(app, setup)
    assert listed.scroll_bar is None                      # every map shows at 1280x720
    drawn = {item["text"]: item["button_element"].rect.copy() for item in listed.item_list}
    assert list(drawn) == labels
    assert all(app.screen.get_rect().contains(rect) for rect in drawn.values())
    click(app, setup.variant_menu.rect.center)            # close it again
    # Whatever map is chosen first, the list opens in the same place, so a map is picked
    # at the top, middle and bottom pixel rows of where it was seen.
    for chosen in (labels[0], "Old West", labels[-1]):
        for target in labels:
            for y in (drawn[target].top, drawn[target].centery, drawn[target].bottom - 1):
                setup.pick_entry(chosen)
                step(app, 2)
                open_map_list(app, setup)
                click(app, (drawn[target].centerx, y))
                assert entry_label(setup.variant_key) == target, (chosen, target, y)


# The first input after the window has gone to sleep -------------------------------
def _post_click(pos) -> None:
    import pygame
    pos = (int(pos[0]), int(pos[1]))
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        extra = {"rel": (0, 0), "buttons": (0, 0, 0)} if kind == pygame.MOUSEMOTION else \
            {"button": 1}
        pygame.event.post(pygame.event.Event(kind, pos=pos, touch=False, **extra))


def _asleep(app) -> None:
    """Let the setup screen stand still until the loop would sleep waiting for input."""
    for _ in range(40):
        if app.next_wake() is None:
            return
        app.step(0.1)
    raise AssertionError("the setup screen never stands still")


def _frames(app, count: int = 6) -> None:
    for _ in range(count):
        app.frame()


def test_the_first_click_on_a_sleeping_setup_screen_opens_the_first_player_list(app):
    setup = open_setup(app)
    _asleep(app)
    _post_click(setup.first_menu.rect.center)          # press and release in one wake-up
    _frames(app)
    assert setup.first_menu.current_state is setup.first_menu.menu_states["expanded"]


def test_the_first_return_after_picking_a_map_on_a_sleeping_screen_starts(app, board_cls):
    import pygame
    setup = open_setup(app)
    listed = open_map_list(app, setup)
    _post_click(listed.item_list[2]["button_element"].rect.center)
    _frames(app)
    assert setup.variant_key == "usa-1910"
    _asleep(app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                         unicode="\r", scancode=0))
    _frames(app, 2)
    assert app.top is not setup                       # the game was dealt and opened
