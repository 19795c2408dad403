"""Saves: save -> load -> continue gives the same game; broken files raise SaveError."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import tomli_w
import tomllib

from tests.contract import sampled_configs
from ttr_desktop.persistence import SaveError, load_game, read_save, save_game
from ttr_desktop.rules import new_game

#: Every registered rule family, each option set at its fewest and most players.
CONFIGS = sampled_configs()


def _played(variant, n, options, moves, seed=5):
    game = new_game(variant, n, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("variant,n,options", CONFIGS, ids=[c.id for c in CONFIGS])
@pytest.mark.parametrize("moves", [0, 1, 57, 140])
def test_save_load_continue_is_the_same_game(tmp_path, variant, n, options, moves):
    game = _played(variant, n, options, moves)
    path = save_game(game, tmp_path / "game.toml", meta={"seats": ["human"] * n})
    loaded = load_game(path)
    assert loaded.state.to_dict() == game.state.to_dict()
    assert loaded.log == game.log
    r1, r2 = random.Random(3), random.Random(3)
    while not game.is_over:
        a, b = r1.choice(game.legal_actions()), r2.choice(loaded.legal_actions())
        assert a == b
        assert game.apply(a) == loaded.apply(b)
    assert [s.total for s in loaded.scores()] == [s.total for s in game.scores()]


def test_meta_round_trips(tmp_path):
    game = _played("usa", 2, None, 10)
    save_game(game, tmp_path / "g.toml", meta={"seats": ["human", "bot:greedy"], "note": "x"})
    save = read_save(tmp_path / "g.toml")
    assert save.meta == {"seats": ["human", "bot:greedy"], "note": "x"}
    assert save.saved_at


def test_save_is_atomic_and_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    game = _played("usa", 2, None, 30)
    path = save_game(game, tmp_path / "g.toml")
    before = path.read_bytes()
    game.apply(game.legal_actions()[0])

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(SaveError, match="No space left"):
        save_game(game, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.toml"]  # no temporary file left


def test_saving_into_a_missing_folder_creates_it(tmp_path):
    game = _played("usa", 2, None, 3)
    path = save_game(game, tmp_path / "a" / "b" / "g.toml")
    assert load_game(path).state.to_dict() == game.state.to_dict()


def _saved_text(tmp_path) -> tuple[Path, str]:
    game = _played("usa", 2, None, 60)
    path = save_game(game, tmp_path / "g.toml")
    return path, path.read_text(encoding="utf-8")


def _broken(tmp_path, mutate):
    path, text = _saved_text(tmp_path)
    data = mutate(text)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


@pytest.mark.parametrize("mutate,message", [
    (lambda t: "", "empty"),
    (lambda t: "   \n\n", "empty"),
    (lambda t: t[: len(t) // 2], "damaged"),
    (lambda t: t[: len(t) - 40], "damaged|lacks|match"),
    (lambda t: b"\x89PNG\r\n\x1a\n\x00\xff\xfe", "not UTF-8"),
    (lambda t: t.replace("format = 2", "format = 99"), "newer"),
    (lambda t: t.replace("format = 2", "format = 0"), "format"),
    (lambda t: t.replace("format = 2", 'format = "one"'), "format"),
    (lambda t: t.replace('variant = "usa"', 'variant = "atlantis"'), "unknown game"),
    (lambda t: t.replace("seed = 5", "seed = 6"), "not legal|does not match"),
    (lambda t: t.replace("seed = 5", 'seed = "5"'), "seed"),
    (lambda t: t.replace('players = [', 'players = ["Extra", "More", "Too", "Many", ', 1),
     "players"),
    (lambda t: t.replace("\nseed = 5", ""), "lacks 'seed'"),
    (lambda t: t.replace('kind = "draw_blind"', 'kind = "teleport"', 1), "malformed move"),
    (lambda t: t.replace('kind = "keep_tickets"', 'kind = "draw_tickets"', 1), "not legal"),
    (lambda t: t.replace("\nturn = ", "\nturn = 1", 1), "does not match"),
    (lambda t: t.replace('map_fingerprint = "', 'map_fingerprint = "x', 1), "different version"),
    (lambda t: t.replace("[state]", "[state]\nbonus = 3", 1), "unknown state"),
])
def test_broken_save_raises_save_error_with_a_clear_message(tmp_path, mutate, message):
    path = _broken(tmp_path, mutate)
    with pytest.raises(SaveError, match=message):
        load_game(path)


@pytest.mark.parametrize("edit", [
    lambda d: d["state"]["points"].__setitem__(0, d["state"]["points"][0] + 50),
    lambda d: d["state"]["hands"][1].__setitem__(8, 9),
    lambda d: d["state"]["deck"].reverse(),
    lambda d: d["state"]["owner"].__setitem__(0, 1 if d["state"]["owner"][0] != 1 else 0),
    lambda d: d["actions"].pop(),
    lambda d: d["options"].__setitem__("stations", True),
])
def test_hand_edited_position_is_detected(tmp_path, edit):
    path, text = _saved_text(tmp_path)
    data = tomllib.loads(text)
    edit(data)
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="does not match its own move list"):
        load_game(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(SaveError, match="no save file"):
        load_game(tmp_path / "nope.toml")
    with pytest.raises(SaveError, match="folder"):
        load_game(tmp_path)


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(__file__).parent.parent / "saves")
                                        .glob("*.toml")))
def test_fixture_saves_load(name):
    path = Path(__file__).parent.parent / "saves" / name
    game = load_game(path)
    assert game.log  # fixtures hold games in progress


@pytest.mark.parametrize("name", ["usa-2p-midgame.toml", "europe-4p-midgame.toml"])
def test_saves_written_by_the_previous_format_still_load(name):
    """Format-1 saves (written before the engine kept a score ledger) replay and continue."""
    old = load_game(Path(__file__).parent.parent / "saves" / "format1" / name)
    new = load_game(Path(__file__).parent.parent / "saves" / name)
    assert old.log and old.legal_actions()
    assert [a.to_dict() for a in old.log] == [a.to_dict() for a in new.log]


# Hand-edited and hostile saves (every problem is a SaveError naming it).

def _save_text(tmp_path) -> tuple[Path, str]:
    from ttr_desktop.persistence import save_game
    from ttr_desktop.rules import new_game
    game = new_game("usa", ["Ann", "Bob"], seed=5)
    game.apply(game.legal_actions()[0])
    path = tmp_path / "g.toml"
    save_game(game, path)
    return path, path.read_text(encoding="utf-8")


@pytest.mark.parametrize("option", [
    "longest_path_bonus = 11", "station_points = 5", "end_trigger_trains = 10",
    "stations = 1", "alvin = true", "max_consecutive_refreshes = 'many'",
    "max_consecutive_refreshes = 1000000000000"])
def test_an_option_a_game_cannot_have_is_refused_by_name(tmp_path, option):
    path, text = _save_text(tmp_path)
    text = text.replace("[options]", f"[options]\n{option}", 1) if "[options]" in text else \
        text.replace("[meta]", f"[options]\n{option}\n\n[meta]", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError) as info:
        load_game(path)
    assert option.split(" =")[0] in str(info.value)


@pytest.mark.parametrize("mutate", [
    lambda t: t.replace("seed = 5", "seed = " + "9" * 5000),
    lambda t: t.replace("seed = 5", "seed = " + "9" * 400),
    lambda t: t.replace("seed = 5", "seed = 5\nnested = " + "[" * 900 + "]" * 900),
    lambda t: t.replace("turn = ", "turn = " + "7" * 300 + "\nx_turn = ", 1),
])
def test_monstrous_values_are_save_errors_not_crashes(tmp_path, mutate):
    path, text = _save_text(tmp_path)
    path.write_text(mutate(text), encoding="utf-8")
    with pytest.raises(SaveError):
        load_game(path)


def test_temporary_files_of_an_interrupted_save_are_cleaned_up(tmp_path):
    import os
    import time

    from ttr_desktop.persistence.atomic import write_atomically
    target = tmp_path / "game.toml"
    old = tmp_path / ".game.toml.abc123.tmp"
    old.write_text("half a save")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    young = tmp_path / ".game.toml.def456.tmp"
    young.write_text("another writer's")
    write_atomically(target, "format = 2\n")
    assert target.read_text() == "format = 2\n"
    assert not old.exists() and young.exists()


# Every option a game can be started with loads again --------------------------------
#: Another value than the default for each text option (a new text option must be added
#: here, so that it is tested too).
OTHER_TEXT = {"returned_ticket_order": "as_drawn", "empty_event_deck": "reshuffle",
              "durham_most_bonus": "routes", "companies": "green,black,blue",
              "retired_events": "dividends"}


def _other_values(name, default):
    """Values other than the default that a game accepts for the option ``name``."""
    if name == "first_player":
        return [2, "random"]
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, int):
        return [default + 1]
    return [OTHER_TEXT[name]]


def _every_option():
    from ttr_desktop.rules import VARIANTS, game_options
    for variant in sorted(VARIANTS):
        for name, default in game_options(variant).items():
            for value in _other_values(name, default):
                yield variant, name, value


@pytest.mark.parametrize("variant,name,value", list(_every_option()))
def test_a_game_started_with_any_option_saves_and_loads(tmp_path, variant, name, value):
    from ttr_desktop.rules import get_ruleset
    if name in get_ruleset(variant).modules and value is False:
        with pytest.raises(ValueError):   # a part of the game that cannot be switched off
            new_game(variant, 3, seed=31, options={name: value})
        return
    game = new_game(variant, 3, seed=31, options={name: value})
    game.apply(game.legal_actions()[0])
    loaded = load_game(save_game(game, tmp_path / "game.toml"))
    assert loaded.options == {name: value}
    assert loaded.state.to_dict() == game.state.to_dict()
    assert loaded.legal_actions() == game.legal_actions()


def test_a_legacy_game_where_the_third_company_goes_first_loads(tmp_path):
    game = new_game("legacy", 3, seed=31, options={"first_player": 2})
    assert game.current_seat == 2
    game.apply(game.legal_actions()[0])
    loaded = load_game(save_game(game, tmp_path / "game.toml"))
    assert loaded.state.to_dict() == game.state.to_dict()


def test_editing_who_went_first_is_refused(tmp_path):
    game = new_game("usa", ["Ann", "Bob"], seed=5, options={"first_player": 1})
    game.apply(game.legal_actions()[0])
    path = save_game(game, tmp_path / "g.toml")
    path.write_text(path.read_text(encoding="utf-8").replace("first_player = 1",
                                                             "first_player = 0"),
                    encoding="utf-8")
    with pytest.raises(SaveError):
        load_game(path)
