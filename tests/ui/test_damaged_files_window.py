"""Damaged files never stop the program, through the window: a damaged settings file gives
the defaults and a note on the title screen; the title and Load screens list a damaged
autosave or save as damaged; Load, Continue and a campaign's Continue of a save whose meta
table is damaged say so and play on.

The board is a stand-in (it holds the session like the real one): these tests are about the
files and the menus.
"""

from __future__ import annotations

import os
import sys
import tomllib
import types
from pathlib import Path

import pygame
import pytest
import tomli_w

from tests.ui.conftest import StubBoardScene, click, find_button, key, step
from ttr_desktop import __main__ as entry
from ttr_desktop.campaign import Company, new_campaign, next_game, start_game
from ttr_desktop.persistence.campaign import campaigns_dir, save_campaign
from ttr_desktop.persistence.settings import Settings, save_settings
from ttr_desktop.ui import style
from ttr_desktop.ui.scenes.campaign import CampaignScene
from ttr_desktop.ui.scenes.load import LoadOverlay
from ttr_desktop.ui.scenes.menu import MenuScene
from ttr_desktop.ui.session import GameSession, SeatConfig, choice_key


@pytest.fixture
def stub_board(monkeypatch: pytest.MonkeyPatch):
    """Every game opens on a stand-in board."""
    module = types.ModuleType("ttr_desktop.ui.scenes.board")
    module.BoardScene = StubBoardScene
    monkeypatch.setitem(sys.modules, "ttr_desktop.ui.scenes.board", module)
    return StubBoardScene


def menu(app) -> MenuScene:
    scene = app.push(MenuScene(app))
    step(app, 2)
    return scene


def seats() -> list[SeatConfig]:
    return [SeatConfig("Ann", "human", color="red"), SeatConfig("Bot 2", "bot", "easy", "blue")]


def saved(path: Path, seed: int = 1, **meta_changes) -> Path:
    """A real save at ``path`` with its meta table changed as given."""
    GameSession.new("usa", seats(), seed=seed).save(path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for name, value in meta_changes.items():
        if name == "level":
            data["meta"]["seats"][1]["level"] = value
        else:
            data["meta"][name] = value
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def damaged_text(path: Path, name: str, value: str, seed: int = 1) -> Path:
    """A real save at ``path`` whose line ``name = ...`` holds ``value`` (TOML text)."""
    GameSession.new("usa", seats(), seed=seed).save(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith(f"{name} = "))
    lines[n] = f"{name} = {value}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def aged(path: Path, minutes: int) -> Path:
    """Make ``path`` look written ``minutes`` ago (the newest autosave is Continue's)."""
    when = path.stat().st_mtime - 60 * minutes
    os.utime(path, (when, when))
    return path


# Settings ---------------------------------------------------------------------------------
DAMAGED_SETTINGS = {
    "nested 3,000 deep": ("volume = " + "[" * 3000 + "]" * 3000 + "\n").encode(),
    "a volume of 1 and 400 zeros": ("volume = 1" + "0" * 400 + "\n").encode(),
    "not text": b"volume = \xff\xfe\n",
    "cut short": b"volume = [0.5,\n",
}


@pytest.mark.parametrize("content", DAMAGED_SETTINGS.values(), ids=DAMAGED_SETTINGS.keys())
def test_a_damaged_settings_file_gives_the_defaults_and_a_note_on_the_title_screen(home,
                                                                                    content):
    from ttr_desktop.ui.app import App
    settings_file = home / "config" / "settings.toml"
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(content)
    app = App(size=(1280, 720))
    try:
        assert app.settings == Settings()
        scene = menu(app)
        [note] = scene.notes
        assert "settings.toml" in note and "default" in note
        kept = list(settings_file.parent.glob("settings.toml.damaged-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == content and kept[0].name in note
        # The note is drawn beside the buttons, framed in the colour of a problem.
        rect = scene.note_rect
        assert scene.note_lines() and not any(rect.colliderect(b.rect)
                                              for b in scene.buttons.values())
        edge = app.screen.get_at((rect.centerx, rect.y))[:3]
        assert tuple(edge) == style.BAD
        # The program carries on: a new game can be set up from here.
        click(app, find_button(scene, "New game"))
        assert type(app.top).__name__ == "SetupScene"
    finally:
        app.shutdown()
    # The next start is quiet: the damaged file is kept aside, not read again.
    again = App(size=(1280, 720))
    try:
        assert again.settings == Settings() and not menu(again).notes
    finally:
        again.shutdown()


def test_the_program_starts_with_a_settings_file_of_huge_numbers(home):
    settings_file = home / "config" / "settings.toml"
    save_settings(Settings(volume=0.25, mute=True), settings_file)
    text = settings_file.read_text().replace("volume = 0.25", "volume = 1" + "0" * 400)
    settings_file.write_text(text)
    assert entry.main(["--menu-probe", "--size", "1280x720"]) == 0
    assert entry.main(["--menu-probe", "--size", "1280x720"]) == 0     # and at every start
    from ttr_desktop.persistence.settings import load_settings
    assert load_settings(settings_file) == (Settings(mute=True), None)  # the rest is kept


# The title and Load screens ----------------------------------------------------------------
def test_the_title_and_load_screens_list_damaged_autosaves_and_saves(app, stub_board):
    autosaves, saves = app.paths.autosaves_dir, app.paths.saves_dir
    autosaves.mkdir(parents=True)
    saves.mkdir(parents=True)
    deep = damaged_text(autosaves / "game-1-usa.toml", "variant", "[" * 3000 + "]" * 3000)
    aged(saved(autosaves / "game-2-usa.toml", seed=2, variant_key=["usa"]), 10)
    aged(damaged_text(autosaves / "game-3-usa.toml", "seed", "9" * 5000, seed=3), 20)
    damaged_text(saves / "Nested meta.toml", "variant_key", "{ a = " * 3000 + "1" + " }" * 3000)
    saved(saves / "Odd meta.toml", seed=4, variant_key={"a": 1})

    scene = menu(app)
    assert scene.latest.path == deep and scene.continue_hint.startswith("Damaged autosave")
    click(app, find_button(scene, "Load"))
    overlay = app.top
    assert isinstance(overlay, LoadOverlay)
    damaged = {s.path.name: s.damaged for s in overlay.saves}
    assert damaged == {"game-1-usa.toml": "part of it is garbled", "game-2-usa.toml": "",
                       "game-3-usa.toml": "part of it is garbled",
                       "Nested meta.toml": "part of it is garbled", "Odd meta.toml": ""}
    odd = [s.path.name for s in overlay.saves].index("Odd meta.toml")
    assert overlay.saves[odd].variant == "USA"
    step(app, 3)                                   # every row is drawn
    click(app, overlay.row_rect(0).center)
    assert overlay.selected == 0 and not overlay.load_button.is_enabled
    key(app, pygame.K_RETURN)
    assert app.top is overlay and "damaged" in overlay.error


def test_continue_with_a_damaged_autosave_explains_and_the_title_screen_carries_on(app,
                                                                                  stub_board):
    folder = app.paths.autosaves_dir
    folder.mkdir(parents=True)
    deep = damaged_text(folder / "game-1-usa.toml", "variant_key", "[" * 3000 + "]" * 3000)
    scene = menu(app)
    click(app, find_button(scene, "Continue"))
    assert "is damaged" in app.top.message and not deep.exists()
    copies = list((folder / "damaged").glob("*.toml"))
    assert len(copies) == 1


# Load, Continue and a campaign's Continue of a save with a damaged meta table ----------------
@pytest.mark.parametrize("change", [{"seats": 5}, {"variant_key": ["usa"]}, {"level": ["hard"]},
                                    {"variant_key": {"a": 1}, "seats": "Ann"}])
def test_continue_of_an_autosave_with_a_damaged_meta_says_so_and_plays_on(app, stub_board,
                                                                          change):
    folder = app.paths.autosaves_dir
    folder.mkdir(parents=True)
    path = saved(folder / "game-1-usa.toml", **change)
    scene = menu(app)
    assert not scene.latest.damaged
    click(app, find_button(scene, "Continue"))
    board = app.find(StubBoardScene)
    assert board is not None, [type(s).__name__ for s in app.scenes]
    session = board.session
    assert [s.name for s in session.seats] == ["Ann", "Bot 2"]
    assert session.variant_key == "usa" and session.autosave_path == path
    notes = [t.message for t in app.toasts if t.kind == "error"]
    assert len(notes) == 1 and "game-1-usa.toml is damaged" in notes[0]
    step(app, 3)
    # The game goes on and is autosaved again, now with usable seats.
    session.apply(session.game.legal_actions()[0])
    session.autosave()
    session.wait_for_autosave()
    assert not GameSession.load(path).load_notes


def test_load_of_a_save_with_a_damaged_meta_says_so_and_plays_on(app, stub_board):
    app.paths.saves_dir.mkdir(parents=True)
    saved(app.paths.saves_dir / "Sunday.toml", seats=5, variant_key=[1])
    scene = menu(app)
    click(app, find_button(scene, "Load"))
    overlay = app.top
    click(app, find_button(overlay, "Load"))
    board = app.find(StubBoardScene)
    assert board is not None and board.session.variant_key == "usa"
    notes = [t.message for t in app.toasts if t.kind == "error"]
    assert len(notes) == 1 and "the seat list and the game's setup choice" in notes[0]


def test_a_campaign_game_whose_save_has_a_damaged_meta_is_resumed(app, home: Path, stub_board):
    campaign = new_campaign([Company("blue", "Ann"), Company("red", "Bot 2", "bot")], seed=3,
                            name="C")
    path = campaigns_dir(home / "data") / "c.toml"
    save_path = app.paths.autosaves_dir / "game-legacy.toml"
    setup = next_game(campaign)
    start_game(campaign, setup, str(save_path))
    save_campaign(campaign, path)
    game = setup.new_game()
    session = GameSession(game, [SeatConfig(game.players[0], color=setup.order[0]),
                                 SeatConfig(game.players[1], "bot", color=setup.order[1])],
                          choice_key(game))
    session.links = {"campaign": {"path": str(path), "game": 1}}
    session.apply(session.game.legal_actions()[0])
    session.save(save_path)
    data = tomllib.loads(save_path.read_text(encoding="utf-8"))
    data["meta"]["seats"] = 5
    save_path.write_text(tomli_w.dumps(data), encoding="utf-8")

    hub = app.push(CampaignScene(app, path, campaign))
    step(app, 2)
    click(app, find_button(hub, "Continue game 1"))
    board = app.find(StubBoardScene)
    assert board is not None, [type(s).__name__ for s in app.scenes]
    assert board.session.game.seed == setup.seed and len(board.session.game.log) == 1
    assert board.session.links == session.links
    assert any("game-legacy.toml is damaged" in t.message for t in app.toasts)
    step(app, 2)
    assert pygame.display.get_surface() is not None


# The last setup ------------------------------------------------------------------------------
@pytest.mark.parametrize("content,says", [
    ("format = 1\nvariant_key = " + "[" * 3000 + "]" * 3000 + "\n", "nests"),
    ("format = 1\nseats = " + "9" * 5000 + "\n", "a value cannot be read"),
    ('format = 1\nvariant_key = ["usa"]\nseats = [{name = "Ann", level = ["hard"]}]\n', "")])
def test_a_damaged_last_setup_gives_the_default_players_and_says_so(app, content, says):
    app.paths.last_setup_file.parent.mkdir(parents=True, exist_ok=True)
    app.paths.last_setup_file.write_text(content, encoding="utf-8")
    scene = menu(app)
    click(app, find_button(scene, "New game"))
    setup = app.top
    assert type(setup).__name__ == "SetupScene" and not setup.remembered
    assert [s.name for s in setup.seats] == ["Player 1", "Bot 2"]
    notes = [t.message for t in app.toasts if t.kind == "error"]
    if says:
        assert len(notes) == 1 and says in notes[0] and "last_setup.toml" in notes[0]
    else:
        assert not notes             # it reads; only its values are unusable
