"""The title screen, setup, settings, rules and the overlays, driven by real input events."""

from __future__ import annotations

import tomllib

import pygame
import pytest

from tests.ui.conftest import (
    StubBoardScene,
    button_element,
    click,
    find_button,
    key,
    step,
    type_text,
    ui_elements,
    wheel,
)
from ttr_desktop.persistence.settings import Settings
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.overlays import (
    ConfirmOverlay,
    LoadOverlay,
    MessageOverlay,
    PauseOverlay,
    SaveAsOverlay,
    check_save_name,
)
from ttr_desktop.ui.scenes.rules import RulesScene, parse_rules
from ttr_desktop.ui.scenes.settings import SettingsScene
from ttr_desktop.ui.scenes.setup import SetupScene
from ttr_desktop.ui.session import GameSession, SeatConfig


def two_seats() -> list[SeatConfig]:
    return [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot 2", "bot", "greedy", "blue")]


def menu(app) -> MenuScene:
    scene = app.push(MenuScene(app))
    step(app, 2)
    return scene


def select_all_and_type(app, entry, text: str) -> None:
    click(app, entry.rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_text(app, text)


# Menu -> setup -> board ------------------------------------------------------------
def test_new_game_with_an_added_bot_and_a_typed_name_reaches_the_board(app, board_cls):
    scene = menu(app)
    click(app, find_button(scene, "New game"))
    setup = app.top
    assert isinstance(setup, SetupScene)
    assert [(s.kind, s.color) for s in setup.seats] == [("human", "red"), ("bot", "blue")]

    click(app, find_button(setup, "+ Add a bot"))
    assert len(setup.seats) == 3 and setup.seats[2].is_bot and setup.seats[2].color == "green"

    select_all_and_type(app, setup.name_entries[0], "Ann")
    assert setup.seats[0].name == "Ann"

    click(app, find_button(setup, "Start game"))
    board = app.find(board_cls)
    assert board is not None and app.scenes[0] is board
    assert [s.name for s in board.session.seats] == ["Ann", "Bot 2", "Bot 3"]
    assert board.session.game.num_players == 3


def test_enter_opens_setup_and_escape_there_goes_back(app):
    menu(app)
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, SetupScene)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)


def test_escape_on_the_menu_asks_before_quitting(app):
    menu(app)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, ConfirmOverlay)
    click(app, find_button(app.top, "Stay"))
    assert isinstance(app.top, MenuScene) and app.running
    key(app, pygame.K_ESCAPE)
    click(app, find_button(app.top, "Quit"))
    assert not app.running


def test_setup_refuses_duplicate_and_empty_names(app):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    select_all_and_type(app, setup.name_entries[1], "Player 1")
    click(app, find_button(setup, "Start game"))
    assert app.top is setup and "Player 1" in setup.error
    select_all_and_type(app, setup.name_entries[1], "")
    key(app, pygame.K_BACKSPACE)
    click(app, find_button(setup, "Start game"))
    assert app.top is setup and "needs a name" in setup.error


def test_picking_a_used_colour_swaps_it(app):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    blue_dot = next(rect for rect, c in setup.dot_rects[0] if c == "blue")
    click(app, blue_dot.center)
    assert [s.color for s in setup.seats] == ["blue", "red"]


def test_seats_can_be_added_up_to_five_and_removed_down_to_two(app):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    for _ in range(4):
        click(app, find_button(setup, "+ Add a bot"))
    assert len(setup.seats) == 5
    assert not button_element(setup, "+ Add a bot").is_enabled
    assert len({s.color for s in setup.seats}) == 5
    for _ in range(4):
        click(app, setup.remove_buttons[-1].rect.center)
    assert len(setup.seats) == 2
    assert not setup.remove_buttons[0].is_enabled


def test_switching_a_seat_to_human_renames_a_default_name(app):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    setup.set_kind(1, "Human")
    assert setup.seats[1].name == "Player 2" and not setup.seats[1].is_bot


# Continue ------------------------------------------------------------------------
def test_continue_is_disabled_without_an_autosave(app):
    scene = menu(app)
    assert not button_element(scene, "Continue").is_enabled
    click(app, find_button(scene, "Continue"))
    assert app.top is scene


def test_continue_resumes_the_autosave(app, board_cls):
    session = GameSession.new("usa", two_seats(), seed=5)
    session.apply(session.game.legal_actions()[0])
    session.save(app.paths.autosaves_dir / "game-2024-05-01-120000-usa.toml")
    scene = menu(app)
    assert button_element(scene, "Continue").is_enabled
    click(app, find_button(scene, "Continue"))
    board = app.find(board_cls)
    assert board is not None and scene not in app.scenes
    assert board.session.game.log == session.game.log
    assert [s.name for s in board.session.seats] == ["Ann", "Bot 2"]


def test_a_broken_autosave_is_explained_and_a_copy_kept(app):
    folder = app.paths.autosaves_dir
    folder.mkdir(parents=True)
    (folder / "game-2024-05-01-120000-usa.toml").write_text("format = 1\nplayers = [\n",
                                                            encoding="utf-8")
    scene = menu(app)
    click(app, find_button(scene, "Continue"))
    assert isinstance(app.top, MessageOverlay)
    assert "damaged" in app.top.message and "Invalid" not in app.top.message
    copies = list((folder / "damaged").glob("*.toml"))
    assert [c.read_text(encoding="utf-8") for c in copies] == ["format = 1\nplayers = [\n"]
    assert copies[0].name in app.top.message
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and app.running
    assert not button_element(scene, "Continue").is_enabled


# Settings --------------------------------------------------------------------------
def test_settings_change_and_save_writes_settings_toml(app):
    scene = menu(app)
    click(app, find_button(scene, "Settings"))
    settings = app.top
    assert isinstance(settings, SettingsScene)
    click(app, settings.mute_box.rect.center)
    click(app, settings.speed_menu.rect.center)           # open the list
    click(app, find_button(settings, "Fast"))
    assert settings.draft.mute and settings.draft.animation_speed == "fast"
    click(app, find_button(settings, "Save"))
    assert app.top is scene
    data = tomllib.loads(app.paths.settings_file.read_text(encoding="utf-8"))
    assert data["mute"] is True and data["animation_speed"] == "fast"
    assert app.settings.mute and app.sound.muted


def test_leaving_settings_with_changes_asks_to_save_or_discard(app):
    scene = menu(app)
    click(app, find_button(scene, "Settings"))
    settings = app.top
    click(app, settings.confirm_box.rect.center)
    key(app, pygame.K_ESCAPE)
    prompt = app.top
    assert isinstance(prompt, ConfirmOverlay) and prompt.title == "Save your changes?"
    key(app, pygame.K_ESCAPE)                      # Esc: keep editing
    assert app.top is settings and not settings.draft.confirm_claims   # claims confirm by default
    click(app, find_button(settings, "Back"))
    click(app, find_button(app.top, "Discard"))
    assert app.top is scene
    assert app.settings.confirm_claims is True
    assert not app.paths.settings_file.exists()


def test_leaving_settings_can_save_the_changes(app):
    scene = menu(app)
    click(app, find_button(scene, "Settings"))
    click(app, app.top.confirm_box.rect.center)
    key(app, pygame.K_ESCAPE)
    click(app, find_button(app.top, "Save changes"))
    assert app.top is scene and app.settings.confirm_claims is False
    assert not tomllib.loads(app.paths.settings_file.read_text(encoding="utf-8"))[
        "confirm_claims"]


def test_leaving_settings_without_changes_does_not_ask(app):
    scene = menu(app)
    click(app, find_button(scene, "Settings"))
    key(app, pygame.K_ESCAPE)
    assert app.top is scene


def test_escape_first_closes_an_open_list_in_settings(app):
    scene = menu(app)
    click(app, find_button(scene, "Settings"))
    settings = app.top
    menu_widget = settings.speed_menu
    click(app, menu_widget.rect.center)
    assert menu_widget.current_state is menu_widget.menu_states["expanded"]
    key(app, pygame.K_ESCAPE)
    assert app.top is settings
    assert menu_widget.current_state is menu_widget.menu_states["closed"]
    click(app, settings.speed_menu.rect.center)
    click(app, find_button(settings, "Fast"))
    assert settings.draft.animation_speed == "fast"
    key(app, pygame.K_ESCAPE)                       # closed list, a change: the prompt
    assert isinstance(app.top, ConfirmOverlay)


def test_a_broken_settings_value_gives_its_default_and_a_note_on_the_title_screen(home):
    from ttr_desktop.ui.app import App
    settings_file = home / "config" / "settings.toml"
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text("volume = 'loud'\n", encoding="utf-8")
    application = App(size=(1280, 720))
    try:
        assert application.settings == Settings()
        scene = application.push(MenuScene(application))
        step(application, 2)
        assert any("volume" in note for note in scene.notes)
    finally:
        application.shutdown()


def test_a_new_window_size_resizes_every_scene(app):
    scene = menu(app)
    click(app, find_button(scene, "Settings"))
    settings = app.top
    click(app, settings.size_menu.rect.center)
    click(app, find_button(settings, "1600 × 900"))
    click(app, find_button(settings, "Save"))
    assert app.size == (1600, 900)
    assert scene.size == (1600, 900)
    assert find_button(scene, "New game")[0] == 800


# Rules -----------------------------------------------------------------------------
def test_rules_scroll_with_wheel_and_keys_and_escape_returns(app):
    scene = menu(app)
    click(app, find_button(scene, "Rules"))
    rules = app.top
    assert isinstance(rules, RulesScene) and rules.max_scroll > 0
    wheel(app, -2)
    step(app, 30)
    after_wheel = rules.scroll
    assert after_wheel > 0
    key(app, pygame.K_PAGEDOWN)
    step(app, 30)
    assert rules.scroll > after_wheel
    key(app, pygame.K_END)
    step(app, 60)
    assert rules.scroll == pytest.approx(rules.max_scroll)
    key(app, pygame.K_HOME)
    step(app, 60)
    assert rules.scroll == pytest.approx(0)
    click(app, find_button(rules, "Keys"))
    step(app, 60)
    assert rules.current_section() == len(rules.anchors) - 1
    key(app, pygame.K_ESCAPE)
    assert app.top is scene


def test_the_rules_file_has_the_sections_players_need():
    from ttr_desktop.ui.scenes.rules import load_rules_text
    blocks = parse_rules(load_rules_text())
    headings = [b.text for b in blocks if b.kind == "h2"]
    for needed in ("Your turn", "Drawing train cards", "Claiming a route",
                   "Destination tickets", "The end of the game", "Stations", "Keys"):
        assert needed in headings
    tables = [b.rows for b in blocks if b.kind == "table"]
    assert ["Points", "1", "2", "4", "7", "10", "15", "18", "21", "27"] in tables[0]


# Load overlay ------------------------------------------------------------------------
def test_load_overlay_lists_a_damaged_file_without_crashing(app, board_cls):
    saves = app.paths.saves_dir
    saves.mkdir(parents=True)
    (saves / "cut short.toml").write_text("format = 1\nstate = {", encoding="utf-8")
    (saves / "binary.toml").write_bytes(b"\xff\xfe\x00garbage")
    GameSession.new("europe", two_seats(), seed=2).save(saves / "good one.toml")
    scene = menu(app)
    click(app, find_button(scene, "Load"))
    overlay = app.top
    assert isinstance(overlay, LoadOverlay)
    titles = {s.title: s for s in overlay.saves}
    assert set(titles) == {"cut short", "binary", "good one"}
    assert titles["cut short"].damaged and titles["binary"].damaged
    assert titles["good one"].variant == "Europe" and titles["good one"].players == ["Ann",
                                                                                   "Bot 2"]

    damaged_row = [s.title for s in overlay.saves].index("cut short")
    click(app, overlay.row_rect(damaged_row).center)
    assert overlay.selected == damaged_row and not overlay.load_button.is_enabled
    key(app, pygame.K_RETURN)
    assert app.top is overlay and "damaged" in overlay.error

    good_row = [s.title for s in overlay.saves].index("good one")
    click(app, overlay.row_rect(good_row).center)
    click(app, find_button(overlay, "Load"))
    board = app.find(board_cls)
    assert board is not None and overlay not in app.scenes
    assert board.session.save_path == saves / "good one.toml"


def test_a_save_that_fails_to_replay_shows_its_error_in_the_overlay(app):
    saves = app.paths.saves_dir
    session = GameSession.new("usa", two_seats(), seed=9)
    path = session.save(saves / "edited.toml")
    text = path.read_text(encoding="utf-8").replace("seed = 9", "seed = 10")
    path.write_text(text, encoding="utf-8")
    scene = menu(app)
    click(app, find_button(scene, "Load"))
    overlay = app.top
    click(app, find_button(overlay, "Load"))
    assert app.top is overlay
    assert overlay.error.startswith("'edited' cannot be loaded: its moves do not lead")
    assert "Move #" not in overlay.error


# Pause overlay -------------------------------------------------------------------------
@pytest.fixture
def paused(app):
    # The overlay only keeps a reference to the board: a stand-in keeps bots out of the way.
    session = GameSession.new("usa", two_seats(), seed=4)
    base = app.push(StubBoardScene(app, session))
    overlay = app.push(PauseOverlay(app, session, base))
    step(app, 2)
    return session, overlay


def test_pause_save_as_writes_a_file_that_loads(app, paused):
    session, pause = paused
    click(app, find_button(pause, "Save as…"))
    save_as = app.top
    assert isinstance(save_as, SaveAsOverlay)
    select_all_and_type(app, save_as.entry, "../evil")
    key(app, pygame.K_RETURN)
    assert app.top is save_as and save_as.error
    select_all_and_type(app, save_as.entry, "Sunday game")
    key(app, pygame.K_RETURN)
    assert app.top is pause
    path = app.paths.saves_dir / "Sunday game.toml"
    loaded = GameSession.load(path)
    assert loaded.game.players == session.game.players
    assert session.save_path == path

    # Save now writes to the same file without asking.
    session.apply(session.game.legal_actions()[0])
    click(app, find_button(pause, "Save"))
    assert GameSession.load(path).game.log == session.game.log
    assert "Sunday game" in pause.status


def test_save_as_asks_before_replacing_a_save(app, paused):
    session, pause = paused
    app.paths.saves_dir.mkdir(parents=True, exist_ok=True)
    existing = app.paths.saves_dir / "taken.toml"
    existing.write_text("old", encoding="utf-8")
    click(app, find_button(pause, "Save as…"))
    save_as = app.top
    select_all_and_type(app, save_as.entry, "taken")
    click(app, find_button(save_as, "Save"))
    assert isinstance(app.top, ConfirmOverlay)
    click(app, find_button(app.top, "Cancel"))
    assert existing.read_text(encoding="utf-8") == "old"
    click(app, find_button(save_as, "Save"))
    click(app, find_button(app.top, "Replace"))
    assert GameSession.load(existing).game.players == session.game.players


def test_first_save_asks_for_a_name(app, paused):
    _, pause = paused
    click(app, find_button(pause, "Save"))
    assert isinstance(app.top, SaveAsOverlay)


def test_quit_to_menu_confirms_and_keeps_the_game(app, paused):
    _, pause = paused
    click(app, find_button(pause, "Quit to menu"))
    confirm = app.top
    assert isinstance(confirm, ConfirmOverlay) and "Continue" in confirm.message
    click(app, find_button(confirm, "Quit to menu"))
    assert isinstance(app.top, MenuScene) and len(app.scenes) == 1
    assert GameSession.load(app.top.latest.path).game.players == ["Ann", "Bot 2"]
    assert button_element(app.top, "Continue").is_enabled


def test_escape_resumes_and_settings_open_over_the_pause(app, paused):
    _, pause = paused
    click(app, find_button(pause, "Settings"))
    assert isinstance(app.top, SettingsScene)
    key(app, pygame.K_ESCAPE)
    assert app.top is pause
    key(app, pygame.K_ESCAPE)
    assert pause not in app.scenes


@pytest.mark.parametrize("name,ok", [("Sunday game", True), ("", False), ("   ", False),
                                     ("a/b", False), ("..", False), ("CON", False),
                                     ("x" * 61, False), ("Partie à Zürich", True)])
def test_save_names(name, ok):
    assert (check_save_name(name) is None) == ok


# Every screen at both sizes ------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 720), (1600, 900)])
def test_every_screen_lays_out_inside_the_window(app, size):
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1],
                                         size=size))
    step(app, 1)
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    for make in (MenuScene, SetupScene, SettingsScene, RulesScene, LoadOverlay):
        scene = app.push(make(app))
        scene.resize(size)
        step(app, 2)
        window = pygame.Rect((0, 0), size)
        for element in ui_elements(scene):
            if element.visible:
                assert window.contains(element.rect), (make.__name__, element)
        app.pop()


@pytest.mark.parametrize("size", [(1280, 720), (1600, 900)])
def test_the_note_beside_before_a_bot_moves_ends_inside_its_row(app, size):
    # At 1280x720 "time to take your move back (Ctrl+Z)" ran past the row's rule line.
    from ttr_desktop.ui import style
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    settings = app.push(SettingsScene(app))
    settings.resize(size)
    step(app, 2)
    note, x = settings.pause_note()
    assert "Ctrl+Z" in note
    assert x + style.font(15).size(note)[0] <= settings.panel.right - 24
    app.pop()


def test_size_option_parses_and_rejects_bad_sizes():
    import argparse

    from ttr_desktop.__main__ import parse_size
    assert parse_size("1600x900") == (1600, 900)
    assert parse_size(" 1280 X 720 ") == (1280, 720)
    with pytest.raises(argparse.ArgumentTypeError):
        parse_size("big")


def test_ctrl_s_before_the_first_save_names_it_and_returns_to_the_game(app, paused):
    session, pause = paused
    pause.open_save_as()                  # what the board does on Ctrl+S without a file
    save_as = app.top
    assert isinstance(save_as, SaveAsOverlay)
    type_text(app, "Quick")               # the suggested name is selected: typing replaces it
    key(app, pygame.K_RETURN)
    assert pause not in app.scenes and save_as not in app.scenes
    assert session.save_path == app.paths.saves_dir / "Quick.toml"
    assert session.save_path.is_file()


def test_main_logs_an_uncaught_error_with_its_traceback_and_exits_non_zero(home, monkeypatch,
                                                                         caplog):
    from ttr_desktop import __main__ as entry
    from ttr_desktop.ui.app import App

    def broken_run(self):
        raise RuntimeError("the loop broke")

    monkeypatch.setattr(App, "run", broken_run)
    assert entry.main(["--size", "1280x720"]) == 1
    record = next(r for r in caplog.records if "unexpected error" in r.getMessage())
    assert record.exc_info is not None and "the loop broke" in caplog.text


# Seed, remembered setup, seats per variant ------------------------------------------------
def choose_fixed_seed(app, setup) -> None:
    click(app, setup.seed_menu.rect.center)
    click(app, find_button(setup, "Fixed number"))
    assert setup.seed_entry.visible


def test_a_seed_that_is_not_a_whole_number_is_explained_and_does_not_start(app, board_cls):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    choose_fixed_seed(app, setup)
    select_all_and_type(app, setup.seed_entry, "abc")
    assert setup.seed_text == "abc"
    assert "'abc' is not a whole number" in setup.seed_problem
    click(app, find_button(setup, "Start game"))
    assert app.top is setup and "seed" in setup.error
    for bad in ("12.5", "-3", "4 2"):
        select_all_and_type(app, setup.seed_entry, bad)
        assert setup.seed_problem, bad
    select_all_and_type(app, setup.seed_entry, "4821")
    assert setup.seed_problem == ""
    click(app, find_button(setup, "Start game"))
    assert app.find(board_cls).session.game.seed == 4821


def test_escape_closes_an_open_list_before_leaving_setup(app):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, setup.variant_menu.rect.center)
    assert setup.variant_menu.current_state is setup.variant_menu.menu_states["expanded"]
    key(app, pygame.K_ESCAPE)
    assert app.top is setup
    assert setup.variant_menu.current_state is setup.variant_menu.menu_states["closed"]
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)


def test_setup_remembers_the_last_map_and_seats(app, board_cls):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, setup.variant_menu.rect.center)
    click(app, find_button(setup, "Europe"))
    click(app, find_button(setup, "+ Add a person"))
    select_all_and_type(app, setup.name_entries[0], "Ann")
    select_all_and_type(app, setup.name_entries[2], "Cy")
    click(app, setup.kind_menus[1].rect.center)
    click(app, find_button(setup, "Bot · Easy"))
    click(app, next(r for r, c in setup.dot_rects[0] if c == "purple").center)
    click(app, find_button(setup, "Start game"))
    assert app.find(board_cls) is not None

    app.replace(MenuScene(app))
    step(app, 2)
    key(app, pygame.K_RETURN)
    again = app.top
    assert isinstance(again, SetupScene) and again.remembered
    assert again.variant_key == "europe"
    assert [(s.name, s.kind, s.level, s.color) for s in again.seats] == [
        ("Ann", "human", "greedy", "purple"), ("Bot 2", "bot", "easy", "blue"),
        ("Cy", "human", "greedy", "green")]
    assert [e.get_text() for e in again.name_entries] == ["Ann", "Bot 2", "Cy"]
    click(app, find_button(again, "Default players"))
    assert [s.name for s in again.seats] == ["Player 1", "Bot 2"] and not again.remembered


def test_a_damaged_last_setup_is_ignored(app):
    app.paths.last_setup_file.parent.mkdir(parents=True, exist_ok=True)
    app.paths.last_setup_file.write_text('format = 1\nvariant_key = "usa"\nseats = [{name = 3}]\n',
                                         encoding="utf-8")
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    assert not setup.remembered and [s.name for s in setup.seats] == ["Player 1", "Bot 2"]


def test_the_number_of_seats_follows_the_variant(app, monkeypatch):
    from ttr_desktop.ui.scenes import setup as setup_module
    monkeypatch.setattr(setup_module, "seat_range",
                        lambda key: (2, 6) if key == "europe" else (2, 5))
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, setup.variant_menu.rect.center)
    click(app, find_button(setup, "Europe"))
    for _ in range(4):
        click(app, find_button(setup, "+ Add a bot"))
    assert len(setup.seats) == 6 and not button_element(setup, "+ Add a bot").is_enabled
    window = pygame.Rect((0, 0), app.size)
    for element in ui_elements(setup):
        assert window.contains(element.rect), element
    click(app, setup.variant_menu.rect.center)
    click(app, find_button(setup, "USA"))
    assert len(setup.seats) == 5 and "at most 5" in setup.error


# The title screen at two sizes ------------------------------------------------------------
def test_the_title_screen_is_centred_and_scaled_to_the_window(app):
    measured = {}
    for size in [(1280, 720), (1920, 1080)]:
        app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        scene = menu(app)
        w, h = size
        title = scene.title_rect()
        buttons = [button_element(scene, label) for label in
                   ("New game", "Continue", "Load", "Settings", "Rules", "Quit")]
        rects = [b.rect for b in buttons]
        assert abs(title.centerx - w // 2) <= 1
        for rect in rects:
            assert abs(rect.centerx - w // 2) <= 1
        assert title.bottom < rects[0].top and rects[-1].bottom < h - 40
        measured[size] = (title.w / w, title.h / h, rects[0].w / w, rects[0].h / h,
                          rects[0].top / h, rects[-1].bottom / h,
                          buttons[2].font.get_point_size() / h)
        app.pop(scene)
    small, large = measured[(1280, 720)], measured[(1920, 1080)]
    for a, b in zip(small, large, strict=True):
        assert b == pytest.approx(a, rel=0.06), (small, large)


# Who goes first ---------------------------------------------------------------------------
def test_the_first_player_is_drawn_from_the_seed_unless_a_seat_is_chosen(app, board_cls):
    from ttr_desktop.rules import new_game
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    assert setup.first_player is None              # random, as at a real table
    choose_fixed_seed(app, setup)
    select_all_and_type(app, setup.seed_entry, "4821")
    click(app, find_button(setup, "Start game"))
    game = app.find(board_cls).session.game
    assert game.options["first_player"] == "random"
    again = new_game("usa", list(game.players), seed=4821, options={"first_player": "random"})
    assert game.state.first_seat == again.state.first_seat     # the seed's draw, each time


@pytest.mark.parametrize("variant_key", ["usa", "usa-stations", "europe", "legacy",
                                         "marklin", "old-west", "old-west-alvin",
                                         "county-durham"])
def test_every_map_lets_a_named_seat_go_first(app, board_cls, variant_key):
    from ttr_desktop.ui.session import VARIANT_CHOICES
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, setup.variant_menu.rect.center)
    click(app, find_button(setup, VARIANT_CHOICES[variant_key][2]))
    assert setup.variant_key == variant_key
    click(app, find_button(setup, "+ Add a bot"))
    colours = [s.color for s in setup.seats]
    click(app, setup.first_menu.rect.center)
    click(app, find_button(setup, "3. Bot 3"))      # the list lies over the colour dots
    assert setup.first_player == 2 and [s.color for s in setup.seats] == colours
    click(app, find_button(setup, "Start game"))
    game = app.find(board_cls).session.game
    assert game.options["first_player"] == 2 and game.state.first_seat == 2


def test_the_first_player_list_follows_names_and_removed_seats(app):
    menu(app)
    key(app, pygame.K_RETURN)
    setup = app.top
    click(app, find_button(setup, "+ Add a bot"))
    click(app, setup.first_menu.rect.center)
    click(app, find_button(setup, "3. Bot 3"))
    select_all_and_type(app, setup.name_entries[2], "Cy")
    click(app, setup.first_menu.rect.center)
    assert find_button(setup, "3. Cy")
    key(app, pygame.K_ESCAPE)                      # closes the list, stays in setup
    assert app.top is setup
    click(app, setup.remove_buttons[1].rect.center)
    assert setup.first_player == 1 and setup.seats[1].name == "Cy"   # Cy still goes first
    click(app, find_button(setup, "+ Add a bot"))
    click(app, setup.first_menu.rect.center)
    click(app, find_button(setup, "3. Bot 3"))
    click(app, setup.remove_buttons[2].rect.center)
    assert setup.first_player is None              # who was to go first left: random again


def test_a_saved_game_keeps_its_map_choice_whoever_went_first():
    from ttr_desktop.rules import new_game
    from ttr_desktop.ui.session import choice_key
    game = new_game("usa", 2, seed=3, options={"stations": True, "first_player": "random"})
    assert choice_key(game) == "usa-stations"
