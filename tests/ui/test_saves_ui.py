"""Autosaves per game, Continue, the load screen's sections, delete and rename, damaged
files and loading over a game in progress, driven by real input events.

The board is a stand-in (it holds the session like the real one): these tests are about
the menus and files, and a stand-in keeps bots from playing while they run.
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

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
)
from ttr_desktop.persistence import SaveError
from ttr_desktop.persistence.autosaves import AUTOSAVE_LIMIT, save_files
from ttr_desktop.ui.scenes.dialogs import ConfirmOverlay, MessageOverlay, TextPromptOverlay
from ttr_desktop.ui.scenes.load import LoadOverlay
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.scenes.overlays import PauseOverlay
from ttr_desktop.ui.scenes.save_info import explain_problem
from ttr_desktop.ui.scenes.setup import SetupScene
from ttr_desktop.ui.session import GameSession, SeatConfig


@pytest.fixture
def stub_board(monkeypatch: pytest.MonkeyPatch):
    """Every game opens on a stand-in board."""
    module = types.ModuleType("ttr_desktop.ui.scenes.board")
    module.BoardScene = StubBoardScene
    monkeypatch.setitem(sys.modules, "ttr_desktop.ui.scenes.board", module)
    return StubBoardScene


def seats(first: str) -> list[SeatConfig]:
    return [SeatConfig(first, "human", color="red"), SeatConfig("Bot 2", "bot", "greedy", "blue")]


def menu(app) -> MenuScene:
    scene = app.push(MenuScene(app))
    step(app, 2)
    return scene


def board(app) -> StubBoardScene:
    found = app.find(StubBoardScene)
    assert found is not None, [type(s).__name__ for s in app.scenes]
    return found


def play_a_game(app, first_name: str) -> GameSession:
    """Title screen -> New game -> a named first seat -> Start; a turn is autosaved."""
    scene = app.top if isinstance(app.top, MenuScene) else menu(app)
    click(app, find_button(scene, "New game"))
    setup = app.top
    assert isinstance(setup, SetupScene)
    click(app, setup.name_entries[0].rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_text(app, first_name)
    click(app, find_button(setup, "Start game"))
    session = board(app).session
    assert session.seats[0].name == first_name
    session.apply(session.game.legal_actions()[0])
    session.autosave()                       # what the board does after every turn
    session.wait_for_autosave()
    return session


def pause_over_board(app) -> PauseOverlay:
    """Esc on the board: the pause menu over the game."""
    base = board(app)
    overlay = app.push(PauseOverlay(app, base.session, base))
    step(app, 2)
    return overlay


def quit_to_menu(app) -> MenuScene:
    pause = pause_over_board(app)
    click(app, find_button(pause, "Quit to menu"))
    click(app, find_button(app.top, "Quit to menu"))
    assert isinstance(app.top, MenuScene)
    return app.top


def autosave_players(app) -> list[str]:
    """The first player of each autosave, newest first."""
    return [GameSession.load(p).seats[0].name for p in save_files(app.paths.autosaves_dir)]


def open_load(app) -> LoadOverlay:
    scene = app.top
    click(app, find_button(scene, "Load…" if isinstance(scene, PauseOverlay) else "Load"))
    assert isinstance(app.top, LoadOverlay)
    return app.top


def pick(app, overlay: LoadOverlay, predicate) -> int:
    index = next(i for i, s in enumerate(overlay.saves) if predicate(s))
    click(app, overlay.row_rect(index).center)
    assert overlay.selected == index
    return index


def cut_short(session: GameSession, path: Path) -> bytes:
    """A real save of ``session`` that stops in the middle, as after a crash mid-write."""
    text = session.save(path).read_bytes()
    broken = text[: len(text) // 2]
    path.write_bytes(broken)
    return broken


# Autosaves per game -------------------------------------------------------------------
def test_each_game_keeps_its_own_autosave_and_the_oldest_are_pruned(app, stub_board):
    for i in range(AUTOSAVE_LIMIT + 2):
        play_a_game(app, f"Ann {i}")
        quit_to_menu(app)
    names = autosave_players(app)
    assert len(names) == AUTOSAVE_LIMIT
    assert names == [f"Ann {i}" for i in reversed(range(2, AUTOSAVE_LIMIT + 2))]


def test_continue_resumes_the_most_recent_game(app, stub_board):
    play_a_game(app, "Ann")
    scene = quit_to_menu(app)
    second = play_a_game(app, "Bea")
    scene = quit_to_menu(app)
    assert "Bea" in scene.continue_hint
    click(app, find_button(scene, "Continue"))
    resumed = board(app).session
    assert [s.name for s in resumed.seats] == ["Bea", "Bot 2"]
    assert resumed.game.log == second.game.log
    # It goes on writing the same autosave (and Save asks for a name).
    assert resumed.autosave_path == second.autosave_path and resumed.save_path is None


def test_an_autosave_from_an_older_version_is_adopted(app, stub_board):
    old = GameSession.new("usa", seats("Old"), seed=3)
    old.save(app.paths.autosave_file)
    scene = menu(app)
    assert not app.paths.autosave_file.exists()
    assert autosave_players(app) == ["Old"]
    click(app, find_button(scene, "Continue"))
    assert board(app).session.seats[0].name == "Old"


def test_a_finished_game_removes_its_autosave(app, stub_board):
    session = play_a_game(app, "Ann")
    path = session.autosave_path
    assert path.is_file()
    session.finished()                        # what the board does when the game ends
    assert not path.exists()
    session.autosave()
    session.wait_for_autosave()
    assert not path.exists()


# The load screen ----------------------------------------------------------------------
def test_load_lists_recent_games_apart_and_loads_an_older_one(app, stub_board):
    first = play_a_game(app, "Ann")
    quit_to_menu(app)
    play_a_game(app, "Bea")
    quit_to_menu(app)
    GameSession.new("europe", seats("Cy"), seed=2).save(app.paths.saves_dir / "Sunday.toml")
    overlay = open_load(app)
    heads = [r.text for r in overlay.rows if r.kind == "head"]
    assert heads[0].startswith("Recent games") and heads[1] == "Saved games"
    assert [s.players[0] for s in overlay.autosaves] == ["Bea", "Ann"]
    assert [s.title for s in overlay.named] == ["Sunday"]
    assert overlay.autosaves[0].progress.startswith(("round", "choosing"))

    pick(app, overlay, lambda s: s.autosave and s.players[0] == "Ann")
    click(app, find_button(overlay, "Load"))
    loaded = board(app).session
    assert loaded.seats[0].name == "Ann" and loaded.game.log == first.game.log
    assert loaded.autosave_path == first.autosave_path


def test_loading_over_a_running_game_asks_first_and_keeps_its_autosave(app, stub_board):
    GameSession.new("europe", seats("Cy"), seed=2).save(app.paths.saves_dir / "Sunday.toml")
    running = play_a_game(app, "Ann")
    running.apply(running.game.legal_actions()[0])      # a move since the last autosave
    pause_over_board(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.title == "Sunday")

    click(app, find_button(overlay, "Load"))
    confirm = app.top
    assert isinstance(confirm, ConfirmOverlay) and confirm.title == "Leave this game?"
    assert "autosaved" in confirm.message and "Load" in confirm.message
    click(app, find_button(confirm, "Keep playing"))
    assert app.top is overlay and board(app).session is running

    click(app, find_button(overlay, "Load"))
    click(app, find_button(app.top, "Leave and load"))
    assert board(app).session.seats[0].name == "Cy"
    kept = GameSession.load(running.autosave_path)
    assert kept.seats[0].name == "Ann" and kept.game.log == running.game.log


def test_the_game_in_progress_cannot_delete_or_rename_its_own_autosave(app, stub_board):
    running = play_a_game(app, "Ann")
    pause_over_board(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.path == running.autosave_path)
    assert not overlay.delete_button.is_enabled and not overlay.rename_button.is_enabled
    key(app, pygame.K_DELETE)
    assert app.top is overlay and running.autosave_path.is_file()


def test_delete_asks_then_removes_the_save(app, stub_board):
    path = GameSession.new("usa", seats("Ann"), seed=1).save(app.paths.saves_dir / "Old.toml")
    menu(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.title == "Old")
    click(app, find_button(overlay, "Delete"))
    assert isinstance(app.top, ConfirmOverlay) and "Old" in app.top.message
    click(app, find_button(app.top, "Keep it"))
    assert path.is_file() and app.top is overlay
    key(app, pygame.K_DELETE)
    click(app, find_button(app.top, "Delete"))
    assert not path.exists() and app.top is overlay
    assert overlay.saves == [] and "Deleted" in overlay.status


def test_delete_an_autosave(app, stub_board):
    play_a_game(app, "Ann")
    quit_to_menu(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.autosave)
    click(app, find_button(overlay, "Delete"))
    click(app, find_button(app.top, "Delete"))
    assert save_files(app.paths.autosaves_dir) == [] and overlay.autosaves == []


def rename_to(app, text: str) -> TextPromptOverlay:
    prompt = app.top
    assert isinstance(prompt, TextPromptOverlay)
    click(app, prompt.entry.rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)
    if text:
        type_text(app, text)
    key(app, pygame.K_RETURN)
    return prompt


def test_rename_refuses_empty_long_bad_and_taken_names(app, stub_board):
    saves = app.paths.saves_dir
    sunday = GameSession.new("usa", seats("Ann"), seed=1).save(saves / "Sunday.toml")
    GameSession.new("usa", seats("Bea"), seed=2).save(saves / "Monday.toml")
    menu(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.title == "Sunday")
    click(app, find_button(overlay, "Rename…"))
    for text, words in [("", "type a name"), ("x" * 61, "too long"), ("a/b", "cannot contain"),
                        ("monday", "already a save called 'Monday'")]:
        prompt = rename_to(app, text)
        assert app.top is prompt and words in prompt.error, (text, prompt.error)
    assert sunday.is_file() and (saves / "Monday.toml").is_file()

    rename_to(app, "Sunday final")
    assert app.top is overlay
    assert not sunday.exists() and (saves / "Sunday final.toml").is_file()
    assert overlay.chosen.title == "Sunday final"
    assert GameSession.load(saves / "Sunday final.toml").seats[0].name == "Ann"


def test_renaming_an_autosave_keeps_it_as_a_saved_game(app, stub_board):
    play_a_game(app, "Ann")
    quit_to_menu(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.autosave)
    key(app, pygame.K_F2)
    prompt = app.top
    assert isinstance(prompt, TextPromptOverlay) and "Ann" in prompt.text
    rename_to(app, "Ann's game")
    assert overlay.autosaves == [] and [s.title for s in overlay.named] == ["Ann's game"]
    assert GameSession.load(app.paths.saves_dir / "Ann's game.toml").seats[0].name == "Ann"


# Damaged files ------------------------------------------------------------------------------
def test_a_damaged_autosave_is_kept_aside_and_explained_in_player_words(app, stub_board):
    folder = app.paths.autosaves_dir
    older = GameSession.new("usa", seats("Ann"), seed=1)
    older.save(folder / "game-2024-01-01-100000-usa.toml")
    broken_path = folder / "game-2024-01-02-100000-europe.toml"
    broken = cut_short(GameSession.new("europe", seats("Bea"), seed=2), broken_path)

    scene = menu(app)
    assert scene.latest.path == broken_path and "Damaged" in scene.continue_hint
    click(app, find_button(scene, "Continue"))
    message = app.top
    assert isinstance(message, MessageOverlay)
    text = message.message
    assert "Europe game (Bea, Bot 2) is damaged: it ends in the middle" in text
    assert "Invalid value" not in text and "end of document" not in text
    copies = list((folder / "damaged").glob("*.toml"))
    assert len(copies) == 1 and copies[0].read_bytes() == broken
    assert copies[0].name in text and copies[0].name.startswith(broken_path.stem + ".damaged-")
    assert not broken_path.exists()
    key(app, pygame.K_RETURN)

    # Continue now offers the game before; a new game's autosaves never touch the copy.
    assert app.top is scene and "Ann" in scene.continue_hint
    play_a_game(app, "Cy")
    quit_to_menu(app)
    assert copies[0].read_bytes() == broken


def test_a_damaged_autosave_beyond_the_limit_is_set_aside_not_deleted(app, stub_board):
    folder = app.paths.autosaves_dir
    broken_path = folder / "game-2000-01-01-000000-usa.toml"
    broken = cut_short(GameSession.new("usa", seats("Old"), seed=1), broken_path)
    os.utime(broken_path, (0, 946_684_800))               # the oldest of all
    for i in range(AUTOSAVE_LIMIT):
        play_a_game(app, f"Ann {i}")
        quit_to_menu(app)
    assert not broken_path.exists()
    copies = list((folder / "damaged").glob("*.toml"))
    assert [c.read_bytes() for c in copies] == [broken]
    assert len(save_files(folder)) == AUTOSAVE_LIMIT


def test_loading_a_damaged_save_says_why_without_parser_text(app, stub_board):
    saves = app.paths.saves_dir
    cut_short(GameSession.new("usa", seats("Ann"), seed=1), saves / "Cut.toml")
    menu(app)
    overlay = open_load(app)
    pick(app, overlay, lambda s: s.title == "Cut")
    assert not overlay.load_button.is_enabled
    assert overlay.chosen.players == ["Ann", "Bot 2"]           # read from what is left
    key(app, pygame.K_RETURN)
    assert overlay.error == ("'Cut' is damaged and cannot be loaded: it ends in the middle, as "
                             "if saving was cut off.")
    assert overlay.chosen.progress == ""


@pytest.mark.parametrize("message,code", [
    (("The save file x.toml was written by a newer ttr-desktop (format 9); update the game "
      "to load it."), "newer"),
    (("Move #3 in x.toml (Ann draws) is not legal in the replayed game: no. The file was "
      "edited or is damaged."), "edited"),
    (("The save file x.toml does not match its own move list (the 'deck' part differs); it "
      "was edited or damaged."), "edited"),
    (("The save file x.toml was made with a different version of the USA map; it cannot be "
      "replayed on this one."), "map_changed"),
    ("Something nobody expected.", "unknown"),
])
def test_save_errors_are_told_in_player_words(tmp_path, message, code):
    path = tmp_path / "x.toml"
    GameSession.new("usa", seats("Ann"), seed=1).save(path)
    problem = explain_problem(path, SaveError(message))
    assert problem.code == code
    assert message not in problem.words and problem.words


def test_save_as_over_a_damaged_save_keeps_a_copy(app, stub_board):
    saves = app.paths.saves_dir
    broken = cut_short(GameSession.new("usa", seats("Old"), seed=1), saves / "Mine.toml")
    play_a_game(app, "Ann")
    pause = pause_over_board(app)
    click(app, find_button(pause, "Save as…"))
    click(app, app.top.entry.rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_text(app, "Mine")
    key(app, pygame.K_RETURN)
    click(app, find_button(app.top, "Replace"))
    assert GameSession.load(saves / "Mine.toml").seats[0].name == "Ann"
    assert [c.read_bytes() for c in (saves / "damaged").glob("*.toml")] == [broken]


def test_continue_is_disabled_until_a_game_is_autosaved(app, stub_board):
    scene = menu(app)
    assert not button_element(scene, "Continue").is_enabled
    play_a_game(app, "Ann")
    scene = quit_to_menu(app)
    assert button_element(scene, "Continue").is_enabled
